// Hand-worked checks of the ring (§3), ZENG23 (§6), OSF (§7) and PerfEstimator (§8) models.
#include "analytic/osf.hpp"
#include "analytic/pipeline_pe.hpp"
#include "analytic/ring.hpp"
#include "analytic/zeng23.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

TEST(RingModel, Equation11AndItsLatencyVariant)
{
  // K = 4, M = 100 MB, B = 1 GB/s, T_C = 0.1 s: 0.1 + 2*3/4 * 0.1 = 0.25 s (docs/design.md, SimGrid fact 2's example).
  EXPECT_NEAR(ring_step_s(4, 100e6, 1e9, 0.1), 0.25, 1e-12);
  // Latency 10 us per message, 5 calls: + 5 * 2 * 3 * 10 us = 0.3 ms.
  EXPECT_NEAR(ring_step_s(4, 100e6, 1e9, 0.1, 10e-6, 5), 0.2503, 1e-12);
  // K = 1: no communication; large K: 2 M/B.
  EXPECT_DOUBLE_EQ(ring_step_s(1, 100e6, 1e9, 0.1), 0.1);
  EXPECT_NEAR(ring_allreduce_s(1000, 100e6, 1e9), 0.2 * 999 / 1000, 1e-12);
}

TEST(Zeng23, AlgorithmByHand)
{
  // Compute 1, 1.5, 4 s; push 1 s, pull 0.5 s. T = 1 + 1 = 2; 2 >= 1.5: T = 3; 3 < 4: T = 4 + 1 = 5; + 3 * 0.5 = 6.5.
  EXPECT_DOUBLE_EQ(zeng23_step_s({4, 1, 1.5}, 1, 0.5), 6.5);
  // Communication-bound (everyone ready before the link frees): the algorithm equals eq. (22) ([ZENG23] eq. 32).
  EXPECT_DOUBLE_EQ(zeng23_step_s({0.1, 0.2, 0.3, 0.4}, 1, 0.5), zeng23_comm_bound_step_s(4, 0.1, 1, 0.5));
  // GPU variant: T_F + T_B / pushes.
  EXPECT_DOUBLE_EQ(zeng23_gpu_compute_s(0.03, 0.06, 3), 0.05);
  EXPECT_DOUBLE_EQ(zeng23_step_s({}, 1, 1), 0);
}

namespace {
// Three layers: D = 100, 0, 300 MB; t_b = 0.1, 0.2, 0.3 s. N = 2, beta = 1 GB/s: t_update(D) = D / 1e9 s.
std::vector<OsfLayer> three_layers()
{
  return {{100e6, 0.1}, {0, 0.2}, {300e6, 0.3}};
}
OsfParams two_workers()
{
  OsfParams p;
  p.n_workers = 2;
  p.beta_Bps  = 1e9;
  return p;
}
} // namespace

TEST(Osf, UpdateTimeWithoutFusionByHand)
{
  // tau3 = 0; tau2 = max(0 + t_u(300 MB) = 0.3, sum_{j=2}^{2} t_b = 0.2) = 0.3;
  // tau1 = max(0.3 + t_u(0) = 0.3, t_b1 + t_b2 = 0.3) = 0.3; T_update = 0.3 + t_u(100 MB) = 0.4 s.
  EXPECT_NEAR(osf_update_s(three_layers(), two_workers()), 0.4, 1e-12);
  // T_overlap = t_b1 + t_b2 = 0.3; T_comp = 1.0: OSF = 1 / (1 + 0.4 - 0.3) = 0.909.
  EXPECT_NEAR(osf_overlap_s(three_layers()), 0.3, 1e-12);
  EXPECT_NEAR(osf_factor(1.0, 0.4, 0.3), 1 / 1.1, 1e-12);
  // CSF: 1 / (1 + t_u(400 MB)) = 1 / 1.4.
  EXPECT_NEAR(csf_factor(1.0, 400e6, two_workers()), 1 / 1.4, 1e-12);
}

TEST(Osf, ReductionCostAndPerCallOverhead)
{
  // N = 4: 2*3/4 * D/B + 3/(4 * pi * 4 B) * D + delta, D = 1e8, B = 1e9, pi = 1e12, delta = 1 ms:
  // 0.15 + 0.75 * 1e8 / 4e12 + 0.001 = 0.15101875 s.
  OsfParams p;
  p.n_workers = 4;
  p.beta_Bps  = 1e9;
  p.pi_flops  = 1e12;
  p.delta_s   = 1e-3;
  EXPECT_NEAR(osf_t_update_s(p, 1e8), 0.15101875, 1e-12);
  EXPECT_DOUBLE_EQ(osf_t_update_s(p, 0), 0); // no gradients: no call
}

TEST(Osf, FusionByHand)
{
  // Q = 1 GB, timeout 1 s (never reached): everything fuses into one buffer sent after layer 1.
  // B3 = 300, B2 = 300, B1 = 400 MB; F1 = 400 MB, F2 = F3 = 0; waits 0.
  // tau2 = max(0, 0.2) = 0.2; tau1 = max(0.2, 0.3) = 0.3; T = 0.3 + 0.4 = 0.7 s.
  EXPECT_NEAR(osf_fusion_update_s(three_layers(), two_workers(), 1e9, 1.0), 0.7, 1e-12);
  // Q = 350 MB: B3 = 300; B2 = 300 (300 + 0 <= Q); B1: 300 + 100 > Q, so B1 = 100.
  // F3 = 0 (300 + 0 <= Q); F2 = 300 (300 + 100 > Q), waiting t_b1 = 0.1 (eq. (33)); F1 = 100.
  // tau2 = max(0 + 0 + 0, 0.2) = 0.2; tau1 = max(0.2 + 0.1 + 0.3, 0.3) = 0.6; T = 0.6 + 0.1 = 0.7 s.
  EXPECT_NEAR(osf_fusion_update_s(three_layers(), two_workers(), 350e6, 1.0), 0.7, 1e-12);
  // adaFusion with a per-call overhead never fuses when fusing would wait longer than a call costs.
  OsfParams p = two_workers();
  p.delta_s   = 0.01;
  EXPECT_LE(osf_fusion_update_s(three_layers(), p, 1e9, 1.0, true),
            osf_fusion_update_s(three_layers(), p, 1e9, 1.0, false) + 1e-12);
}

TEST(Osf, PiecewiseSmallMessageModel)
{
  auto f = osf_piecewise_update(1e-5, 1e-4, 1e-9, 2e-4, 1e6);
  EXPECT_NEAR(f(1024), 1e-5 * 10 + 1e-4, 1e-15); // below the threshold: log2(1024) = 10
  EXPECT_NEAR(f(2e6), 2e-3 + 2e-4, 1e-15);       // above: linear
}

TEST(PerfEstimatorPipeline, AlphaByHand)
{
  // Two layers: fwd 1, 1; bwd 2 (layer 2), 2 (layer 1); all-reduce 3 each; negotiation 0.5.
  // Forward ends at 2; bwd of layer 2 ends at 4, its all-reduce runs 4.5-7.5; bwd of layer 1 ends at 6,
  // all-reduce starts at max(6.5, 7.5) = 7.5, ends at 10.5. alpha = 6 / 10.5.
  std::vector<PipelineLayer> layers = {{1, 2, 3}, {1, 2, 3}};
  EXPECT_NEAR(pe_alpha(layers, 0.5), 6 / 10.5, 1e-12);
  EXPECT_NEAR(pe_throughput(100, 4, 0.5), 200, 1e-12);
  // Compute-bound (no communication): alpha = 1.
  EXPECT_DOUBLE_EQ(pe_alpha({{1, 2, 0}}, 0.5), 1.0);
}

TEST(RingModel, ComputeBoundAndZeroCompute)
{
  // Compute-bound: K = 8, M = 10 MB, B = 1 GB/s, T_C = 1 s: 1 + 2*7/8 * 0.01 = 1.0175 s.
  EXPECT_NEAR(ring_step_s(8, 10e6, 1e9, 1.0), 1.0175, 1e-12);
  // Zero compute, one huge tensor (1 GB), K = 2: 2*1/2 * 1 s = 1 s.
  EXPECT_NEAR(ring_step_s(2, 1e9, 1e9, 0.0), 1.0, 1e-12);
}

TEST(Zeng23, ComputeBoundAndOneWorker)
{
  // Compute-bound: compute 10, 10.5, 11 s; push = pull = 0.1 s. T = 10.1; 10.1 < 10.5: T = 10.6; 10.6 < 11:
  // T = 11.1; + 3 * 0.1 = 11.4 s (the slowest worker's compute plus one push and all pulls).
  EXPECT_NEAR(zeng23_step_s({10, 10.5, 11}, 0.1, 0.1), 11.4, 1e-12);
  // One worker: Tc + push + pull.
  EXPECT_NEAR(zeng23_step_s({2}, 0.1, 0.2), 2.3, 1e-12);
  // Zero compute, 4 workers: eq. (22) with Tc_min = 0: 4 * 0.2 + 4 * 0.1 = 1.2 s.
  EXPECT_NEAR(zeng23_step_s({0, 0, 0, 0}, 0.1, 0.2), 1.2, 1e-12);
}

TEST(Osf, ComputeBoundHidesAllButTheLastLayer)
{
  // t_b = 1 s per layer (compute-bound), D = 100 MB each, N = 2, beta = 1 GB/s (t_update = 0.1 s).
  // tau3 = 0; tau2 = max(0.1, 1) = 1; tau1 = max(1.1, 2) = 2; T_update = 2 + 0.1 = 2.1; T_overlap = 2;
  // OSF = T_comp / (T_comp + 0.1) with T_comp = 4.5 (fwd 1.5 + bwd 3): 4.5 / 4.6.
  std::vector<OsfLayer> layers = {{100e6, 1}, {100e6, 1}, {100e6, 1}};
  OsfParams p;
  p.n_workers = 2;
  p.beta_Bps  = 1e9;
  EXPECT_NEAR(osf_update_s(layers, p), 2.1, 1e-12);
  EXPECT_NEAR(osf_factor(4.5, osf_update_s(layers, p), osf_overlap_s(layers)), 4.5 / 4.6, 1e-12);
  // One worker: no communication (t_update = delta = 0): OSF = 1.
  p.n_workers = 1;
  EXPECT_NEAR(osf_factor(4.5, osf_update_s(layers, p), osf_overlap_s(layers)), 4.5 / (4.5 + 2 - 2), 1e-12);
  // One huge tensor on the last layer only (1 GB, N = 2): T_update = tau1 + 0 with tau2 = max(1, 1) = 1,
  // tau1 = max(1 + 0, 2) = 2: the all-reduce hides behind layers 2 and 1's backward.
  std::vector<OsfLayer> huge = {{0, 1}, {0, 1}, {1e9, 1}};
  p.n_workers                = 2;
  EXPECT_NEAR(osf_update_s(huge, p), 2.0, 1e-12);
}

TEST(Osf, AdaFusionSendsEveryByte)
{
  // Whatever eq. (36) decides, every gradient is all-reduced once: with delta = 0 and no waits the cost is linear,
  // so T_update is at least t_update(sum D) = 1.5 * 400 MB / 1 GB/s = 0.6 s (K = 4) for three layers of
  // 100, 0, 300 MB (the last-layer one hides nothing: t_b of the other layers is only 0.3 s).
  OsfParams p;
  p.n_workers                  = 4;
  p.beta_Bps                   = 1e9;
  std::vector<OsfLayer> layers = {{100e6, 0.1}, {0, 0.2}, {300e6, 0.3}};
  EXPECT_GE(osf_fusion_update_s(layers, p, 1e9, 1.0, true), 0.6 - 1e-12);
  EXPECT_GE(osf_fusion_update_s(layers, p, 1e9, 1.0, false), 0.6 - 1e-12);
}
