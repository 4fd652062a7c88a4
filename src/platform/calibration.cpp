// src/platform/calibration.cpp: `sgdsim calibrate`'s fit of the network's bandwidth, latency and per-call cost to
// measured transfer or all-reduce times (README "Calibration"), robust to one outlying point, and eq. (37) on one
// node count's sizes; the fits across node counts are allreduce_fits.cpp's.
#include "platform/calibration.hpp"

#include "common/input_error.hpp"
#include "platform/calibration_internal.hpp"
#include "platform/least_squares.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

namespace sgdsim {

using namespace calibration_internal;

namespace {
// Relative errors: weight 1 / T^2.
double relative_weight(const CommMeasurement& x)
{
  return 1.0 / (x.time_s * x.time_s);
}

// Bytes each rank sends per byte of the buffer in a ring all-reduce, and the messages it sends (docs/models.md eq.
// (41)).
double ring_factor(int k)
{
  return k > 1 ? 2.0 * (k - 1) / k : 1.0;
}
} // namespace

namespace {
enum class LinearFit { OK, SINGULAR, NON_POSITIVE_SLOPE };

// Whether f's alpha is given rather than fitted (CalibrationFit::alpha_given_s).
bool alpha_given(const CalibrationFit& f)
{
  return f.alpha_separable && f.alpha_given_s >= 0;
}

// The normal equations of f's linear model over the rows [begin, end) of `m`, with all three parameters: time per
// byte (scaled by the ring factor), per-message latency, per-call constant. A bandwidth fixed beforehand (the large
// sizes' own, CalibrationFit::bandwidth_from_bytes) has its bytes' time taken off each time.
NormalEquations linear_sums(const std::vector<CommMeasurement>& m, const CalibrationFit& f, std::size_t begin,
                            std::size_t end, std::size_t skip = SIZE_MAX)
{
  const bool fixed           = f.bandwidth_fixed && f.bandwidth_Bps > 0;
  const double given_alpha_s = alpha_given(f) ? f.alpha_given_s : 0;
  NormalEquations eq(3);
  for (std::size_t i = begin; i < end; i++) {
    if (i == skip)
      continue;
    const CommMeasurement& x = m[i];
    const double factor      = f.kind == CommKind::ALLREDUCE ? ring_factor(x.nodes) : 1.0;
    const double messages    = 2.0 * (x.nodes - 1);
    eq.add({factor * x.bytes, messages, 1.0},
           x.time_s - (fixed ? factor * x.bytes / f.bandwidth_Bps : 0) - messages * given_alpha_s, relative_weight(x));
  }
  return eq;
}

// The linear model of `f.kind` solved from `sums` (linear_sums) into f (bandwidth, alpha, c, fixed_at_zero;
// f.alpha_separable set). Returns why not when the points do not determine it or give no positive bandwidth
// (`slope`: the time per byte found).
LinearFit solve_linear(const NormalEquations& sums, CalibrationFit& f, double* slope = nullptr)
{
  const bool fixed = f.bandwidth_fixed && f.bandwidth_Bps > 0;
  // Latency and constant are physical only when >= 0: a negative one is fixed at 0 and the rest refitted
  // (non-negative least squares by elimination; f.fixed_at_zero says which). Where c is the only constant (p2p, or
  // one node count), a negative c is the bytes a transfer passes before the rate applies (a shaper's burst): the
  // time per byte stays the one fitted with c free, the rate of every byte past the burst and the only one
  // back-to-back traffic sees, and c is written as 0 (f.burst_c_s keeps it). Beside a fitted alpha a negative c is
  // no burst: the two trade off (AWS's NCCL all-reduces: c -23 ms against alpha), and B is refitted as before
  // (docs/models.md §10.7 "A negative constant").
  // With alpha given the network is the route alone: c is 0 too, each node count's measured excess holds the
  // software (CalibrationFit::alpha_given_s).
  std::array<bool, 3> active = {!fixed, f.alpha_separable && !alpha_given(f), !alpha_given(f)};
  std::array<double, 3> p{};
  NormalEquations eqs = sums;
  double kept_slope   = 0; // > 0: the time per byte of the fit where c was free
  f.fixed_at_zero.clear();
  f.burst_c_s = 0;
  while (true) {
    std::array<std::size_t, 3> cols{};
    std::size_t n_cols = 0;
    for (std::size_t c = 0; c < 3; c++)
      if (active[c])
        cols[n_cols++] = c;
    std::array<double, 3> q{};
    if (n_cols == 0) { // B fixed and alpha given: nothing left to fit
      p = {0, 0, 0};
      break;
    }
    if (!eqs.restricted(cols, n_cols).solve(q))
      return LinearFit::SINGULAR;
    p = {0, 0, 0};
    for (std::size_t k = 0; k < n_cols; k++)
      p[cols[k]] = q[k];
    int worst = -1;
    for (int c = 1; c < 3; c++)
      if (active[static_cast<std::size_t>(c)] && p[static_cast<std::size_t>(c)] < 0 &&
          (worst < 0 || p[static_cast<std::size_t>(c)] < p[static_cast<std::size_t>(worst)]))
        worst = c;
    if (worst < 0)
      break;
    active[static_cast<std::size_t>(worst)] = false;
    f.fixed_at_zero.push_back(worst == 1 ? "alpha" : "c");
    if (worst == 2 && !active[1]) {
      f.burst_c_s = p[2];
      if (active[0] && p[0] > 0) {
        kept_slope = p[0];
        eqs        = eqs.with_fixed(0, kept_slope);
        active[0]  = false;
      }
    }
  }
  if (fixed)
    p[0] = 1.0 / f.bandwidth_Bps;
  else if (kept_slope > 0)
    p[0] = kept_slope;
  if (slope != nullptr)
    *slope = p[0];
  if (!(p[0] > 0) || !std::isfinite(1.0 / p[0]))
    return LinearFit::NON_POSITIVE_SLOPE;
  f.bandwidth_Bps = 1.0 / p[0];
  f.alpha_s       = alpha_given(f) ? f.alpha_given_s : p[1];
  f.call_s        = p[2];
  return LinearFit::OK;
}

// The linear model fitted to `m`, leaving out the point of index `skip` if there is one.
LinearFit fit_linear(const std::vector<CommMeasurement>& m, CalibrationFit& f, double* slope = nullptr,
                     std::size_t skip = SIZE_MAX)
{
  return solve_linear(linear_sums(m, f, 0, m.size(), skip), f, slope);
}

std::string describe_bytes(double bytes)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g B", bytes);
  return buf;
}

// "line 4 (1000 B in 0.01 s)": a point as the user finds it in the CSV.
std::string describe_point(const CommMeasurement& x)
{
  char buf[160];
  std::snprintf(buf, sizeof buf, "line %d (%.6g B in %.6g s", x.line, x.bytes, x.time_s);
  std::string out = buf;
  if (x.nodes != 2)
    out.append(", ").append(std::to_string(x.nodes)).append(" nodes");
  return out.append(")");
}

// The fit's relative error at a measured point.
double linear_error(const CalibrationFit& f, const CommMeasurement& x)
{
  return std::fabs(linear_time_s(f, x) - x.time_s) / x.time_s;
}

std::set<double> distinct_sizes(const std::vector<CommMeasurement>& m)
{
  std::set<double> sizes;
  for (const CommMeasurement& x : m)
    sizes.insert(x.bytes);
  return sizes;
}
// Fits f's linear model to m (fit_linear), throwing what the points cannot give, then leaves out one outlying point.
void fit_robustly(const std::vector<CommMeasurement>& m, CalibrationFit& f, const std::string& source)
{
  const std::set<double> sizes = distinct_sizes(m);
  std::set<int> node_counts;
  for (const CommMeasurement& x : m)
    node_counts.insert(x.nodes);
  const auto [smallest, largest] = std::minmax_element(
      m.begin(), m.end(), [](const CommMeasurement& a, const CommMeasurement& b) { return a.bytes < b.bytes; });
  double slope = 0;
  switch (fit_linear(m, f, &slope)) {
  case LinearFit::OK:
    break;
  case LinearFit::SINGULAR:
    throw InputError(source, 0,
                     std::string("the ").append(std::to_string(m.size())) + " measurements (" +
                         std::to_string(sizes.size()) + " sizes, " + std::to_string(node_counts.size()) +
                         " node counts) do not determine the parameters; measure more distinct sizes");
  case LinearFit::NON_POSITIVE_SLOPE: {
    char per_byte[64];
    std::snprintf(per_byte, sizeof per_byte, "%.3g", slope);
    throw InputError(source, 0,
                     std::string("the fit gives a time per byte of ") + per_byte +
                         " s, not a positive one (no bandwidth): the times do not grow with the size, from " +
                         describe_point(*smallest) + " to " + describe_point(*largest) +
                         "; check the --where filters and the columns");
  }
  }
  // One outlying point (a repeat disturbed by something else on the machine) must not bend the fit. Each point is
  // held out in turn; it is an outlier when the fit of the others misses it by more than 5% and fits those others
  // at least twice as well (max error) as the fit of all points does. The worst such point is left out, provided the
  // others still have two sizes and bracket its size within a factor of 2: a point far beyond every other size is
  // what the bandwidth (or the constant) rests on, and the others' fit only extrapolates to it (PerfEstimator's
  // microbenchmark: four all-reduces below 150 KB and one of 392 MB). The report names it (dropped_line). Points
  // that are all a little off are none.
  if (m.size() >= 5) {
    const CalibrationFit all = f;
    double worst_held        = 0;
    // The sizes and how many points each: the others' sizes are these less the held-out point's if it is alone.
    std::map<double, std::size_t> size_points;
    for (const CommMeasurement& x : m)
      size_points[x.bytes]++;
    std::vector<double> all_error; // the fit of all points' relative error at each
    for (const CommMeasurement& x : m)
      all_error.push_back(linear_error(all, x));
    // Its largest error (first such point) and the largest of the others.
    const std::size_t worst_all =
        static_cast<std::size_t>(std::max_element(all_error.begin(), all_error.end()) - all_error.begin());
    double second_all = 0;
    for (std::size_t j = 0; j < m.size(); j++)
      if (j != worst_all)
        second_all = std::max(second_all, all_error[j]);
    // The others' normal equations as the sums of the rows before and after the held-out one, so that each refit
    // costs no pass over the points (a pass each made calibrate's cost grow as the square of the rows: 1,358 rows
    // took 3.5 s under the fuzzers' sanitizers, docs/fuzzing.md). Summed in another order than one pass would, the
    // kept refit is redone in one pass below: what calibrate prints does not depend on how the outlier was found.
    std::vector<NormalEquations> before(m.size() + 1, NormalEquations(3)), after(m.size() + 1, NormalEquations(3));
    for (std::size_t i = 0; i < m.size(); i++)
      (before[i + 1] = before[i]) += linear_sums(m, all, i, i + 1);
    for (std::size_t i = m.size(); i-- > 0;)
      (after[i] = after[i + 1]) += linear_sums(m, all, i, i + 1);
    std::size_t dropped = SIZE_MAX;
    for (std::size_t i = 0; i < m.size(); i++) {
      const bool alone = size_points.at(m[i].bytes) == 1;
      const auto smallest_other =
          alone && size_points.begin()->first == m[i].bytes ? std::next(size_points.begin()) : size_points.begin();
      const auto largest_other =
          alone && size_points.rbegin()->first == m[i].bytes ? std::next(size_points.rbegin()) : size_points.rbegin();
      if (size_points.size() - (alone ? 1 : 0) < 2 || m[i].bytes > 2 * largest_other->first ||
          m[i].bytes < 0.5 * smallest_other->first)
        continue;
      CalibrationFit g     = all;
      NormalEquations rest = before[i];
      if (solve_linear(rest += after[i + 1], g) != LinearFit::OK)
        continue; // the others alone determine nothing: no ground to call the point an outlier
      const double held = linear_error(g, m[i]);
      if (!(held > 0.05 && held > worst_held))
        continue;
      // The others' fit must fit them twice as well as the fit of all points does: its largest error among them at
      // most half of the largest of all_error among them (the largest, or the second when i has the largest).
      const double max_all = i == worst_all ? second_all : all_error[worst_all];
      bool closer          = true;
      for (std::size_t j = 0; j < m.size() && closer; j++)
        closer = j == i || linear_error(g, m[j]) <= 0.5 * max_all;
      if (closer) {
        worst_held = held;
        dropped    = i;
      }
    }
    if (dropped != SIZE_MAX) {
      CalibrationFit g = all;
      if (fit_linear(m, g, nullptr, dropped) == LinearFit::OK) {
        g.dropped_line = m[dropped].line;
        f              = g;
      }
    }
  }
}
} // namespace

std::vector<double> calibration_internal::relative_weights(const std::vector<CommMeasurement>& m)
{
  std::vector<double> w;
  for (const CommMeasurement& x : m)
    w.push_back(relative_weight(x));
  return w;
}

double calibration_internal::linear_time_s(const CalibrationFit& f, const CommMeasurement& x)
{
  const double factor = f.kind == CommKind::ALLREDUCE ? ring_factor(x.nodes) : 1.0;
  const double msgs   = f.kind == CommKind::ALLREDUCE ? 2.0 * (x.nodes - 1) : 0.0;
  return factor * x.bytes / f.bandwidth_Bps + msgs * f.alpha_s + f.call_s;
}

std::optional<PiecewiseTime> calibration_internal::fit_piecewise(const std::vector<CommMeasurement>& m,
                                                                 const std::vector<double>& w)
{
  const std::set<double> sizes = distinct_sizes(m);
  std::vector<double> sorted(sizes.begin(), sizes.end());
  double best = INFINITY;
  std::optional<PiecewiseTime> found;
  for (std::size_t cut = 2; cut + 2 <= sorted.size(); cut++) {
    const double thresh = sorted[cut];
    NormalEquations lo_eq(2), hi_eq(2);
    for (std::size_t i = 0; i < m.size(); i++) {
      if (m[i].bytes < thresh)
        lo_eq.add({std::log2(m[i].bytes), 1.0}, m[i].time_s, w[i]);
      else
        hi_eq.add({m[i].bytes, 1.0}, m[i].time_s, w[i]);
    }
    std::array<double, 3> lo{}, hi{};
    if (!lo_eq.solve(lo) || !hi_eq.solve(hi) || !(hi[0] >= 0) || !std::isfinite(hi[0]) || !std::isfinite(hi[1]) ||
        !std::isfinite(lo[0]) || !std::isfinite(lo[1]))
      continue;
    double err = 0;
    for (std::size_t i = 0; i < m.size(); i++) {
      double t = m[i].bytes < thresh ? lo[0] * std::log2(m[i].bytes) + lo[1] : hi[0] * m[i].bytes + hi[1];
      err += w[i] * (t - m[i].time_s) * (t - m[i].time_s);
    }
    if (err < best) {
      best  = err;
      found = PiecewiseTime{lo[0], lo[1], thresh, hi[0], hi[1]};
    }
  }
  return found;
}

CalibrationFit calibrate(CommKind kind, const std::vector<CommMeasurement>& m, const std::string& source,
                         double bandwidth_from_bytes, double alpha_given_s)
{
  if (m.empty())
    throw InputError(source, 0, "no measurement to fit");
  const std::set<double> sizes = distinct_sizes(m);
  std::set<int> node_counts;
  for (const CommMeasurement& x : m) {
    node_counts.insert(x.nodes);
    if (kind == CommKind::ALLREDUCE && x.nodes < 2)
      throw InputError(source, x.line,
                       std::string("an all-reduce on ").append(std::to_string(x.nodes)) +
                           " node moves no data; keep rows with 2 nodes or more (--where)");
  }
  if (sizes.size() < 2)
    throw InputError(source, 0,
                     std::to_string(m.size()) + (m.size() == 1 ? " measurement, " : " measurements, all of ") +
                         describe_bytes(*sizes.begin()) +
                         ": at least 2 distinct sizes are needed to separate bandwidth from latency (first: " +
                         describe_point(m.front()) + ")");
  CalibrationFit f;
  f.kind            = kind;
  f.alpha_separable = kind == CommKind::ALLREDUCE && node_counts.size() >= 2;
  if (alpha_given_s >= 0 && !f.alpha_separable)
    throw InputError(source, 0,
                     "a latency given apart applies to an all-reduce measured at two node counts or more (eq. (41)'s "
                     "alpha); these rows have " +
                         std::to_string(node_counts.size()) + " node count(s)");
  f.alpha_given_s = alpha_given_s;
  if (bandwidth_from_bytes > 0) {
    // B from the sizes where the bytes decide the time: fitted with alpha and c among small sizes, it bends to
    // whatever the small sizes' software costs do (docs/models.md §10.7, "The network's bandwidth").
    std::vector<CommMeasurement> large;
    std::set<int> large_nodes;
    for (const CommMeasurement& x : m)
      if (x.bytes >= bandwidth_from_bytes) {
        large.push_back(x);
        large_nodes.insert(x.nodes);
      }
    if (const std::size_t n = distinct_sizes(large).size(); n < 2)
      throw InputError(source, 0,
                       "the bandwidth from sizes of at least " + describe_bytes(bandwidth_from_bytes) + ": " +
                           std::to_string(large.size()) + " measurement(s) of " + std::to_string(n) +
                           " size(s) there, and B needs 2 sizes or more: give a smaller size or measure larger ones");
    CalibrationFit b;
    b.kind            = kind;
    b.alpha_separable = kind == CommKind::ALLREDUCE && large_nodes.size() >= 2;
    fit_robustly(large, b, source);
    f.bandwidth_Bps        = b.bandwidth_Bps;
    f.bandwidth_fixed      = true;
    f.bandwidth_from_bytes = bandwidth_from_bytes;
    f.bandwidth_rows       = static_cast<int>(large.size()) - (b.dropped_line > 0 ? 1 : 0);
  }
  fit_robustly(m, f, source);
  for (const CommMeasurement& x : m)
    f.linear_s.push_back(linear_time_s(f, x));

  // Eq. (37) on sizes alone (one node count); with several node counts, on each node count's rows alone.
  if (node_counts.size() == 1) {
    f.piecewise = fit_piecewise(m, relative_weights(m));
    if (f.piecewise)
      for (const CommMeasurement& x : m)
        f.piecewise_s.push_back(f.piecewise->value_s(x.bytes));
  }
  if (kind == CommKind::ALLREDUCE && node_counts.size() >= 2)
    f.by_nodes = fit_allreduce_by_nodes(m, bandwidth_from_bytes);
  return f;
}

} // namespace sgdsim
