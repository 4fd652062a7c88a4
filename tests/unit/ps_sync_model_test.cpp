#include "analytic/ps_sync.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

// K = 4 workers, M = 100 MB, B = 1 GB/s (M/B = 0.1 s), T_C = 0.2 s (T_F 0.05, T_B 0.15), T_S = 0.01 s.
TEST(PsSyncModel, Equation7FairSharing)
{
  // 4*0.1 + 0.2 + 4*0.1 + 0.01 = 1.01 s
  EXPECT_NEAR(ps_sync_fair_step_s(4, 100e6, 1e9, 0.2, 0.01), 1.01, 1e-12);
}

TEST(PsSyncModel, Equation8Fcfs)
{
  // 4*0.1 + 0.2 + 0.1 + 0.01 = 0.71 s
  EXPECT_NEAR(ps_sync_fcfs_step_s(4, 100e6, 1e9, 0.2, 0.01), 0.71, 1e-12);
}

TEST(PsSyncModel, Equation9IsTheAverageOf7And8)
{
  // 0.4 + 0.2 + 5*0.1/2 + 0.01 = 0.86 s = (1.01 + 0.71) / 2
  EXPECT_NEAR(ps_sync_hybrid_step_s(4, 100e6, 1e9, 0.2, 0.01), 0.86, 1e-12);
}

TEST(PsSyncModel, Equation10OverlapComputeBoundAndCommBound)
{
  // Communication-bound: max(0.4, 0.05) + max(0.25, 0.15) + 0.01 = 0.66 s.
  EXPECT_NEAR(ps_sync_hybrid_overlap_step_s(4, 100e6, 1e9, 0.05, 0.15, 0.01), 0.66, 1e-12);
  // Compute-bound (T_F 1 s, T_B 2 s): max(0.4, 1) + max(0.25, 2) + 0.01 = 3.01 s.
  EXPECT_NEAR(ps_sync_hybrid_overlap_step_s(4, 100e6, 1e9, 1.0, 2.0, 0.01), 3.01, 1e-12);
}
