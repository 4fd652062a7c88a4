#include "platform/calibration.hpp"

#include "common/input_error.hpp"
#include "common/text_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

namespace sgdsim {

namespace {
// Solves the weighted least-squares problem min sum_i w_i (x_i . p - y_i)^2 (every row of x has the same length,
// the number of parameters) by the normal equations, with Gaussian elimination and partial pivoting. Returns false
// if the system is singular.
bool least_squares(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                   const std::vector<double>& w, std::vector<double>& p)
{
  const std::size_t n = x.empty() ? 0 : x[0].size();
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < x.size(); i++)
    for (std::size_t r = 0; r < n; r++) {
      for (std::size_t c = 0; c < n; c++)
        a[r][c] += w[i] * x[i][r] * x[i][c];
      a[r][n] += w[i] * x[i][r] * y[i];
    }
  std::vector<double> diag(n); // the original diagonal: a pivot far below it means dependent columns
  for (std::size_t c = 0; c < n; c++)
    diag[c] = std::fabs(a[c][c]);
  for (std::size_t c = 0; c < n; c++) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; r++)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c]))
        pivot = r;
    std::swap(a[c], a[pivot]);
    if (!(std::fabs(a[c][c]) > 1e-10 * diag[c]))
      return false;
    for (std::size_t r = 0; r < n; r++)
      if (r != c) {
        double f = a[r][c] / a[c][c];
        for (std::size_t k = c; k <= n; k++)
          a[r][k] -= f * a[c][k];
      }
  }
  p.assign(n, 0.0);
  for (std::size_t r = 0; r < n; r++)
    p[r] = a[r][n] / a[r][r];
  return true;
}

// Relative errors: weight 1 / T^2.
std::vector<double> relative_weights(const std::vector<CommMeasurement>& m)
{
  std::vector<double> w;
  for (const CommMeasurement& x : m)
    w.push_back(1.0 / (x.time_s * x.time_s));
  return w;
}

// Bytes each rank sends per byte of the buffer in a ring all-reduce, and the messages it sends (docs/models.md eq.
// (41)).
double ring_factor(int k)
{
  return k > 1 ? 2.0 * (k - 1) / k : 1.0;
}
} // namespace

namespace {
// The linear model of `f.kind` fitted to `m` (bandwidth, alpha, c, fixed_at_zero; f.alpha_separable set).
void fit_linear(const std::vector<CommMeasurement>& m, CalibrationFit& f)
{
  const CommKind kind         = f.kind;
  const std::vector<double> w = relative_weights(m);
  std::vector<double> y;
  for (const CommMeasurement& x : m)
    y.push_back(x.time_s);
  // Columns: time per byte (scaled by the ring factor), per-message latency (allreduce with several node counts),
  // per-call constant. Latency and constant are physical only when >= 0: a negative one is fixed at 0 and the
  // rest refitted (non-negative least squares by elimination; f.fixed_at_zero says which).
  std::array<bool, 3> active = {true, f.alpha_separable, true};
  std::array<double, 3> p{};
  f.fixed_at_zero.clear();
  while (true) {
    std::vector<int> cols;
    for (int c = 0; c < 3; c++)
      if (active[static_cast<std::size_t>(c)])
        cols.push_back(c);
    std::vector<std::vector<double>> rows;
    for (const CommMeasurement& x : m) {
      const double factor             = kind == CommKind::ALLREDUCE ? ring_factor(x.nodes) : 1.0;
      const std::array<double, 3> all = {factor * x.bytes, 2.0 * (x.nodes - 1), 1.0};
      std::vector<double> r;
      for (int c : cols)
        r.push_back(all[static_cast<std::size_t>(c)]);
      rows.push_back(r);
    }
    std::vector<double> q;
    const bool ok = least_squares(rows, y, w, q);
    if (!ok)
      throw InputError("calibrate: the measurements do not determine the parameters (too few distinct sizes or "
                       "node counts)");
    p = {0, 0, 0};
    for (std::size_t i = 0; i < cols.size(); i++)
      p[static_cast<std::size_t>(cols[i])] = q[i];
    int worst = -1;
    for (int c = 1; c < 3; c++)
      if (active[static_cast<std::size_t>(c)] && p[static_cast<std::size_t>(c)] < 0 &&
          (worst < 0 || p[static_cast<std::size_t>(c)] < p[static_cast<std::size_t>(worst)]))
        worst = c;
    if (worst < 0)
      break;
    active[static_cast<std::size_t>(worst)] = false;
    f.fixed_at_zero.push_back(worst == 1 ? "alpha" : "c");
  }
  if (!(p[0] > 0))
    throw InputError("calibrate: the fit gives a non-positive time per byte (" + std::to_string(p[0]) +
                     " s/byte): the times do not grow with the size; check the --where filters and the columns");
  f.bandwidth_Bps = 1.0 / p[0];
  f.alpha_s       = p[1];
  f.call_s        = p[2];
}

double linear_time_s(const CalibrationFit& f, const CommMeasurement& x)
{
  const double factor = f.kind == CommKind::ALLREDUCE ? ring_factor(x.nodes) : 1.0;
  const double msgs   = f.kind == CommKind::ALLREDUCE ? 2.0 * (x.nodes - 1) : 0.0;
  return factor * x.bytes / f.bandwidth_Bps + msgs * f.alpha_s + f.call_s;
}

std::set<double> distinct_sizes(const std::vector<CommMeasurement>& m)
{
  std::set<double> sizes;
  for (const CommMeasurement& x : m)
    sizes.insert(x.bytes);
  return sizes;
}
// Eq. (37) on the sizes of `m` (one node count): every threshold with two or more points on each side is tried, the
// one of least weighted squared error kept; none if no threshold leaves two points on each side.
std::optional<PiecewiseTime> fit_piecewise(const std::vector<CommMeasurement>& m, const std::vector<double>& w)
{
  const std::set<double> sizes = distinct_sizes(m);
  std::vector<double> sorted(sizes.begin(), sizes.end());
  double best = INFINITY;
  std::optional<PiecewiseTime> found;
  for (std::size_t cut = 2; cut + 2 <= sorted.size(); cut++) {
    const double thresh = sorted[cut];
    std::vector<std::vector<double>> lo_x, hi_x;
    std::vector<double> lo_y, hi_y, lo_w, hi_w;
    for (std::size_t i = 0; i < m.size(); i++) {
      if (m[i].bytes < thresh) {
        lo_x.push_back({std::log2(m[i].bytes), 1.0});
        lo_y.push_back(m[i].time_s);
        lo_w.push_back(w[i]);
      } else {
        hi_x.push_back({m[i].bytes, 1.0});
        hi_y.push_back(m[i].time_s);
        hi_w.push_back(w[i]);
      }
    }
    std::vector<double> lo, hi;
    if (!least_squares(lo_x, lo_y, lo_w, lo) || !least_squares(hi_x, hi_y, hi_w, hi))
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
} // namespace

CalibrationFit calibrate(CommKind kind, const std::vector<CommMeasurement>& m)
{
  const std::set<double> sizes = distinct_sizes(m);
  std::set<int> node_counts;
  for (const CommMeasurement& x : m) {
    node_counts.insert(x.nodes);
    if (kind == CommKind::ALLREDUCE && x.nodes < 2)
      throw InputError("calibrate: line " + std::to_string(x.line) + ": an all-reduce on " + std::to_string(x.nodes) +
                       " node moves no data; keep rows with 2 nodes or more (--where)");
  }
  if (sizes.size() < 2)
    throw InputError("calibrate: the measurements have " + std::to_string(sizes.size()) +
                     " distinct sizes; at least 2 are needed to separate bandwidth from latency");
  CalibrationFit f;
  f.kind            = kind;
  f.alpha_separable = kind == CommKind::ALLREDUCE && node_counts.size() >= 2;
  fit_linear(m, f);
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
    for (std::size_t i = 0; i < m.size(); i++) {
      std::vector<CommMeasurement> rest = m;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      const std::set<double> rest_sizes = distinct_sizes(rest);
      if (rest_sizes.size() < 2 || m[i].bytes > 2 * *rest_sizes.rbegin() || m[i].bytes < 0.5 * *rest_sizes.begin())
        continue;
      CalibrationFit g = all;
      fit_linear(rest, g);
      double max_g = 0, max_all = 0;
      for (const CommMeasurement& x : rest) {
        max_g   = std::max(max_g, std::fabs(linear_time_s(g, x) - x.time_s) / x.time_s);
        max_all = std::max(max_all, std::fabs(linear_time_s(all, x) - x.time_s) / x.time_s);
      }
      const double held = std::fabs(linear_time_s(g, m[i]) - m[i].time_s) / m[i].time_s;
      if (held > 0.05 && max_g <= 0.5 * max_all && held > worst_held) {
        worst_held     = held;
        g.dropped_line = m[i].line;
        f              = g;
      }
    }
  }
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
    for (int k : node_counts) {
      std::vector<CommMeasurement> rows;
      for (const CommMeasurement& x : m)
        if (x.nodes == k)
          rows.push_back(x);
      const std::optional<PiecewiseTime> eq = fit_piecewise(rows, relative_weights(rows));
      if (!eq)
        continue;
      AllreduceTimeFit a{k, *eq, 0, 0};
      for (const CommMeasurement& x : rows) {
        const double e = std::fabs(a.time_s(x.bytes) - x.time_s) / x.time_s;
        a.mean_error += e / static_cast<double>(rows.size());
        a.max_error = std::max(a.max_error, e);
      }
      f.by_nodes.push_back(a);
    }
  return f;
}

namespace {
bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The multiplier from a column's name to bytes or seconds; 0 if the name carries no known unit.
double size_unit(const std::string& name)
{
  if (name == "bytes" || name == "size_bytes" || ends_with(name, "_B") || ends_with(name, "_bytes"))
    return 1;
  if (ends_with(name, "_KB") || ends_with(name, "_KiB"))
    return 1024;
  if (ends_with(name, "_MB") || ends_with(name, "_MiB"))
    return 1024.0 * 1024;
  return 0;
}
double time_unit(const std::string& name)
{
  if (ends_with(name, "_ms"))
    return 1e-3;
  if (ends_with(name, "_us"))
    return 1e-6;
  if (name == "time_s" || ends_with(name, "_s"))
    return 1;
  return 0;
}
} // namespace

std::vector<CommMeasurement> read_comm_measurements(const std::string& path, const std::vector<std::string>& where,
                                                    const std::string& size_column, const std::string& time_column)
{
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, "cannot read the measurements file");
  std::string line;
  if (!std::getline(in, line))
    throw InputError(path, 1, "empty file: expected a CSV header");
  const std::vector<std::string> header = split_csv_line(line);
  auto index_of                         = [&](const std::string& name) {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  auto pick = [&](const std::string& given, double (*unit)(const std::string&), const char* what) {
    if (!given.empty()) {
      if (index_of(given) < 0)
        throw InputError(path, 1, std::string("no column '") + given + "' (the " + what + " column)");
      if (unit(given) == 0)
        throw InputError(path, 1,
                         std::string("column '") + given + "': its name does not say its unit (e.g. " +
                             (what == std::string("size") ? "size_bytes, size_KB" : "time_s, time_ms") + ")");
      return index_of(given);
    }
    // Preferred: the canonical name, then a name that says what it is, then any name with a unit suffix.
    const std::string canonical = what == std::string("size") ? "size_bytes" : "time_s";
    const std::string word      = what == std::string("size") ? "size" : "time";
    if (index_of(canonical) >= 0)
      return index_of(canonical);
    for (std::size_t i = 0; i < header.size(); i++)
      if (unit(header[i]) != 0 && header[i].find(word) != std::string::npos)
        return static_cast<int>(i);
    for (std::size_t i = 0; i < header.size(); i++)
      if (unit(header[i]) != 0)
        return static_cast<int>(i);
    throw InputError(path, 1,
                     std::string("no ") + what + " column (e.g. " +
                         (what == std::string("size") ? "size_bytes or size_KB" : "time_s or time_ms") + ")");
  };
  const int size_i  = pick(size_column, size_unit, "size");
  const int time_i  = pick(time_column, time_unit, "time");
  const int nodes_i = index_of("nodes");
  // COLUMN=VALUE keeps the rows whose cell is VALUE; COLUMN=LO..HI those whose cell is a number in [LO, HI] (either
  // bound may be left out: 1048576.. keeps sizes from 1 MiB on).
  struct Filter {
    int column;
    std::string value;
    bool range = false;
    double lo = -INFINITY, hi = INFINITY;
  };
  std::vector<Filter> filters;
  for (const std::string& f : where) {
    auto eq = f.find('=');
    if (eq == std::string::npos || index_of(f.substr(0, eq)) < 0)
      throw InputError("--where '" + f + "': expected COLUMN=VALUE or COLUMN=LO..HI with a column of " + path);
    Filter filter{index_of(f.substr(0, eq)), f.substr(eq + 1)};
    if (auto dots = filter.value.find(".."); dots != std::string::npos) {
      filter.range = true;
      for (auto [text, bound] : {std::pair{filter.value.substr(0, dots), &filter.lo},
                                 std::pair{filter.value.substr(dots + 2), &filter.hi}}) {
        if (text.empty())
          continue;
        char* end = nullptr;
        *bound    = std::strtod(text.c_str(), &end);
        if (*end != '\0' || !std::isfinite(*bound))
          throw InputError("--where '" + f + "': '" + text + "' is not a number (COLUMN=LO..HI)");
      }
      if (!(filter.lo <= filter.hi))
        throw InputError("--where '" + f + "': the range is empty (LO > HI)");
    }
    filters.push_back(filter);
  }
  auto kept = [&filters](const std::vector<std::string>& cells) {
    for (const Filter& fl : filters) {
      if (static_cast<std::size_t>(fl.column) >= cells.size())
        return false;
      const std::string& cell = cells[static_cast<std::size_t>(fl.column)];
      if (!fl.range) {
        if (cell != fl.value)
          return false;
        continue;
      }
      char* end      = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      if (cell.empty() || *end != '\0' || !(v >= fl.lo && v <= fl.hi))
        return false;
    }
    return true;
  };
  std::vector<CommMeasurement> out;
  for (int n = 2; std::getline(in, line); n++) {
    if (line.empty())
      continue;
    const std::vector<std::string> f = split_csv_line(line);
    if (!kept(f))
      continue;
    auto number = [&](int i, const char* what) {
      const std::string& s = static_cast<std::size_t>(i) < f.size() ? f[static_cast<std::size_t>(i)] : "";
      char* end            = nullptr;
      double v             = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || !(v > 0))
        throw InputError(path, n,
                         std::string("column '") + header[static_cast<std::size_t>(i)] + "': '" + s +
                             "' is not a positive number (" + what + ")");
      return v;
    };
    CommMeasurement m;
    m.bytes  = number(size_i, "size") * size_unit(header[static_cast<std::size_t>(size_i)]);
    m.time_s = number(time_i, "time") * time_unit(header[static_cast<std::size_t>(time_i)]);
    if (nodes_i >= 0) {
      const double nodes = number(nodes_i, "nodes");
      if (nodes != std::floor(nodes) || nodes > 1e6)
        throw InputError(
            path, n, "column 'nodes': '" + f[static_cast<std::size_t>(nodes_i)] + "' is not a whole number of nodes");
      m.nodes = static_cast<int>(nodes);
    }
    m.line = n;
    out.push_back(m);
  }
  if (out.empty())
    throw InputError(path, 0, "no measurement left after the --where filters");
  return out;
}

} // namespace sgdsim
