// How the analytic models' network numbers are read off a SimGrid platform (README "Parameters from the
// platform"): route from PS 0 to the first worker on another host; B = narrowest shared link; cap = narrowest FATPIPE
// link; latency = sum.
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

TEST(PlatformProbe, ParameterServerSpeedReachesTheAnalyticModels)
{
  // The PS host runs at a quarter of the reference speed: its update takes 4x ps_update in the simulation
  // (docs/models.md §10.4), and the analytic models must be told so (the probe runs in a child process).
  std::string plat = tiny::star_platform({{"0.25Gf", "2GBps"}, {"1Gf", "1GBps"}, {"0.5Gf", "1GBps"}});
  SimInputs in     = tiny::inputs(plat, tiny::one_tensor_workload("1MB", "1ms", "1ms"),
                                  tiny::scenario(Arch::PS_SYNC, 2, Sharing::FAIR, true));
  PlatformProbe p  = probe_platform_isolated(in);
  EXPECT_EQ(p.ps_speed_ratio, (std::vector<double>{0.25}));
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

TEST(PlatformProbe, ParameterServerBesideWorkerZeroReadsTheNetwork)
{
  // tf_cnn_benchmarks' layout: PS 0 runs on worker 0's host. The route between them is the host's loopback, so the
  // network is read towards the first worker on another host (h1): its NIC, 25 Gbps and 2 x 10 us.
  std::string plat   = tiny::star_platform(3, "25Gbps", "10us");
  std::string dep    = tiny::write_file("colocated-ps.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <actor host="h0" function="ps"><argument value="0"/></actor>
  <actor host="h0" function="worker"><argument value="0"/></actor>
  <actor host="h1" function="worker"><argument value="1"/></actor>
</platform>
)");
  SimInputs in       = tiny::inputs(plat, tiny::one_tensor_workload("1MB", "1ms", "1ms"),
                                    tiny::scenario(Arch::PS_SYNC, 2, Sharing::FAIR, true));
  in.deployment_path = dep;
  PlatformProbe p    = probe_platform_isolated(in);
  EXPECT_DOUBLE_EQ(p.network.bottleneck_Bps, 25e9 / 8);
  EXPECT_NEAR(p.network.latency_s, 20e-6, 1e-15);
  SimResult r = simulate_isolated(in);
  ASSERT_EQ(r.per_ps.size(), 1U);
  EXPECT_DOUBLE_EQ(r.per_ps[0].nic_Bps, 25e9 / 8); // the PS NIC utilization is relative to it (it was 0)
  EXPECT_GT(r.per_ps[0].downlink_utilization, 0);
}
