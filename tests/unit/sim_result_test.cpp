#include "sim/sim_context.hpp"
#include "sim/sim_result.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
SimResult sample(double thr, double step)
{
  SimResult r;
  r.sharing                   = "fair";
  r.throughput_examples_per_s = thr;
  r.step_time_mean_s          = step;
  r.step_time_min_s           = step;
  r.step_time_max_s           = step;
  r.steps_measured            = 3;
  r.compute_s                 = 0.1;
  r.per_worker.push_back(WorkerStats{0, "h1", 1.0, step, 0, 0.1, 0.2, 0.3, {step, step}});
  r.per_ps.push_back(PsStats{0, "h0", 1, 1e9, 1, 1e6, 0.5, 0.5});
  return r;
}
} // namespace

TEST(SimResult, JsonRoundTripIsExact)
{
  SimResult r    = sample(123.456789012345678, 0.1 / 3);
  SimResult back = sim_result_from_json(to_json(r));
  EXPECT_EQ(to_json(back).dump(), to_json(r).dump());
  EXPECT_EQ(back.throughput_examples_per_s, r.throughput_examples_per_s); // exact, not near
  ASSERT_EQ(back.per_worker.size(), 1u);
  EXPECT_EQ(back.per_worker[0].step_times_s, r.per_worker[0].step_times_s);
}

TEST(SimResult, JsonWithoutStepTimesStillReads)
{
  // A result written before per-step times were reported: read with none.
  nlohmann::ordered_json j = to_json(sample(100, 0.32));
  j["per_worker"][0].erase("step_times_s");
  SimResult back = sim_result_from_json(j);
  ASSERT_EQ(back.per_worker.size(), 1u);
  EXPECT_TRUE(back.per_worker[0].step_times_s.empty());
}

TEST(SimResult, HybridAveragesThroughputs)
{
  // Fair 100 ex/s at 0.32 s, FCFS 300 ex/s at 0.1067 s: hybrid 200 ex/s; step = harmonic mean = 0.16 s.
  SimResult h = combine_hybrid(sample(100, 0.32), sample(300, 0.32 / 3));
  EXPECT_DOUBLE_EQ(h.throughput_examples_per_s, 200);
  EXPECT_NEAR(h.step_time_mean_s, 0.16, 1e-12);
  EXPECT_EQ(h.sharing, "hybrid");
  ASSERT_EQ(h.components.size(), 2u);
  // Each step as the mean: the harmonic mean of the two runs' step (0.32 s and 0.1067 s: 0.16 s).
  ASSERT_EQ(h.per_worker[0].step_times_s.size(), 2u);
  EXPECT_NEAR(h.per_worker[0].step_times_s[1], 0.16, 1e-12);
}

TEST(SimResult, BalancedSplitEvensOutBytes)
{
  Workload wl;
  for (double b : {10.0, 1.0, 1.0, 1.0, 7.0})
    wl.tensors.push_back(Tensor{"t", b, 0});
  // Round robin over 2 PS: tensors 0,2,4 -> PS 0 (18 bytes), 1,3 -> PS 1 (2 bytes).
  EXPECT_EQ(split_tensors(wl, 2, PsSplit::ROUND_ROBIN), (std::vector<int>{0, 1, 0, 1, 0}));
  // Balanced: 10 -> PS0, 7 -> PS1, then the three 1s go to PS1 (7, 8, 9 < 10): 10 vs 10 bytes.
  EXPECT_EQ(split_tensors(wl, 2, PsSplit::BALANCED), (std::vector<int>{0, 1, 1, 1, 1}));
}
