// Network parameters read off a loaded SimGrid platform: the numbers the analytic models and the report need
// (README "Parameters from the platform"). Needs a loaded sg4::Engine, except RouteInfo, which is plain data (the run
// report carries it across the process boundary, sim/sim_result.hpp).
#pragma once

#include <simgrid/forward.h>
#include <string>
#include <vector>

namespace sgdsim {

struct RouteInfo {
  std::string from_host;       // empty: not read (e.g. `sgdsim analytic`, whose probe carries NetworkParams only)
  std::string to_host;         // == from_host: the route SimGrid gives transfers within one host
  double latency_s      = 0;   // sum of the link latencies on the route (before any model factor)
  double bottleneck_Bps = 0;   // narrowest shared (non-FATPIPE) link: what concurrent flows divide; infinity if none
  double flow_cap_Bps   = 0;   // narrowest FATPIPE link: what a single flow can reach; infinity if none
  double first_link_Bps = 0;   // the sender's NIC (first link of the route)
  std::string bottleneck_link; // the first link of the route at bottleneck_Bps (empty: none)
  std::string flow_cap_link;   // the first link of the route at flow_cap_Bps (empty: none)
  std::vector<std::string> link_names;
};

/** Route from `src` to `dst`; `src == dst` gives the route SimGrid uses within the host (its loopback link if the
 *  platform declares one, else, in a cluster, the host's own links up and down). */
RouteInfo route_info(const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst);

} // namespace sgdsim
