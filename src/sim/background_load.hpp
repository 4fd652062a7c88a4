// src/sim/background_load.hpp: a --background file applied to the loaded platform (README "Background traffic and
// stragglers"): hosts' speed profiles through SimGrid, links' bandwidth schedules through a daemon actor.
#pragma once

#include "platform/background.hpp"

#include <set>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <string>
#include <vector>

namespace sgdsim {

// A link's availability over time, applied by a daemon actor (SimGrid 3.32 refuses bandwidth profiles on links
// once the platform is sealed, and a cluster's links are sealed as it is loaded).
struct LinkSchedule {
  simgrid::s4u::Link* link = nullptr;
  AvailabilityProfile profile;
};

/** Attaches the background file's host profiles (SimGrid speed profiles scale the nominal speed by the given
 *  fraction from each time on), adds their hosts to `varying_speed_hosts` and returns the link schedules. */
std::vector<LinkSchedule> apply_background(simgrid::s4u::Engine& engine, const std::string& path,
                                           std::set<std::string>& varying_speed_hosts);

/** The daemon's body: sets each scheduled link's bandwidth at its times (repeating if asked); it dies with the run. */
void run_link_schedules(std::vector<LinkSchedule> schedules);

} // namespace sgdsim
