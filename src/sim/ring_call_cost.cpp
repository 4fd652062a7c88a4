// src/sim/ring_call_cost.cpp: what one ring all-reduce costs a worker beside its simulated messages (docs/models.md
// eq. (12), §10.7, §10.8).

#include "sim/ring_call_cost.hpp"

#include "sim/collectives.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sgdsim {

namespace {
// A row at most twice as fast as the platform's network: beyond, the platform was not calibrated from these rows.
constexpr double kFastestByteScale = 0.5;
} // namespace

// What one all-reduce of `bytes` costs on the network alone over `k` ranks, without contention (docs/models.md eq.
// (12) plus delta): 2(k-1)/k * D / B + 2(k-1) * (alpha + per-message cost) + delta, with B and alpha of the route to
// the right neighbour as SimGrid's network model sees them (LV08 takes 0.97 of each link's bandwidth, the reverse
// flow's ACKs 1 / 1.05 of what is left where they share the link). The ring's own
// k by default; the measured all-reduce evaluates it at the node counts it was measured at.
double RingCallCost::network_allreduce_s(double bytes, int k) const
{
  if (bytes <= 0)
    return 0;
  const Scenario& sc = ctx_.scenario;
  if (!ctx_.ring_latency_s.empty()) {
    // A sliced ring (docs/models.md §10.10; its latency already times the factor): as its steps run alone, where
    // the latency comes once per call if a chunk spans several slices (eq. (43)), at each step if it is one, and
    // the credits' round trip at each step if it is two with two in flight (Gloo's).
    const double latency_s = ctx_.ring_latency_s[static_cast<std::size_t>(rank_)];
    const double rate_Bps  = route_.Bps * route_.bandwidth_factor;
    const auto [at, added] = ctx_.sliced_alone_s.try_emplace({bytes, k, latency_s, rate_Bps}, 0.0);
    if (added) {
      const RingSlicing cut(bytes, k, sc);
      at->second = sliced_ring_alone_s(cut, sc.ring_slices_in_flight, network_bytes_s(bytes, k) / cut.total, latency_s,
                                       sc.message_overhead_s);
    }
    return at->second + sc.allreduce_overhead_s;
  }
  return network_bytes_s(bytes, k) +
         2.0 * (k - 1) * (route_.latency_s * route_.latency_factor + sc.message_overhead_s) + sc.allreduce_overhead_s;
}

double RingCallCost::network_allreduce_s(double bytes) const
{
  return network_allreduce_s(bytes, k_);
}

// Its bytes' part: 2(k-1)/k * D / B.
double RingCallCost::network_bytes_s(double bytes, int k) const
{
  return 2.0 * (k - 1) / k * bytes / (route_.Bps * route_.bandwidth_factor);
}

double RingCallCost::network_bytes_s(double bytes) const
{
  return network_bytes_s(bytes, k_);
}

// The software cost of one all-reduce beyond the network (docs/models.md §10.7): what the microbenchmark measured
// for K ranks and `bytes` minus what the network alone takes; 0 without a measured all-reduce. A call that starts
// with `in_flight` - 1 others under way on this worker, where the platform has the back-to-back microbenchmark,
// lasts in_flight times its time per call T_q, of which the network, shared by the calls, takes its latencies once
// and its bytes in_flight times (docs/models.md §10.8); with --in-flight-cost each or paired (the default) the
// others in flight, whose sizes `others` gives, each add their own T_q beyond their bytes instead of this call's
// (§10.8 "Calls of different sizes"), and with paired a call beside shorter ones keeps part of its time alone
// (§10.8 "A call beside shorter ones"). Beyond the largest node count measured, the excess there
// plus, for each ring step more, the software cost per step that the node counts measured show, which each call in
// flight pays; where the microbenchmark's ranks shared one machine's cores, the excess there times the steps and
// the ranks per core.
// `line`: from eq. (37)'s lines alone, without the measured sizes (--measured-sizes on only); `clamp` false: below
// the network's own time, negative (within the node counts measured); `uncovered` false: without paired's
// uncovered gain.
double RingCallCost::measured_excess_s(double bytes, int in_flight, bool line, bool clamp,
                                       const std::vector<double>& others, bool uncovered) const
{
  const Scenario& sc = ctx_.scenario;
  if (!sc.measured_allreduce || bytes <= 0)
    return 0;
  const std::vector<AllreduceTimeFit>& alone = line ? ctx_.allreduce_line_time : sc.allreduce_time;
  const bool queued                          = back_to_back(in_flight);
  const std::vector<AllreduceTimeFit>& fits =
      queued ? (line ? ctx_.allreduce_queued_line_time : sc.allreduce_queued_time) : alone;
  const int calls = queued ? in_flight : 1;
  const int k_hi  = fits.back().nodes;
  if (k_ <= k_hi)
    return pooled_excess_s(fits, alone, k_, bytes, calls, clamp, others, uncovered);
  if (sc.shared_cores > 0) {
    // Ranks sharing one machine's cores: each step's software time grows with the ranks per core, so the excess
    // grows with the steps times the ranks per core (docs/models.md §10.7, "Ranks sharing cores").
    const double c = sc.shared_cores;
    return pooled_excess_s(fits, alone, k_hi, bytes, calls, true, others, uncovered) * (k_ - 1.0) / (k_hi - 1.0) *
           std::max<double>(k_, c) / std::max<double>(k_hi, c);
  }
  std::vector<int> nodes;
  std::vector<double> per_call_s; // one call's excess at each node count measured
  for (const AllreduceTimeFit& f : fits) {
    nodes.push_back(f.nodes);
    per_call_s.push_back(pooled_excess_s(fits, alone, f.nodes, bytes, 1));
  }
  return pooled_excess_s(fits, alone, k_hi, bytes, calls, true, others, uncovered) +
         calls * 2.0 * (k_ - k_hi) * excess_per_step_s(nodes, per_call_s);
}

// The excess at node count k within the fits' range, from the measured_node_window node counts measured nearest to
// k (ties: the smaller): with one, excess_at_s at k; with more, a least-squares line of their excess per ring step
// against the node count, evaluated at k, times k's 2(k - 1) steps (docs/models.md §10.7 "Neighbouring node counts
// pooled"). Below the smallest node count measured, excess_at_s's (that node count's time).
double RingCallCost::pooled_excess_s(const std::vector<AllreduceTimeFit>& fits,
                                     const std::vector<AllreduceTimeFit>& alone, int k, double bytes, int in_flight,
                                     bool clamp, const std::vector<double>& others, bool uncovered) const
{
  const std::size_t window = static_cast<std::size_t>(ctx_.scenario.measured_node_window);
  if (window <= 1 || fits.size() < 2 || k < fits.front().nodes)
    return excess_at_s(fits, alone, k, bytes, in_flight, clamp, others, uncovered);
  std::vector<int> measured;
  for (const AllreduceTimeFit& f : fits)
    measured.push_back(f.nodes);
  // Only the window's node counts are evaluated (a call's cost is asked for on every all-reduce), nearest first.
  std::vector<double> nodes;
  std::vector<double> per_step_s; // unclamped: a row below the network counts as below
  for (const std::size_t i : nearest_node_counts(measured, k, window)) {
    nodes.push_back(measured[i]);
    per_step_s.push_back(excess_at_s(fits, alone, measured[i], bytes, in_flight, false, others, uncovered) /
                         (2.0 * (measured[i] - 1)));
  }
  const double floor = clamp ? 0.0 : std::numeric_limits<double>::lowest();
  return std::max(floor, line_at(nodes, per_step_s, k) * 2.0 * (k - 1));
}

// The excess at node count k within the fits' range: T_meas - network (one call), or in_flight T_q - latencies -
// in_flight x bytes (calls back to back, docs/models.md §10.8; --in-flight-cost same), or with --in-flight-cost
// each T_q - bytes for this call plus max(0, T_q - bytes) at each other call's size, less the latencies; with
// paired (the default) plus the share of this call's gain T_meas - T_q that the longest other call's T_q leaves
// uncovered.
double RingCallCost::excess_at_s(const std::vector<AllreduceTimeFit>& fits, const std::vector<AllreduceTimeFit>& alone,
                                 int k, double bytes, int in_flight, bool clamp, const std::vector<double>& others,
                                 bool uncovered) const
{
  const double floor = clamp ? 0.0 : std::numeric_limits<double>::lowest();
  if (in_flight <= 1)
    return std::max(floor, measured_allreduce_s(fits, k, bytes) - network_allreduce_s(bytes, k));
  const double bytes_s    = network_bytes_s(bytes, k);
  const double latency_s  = network_allreduce_s(bytes, k) - bytes_s;
  const double n          = in_flight;
  const InFlightCost rule = ctx_.scenario.in_flight_cost;
  const double own_q_s    = queued_allreduce_s(fits, alone, k, bytes);
  if (rule == InFlightCost::SAME)
    return std::max(floor, n * own_q_s - latency_s - n * bytes_s);
  // Each call in flight adds its own back-to-back time beyond its bytes (what it keeps the worker's software busy
  // for; never below 0), at its own size; calls the count has but `others` does not name are taken as this one.
  double busy_s    = own_q_s - bytes_s;
  double longest_s = 0; // the longest other call's back-to-back time
  for (int i = 1; i < in_flight; i++) {
    const auto at    = static_cast<std::size_t>(i - 1);
    const double o   = at < others.size() ? others[at] : bytes;
    const double o_q = queued_allreduce_s(fits, alone, k, o);
    busy_s += share_beside(bytes, o, k) * std::max(0.0, o_q - network_bytes_s(o, k));
    longest_s = std::max(longest_s, o_q);
  }
  if (rule == InFlightCost::PAIRED && uncovered && own_q_s > 0) {
    // The back-to-back gain over the call alone comes from calls that fill each other's gaps; a call beside
    // shorter ones keeps the share of it they do not cover (docs/models.md §10.8 "A call beside shorter ones").
    const double uncovered_share = 1 - std::min(1.0, longest_s / own_q_s);
    busy_s += uncovered_share * std::max(0.0, measured_allreduce_s(alone, k, bytes) - own_q_s);
  }
  return std::max(floor, busy_s - latency_s);
}

// The share of another call's back-to-back time beyond its bytes that a call of `bytes` beside it pays (docs/models.md
// §10.8 "A small call beside a much larger one"): each of this call's ring steps waits behind at most the slices the
// other has handed to the connection, ring_slices_in_flight of them (§10.12), so where the other sends more than that
// many times this call's slices a step (a chunk of many of Gloo's segments), this call passes while the other is
// through that part of its slices only; 1 otherwise, and without slices.
double RingCallCost::share_beside(double bytes, double other_bytes, int k) const
{
  const Scenario& sc = ctx_.scenario;
  if (!(sc.ring_slice_bytes > 0))
    return 1;
  const int own   = RingSlicing(bytes, k, sc).per_step;
  const int other = RingSlicing(other_bytes, k, sc).per_step;
  return std::min(1.0, static_cast<double>(std::max(1, sc.ring_slices_in_flight) * own) / other);
}

RingCallCost::CallCost RingCallCost::call_cost(double bytes, int in_flight, const std::vector<double>& others) const
{
  // Unclamped: where the rows' time lies below the network's own, negative (the excess itself is never).
  const double signed_s = measured_excess_s(bytes, in_flight, false, false, others);
  double excess_s       = std::max(0.0, signed_s);
  double byte_scale     = 1;
  const double bytes_s  = (back_to_back(in_flight) ? in_flight : 1) * network_bytes_s(bytes);
  // No rate to scale where the route to the next rank has no link (a host's own loopback): bytes_s is 0.
  if (!ctx_.scenario.measured_sizes || !(bytes_s > 0 && std::isfinite(bytes_s)))
    return uncovered_as_rate(bytes, in_flight, others, signed_s, CallCost{excess_s / (2.0 * (k_ - 1)), byte_scale});
  const double line_s = measured_excess_s(bytes, in_flight, true, true, others);
  if (excess_s > line_s) {
    byte_scale = 1 + (excess_s - line_s) / bytes_s;
    excess_s   = line_s;
  } else if (signed_s < 0 && among_measured_sizes(bytes)) // the rows' time below the network's
    byte_scale = std::max(kFastestByteScale, 1 + signed_s / bytes_s);
  return uncovered_as_rate(bytes, in_flight, others, signed_s, CallCost{excess_s / (2.0 * (k_ - 1)), byte_scale});
}

// --uncovered-gain rate (the default; docs/models.md §10.8 "The uncovered gain holds the connection"): what paired
// adds to each, the share of the call's gain over the call alone that shorter partners leave uncovered, moves from
// the waits before its steps (at most all of them) to a slower rate of its own bytes, which hold its connection so
// that the messages the other lane writes behind them wait too. `signed_s`: call_cost's unclamped excess, paired's;
// clamped at 0 it is what measured_excess_s gives clamped, on every path.
RingCallCost::CallCost RingCallCost::uncovered_as_rate(double bytes, int in_flight, const std::vector<double>& others,
                                                       double signed_s, CallCost cost) const
{
  const Scenario& sc = ctx_.scenario;
  if (sc.uncovered_gain != UncoveredGain::RATE || sc.in_flight_cost != InFlightCost::PAIRED || !back_to_back(in_flight))
    return cost;
  // paired less each: the uncovered gain
  const double gain_s = std::max(0.0, signed_s) - measured_excess_s(bytes, in_flight, false, true, others, false);
  const double steps  = 2.0 * (k_ - 1);
  const double own_s  = network_bytes_s(bytes); // this call's bytes alone on the link
  const double move_s = std::min(cost.step_extra_s * steps, std::max(0.0, gain_s));
  if (!(own_s > 0 && std::isfinite(own_s)) || move_s <= 0)
    return cost;
  cost.step_extra_s -= move_s / steps;
  cost.byte_scale += move_s / own_s;
  return cost;
}

// Whether a call started with `in_flight` calls under way pays the back-to-back microbenchmark's time (§10.8).
bool RingCallCost::back_to_back(int in_flight) const
{
  return in_flight > 1 && !ctx_.scenario.allreduce_queued_time.empty();
}

// Whether this node count was measured and `bytes` lies among its measured sizes (from the first on).
bool RingCallCost::among_measured_sizes(double bytes) const
{
  for (const AllreduceTimeFit& f : ctx_.scenario.allreduce_time)
    if (f.nodes == k_)
      return !f.measured.empty() && bytes >= f.measured.front().bytes;
  return false;
}

// Estimated cost of one all-reduce of `bytes`, for adaFusion: the network's plus the measured software cost.
double RingCallCost::estimated_allreduce_s(double bytes) const
{
  return network_allreduce_s(bytes) + measured_excess_s(bytes);
}

} // namespace sgdsim
