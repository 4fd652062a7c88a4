// Tree, halving-doubling and hierarchical all-reduce on ideal stars (CM02, no cross-traffic, latency 0, 1 GB/s
// full-duplex NICs), against closed forms worked by hand. One 100 MB tensor (M/B = 0.1 s), T_F = T_B = 0.05 s,
// no overlap: step = 0.1 s + the all-reduce.
#include "analytic/ring.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
double step(int k, Collective c, int chunks = 1, int gpus_per_node = 1, const std::string& latency = "0s")
{
  Scenario sc        = tiny::scenario(Arch::RING, k, Sharing::FAIR, false, 3, 1);
  sc.ps              = 0;
  sc.collective      = c;
  sc.pipeline_chunks = chunks;
  sc.gpus_per_node   = gpus_per_node;
  return simulate_isolated(tiny::inputs(tiny::star_platform(k, "1GBps", latency),
                                        tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(CollectiveLimit, HalvingDoublingMovesTheRingsBytes)
{
  // Rabenseifner moves 2(K-1)/K M per worker and direction, like the ring: eq. 11 for K = 2, 4, 8, 16.
  for (int k : {2, 4, 8, 16}) {
    double expected = ring_step_s(k, 100e6, 1e9, 0.1);
    EXPECT_NEAR(step(k, Collective::HALVING_DOUBLING), expected, 1e-6 * expected) << "K=" << k;
  }
  // With 1 ms per NIC link (2 ms per message): 2 log2(K) messages instead of the ring's 2(K-1).
  // K = 8: 0.1 + 0.175 + 6 * 2 ms = 0.287 s.
  EXPECT_NEAR(step(8, Collective::HALVING_DOUBLING, 1, 1, "1ms"), 0.287, 0.287 * 1e-6);
}

TEST(CollectiveLimit, BinaryTreeLevelByLevel)
{
  // K = 3 (root 0, leaves 1 and 2), one chunk: the root receives 2 x 100 MB on its NIC (0.2 s), then sends
  // 2 x 100 MB (0.2 s): 0.1 + 0.4 = 0.5 s.
  EXPECT_NEAR(step(3, Collective::TREE), 0.5, 0.5 * 1e-6);
  // K = 7, two levels: 0.2 s per level and phase: 0.1 + 4 * 0.2 = 0.9 s.
  EXPECT_NEAR(step(7, Collective::TREE), 0.9, 0.9 * 1e-6);
  // K = 3 in 4 chunks of 25 MB: reducing a chunk takes 2 x 25 MB / 1 GB/s = 0.05 s; chunk i goes down while
  // chunk i+1 comes up (different NIC directions), so the broadcast ends one chunk after the reduce:
  // 0.1 + 4 * 0.05 + 0.05 = 0.35 s.
  EXPECT_NEAR(step(3, Collective::TREE, 4), 0.35, 0.35 * 1e-6);
}

TEST(CollectiveLimit, HierarchicalReduceRingBroadcast)
{
  // K = 4, 2 GPUs per node (leaders 0 and 2): 1 -> 0 and 3 -> 2 at once (0.1 s); ring of the 2 leaders,
  // 2 * 50 MB (0.1 s); 0 -> 1 and 2 -> 3 (0.1 s): 0.1 + 0.3 = 0.4 s.
  EXPECT_NEAR(step(4, Collective::HIERARCHICAL, 1, 2), 0.4, 0.4 * 1e-6);
  // K = 8, 4 GPUs per node: 3 GPUs share the leader's NIC each way (0.3 s + 0.3 s), ring of 2 leaders 0.1 s:
  // 0.1 + 0.7 = 0.8 s.
  EXPECT_NEAR(step(8, Collective::HIERARCHICAL, 1, 4), 0.8, 0.8 * 1e-6);
}
