// The measured all-reduce across node counts (docs/models.md §10.7): beyond the node counts measured ("Beyond the
// node counts measured", "Ranks sharing cores") and with neighbouring node counts pooled ("Neighbouring node counts
// pooled"). One all-reduce, no compute, whole chunks, on a star (1 GB/s per NIC, 0.25 ms per link: lambda = 0.5 ms,
// ideal network); alone a call lasts the network's time plus the excess, network(K) = 2(K - 1)(lambda + D / (K B)).
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include "common/allreduce_time.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sgdsim;

namespace {
constexpr double kLambda = 0.5e-3;

double network_s(int k, double bytes)
{
  return 2.0 * (k - 1) * (kLambda + bytes / k / 1e9);
}

// Eq. (37)'s linear branch with a2 = 0: `time_s` at every size from 1 byte.
AllreduceTimeFit flat_fit(int nodes, double time_s)
{
  return AllreduceTimeFit{nodes, {0, 0, 1, 0, time_s}, 0, 0, 0, {}};
}

// The step of `workers` ranks on a star of `hosts`, one tensor of `size`, measured as `fits`.
double step_s(int workers, int hosts, const std::string& size, std::vector<AllreduceTimeFit> fits, int shared_cores = 0,
              int window = 1)
{
  Scenario sc             = tiny::scenario(Arch::RING, workers, Sharing::FAIR, false, 2, 1);
  sc.ps                   = 0;
  sc.allreduce_unit       = AllreduceUnit::TENSOR;
  sc.measured_allreduce   = true;
  sc.allreduce_time       = std::move(fits);
  sc.shared_cores         = shared_cores;
  sc.measured_node_window = window;
  return simulate_isolated(tiny::inputs(tiny::star_platform(hosts, "1GBps", "0.25ms"),
                                        tiny::one_tensor_workload(size, "0s", "0s"), sc))
      .step_time_mean_s;
}

// Beyond: 2 MiB measured at 50 ms at 2 and 4 nodes, run at 8.
constexpr double kBeyondBytes = 2.0 * 1024 * 1024;

double beyond_s(int shared_cores)
{
  return step_s(8, 8, "2MiB", {flat_fit(2, 0.05), flat_fit(4, 0.05)}, shared_cores);
}

// Pooled: 3 MiB (whole bytes per chunk at K = 2, 3 and 4) measured at 2, 3 and 4 nodes with an excess over the
// network of 1, 5 and 2 ms per ring step, not on one line.
constexpr double kPooledBytes = 3.0 * 1024 * 1024;
constexpr double kPerStep_s[] = {1e-3, 5e-3, 2e-3};

double pooled_s(int workers, int window)
{
  std::vector<AllreduceTimeFit> fits;
  for (int n = 2; n <= 4; ++n)
    fits.push_back(flat_fit(n, network_s(n, kPooledBytes) + 2.0 * (n - 1) * kPerStep_s[n - 2]));
  return step_s(workers, 4, "3MiB", fits, 0, window);
}
} // namespace

TEST(MeasuredBeyond, OneMachinePerRankAddsTheSlopePerStep)
{
  // The excess falls from 2 to 4 nodes (the network's time grows, the measured time does not): the slope per step
  // is cut at 0, and 8 nodes pay the 4-node excess.
  EXPECT_NEAR(beyond_s(0), network_s(8, kBeyondBytes) + (0.05 - network_s(4, kBeyondBytes)), 1e-9);
}

TEST(MeasuredBeyond, RanksSharingCoresPayTheStepsTimesTheRanksPerCore)
{
  // Two cores for every rank of the microbenchmark: at 8 nodes, 14 steps against 6, 8 ranks per 2 cores against 4.
  const double excess_4 = 0.05 - network_s(4, kBeyondBytes);
  EXPECT_NEAR(beyond_s(2), network_s(8, kBeyondBytes) + excess_4 * (14.0 / 6) * (8.0 / 4), 1e-9);
  // Cores for 8 ranks: no rank waited for a core at 4 nodes nor does at 8, only the steps grow.
  EXPECT_NEAR(beyond_s(8), network_s(8, kBeyondBytes) + excess_4 * (14.0 / 6), 1e-9);
  // 16 cores: still none waits.
  EXPECT_NEAR(beyond_s(16), beyond_s(8), 1e-9);
}

TEST(MeasuredWindow, OneNodeCountIsItsOwnMicrobenchmark)
{
  for (int k = 2; k <= 4; ++k)
    EXPECT_NEAR(pooled_s(k, 1), network_s(k, kPooledBytes) + 2.0 * (k - 1) * kPerStep_s[k - 2], 1e-9)
        << k << " workers";
}

TEST(MeasuredWindow, ThreeNodeCountsGiveTheirLinePerStep)
{
  // At 3 nodes, the middle of three equally spaced node counts: the line's value there is their mean, 8/3 ms a step.
  EXPECT_NEAR(pooled_s(3, 3), network_s(3, kPooledBytes) + 4 * (8e-3 / 3), 1e-9);
  // At the ends, the line through (2, 1), (3, 5), (4, 2) ms: slope 0.5 ms per node, 13/6 ms at 2 and 19/6 ms at 4.
  EXPECT_NEAR(pooled_s(2, 3), network_s(2, kPooledBytes) + 2 * (13e-3 / 6), 1e-9);
  EXPECT_NEAR(pooled_s(4, 3), network_s(4, kPooledBytes) + 6 * (19e-3 / 6), 1e-9);
}

TEST(MeasuredWindow, TwoNodeCountsTakeTheSmallerNeighbourOnATie)
{
  // At 3 nodes, 2 and 4 are as near: 2 is taken, and the line through (2, 1) and (3, 5) ms gives 3's own 5 ms.
  EXPECT_NEAR(pooled_s(3, 2), network_s(3, kPooledBytes) + 4 * 5e-3, 1e-9);
  // At 4 nodes, 3 and 4: the line through (3, 5) and (4, 2) ms passes 4's own 2 ms.
  EXPECT_NEAR(pooled_s(4, 2), network_s(4, kPooledBytes) + 6 * 2e-3, 1e-9);
}

TEST(MeasuredWindow, MoreThanTheNodeCountsMeasuredTakesThemAll)
{
  EXPECT_NEAR(pooled_s(3, 64), pooled_s(3, 3), 1e-12);
}
