// The measured time of an all-reduce by node count (docs/models.md §10.7): `sgdsim calibrate --kind allreduce`
// fits eq. (37) to each node count of a microbenchmark, the calibrated platform carries the fits
// (sgdsim.allreduce_time), and the ring's all-reduce pays what they exceed the network by as a software cost.
#pragma once

#include <cstddef>
#include <vector>

namespace sgdsim {

/** Eq. (37): a1 log2(D) + b1 below threshold_bytes, a2 D + b2 from it on (D = bytes). */
struct PiecewiseTime {
  double a1_s            = 0;
  double b1_s            = 0;
  double threshold_bytes = 0;
  double a2_s_per_byte   = 0;
  double b2_s            = 0;
  /** The value as fitted (the log2 branch may fall below 0 far under the measured sizes). */
  double value_s(double bytes) const;
};

/** One size's measured time (a microbenchmark's row, or the median of its rows). */
struct SizeTime {
  double bytes  = 0;
  double time_s = 0;
};

/** Eq. (37) for one node count of an all-reduce microbenchmark: the measured time that `run` charges beyond the
 *  network (platform/platform_costs.hpp, sgdsim.allreduce_time). */
struct AllreduceTimeFit {
  int nodes = 2;
  PiecewiseTime eq;
  /** The smallest size measured (0: unknown): a smaller all-reduce takes this size's time. Below the data the log2
   *  branch only extrapolates, and with a1 < 0 (noise) it made a 256 B tensor cost 3.5x a 4 KiB one. */
  double smallest_bytes = 0;
  double mean_error     = 0; // of the fit on this node count's rows, relative
  double max_error      = 0;
  /** The microbenchmark's own times where the bytes decide them (docs/models.md §10.7 "The large sizes as
   *  measured"): sizes increasing, times not decreasing. From the first one on, a size between two takes the time
   *  interpolated linearly between them, one beyond the last that time plus a2 per byte more. Empty: eq. (37) at
   *  every size. */
  std::vector<SizeTime> measured;
  /** The time of `bytes`: from the first measured size on, the measured times; below it the fit (of smallest_bytes
   *  if `bytes` is smaller); never negative. */
  double time_s(double bytes) const;
};

/** The measured time of a K-rank all-reduce of `bytes` from per-node-count fits (increasing nodes, non-empty):
 *  linear interpolation in K between the two nearest node counts, the nearest one's beyond the range
 *  (docs/models.md §10.7). */
double measured_allreduce_s(const std::vector<AllreduceTimeFit>& fits, int nodes, double bytes);

/** The time per call of K-rank all-reduces of `bytes` launched back to back, from `queued`'s fits (the back-to-back
 *  microbenchmark), as measured_allreduce_s; beyond the largest size a node count's back-to-back table measured,
 *  that size's time there plus what a call alone (`alone`'s fits) takes more at `bytes` than at that size, where the
 *  line of the back-to-back table would extrapolate (docs/models.md §10.8 "Beyond the sizes measured back to back"). */
double queued_allreduce_s(const std::vector<AllreduceTimeFit>& queued, const std::vector<AllreduceTimeFit>& alone,
                          int nodes, double bytes);

/** `fits` without their measured sizes: eq. (37)'s lines alone (docs/models.md §10.7 "The large sizes as measured"). */
std::vector<AllreduceTimeFit> lines_only(std::vector<AllreduceTimeFit> fits);

/** A ring's software cost per step beyond the network, from the excess over the network that the microbenchmark shows
 *  at each node count measured (docs/models.md §10.7): the least-squares slope of excess_s[i] against the 2(K_i - 1)
 *  steps of node count nodes[i], never negative (software costs do not shrink with more steps; a falling slope is the
 *  noise of a few node counts). 0 with fewer than two node counts. */
double excess_per_step_s(const std::vector<int>& nodes, const std::vector<double>& excess_s);

/** The indices of the `window` (at least 1) node counts nearest to k (ties: the smaller one), nearest first. */
std::vector<std::size_t> nearest_node_counts(const std::vector<int>& nodes, int k, std::size_t window);

/** The value at node count k of a least-squares line of per_step_s[i] against nodes[i] (distinct) through the `window`
 *  node counts nearest to k (ties: the smaller one); with one of them, its value (docs/models.md §10.7 "Neighbouring
 *  node counts pooled"). 0 without node counts. */
double nearest_line_at(const std::vector<int>& nodes, const std::vector<double>& per_step_s, int k, std::size_t window);

/** The value at `at` of the least-squares line of y against x (x distinct); with one point, its y; 0 without. */
double line_at(const std::vector<double>& x, const std::vector<double>& y, double at);

} // namespace sgdsim
