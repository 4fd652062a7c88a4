// src/sim/ring_call_cost.hpp: what one ring all-reduce costs a worker beside its simulated messages: the network's
// own time without contention (docs/models.md eq. (12)), for adaFusion's estimates and as the part of a measured
// all-reduce the messages already take; and the measured software cost beyond it (§10.7), with the calls back to
// back that the framework runs at once (§10.8), paid as waits before the ring's steps and as a slower rate of its
// bytes.
#pragma once

#include "common/allreduce_time.hpp"
#include "sim/sim_context.hpp"

#include <vector>

namespace sgdsim {

/** The route from a worker to its right neighbour as SimGrid's network model sees it. */
struct RingRoute {
  double Bps              = 1; // the narrowest link's bandwidth, or the connection's rate where that is lower
  double latency_s        = 0; // the route's latency, before the latency factor
  double latency_factor   = 1; // SimGrid's network/latency-factor
  double bandwidth_factor = 1; // LV08's 0.97, over the reverse flow's ACKs' 1.05 where they share the links
};

/** One worker's cost model of its ring all-reduces (K = the scenario's workers). */
class RingCallCost {
public:
  RingCallCost(const SimContext& ctx, int rank, RingRoute route)
      : ctx_(ctx), rank_(rank), k_(ctx.scenario.workers), route_(route)
  {
  }

  /** How a call pays its measured software cost (measured_allreduce is the ring's only): spread over its ring steps,
   *  before each step's message (docs/models.md §10.7 "Over the steps"), except where the microbenchmark's large
   *  sizes differ from eq. (37)'s line (--measured-sizes on) by a rate: what they add above the line is a bandwidth
   *  the call's bytes lack, paid as a slower rate of them (their bytes scaled), so that they hold the host's egress
   *  the while; and where the row of this node count took less than the network alone, the bytes move at the row's
   *  rate (docs/models.md §10.7 "What they add, paid as a slower rate"). With `in_flight` calls back to back the
   *  link is shared, so a byte of this call's costs that many times its time alone. */
  struct CallCost {
    double step_extra_s = 0;
    double byte_scale   = 1;
  };
  /** A call of `bytes` started with `in_flight` calls of this worker under way (itself included), `others` the
   *  sizes of those besides itself (fewer: taken as this one's). */
  CallCost call_cost(double bytes, int in_flight, const std::vector<double>& others = {}) const;

  /** Estimated cost of one all-reduce of `bytes`, for adaFusion: the network's plus the measured software cost. */
  double estimated_allreduce_s(double bytes) const;

  /** The route the network's part is computed on. */
  const RingRoute& route() const { return route_; }

private:
  double network_allreduce_s(double bytes, int k) const;
  double network_allreduce_s(double bytes) const;
  double network_bytes_s(double bytes, int k) const;
  double network_bytes_s(double bytes) const;
  double share_beside(double bytes, double other_bytes, int k) const;
  double measured_excess_s(double bytes, int in_flight = 1, bool line = false, bool clamp = true,
                           const std::vector<double>& others = {}, bool uncovered = true) const;
  double pooled_excess_s(const std::vector<AllreduceTimeFit>& fits, const std::vector<AllreduceTimeFit>& alone, int k,
                         double bytes, int in_flight, bool clamp = true, const std::vector<double>& others = {},
                         bool uncovered = true) const;
  double excess_at_s(const std::vector<AllreduceTimeFit>& fits, const std::vector<AllreduceTimeFit>& alone, int k,
                     double bytes, int in_flight, bool clamp = true, const std::vector<double>& others = {},
                     bool uncovered = true) const;
  CallCost uncovered_as_rate(double bytes, int in_flight, const std::vector<double>& others, double signed_s,
                             CallCost cost) const;
  bool back_to_back(int in_flight) const;
  bool among_measured_sizes(double bytes) const;

  const SimContext& ctx_;
  int rank_;
  int k_;
  RingRoute route_;
};

} // namespace sgdsim
