// Network parameters read off a loaded SimGrid platform: the numbers the analytic models and the report need
// (README "Parameters from the platform"). Needs a loaded sg4::Engine.
#pragma once

#include <simgrid/forward.h>
#include <string>
#include <vector>

namespace sgdsim {

struct RouteInfo {
  double latency_s      = 0; // sum of the link latencies on the route (before any model factor)
  double bottleneck_Bps = 0; // narrowest shared (non-FATPIPE) link: what concurrent flows divide
  double flow_cap_Bps   = 0; // narrowest FATPIPE link: what a single flow can reach; infinity if none
  double first_link_Bps = 0; // the sender's NIC (first link of the route)
  std::vector<std::string> link_names;
};

/** Route from `src` to `dst` (the hosts must differ). */
RouteInfo route_info(const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst);

} // namespace sgdsim
