// The simulation agrees with the analytic models in their idealized limits (docs/design.md "Fidelity"): CM02 model,
// no cross-traffic, latency 0, the PS NIC is the only bottleneck, overlap off. Within 1%.
#include "analytic/ps_sync.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

struct LimitCase {
  int workers;
  int layers; // the model is split in that many equal tensors (M stays 100 MB)
};

class PsSyncLimit : public ::testing::TestWithParam<LimitCase> {
protected:
  // Platform: K+1 hosts on a star of 1 GB/s full-duplex NICs, latency 0. h0 is the PS.
  // Workload: M = 100 MB, T_F = T_B = 0.05 s (T_C = 0.1 s), T_S = 0.01 s: M/B = 0.1 s.
  SimResult run(Sharing sharing) const
  {
    const LimitCase& c = GetParam();
    std::string plat   = tiny::star_platform(c.workers + 1, "1GBps", "0s");
    std::string size   = std::to_string(100 / c.layers) + "MB";
    std::string fwd    = std::to_string(50000 / c.layers) + "us";
    std::string wl     = c.layers == 1 ? tiny::one_tensor_workload("100MB", "50ms", "50ms", "10ms")
                                       : tiny::layered_workload(c.layers, size, fwd, fwd, "0s");
    return simulate_isolated(tiny::inputs(plat, wl, tiny::scenario(Arch::PS_SYNC, c.workers, sharing, false, 3, 1)));
  }
  double t_s() const { return GetParam().layers == 1 ? 0.01 : 0.0; }
};

TEST_P(PsSyncLimit, FairSharingMatchesEquation7)
{
  const int k = GetParam().workers;
  // Expectation: T = 2 K M/B + T_C + T_S, e.g. K = 4: 0.8 + 0.1 + 0.01 = 0.91 s.
  double expected = ps_sync_fair_step_s(k, 100e6, 1e9, 0.1, t_s());
  double got      = run(Sharing::FAIR).step_time_mean_s;
  EXPECT_NEAR(got, expected, expected * 0.01) << "K=" << k << ": simulated " << got << " s, eq. 7 " << expected << " s";
}

TEST_P(PsSyncLimit, FcfsSharingMatchesEquation8)
{
  const int k = GetParam().workers;
  // Expectation: T = K M/B + T_C + M/B + T_S, e.g. K = 4: 0.4 + 0.1 + 0.1 + 0.01 = 0.61 s.
  double expected = ps_sync_fcfs_step_s(k, 100e6, 1e9, 0.1, t_s());
  double got      = run(Sharing::FCFS).step_time_mean_s;
  EXPECT_NEAR(got, expected, expected * 0.01) << "K=" << k << ": simulated " << got << " s, eq. 8 " << expected << " s";
}

INSTANTIATE_TEST_SUITE_P(Workers, PsSyncLimit,
                         ::testing::Values(LimitCase{1, 1}, LimitCase{2, 1}, LimitCase{4, 1}, LimitCase{8, 1},
                                           LimitCase{16, 1}, LimitCase{4, 4}, LimitCase{16, 4}),
                         [](const auto& info) {
                           std::string name = "K";
                           name += std::to_string(info.param.workers);
                           name += "_Tensors";
                           name += std::to_string(info.param.layers);
                           return name;
                         });
