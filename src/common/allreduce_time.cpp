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

} // namespace sgdsim
