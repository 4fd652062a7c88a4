// The measured all-reduce beyond the node counts measured (docs/models.md §10.7, "Beyond the node counts measured"
// and "Ranks sharing cores"): one 2 MiB all-reduce, no compute, whole chunks, on an 8-host star (1 GB/s per NIC,
// 0.25 ms per link: lambda = 0.5 ms, ideal network), measured at 50 ms at 2 and 4 nodes, run at 8. Alone a call
// lasts the network's time plus the excess, network(K) = 2(K - 1)(lambda + D / (K B)).
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include "common/allreduce_time.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
constexpr double kBytes  = 2.0 * 1024 * 1024;
constexpr double kLambda = 0.5e-3;

double network_s(int k)
{
  return 2.0 * (k - 1) * (kLambda + kBytes / k / 1e9);
}

double step_s(int shared_cores)
{
  Scenario sc           = tiny::scenario(Arch::RING, 8, Sharing::FAIR, false, 2, 1);
  sc.ps                 = 0;
  sc.allreduce_unit     = AllreduceUnit::TENSOR;
  sc.measured_allreduce = true;
  const AllreduceTimeFit at_50ms_2{2, {0, 0, 1, 0, 0.05}, 0, 0, 0, {}}, at_50ms_4{4, {0, 0, 1, 0, 0.05}, 0, 0, 0, {}};
  sc.allreduce_time = {at_50ms_2, at_50ms_4};
  sc.shared_cores   = shared_cores;
  return simulate_isolated(
             tiny::inputs(tiny::star_platform(8, "1GBps", "0.25ms"), tiny::one_tensor_workload("2MiB", "0s", "0s"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(MeasuredBeyond, OneMachinePerRankAddsTheSlopePerStep)
{
  // The excess falls from 2 to 4 nodes (the network's time grows, the measured time does not): the slope per step
  // is cut at 0, and 8 nodes pay the 4-node excess.
  EXPECT_NEAR(step_s(0), network_s(8) + (0.05 - network_s(4)), 1e-9);
}

TEST(MeasuredBeyond, RanksSharingCoresPayTheStepsTimesTheRanksPerCore)
{
  // Two cores for every rank of the microbenchmark: at 8 nodes, 14 steps against 6, 8 ranks per 2 cores against 4.
  const double excess_4 = 0.05 - network_s(4);
  EXPECT_NEAR(step_s(2), network_s(8) + excess_4 * (14.0 / 6) * (8.0 / 4), 1e-9);
  // Cores for 8 ranks: no rank waited for a core at 4 nodes nor does at 8, only the steps grow.
  EXPECT_NEAR(step_s(8), network_s(8) + excess_4 * (14.0 / 6), 1e-9);
  // 16 cores: still none waits.
  EXPECT_NEAR(step_s(16), step_s(8), 1e-9);
}
