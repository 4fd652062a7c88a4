// src/sim/run_summary.hpp: the figures a run reports: the platform's nominal network, read before the run, and the
// summary of the recorded steps (SimResult), made after it.
#pragma once

#include "common/network_params.hpp"
#include "platform/deployment.hpp"
#include "platform/platform_params.hpp"
#include "sim/sim_context.hpp"
#include "sim/sim_result.hpp"
#include "sim/step_recorder.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <vector>

namespace sgdsim {

/** The route the analytic models read (README "Parameters from the platform"). PS architectures: from PS 0 to the
 *  first worker on another host; ring: from worker 0 to the first worker on another host. */
RouteInfo network_route(const simgrid::s4u::Engine& engine, const Placement& placement);

/** The models' figures of `route`; all 0 for a route within one host (no network between the parties). */
NetworkParams network_of(const RouteInfo& route);

// The platform's nominal figures, read before the run (a --background schedule changes link bandwidths during it).
struct NominalNetwork {
  NetworkParams network;
  RouteInfo route;                  // the route `network` is read on (within the host when every worker is there)
  std::vector<RouteInfo> ps_routes; // per PS: its route to the first worker on another host (or within its host)
};

NominalNetwork nominal_network(const simgrid::s4u::Engine& engine, const Placement& placement);

/** The run's results from its recorded steps (call after Engine::run()). */
SimResult summarize(const SimContext& ctx, const StepRecorder& rec, const Placement& placement,
                    const NominalNetwork& nominal);

} // namespace sgdsim
