// src/sim/engine_setup.hpp: everything a simulation does before its actors: the SimGrid engine and its settings,
// the platform, the placement, and the checks of them all (every error here is an InputError or a SimGrid
// ParseError, raised before Engine::run()).
#pragma once

#include "common/scenario.hpp"
#include "platform/deployment.hpp"
#include "sim/background_load.hpp"
#include "sim/simulation.hpp"

#include <memory>
#include <set>
#include <simgrid/s4u/Engine.hpp>
#include <string>
#include <vector>

namespace sgdsim {

// Each actor's stack (contexts/stack-size, KiB) unless --cfg gives one. An actor touches a page or two of it, but
// with SimGrid's default of 8 MiB the resident memory still grows with the reserved size (the allocator's map of
// the stacks' extents, about a page per actor): a stream-mode ring took 34.1 KB per node at 65,536 nodes with 8 MiB
// and 27.0 KB with 256 KiB (bench/README.md, session 11). The whole test suite passes with 64 KiB, the least --cfg
// accepts. Sanitizer builds keep SimGrid's default: their frames are larger and their contexts are threads.
#ifdef SGDSIM_SANITIZER_BUILD
constexpr int kActorStackKiB = 8192;
#else
constexpr int kActorStackKiB = 256;
#endif

/** The value of the last --cfg item for `key` (SimGrid applies them in order, so the last one holds), or nullptr. */
const char* cfg_value(const std::vector<std::string>& cfg, const std::string& key);

/** The engine, the platform and the placement of one run, checked. */
struct Prepared {
  std::unique_ptr<simgrid::s4u::Engine> engine;
  Placement placement;
  Scenario scenario;                         // with the sizes of the deployment when there is one
  std::vector<LinkSchedule> link_schedules;  // --background's link profiles
  std::set<std::string> varying_speed_hosts; // hosts with a --background speed profile
  double price_per_hour_usd = 0;             // of the hosts used; NaN if one has no price
};

/** Builds the engine, applies the SimGrid settings, loads the platform and places the actors; checks everything
 *  (validate_scenario, the routes, the prices, the background file), printing the platform's warnings when
 *  `warnings` (a probe of the platform does not: the simulation of the same run does). One engine: once per process. */
Prepared prepare(const SimInputs& in, bool warnings);

/** Whether the platform file declares profiles (availability_file, state_file, trace_connect; SimGrid's platform
 *  DTD 4.1), which may change any host's speed: SimGrid has no accessor for a host's profiles. */
bool platform_declares_profiles(const std::string& platform_path);

} // namespace sgdsim
