// Ring all-reduce in its ideal limits (issue #4): CM02, no cross-traffic, latency 0, full-duplex 1 GB/s NICs on a
// star. The simulation agrees with eq. 11 (and its latency-aware variant) within 1% in both modes, and with OSF.
#include "analytic/osf.hpp"
#include "analytic/ring.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
Scenario ring(int k, RingMode mode, bool overlap)
{
  Scenario sc  = tiny::scenario(Arch::RING, k, Sharing::FAIR, overlap, 3, 1);
  sc.ps        = 0;
  sc.ring_mode = mode;
  return sc;
}
} // namespace

struct RingCase {
  int k;
  RingMode mode;
};

class RingLimit : public ::testing::TestWithParam<RingCase> {};

TEST_P(RingLimit, MatchesEquation11)
{
  const auto [k, mode] = GetParam();
  // One 100 MB tensor, T_F = T_B = 0.05 s, no overlap: T = 0.1 + 2(K-1)/K * 0.1 s (K = 4: 0.25 s).
  std::string plat = tiny::star_platform(k, "1GBps", "0s");
  std::string wl   = tiny::one_tensor_workload("100MB", "50ms", "50ms");
  double got       = simulate_isolated(tiny::inputs(plat, wl, ring(k, mode, false))).step_time_mean_s;
  double expected  = ring_step_s(k, 100e6, 1e9, 0.1);
  EXPECT_NEAR(got, expected, 0.01 * expected)
      << "K=" << k << " " << to_string(mode) << ": simulated " << got << " s, eq. 11 " << expected << " s";
}

TEST_P(RingLimit, MatchesTheLatencyAwareVariant)
{
  const auto [k, mode] = GetParam();
  // Latency 1 ms per NIC link: alpha = 2 ms per message (NIC up + NIC down); T = eq. 11 + 2(K-1) * alpha.
  // The model is CM02 (latency factor 1): stream mode adds the 2(K-1)-1 latencies it does not simulate.
  std::string plat = tiny::star_platform(k, "1GBps", "1ms");
  std::string wl   = tiny::one_tensor_workload("100MB", "50ms", "50ms");
  double got       = simulate_isolated(tiny::inputs(plat, wl, ring(k, mode, false))).step_time_mean_s;
  double expected  = ring_step_s(k, 100e6, 1e9, 0.1, 2e-3);
  EXPECT_NEAR(got, expected, 0.01 * expected)
      << "K=" << k << " " << to_string(mode) << ": simulated " << got << " s, eq. 11 with latency " << expected << " s";
}

INSTANTIATE_TEST_SUITE_P(Workers, RingLimit,
                         ::testing::Values(RingCase{2, RingMode::STEPS}, RingCase{4, RingMode::STEPS},
                                           RingCase{16, RingMode::STEPS}, RingCase{64, RingMode::STEPS},
                                           RingCase{2, RingMode::STREAM}, RingCase{4, RingMode::STREAM},
                                           RingCase{16, RingMode::STREAM}, RingCase{64, RingMode::STREAM}),
                         [](const auto& info) {
                           std::string name = "K";
                           name += std::to_string(info.param.k);
                           name += info.param.mode == RingMode::STEPS ? "_steps" : "_stream";
                           return name;
                         });

TEST(RingLimit, StreamModeAgreesWithStepsOnAUniformPlatform)
{
  // 16 workers, 8 layers of 10 MB with overlap: both modes within 2% of each other.
  std::string plat = tiny::star_platform(16, "1GBps", "5us");
  std::string wl   = tiny::layered_workload(8, "10MB", "5ms", "10ms");
  double steps     = simulate_isolated(tiny::inputs(plat, wl, ring(16, RingMode::STEPS, true))).step_time_mean_s;
  double stream    = simulate_isolated(tiny::inputs(plat, wl, ring(16, RingMode::STREAM, true))).step_time_mean_s;
  EXPECT_NEAR(stream, steps, 0.02 * steps) << "steps " << steps << " s, stream " << stream << " s";
}

namespace {
// The simulated scaling factor: single-worker step time T_comp over the K-worker step time.
double simulated_step(const std::string& wl, int k, double fusion_bytes, double timeout_s,
                      FusionBatches batches = FusionBatches::READY)
{
  Scenario sc            = ring(k, RingMode::STEPS, true);
  sc.fusion_buffer_bytes = fusion_bytes;
  sc.fusion_timeout_s    = timeout_s;
  sc.fusion_batches      = batches;
  return simulate_isolated(tiny::inputs(tiny::star_platform(k, "1GBps", "0s"), wl, sc)).step_time_mean_s;
}

std::vector<OsfLayer> osf_layers(const Workload& wl)
{
  std::vector<OsfLayer> layers;
  for (const Layer& l : wl.layers)
    layers.push_back({wl.tensors[static_cast<std::size_t>(l.tensors[0])].bytes, l.bwd_s});
  return layers;
}
} // namespace

TEST(RingOsf, OverlapWithoutFusionMatchesOsf)
{
  // Per-layer tensors, overlap, no fusion, K = 4, 1 GB/s: t_update(D) = 1.5 D / B. Two regimes: 10 MB layers
  // (7.5 ms all-reduce < 10 ms backward: hidden but for the last) and 40 MB layers (30 ms > 10 ms: exposed).
  for (const char* size : {"10MB", "40MB"}) {
    std::string path = tiny::layered_workload(8, size, "5ms", "10ms");
    Workload wl      = parse_workload_file(path);
    OsfParams p;
    p.n_workers          = 4;
    p.beta_Bps           = 1e9;
    const double t_comp  = wl.compute_s();
    const double osf     = osf_factor(t_comp, osf_update_s(osf_layers(wl), p), osf_overlap_s(osf_layers(wl)));
    const double sim_osf = t_comp / simulated_step(path, 4, 0, 5e-3);
    EXPECT_NEAR(sim_osf, osf, 0.02 * osf) << size << ": simulated scaling factor " << sim_osf << ", OSF " << osf;
  }
}

namespace {
double osf_fusion_factor(const Workload& wl, double q, double timeout)
{
  OsfParams p;
  p.n_workers = 4;
  p.beta_Bps  = 1e9;
  return osf_factor(wl.compute_s(), osf_fusion_update_s(osf_layers(wl), p, q, timeout), osf_overlap_s(osf_layers(wl)));
}
} // namespace

TEST(RingOsf, OverlapWithFusionMatchesEquations12To16)
{
  // K = 4, 8 layers of 10 MB (a 20 MB buffer all-reduces in 1.5 * 20 MB / 1 GB/s = 30 ms).
  // Buffers filled by size: Q = 25 MB (two layers per buffer), timeout 100 ms, backward 40 ms per layer: each
  // buffer goes out every 80 ms and finishes before the next, the regime eq. (34) describes exactly.
  std::string by_size = tiny::layered_workload(8, "10MB", "20ms", "40ms");
  double osf          = osf_fusion_factor(parse_workload_file(by_size), 25e6, 100e-3);
  double sim          = parse_workload_file(by_size).compute_s() / simulated_step(by_size, 4, 25e6, 100e-3);
  EXPECT_NEAR(sim, osf, 0.03 * osf) << "by size: simulated scaling factor " << sim << ", OSF with fusion " << osf;
  // Buffers flushed by the timeout: 5 ms < 40 ms of backward, so each layer goes alone after 5 ms.
  osf = osf_fusion_factor(parse_workload_file(by_size), 25e6, 5e-3);
  sim = parse_workload_file(by_size).compute_s() / simulated_step(by_size, 4, 25e6, 5e-3);
  EXPECT_NEAR(sim, osf, 0.03 * osf) << "by timeout: simulated scaling factor " << sim << ", OSF with fusion " << osf;
}

TEST(RingOsf, CommunicationBoundFusionOverlapsTheWaitThatEquation15Adds)
{
  // Where the network is the bottleneck, eq. (34) adds t_wait^(i+1) after the previous all-reduce although the wait
  // overlapped it; the simulation (like Horovod) overlaps them. 8 x 10 MB layers, 10 ms backward, Q = 25 MB:
  // by hand, the simulation's T_update is 140 ms (flushes at 20, 40, 60, 70 ms on a link busy until 50, 80, 110,
  // 140 ms) and eq. (34)'s is 160 ms; step = T_comp + T_update - T_overlap = 120 + 140 - 70 = 190 ms vs 210 ms.
  std::string path = tiny::layered_workload(8, "10MB", "5ms", "10ms");
  EXPECT_NEAR(simulated_step(path, 4, 25e6, 50e-3), 0.190, 0.190 * 1e-6);
  EXPECT_NEAR(osf_fusion_factor(parse_workload_file(path), 25e6, 50e-3), 0.120 / 0.210, 1e-9);
}

TEST(RingOsf, BuffersOfLaunchedTensorsGoOnceTheirLastGradientIsComputed)
{
  // The same 8 x 10 MB layers (forward 5 ms, backward 10 ms each, K = 4, 30 ms per 20 MB all-reduce, Q = 25 MB),
  // buffers formed as Horovod forms them from launched tensors (docs/models.md §10.1): [7, 6], [5, 4], [3, 2],
  // [1, 0], each going once its lower layer's backward is done, at 60, 80, 100, 120 ms, on a link busy until 90,
  // 120, 150 ms: they end at 90, 120, 150, 180 ms. With buffers of computed gradients ([OSF22]'s rule) each buffer
  // waits for the next layer to find that it does not fit, 10 ms later at first: 190 ms (the test above).
  std::string path = tiny::layered_workload(8, "10MB", "5ms", "10ms");
  EXPECT_NEAR(simulated_step(path, 4, 25e6, 50e-3, FusionBatches::SCHEDULED), 0.180, 0.180 * 1e-6);
  // A buffer as large as the model is one all-reduce after the whole backward: 40 + 80 + 1.5 * 80 MB / 1 GB/s.
  EXPECT_NEAR(simulated_step(path, 4, 1e9, 50e-3, FusionBatches::SCHEDULED), 0.240, 0.240 * 1e-6);
}
