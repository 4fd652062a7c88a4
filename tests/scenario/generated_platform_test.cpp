// Platforms written by the generator (sgdsim platform) load, route and cap flows as their description says.
#include "platform/platform_generator.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;
using tiny::inputs;
using tiny::scenario;

namespace {
std::string generated(const PlatformSpec& spec, const std::string& name)
{
  return tiny::write_file(name, generate_platform_xml(spec));
}
} // namespace

class GeneratedStar : public testing::TestWithParam<int> {};

TEST_P(GeneratedStar, OneTransferTakesSizeOverBandwidthPlusLatency)
{
  // A star of N nodes, 1 GBps NICs, 10 us per link; PS on node-0, one worker on the last node. Workload: one
  // 100 MB tensor, no compute: step = downlink + uplink, each 100 MB / 1 GB/s + 2 links x 10 us (CM02, no
  // cross-traffic, latency factor 1) = 0.10002 s; step 0.20004 s.
  const int n = GetParam();
  PlatformSpec s;
  s.nodes          = n;
  s.nic            = "1GBps";
  s.latency        = "10us";
  s.speed          = "1Gf";
  SimInputs in     = inputs(generated(s, "star.xml"), tiny::one_tensor_workload("100MB", "0s", "0s"),
                            scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false));
  std::string last = "node-";
  last += std::to_string(n - 1);
  in.deployment_path = tiny::deployment({"node-0"}, {last});
  SimResult r        = simulate_isolated(in);
  EXPECT_NEAR(r.step_time_mean_s, 0.20004, 0.20004 * 1e-6) << n << " nodes";
  EXPECT_DOUBLE_EQ(r.network.bottleneck_Bps, 1e9);
  EXPECT_NEAR(r.network.latency_s, 20e-6, 1e-12);
}
INSTANTIATE_TEST_SUITE_P(Nodes, GeneratedStar, testing::Values(4, 128, 1024),
                         [](const auto& info) { return std::to_string(info.param) + "_nodes"; });

TEST(GeneratedPlatform, FatTreeRoutesAcrossLeavesThroughFourLinks)
{
  // 128 nodes, leaves of 16: node-0 and node-127 sit on different leaves: host-leaf-spine-leaf-host, 4 links of
  // 10 us. Same tensor as above: 2 x (0.1 s + 40 us) = 0.20008 s. Within a leaf (node-0 to node-1): 2 links.
  PlatformSpec s;
  s.nodes             = 128;
  s.topology          = Topology::FAT_TREE;
  s.leaf_size         = 16;
  s.nic               = "1GBps";
  s.latency           = "10us";
  s.speed             = "1Gf";
  std::string p       = generated(s, "fattree.xml");
  std::string w       = tiny::one_tensor_workload("100MB", "0s", "0s");
  SimInputs far       = inputs(p, w, scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false));
  far.deployment_path = tiny::deployment({"node-0"}, {"node-127"});
  EXPECT_NEAR(simulate_isolated(far).step_time_mean_s, 0.20008, 0.20008 * 1e-6);
  SimInputs near       = inputs(p, w, scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false));
  near.deployment_path = tiny::deployment({"node-0"}, {"node-1"});
  EXPECT_NEAR(simulate_isolated(near).step_time_mean_s, 0.20004, 0.20004 * 1e-6);
}

TEST(GeneratedPlatform, MultiGpuNodesShareANicWithAPerFlowCap)
{
  // validation/sources/li22-facts fact 4 on a generated p3.16xlarge-like platform: 3 nodes of 8 GPUs, 25 Gbps
  // NICs, 10 Gbps per flow. The PS takes node-0; workers fill node-1's GPUs. One 100 MB tensor, no compute:
  // K = 1 and 2: each flow at 10 Gbps: 2 x 100 MB / 1.25 GB/s = 0.16 s; K = 3: the node's NIC is shared,
  // 25 Gbps / 3 per flow: 2 x 100 MB / (3.125 GB/s / 3) = 0.192 s.
  PlatformSpec s;
  s.nodes         = 3;
  s.topology      = Topology::MULTI_GPU;
  s.gpus_per_node = 8;
  s.nic           = "25Gbps";
  s.flow_cap      = "10Gbps";
  s.latency       = "0us";
  s.speed         = "1Gf";
  std::string p   = generated(s, "multigpu.xml");
  std::string w   = tiny::one_tensor_workload("100MB", "0s", "0s");
  double step[4]  = {0, 0, 0, 0};
  for (int k = 1; k <= 3; k++) {
    SimResult r = simulate_isolated(inputs(p, w, scenario(Arch::PS_SYNC, k, Sharing::FAIR, false)));
    step[k]     = r.step_time_mean_s;
    for (const WorkerStats& ws : r.per_worker)
      EXPECT_EQ(ws.host, "node-1") << "automatic placement fills node-1's GPUs first";
  }
  EXPECT_NEAR(step[1], 0.16, 0.16 * 1e-6);
  EXPECT_NEAR(step[2], 0.16, 0.16 * 1e-6);
  EXPECT_NEAR(step[3], 0.192, 0.192 * 1e-6);
}

TEST(GeneratedPlatform, GpusOfOneNodeTalkOverTheIntraNodeLink)
{
  // A ring all-reduce among the 4 GPUs of one node (100 GBps loopback, 0 latency): eq. 11's communication
  // 2 (K-1)/K M / B = 1.5 x 100 MB / 100 GB/s = 1.5 ms; with 1 ms of compute (0.5 + 0.5): 2.5 ms per step.
  PlatformSpec s;
  s.nodes         = 1;
  s.topology      = Topology::MULTI_GPU;
  s.gpus_per_node = 4;
  s.nic           = "1GBps";
  s.intra_node    = "100GBps";
  s.intra_latency = "0us";
  s.latency       = "0us";
  s.speed         = "1Gf";
  Scenario sc     = scenario(Arch::RING, 4, Sharing::FAIR, false);
  sc.ps           = 0;
  SimResult r =
      simulate_isolated(inputs(generated(s, "node.xml"), tiny::one_tensor_workload("100MB", "0.5ms", "0.5ms"), sc));
  EXPECT_NEAR(r.step_time_mean_s, 2.5e-3, 2.5e-3 * 0.01);
}
