// The network numbers every analytic model reads (README "Parameters from the platform"), taken from the SimGrid
// platform on the route from PS 0 to worker 0 (platform/platform_params.hpp computes them).
#pragma once

#include <limits>

namespace sgdsim {

struct NetworkParams {
  double bottleneck_Bps = 0; // B: the narrowest shared (non-FATPIPE) link of the route
  double flow_cap_Bps   = std::numeric_limits<double>::infinity(); // narrowest FATPIPE link: a single flow's cap
  double latency_s      = 0; // sum of the route's link latencies (before any network-model factor)
};

} // namespace sgdsim
