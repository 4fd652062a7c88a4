// `sgdsim calibrate` (README "Calibration"): fits the network's effective bandwidth, latency and per-call
// overhead, and docs/models.md eq. (37)'s piecewise cost, to measured transfer or all-reduce times. Pure functions.
#pragma once

#include "common/allreduce_time.hpp"
#include "platform/comm_measurements.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sgdsim {

enum class CommKind { P2P, ALLREDUCE };

struct CalibrationFit {
  CommKind kind = CommKind::P2P;
  // Linear model. p2p: T = bytes / B + c. allreduce (ring, docs/models.md eq. (41)): T = 2(K-1)/K bytes / B +
  // 2(K-1) alpha + c.
  double bandwidth_Bps = 0;
  double alpha_s       = 0; // per message (allreduce with several node counts; else 0)
  double call_s        = 0; // per call (p2p: latency and overhead together)
  // Where B rests on the large sizes only (calibrate's bandwidth_from_bytes > 0): B is eq. (41) fitted to the rows
  // of at least that size, the bytes' regime, and alpha and c are then fitted to every row with that B
  // (docs/models.md §10.7, "The network's bandwidth"); bandwidth_rows counts the rows B rests on (0: all of them,
  // with alpha and c).
  double bandwidth_from_bytes = 0;
  int bandwidth_rows          = 0;
  bool bandwidth_fixed        = false; // fit_linear keeps bandwidth_Bps and fits alpha and c only
  bool alpha_separable        = false; // false when every row has one node count: then c holds 2(K-1) alpha too
  // >= 0: alpha given and c 0, neither fitted (allreduce with several node counts, calibrate --latency: the route's
  // one-way latency measured apart; the network is then the route alone, and each node count's excess over it, from
  // its own rows, holds the software: docs/models.md §10.7 "The route's latency, measured apart").
  double alpha_given_s = -1;
  std::vector<std::string> fixed_at_zero; // "alpha", "c": parameters the free fit made negative, fixed at 0
  // Where c is the only constant (no alpha fitted beside it), the free fit's c where it was negative (s, < 0; else
  // 0): bytes a transfer passes before the rate applies, a shaper's burst. B keeps that fit's time per byte
  // (docs/models.md §10.7 "A negative constant").
  double burst_c_s = 0;
  std::vector<double> linear_s; // the fitted time of each measurement
  int dropped_line = 0;         // CSV line of the one outlying point left out of the linear fit (0: none)
  // Eq. (37), fitted only with one node count and at least two measurements on each side of the threshold, with a
  // time per byte above it that is not negative; and its value at each measurement.
  std::optional<PiecewiseTime> piecewise;
  std::vector<double> piecewise_s;
  // Allreduce with several node counts: eq. (37) fitted to each node count's rows alone (docs/models.md §10.7), in
  // increasing node count; a node count with fewer than 4 sizes, or whose times fall as sizes grow, has none.
  std::vector<AllreduceTimeFit> by_nodes;
};

/** Weighted least squares on relative errors (every point counts alike whatever its size), with alpha and c kept
 *  non-negative (a negative one is fixed at 0 and the others refitted), robust to one outlying point (left out when
 *  more than 5% and 4 times the median point off the fit; dropped_line). Throws InputError naming `source` (the CSV)
 *  and the points at fault if the measurements cannot determine the parameters (no point, fewer than 2 sizes, a
 *  singular system, a time per byte that is not positive) or an all-reduce row has fewer than 2 nodes. With
 *  `bandwidth_from_bytes` > 0, B comes from the rows of at least that many bytes alone (they must hold 2 sizes or
 *  more), alpha and c from every row with that B (CalibrationFit::bandwidth_from_bytes). With `alpha_given_s` >= 0
 *  (an all-reduce measured at two node counts or more), alpha is that and c is 0; B from the large sizes keeps its
 *  own fit (CalibrationFit::alpha_given_s). */
CalibrationFit calibrate(CommKind kind, const std::vector<CommMeasurement>& m,
                         const std::string& source = "the measurements", double bandwidth_from_bytes = 0,
                         double alpha_given_s = -1);

/** Eq. (37) fitted to each node count's rows of `m` alone (docs/models.md §10.7), in increasing node count; a node
 *  count with fewer than 4 sizes, or whose times fall as sizes grow, has none. Each fit also keeps the measured
 *  times of its sizes from its threshold and `measured_from_bytes` on (AllreduceTimeFit::measured: each size's
 *  median, made non-decreasing by pooling neighbours that fall, docs/models.md §10.7 "The large sizes as
 *  measured"). */
std::vector<AllreduceTimeFit> fit_allreduce_by_nodes(const std::vector<CommMeasurement>& m,
                                                     double measured_from_bytes = 0);

/** The least squares non-decreasing sequence to `times` (pool adjacent violators, equal weights): where a time falls
 *  below the one before, both become their mean, and so on back. */
std::vector<double> non_decreasing(const std::vector<double>& times);

/** What `run` charges for each ring step beyond the largest node count of `fits` (docs/models.md §10.7, "Beyond the
 *  node counts measured") for an all-reduce of `bytes`: the slope of each node count's excess over the network of
 *  eq. (41) with `f`'s B, alpha and c (an all-reduce fit: the calibrated platform's), per ring step; 0 with fewer
 *  than two node counts. */
double step_excess_beyond_s(const CalibrationFit& f, const std::vector<AllreduceTimeFit>& fits, double bytes);

/** A node count's excess per ring step for an all-reduce of `bytes`: its time (`a`) less eq. (41)'s network with `f`'s
 *  B, alpha and c, over its 2(K - 1) steps; signed (docs/models.md §10.7 "Neighbouring node counts pooled"). */
double step_excess_s(const CalibrationFit& f, const AllreduceTimeFit& a, double bytes);

/** What one more ring step costs, read off a collective measured at several node counts (docs/models.md §10.10,
 *  "The constant of a transfer alone"): T = a_size + (K - 1) h, one intercept per size, least squares on relative
 *  errors. Every byte-dependent part that grows with K is charged to h, so h bounds from above what a step pays
 *  beyond its bytes. */
struct StepCostFit {
  double step_s   = 0; // h; may be negative (the times do not grow with K)
  int node_counts = 0; // distinct node counts among the rows
  int rows        = 0;
  std::vector<double> fitted_s; // each row's fitted time
};

/** Throws InputError naming `source` if no size has been measured at two node counts or more. */
StepCostFit fit_step_cost(const std::vector<CommMeasurement>& m, const std::string& source);

} // namespace sgdsim
