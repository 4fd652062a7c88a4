// The network numbers every analytic model reads (README "Parameters from the platform"), taken from the SimGrid
// platform on the route from PS 0 to worker 0 (platform/platform_params.hpp computes them).
#pragma once

#include <limits>

namespace sgdsim {

/** SimGrid's LV08 network model, its default, gives a flow 0.97 of a link's bandwidth (docs/design.md, SimGrid
 *  fact 9): calibrate divides a fitted bandwidth by it, the ring's network-alone estimate multiplies by it. */
inline constexpr double kLv08BandwidthFactor = 0.97;

/** SimGrid's ACK traffic (network/crosstraffic, on by default): a flow also takes 0.05 of its rate on its reverse
 *  route (network_cm02.cpp; docs/design.md, SimGrid fact 9). In a ring over a star each NIC direction carries one
 *  flow's data and the other flow's ACKs, so the data get 1 / 1.05 of the link: a calibrated all-reduce platform
 *  multiplies its NIC by 1.05, and the ring's network-alone estimate divides by it (docs/models.md §10.7). */
inline constexpr double kSimgridAckWeight = 0.05;

struct NetworkParams {
  double bottleneck_Bps = 0; // B: the narrowest shared (non-FATPIPE) link of the route
  double flow_cap_Bps   = std::numeric_limits<double>::infinity(); // narrowest FATPIPE link: a single flow's cap
  double latency_s      = 0; // sum of the route's link latencies (before any network-model factor)
  bool operator==(const NetworkParams&) const = default;
};

} // namespace sgdsim
