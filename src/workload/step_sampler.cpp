#include "workload/step_sampler.hpp"

#include <cmath>

namespace sgdsim {

void draw_step_times(const Workload& wl, Rng& rng, double jitter_cv, std::vector<double>& fwd_s,
                     std::vector<double>& bwd_s)
{
  const std::size_t n = wl.layers.size();
  fwd_s.resize(n);
  bwd_s.resize(n);
  // A uniform variable on [1 - a, 1 + a] has standard deviation a / sqrt(3).
  const double half_width = jitter_cv * std::sqrt(3.0);
  for (std::size_t l = 0; l < n; l++) {
    const auto& samples = wl.layers[l].samples;
    std::size_t pick    = samples.size() > 1 ? rng.uniform_index(samples.size()) : 0;
    fwd_s[l]            = samples[pick].fwd_s;
    bwd_s[l]            = samples[pick].bwd_s;
    if (jitter_cv > 0) {
      fwd_s[l] *= 1 + half_width * (2 * rng.uniform01() - 1);
      bwd_s[l] *= 1 + half_width * (2 * rng.uniform01() - 1);
    }
  }
}

} // namespace sgdsim
