#include "common/allreduce_time.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace sgdsim {

double PiecewiseTime::value_s(double bytes) const
{
  return bytes < threshold_bytes ? a1_s * std::log2(bytes) + b1_s : a2_s_per_byte * bytes + b2_s;
}

double AllreduceTimeFit::time_s(double bytes) const
{
  if (!measured.empty() && bytes >= measured.front().bytes) {
    const auto above   = std::upper_bound(measured.begin(), measured.end(), bytes,
                                          [](double d, const SizeTime& x) { return d < x.bytes; });
    const SizeTime& lo = *(above - 1);
    if (above == measured.end())
      return lo.time_s + eq.a2_s_per_byte * (bytes - lo.bytes);
    return lo.time_s + (above->time_s - lo.time_s) * (bytes - lo.bytes) / (above->bytes - lo.bytes);
  }
  return std::max(0.0, eq.value_s(std::max(bytes, smallest_bytes)));
}

namespace {
// Linear interpolation in K of time(fit) between the two nearest node counts, the nearest one's beyond the range.
template <class Time>
double across_nodes(const std::vector<AllreduceTimeFit>& fits, int nodes, Time time)
{
  if (nodes <= fits.front().nodes)
    return time(fits.front());
  if (nodes >= fits.back().nodes)
    return time(fits.back());
  std::size_t hi = 1;
  while (fits[hi].nodes < nodes)
    hi++;
  const AllreduceTimeFit& a = fits[hi - 1];
  const AllreduceTimeFit& b = fits[hi];
  const double t            = static_cast<double>(nodes - a.nodes) / (b.nodes - a.nodes);
  return (1 - t) * time(a) + t * time(b);
}
} // namespace

double measured_allreduce_s(const std::vector<AllreduceTimeFit>& fits, int nodes, double bytes)
{
  return across_nodes(fits, nodes, [bytes](const AllreduceTimeFit& f) { return f.time_s(bytes); });
}

double queued_allreduce_s(const std::vector<AllreduceTimeFit>& queued, const std::vector<AllreduceTimeFit>& alone,
                          int nodes, double bytes)
{
  return across_nodes(queued, nodes, [&](const AllreduceTimeFit& q) {
    if (q.measured.empty() || bytes <= q.measured.back().bytes || alone.empty())
      return q.time_s(bytes);
    const double last = q.measured.back().bytes;
    return q.time_s(last) +
           std::max(0.0, measured_allreduce_s(alone, q.nodes, bytes) - measured_allreduce_s(alone, q.nodes, last));
  });
}

std::vector<AllreduceTimeFit> lines_only(std::vector<AllreduceTimeFit> fits)
{
  for (AllreduceTimeFit& f : fits)
    f.measured.clear();
  return fits;
}

namespace {
// The least-squares line of y against x: the means it passes through and its slope (0 where x does not vary).
struct Line {
  double mean_x = 0;
  double mean_y = 0;
  double slope  = 0;
};
Line fit_line(const std::vector<double>& x, const std::vector<double>& y)
{
  Line l;
  for (std::size_t i = 0; i < x.size(); i++) {
    l.mean_x += x[i];
    l.mean_y += y[i];
  }
  l.mean_x /= static_cast<double>(x.size());
  l.mean_y /= static_cast<double>(x.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); i++) {
    const double dx = x[i] - l.mean_x;
    sxy += dx * (y[i] - l.mean_y);
    sxx += dx * dx;
  }
  l.slope = sxx > 0 ? sxy / sxx : 0.0;
  return l;
}
} // namespace

double excess_per_step_s(const std::vector<int>& nodes, const std::vector<double>& excess_s)
{
  const std::size_t n = std::min(nodes.size(), excess_s.size());
  if (n < 2)
    return 0;
  std::vector<double> steps;
  for (std::size_t i = 0; i < n; i++)
    steps.push_back(2.0 * (nodes[i] - 1));
  return std::max(0.0, fit_line(steps, {excess_s.begin(), excess_s.begin() + static_cast<std::ptrdiff_t>(n)}).slope);
}

std::vector<std::size_t> nearest_node_counts(const std::vector<int>& nodes, int k, std::size_t window)
{
  std::vector<std::size_t> order(nodes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int da = std::abs(nodes[a] - k), db = std::abs(nodes[b] - k);
    return da < db || (da == db && nodes[a] < nodes[b]);
  });
  order.resize(std::min(std::max<std::size_t>(window, 1), order.size()));
  return order;
}

double nearest_line_at(const std::vector<int>& nodes, const std::vector<double>& per_step_s, int k, std::size_t window)
{
  std::vector<int> measured(nodes.begin(),
                            nodes.begin() + static_cast<std::ptrdiff_t>(std::min(nodes.size(), per_step_s.size())));
  std::vector<double> x, y;
  for (const std::size_t i : nearest_node_counts(measured, k, window)) {
    x.push_back(nodes[i]);
    y.push_back(per_step_s[i]);
  }
  return line_at(x, y, k);
}

double line_at(const std::vector<double>& x, const std::vector<double>& y, double at)
{
  if (x.empty())
    return 0;
  const Line l = fit_line(x, y);
  return l.mean_y + l.slope * (at - l.mean_x);
}

} // namespace sgdsim
