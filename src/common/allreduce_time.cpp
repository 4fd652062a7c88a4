#include "common/allreduce_time.hpp"

#include <algorithm>
#include <cmath>

namespace sgdsim {

double PiecewiseTime::value_s(double bytes) const
{
  return bytes < threshold_bytes ? a1_s * std::log2(bytes) + b1_s : a2_s_per_byte * bytes + b2_s;
}

double AllreduceTimeFit::time_s(double bytes) const
{
  return std::max(0.0, eq.value_s(std::max(bytes, smallest_bytes)));
}

double measured_allreduce_s(const std::vector<AllreduceTimeFit>& fits, int nodes, double bytes)
{
  if (nodes <= fits.front().nodes)
    return fits.front().time_s(bytes);
  if (nodes >= fits.back().nodes)
    return fits.back().time_s(bytes);
  std::size_t hi = 1;
  while (fits[hi].nodes < nodes)
    hi++;
  const AllreduceTimeFit& a = fits[hi - 1];
  const AllreduceTimeFit& b = fits[hi];
  const double t            = static_cast<double>(nodes - a.nodes) / (b.nodes - a.nodes);
  return (1 - t) * a.time_s(bytes) + t * b.time_s(bytes);
}

double excess_per_step_s(const std::vector<int>& nodes, const std::vector<double>& excess_s)
{
  const std::size_t n = std::min(nodes.size(), excess_s.size());
  if (n < 2)
    return 0;
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < n; i++) {
    mean_x += 2.0 * (nodes[i] - 1);
    mean_y += excess_s[i];
  }
  mean_x /= static_cast<double>(n);
  mean_y /= static_cast<double>(n);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; i++) {
    const double dx = 2.0 * (nodes[i] - 1) - mean_x;
    sxy += dx * (excess_s[i] - mean_y);
    sxx += dx * dx;
  }
  return sxx > 0 ? std::max(0.0, sxy / sxx) : 0.0;
}

} // namespace sgdsim
