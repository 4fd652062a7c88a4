// How the analytic models' network numbers are read off a SimGrid platform (README "Parameters from the
// platform"): route from PS 0 to worker 0; B = narrowest shared link; cap = narrowest FATPIPE link; latency = sum.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

TEST(PlatformProbe, StarWithFlowCap)
{
  // h0 (PS) -- nic0 (25 Gbps, 10 us) -- cap (10 Gbps FATPIPE) -- nic1 (25 Gbps, 10 us) -- h1 (worker 0)
  std::string plat = tiny::star_platform(3, "25Gbps", "10us", "10Gbps");
  SimInputs in     = tiny::inputs(plat, tiny::one_tensor_workload("1MB", "1ms", "1ms"),
                                  tiny::scenario(Arch::PS_SYNC, 2, Sharing::FAIR, true));
  PlatformProbe p  = probe_platform_isolated(in);
  EXPECT_DOUBLE_EQ(p.network.bottleneck_Bps, 25e9 / 8);
  EXPECT_DOUBLE_EQ(p.network.flow_cap_Bps, 10e9 / 8);
  EXPECT_NEAR(p.network.latency_s, 20e-6, 1e-15);
  EXPECT_EQ(p.workers, 2);
  EXPECT_EQ(p.ps, 1);
}

TEST(PlatformProbe, HeterogeneousNicsAndSpeeds)
{
  // The worker's NIC (1 GB/s) is narrower than the PS's (2 GB/s): B is the narrowest link; no cap; speeds 1 and 0.5
  // of the reference 1 Gf.
  std::string plat = tiny::star_platform({{"1Gf", "2GBps"}, {"1Gf", "1GBps"}, {"0.5Gf", "1GBps"}});
  SimInputs in     = tiny::inputs(plat, tiny::one_tensor_workload("1MB", "1ms", "1ms"),
                                  tiny::scenario(Arch::PS_ASYNC, 2, Sharing::FAIR, true));
  PlatformProbe p  = probe_platform_isolated(in);
  EXPECT_DOUBLE_EQ(p.network.bottleneck_Bps, 1e9);
  EXPECT_TRUE(std::isinf(p.network.flow_cap_Bps));
  EXPECT_DOUBLE_EQ(p.network.latency_s, 0);
  EXPECT_EQ(p.speed_ratio, (std::vector<double>{1.0, 0.5}));
}

TEST(PlatformProbe, SimulationReportsTheSameNetwork)
{
  std::string plat = tiny::star_platform(3, "25Gbps", "10us", "10Gbps");
  SimInputs in     = tiny::inputs(plat, tiny::one_tensor_workload("1MB", "1ms", "1ms"),
                                  tiny::scenario(Arch::PS_SYNC, 2, Sharing::FAIR, true));
  SimResult r      = simulate_isolated(in);
  EXPECT_DOUBLE_EQ(r.network.flow_cap_Bps, 10e9 / 8);
  EXPECT_DOUBLE_EQ(r.network.bottleneck_Bps, 25e9 / 8);
}
