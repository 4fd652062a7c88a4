#include "support/tiny.hpp"
#include "workload/step_sampler.hpp"
#include "workload/workload_parser.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

TEST(StepSampler, WithoutJitterOrSamplesTimesAreTheWorkloads)
{
  Workload wl = parse_workload_file(tiny::layered_workload(3, "1MB", "5ms", "10ms"));
  Rng rng(1, 0);
  std::vector<double> f, b;
  draw_step_times(wl, rng, 0, f, b);
  EXPECT_EQ(f, (std::vector<double>{5e-3, 5e-3, 5e-3}));
  EXPECT_EQ(b, (std::vector<double>{10e-3, 10e-3, 10e-3}));
}

TEST(StepSampler, JitterHasMeanOneAndTheRequestedSpread)
{
  // 4,000 layers of 1 ms forward with cv = 0.1: the sample mean is within 3 standard errors of 1 ms
  // (0.1 / sqrt(4000) = 0.16%) and the sample cv within 10% of 0.1; every factor within 1 +- 0.1*sqrt(3).
  Workload wl = parse_workload_file(tiny::layered_workload(4000, "1B", "1ms", "2ms"));
  Rng rng(7, 3);
  std::vector<double> f, b;
  draw_step_times(wl, rng, 0.1, f, b);
  double sum = 0, sum2 = 0;
  for (double x : f) {
    sum += x;
    sum2 += x * x;
    ASSERT_GE(x, 1e-3 * (1 - 0.1 * std::sqrt(3.0)) - 1e-15);
    ASSERT_LE(x, 1e-3 * (1 + 0.1 * std::sqrt(3.0)) + 1e-15);
  }
  const double mean = sum / f.size();
  const double sd   = std::sqrt(sum2 / f.size() - mean * mean);
  EXPECT_NEAR(mean, 1e-3, 3 * 1e-3 * 0.1 / std::sqrt(4000.0));
  EXPECT_NEAR(sd / mean, 0.1, 0.01);
  // Same seed and stream: same draws.
  Rng again(7, 3);
  std::vector<double> f2, b2;
  draw_step_times(wl, again, 0.1, f2, b2);
  EXPECT_EQ(f, f2);
  EXPECT_EQ(b, b2);
}
