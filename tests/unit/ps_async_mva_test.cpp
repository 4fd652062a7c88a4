#include "analytic/ps_async_mva.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

TEST(PsAsyncMva, OneWorkerCyclesThroughAllStations)
{
  // K = 1: no queueing. X = 1 / (S_W + S_U + S_S + S_D) = 1 / (0.2 + 0.1 + 0.01 + 0.1) = 2.439 steps/s,
  // with either discipline.
  MvaInputs in{{{1, 0.05, 0.15}}, 0.1, 0, 0.01};
  for (auto d : {NetworkDiscipline::PS, NetworkDiscipline::FCFS})
    EXPECT_NEAR(solve_mva(in, d).steps_per_s, 1 / 0.41, 1e-12);
}

TEST(PsAsyncMva, TwoWorkersProcessorSharingByHand)
{
  // K = 2 identical workers, S_W = 0.2, S_U = S_D = 0.1, T_S = 0 (the S station vanishes).
  // n = 1: cycle 0.4, X = 2.5, N_U = N_D = 0.25.
  // n = 2: T_U = T_D = 0.1 * (1 + 0.25) = 0.125; cycle 0.45; X = 2 / 0.45 = 4.444 steps/s.
  MvaInputs in{{{2, 0.1, 0.1}}, 0.1, 0, 0};
  EXPECT_NEAR(solve_mva(in, NetworkDiscipline::PS).steps_per_s, 2 / 0.45, 1e-12);
  // FCFS (eq. 2): T = 0.1 + 0.1 * (0.25 - 0.5 * 0.25) = 0.1125; cycle 0.425; X = 4.706 steps/s.
  EXPECT_NEAR(solve_mva(in, NetworkDiscipline::FCFS).steps_per_s, 2 / 0.425, 1e-12);
}

TEST(PsAsyncMva, CommunicationBoundSaturatesAtTheLink)
{
  // Zero compute, 64 workers, two balanced PS stations (U, D) of S = 0.1 s: the closed form for two balanced
  // stations is X(N) = N / ((N + 1) S) = 64 / 6.5 = 9.846 steps/s, approaching the link's 1 / S = 10.
  MvaInputs in{{{64, 0, 0}}, 0.1, 0, 0};
  EXPECT_NEAR(solve_mva(in, NetworkDiscipline::PS).steps_per_s, 64 / 6.5, 1e-9);
  // Compute-bound (S_W = 100 s): X ~ K / S_W = 0.64 steps/s.
  MvaInputs slow{{{64, 50, 50}}, 0.1, 0, 0};
  EXPECT_NEAR(solve_mva(slow, NetworkDiscipline::PS).steps_per_s, 64 / 100.2, 0.01);
}

struct GroupCase {
  std::vector<MvaWorkerType> grouped;
};

class MvaGrouping : public ::testing::TestWithParam<GroupCase> {};

// docs/models.md §1.5: the grouped recursion (prod (K_t + 1) states) equals the plain one (one class per worker, 2^K
// states) on heterogeneous cases, for both disciplines.
TEST_P(MvaGrouping, GroupedEqualsOneClassPerWorker)
{
  MvaInputs grouped{GetParam().grouped, 0.05, 0, 0.004};
  MvaInputs plain = grouped;
  plain.types.clear();
  for (const MvaWorkerType& t : grouped.types)
    for (int i = 0; i < t.count; i++)
      plain.types.push_back({1, t.fwd_s, t.bwd_s});
  for (auto d : {NetworkDiscipline::PS, NetworkDiscipline::FCFS}) {
    MvaSolution g = solve_mva(grouped, d);
    MvaSolution p = solve_mva(plain, d);
    EXPECT_FALSE(g.approximate);
    EXPECT_FALSE(p.approximate);
    EXPECT_EQ(p.states, std::size_t{1} << plain.types.size());
    EXPECT_NEAR(g.steps_per_s, p.steps_per_s, 1e-9 * p.steps_per_s)
        << "grouped " << g.steps_per_s << " vs plain " << p.steps_per_s;
    EXPECT_NEAR(g.downlink_utilization, p.downlink_utilization, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(Heterogeneous, MvaGrouping,
                         ::testing::Values(GroupCase{{{4, 0.02, 0.04}, {4, 0.04, 0.08}, {4, 0.1, 0.2}}},
                                           GroupCase{{{6, 0.01, 0.02}, {6, 0.03, 0.05}}},
                                           GroupCase{{{1, 0.0, 0.0}, {3, 0.2, 0.4}, {5, 0.05, 0.1}}},
                                           GroupCase{{{12, 0.03, 0.06}}}));

TEST(PsAsyncMva, SchweitzerApproximatesTheExactSolution)
{
  MvaInputs in{{{20, 0.03, 0.06}, {20, 0.06, 0.12}}, 0.01, 0, 0.001};
  MvaSolution exact  = solve_mva(in, NetworkDiscipline::PS);
  MvaSolution approx = solve_mva(in, NetworkDiscipline::PS, 10); // 441 states > 10: approximation
  EXPECT_FALSE(exact.approximate);
  EXPECT_TRUE(approx.approximate);
  EXPECT_NEAR(approx.steps_per_s, exact.steps_per_s, 0.05 * exact.steps_per_s)
      << "Bard-Schweitzer " << approx.steps_per_s << " vs exact " << exact.steps_per_s;
}

TEST(PsAsyncMva, HybridRuleAndOverlapCorrection)
{
  // Light load: FCFS utilization below rho_T = 0.6, so eq. 5 picks FCFS.
  MvaInputs light{{{2, 0.5, 1.0}}, 0.01, 0, 0};
  AsyncMvaResult r = ps_async_mva(light, 0.6, false);
  EXPECT_TRUE(r.used_fcfs);
  EXPECT_DOUBLE_EQ(r.steps_per_s, r.fcfs.steps_per_s);
  // Heavy load: utilization above rho_T, eq. 5 picks PS.
  MvaInputs heavy{{{16, 0.01, 0.02}}, 0.05, 0, 0};
  AsyncMvaResult h = ps_async_mva(heavy, 0.6, false);
  EXPECT_FALSE(h.used_fcfs);
  EXPECT_DOUBLE_EQ(h.steps_per_s, h.ps.steps_per_s);
  // Eq. 6 with one worker: T_D = T_U = 0.1 hide 0.1 s of forward and of backward: S_W = 0.4 - 0.1 + 0.8 - 0.1 = 1.0,
  // so X = 1 / (1.0 + 0.1 + 0.1) = 0.8333 steps/s instead of 1 / 1.4.
  MvaInputs one{{{1, 0.4, 0.8}}, 0.1, 0, 0};
  EXPECT_NEAR(ps_async_mva(one, 0.6, false).steps_per_s, 1 / 1.4, 1e-12);
  EXPECT_NEAR(ps_async_mva(one, 0.6, true).steps_per_s, 1 / 1.2, 1e-12);
}
