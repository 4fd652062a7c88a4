// src/sim/input_checks.hpp: checks of a run's inputs that need the loaded platform (the scenario's own checks,
// validate_scenario and check_step_takes_time, are declared in sim/simulation.hpp).
#pragma once

#include "common/scenario.hpp"
#include "platform/deployment.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <string>

namespace sgdsim {

/** Throws InputError unless `path` is a regular file this process can read; `what` names it ("platform"). */
void check_readable(const std::string& path, const char* what);

/** The summed price of the distinct hosts the run uses (README "Platform": host property price_per_hour_usd);
 *  NaN when one of them has no price. A price that is not a non-negative number is bad input. */
double cluster_price_per_hour_usd(const simgrid::s4u::Engine& engine, const Placement& placement,
                                  const std::string& platform_path);

/** Every pair of hosts that will exchange messages has a route; throws InputError naming the first that has none.
 *  With `warn`, says on stderr where two ranks of one host exchange over the host's network links. */
void check_routes(const simgrid::s4u::Engine& engine, const Placement& placement, const Scenario& sc,
                  const std::string& path, bool warn);

} // namespace sgdsim
