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

// Operating points and edge cases, worked by hand. M/B: 100 MB / 1 GB/s = 0.1 s unless said otherwise.
struct SyncCase {
  const char* name;
  int k;
  double m_bytes, t_f, t_b, t_s;
  double eq7, eq8, eq9, eq10;
};

class PsSyncPoints : public ::testing::TestWithParam<SyncCase> {};

TEST_P(PsSyncPoints, MatchTheHandWorkedValues)
{
  const SyncCase& c = GetParam();
  const double t_c  = c.t_f + c.t_b;
  EXPECT_NEAR(ps_sync_fair_step_s(c.k, c.m_bytes, 1e9, t_c, c.t_s), c.eq7, 1e-12) << c.name;
  EXPECT_NEAR(ps_sync_fcfs_step_s(c.k, c.m_bytes, 1e9, t_c, c.t_s), c.eq8, 1e-12) << c.name;
  EXPECT_NEAR(ps_sync_hybrid_step_s(c.k, c.m_bytes, 1e9, t_c, c.t_s), c.eq9, 1e-12) << c.name;
  EXPECT_NEAR(ps_sync_hybrid_overlap_step_s(c.k, c.m_bytes, 1e9, c.t_f, c.t_b, c.t_s), c.eq10, 1e-12) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Points, PsSyncPoints,
    ::testing::Values(
        // Compute-bound: K = 2, T_F = 1, T_B = 2. eq7 = 0.2 + 3 + 0.2 = 3.4; eq8 = 0.2 + 3 + 0.1 = 3.3;
        // eq9 = 0.2 + 3 + 0.15 = 3.35; eq10 = max(0.2, 1) + max(0.15, 2) = 3.
        SyncCase{"compute-bound", 2, 100e6, 1, 2, 0, 3.4, 3.3, 3.35, 3.0},
        // Communication-bound: K = 16, T_F = T_B = 0.01. eq7 = 1.6 + 0.02 + 1.6 = 3.22; eq8 = 1.6 + 0.02 + 0.1 = 1.72;
        // eq9 = 1.6 + 0.02 + 0.85 = 2.47; eq10 = 1.6 + 0.85 = 2.45.
        SyncCase{"communication-bound", 16, 100e6, 0.01, 0.01, 0, 3.22, 1.72, 2.47, 2.45},
        // K = 1: eq7 = eq8 = eq9 = 0.1 + 0.2 + 0.1 + 0.01 = 0.41; eq10 = max(0.1, 0.1) + max(0.1, 0.1) + 0.01 = 0.21.
        SyncCase{"one worker", 1, 100e6, 0.1, 0.1, 0.01, 0.41, 0.41, 0.41, 0.21},
        // Zero compute: K = 4: eq7 = 0.8; eq8 = 0.5; eq9 = 0.65; eq10 = 0.4 + 0.25 = 0.65.
        SyncCase{"zero compute", 4, 100e6, 0, 0, 0, 0.8, 0.5, 0.65, 0.65},
        // One huge tensor (VGG's 392 MiB fc layer alone, 411,041,792 B: M/B = 0.411041792 s), K = 2, T_C = 0:
        // eq7 = 4 M/B = 1.644167168; eq8 = 3 M/B = 1.233125376; eq9 = 3.5 M/B; eq10 = 2 M/B + 1.5 M/B = 3.5 M/B.
        SyncCase{"one huge tensor", 2, 411041792, 0, 0, 0, 1.644167168, 1.233125376, 1.438646272, 1.438646272}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& ch : n)
        if (ch == ' ' || ch == '-')
          ch = '_';
      return n;
    });
