// Several sockets per peer (--sockets-per-peer, the platform's sgdsim.nccl_sockets; docs/models.md §10.9): each ring
// message between two hosts is cut into parts as NCCL's socket transport cuts it, one flow per part. Closed forms on
// a 4-host star whose routes cap each flow at 1 GB/s (a FATPIPE link) under 2.5 GB/s NICs.
#include "sim/collectives.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

#include <numeric>

using namespace sgdsim;

TEST(SocketParts, CutAsNcclCutsAMessage)
{
  // Parts of max(64 KiB, ceil(bytes / sockets)), the last one the remainder (NCCL net_socket.cc).
  EXPECT_EQ(socket_parts(1e6, 1), std::vector<double>{1e6});
  EXPECT_EQ(socket_parts(1e6, 4), (std::vector<double>{250000, 250000, 250000, 250000}));
  const std::vector<double> sixteen = socket_parts(1e6, 16); // ceil(1e6 / 16) = 62,500 < 64 KiB
  ASSERT_EQ(sixteen.size(), 16u);
  EXPECT_EQ(sixteen.front(), 65536);
  EXPECT_EQ(sixteen.back(), 1e6 - 15 * 65536.0);
  EXPECT_EQ(socket_parts(65536, 16), std::vector<double>{65536}) << "64 KiB or less travels whole";
  const std::vector<double> small = socket_parts(200000, 64);
  EXPECT_EQ(small.size(), 4u);
  EXPECT_EQ(std::accumulate(small.begin(), small.end(), 0.0), 200000);
  EXPECT_EQ(socket_parts(1000.5, 8), std::vector<double>{1000.5}) << "a chunk of bytes / n need not be whole";
}

namespace {
// 4 workers, one layer of one 4 MB tensor, no compute: a step is one ring all-reduce, 6 exchanges of 1 MB chunks.
// Steps mode runs through the ring dispatcher, or through the workers' actors with `by_actors`.
double step_s(int sockets, RingMode mode, const std::string& flow_cap = "1GBps", bool by_actors = false,
              Collective collective = Collective::RING, int workers = 4, double connection_rate_Bps = 0)
{
  Scenario sc              = tiny::scenario(Arch::RING, workers, Sharing::FAIR, false, 2, 1);
  sc.connection_rate_Bps   = connection_rate_Bps;
  sc.collective            = collective;
  sc.ps                    = 0;
  sc.ring_mode             = mode;
  sc.sockets_per_peer      = sockets;
  sc.ring_by_worker_actors = by_actors;
  return simulate_isolated(tiny::inputs(tiny::star_platform(workers, "2.5GBps", "0s", flow_cap),
                                        tiny::one_tensor_workload("4MB", "0s", "0s"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(RingSockets, OneSocketIsCappedPerFlow)
{
  EXPECT_NEAR(step_s(1, RingMode::STEPS), 6 * 1e6 / 1e9, 1e-9); // 6 chunks at the 1 GB/s cap
}

TEST(RingSockets, PartsReachTheNicBeyondTheCap)
{
  // 2 parts of 500 kB: 2 x 1 GB/s < 2.5 GB/s, each part at the cap: 0.5 ms per chunk.
  EXPECT_NEAR(step_s(2, RingMode::STEPS), 6 * 0.5e6 / 1e9, 1e-9);
  // 4 parts of 250 kB, or 16 parts of 64 KiB: the NIC decides, 1 MB / 2.5 GB/s per chunk (the parts of 16 end at
  // different dates, the NIC stays full until the last).
  EXPECT_NEAR(step_s(4, RingMode::STEPS), 6 * 1e6 / 2.5e9, 1e-9);
  EXPECT_NEAR(step_s(16, RingMode::STEPS), 6 * 1e6 / 2.5e9, 1e-9);
  for (int sockets : {2, 4, 16}) // the workers' actors cut and wait as the dispatcher does
    EXPECT_EQ(step_s(sockets, RingMode::STEPS, "1GBps", true), step_s(sockets, RingMode::STEPS)) << sockets;
}

TEST(RingSockets, StreamModeCutsItsFlowAsTheChunks)
{
  // One flow of 2(n-1)/n x 4 MB = 6 MB per edge, cut into as many parts as a 1 MB chunk: 1 or 2 parts.
  EXPECT_NEAR(step_s(1, RingMode::STREAM), 6e6 / 1e9, 1e-9);
  EXPECT_NEAR(step_s(2, RingMode::STREAM), 3e6 / 1e9, 1e-9);
}

TEST(RingSockets, WithoutACapSocketsChangeNothing)
{
  // Each link carries one chunk at a time: N flows of bytes / N end with the one flow (simulated as one).
  EXPECT_NEAR(step_s(16, RingMode::STEPS, ""), 6 * 1e6 / 2.5e9, 1e-9);
  EXPECT_EQ(step_s(16, RingMode::STEPS, ""), step_s(1, RingMode::STEPS, ""));
}

namespace {
// aws-p3.16xlarge (8 GPUs per host, 25 Gbps NICs, 10 Gbps per flow), ResNet-50 in DDP's 25 MiB buckets, overlap on.
double p316_step_s(int workers, Collective collective, int sockets, RingMode mode, bool by_actors)
{
  Scenario sc              = tiny::scenario(Arch::RING, workers, Sharing::FAIR, true, 2, 1);
  sc.ps                    = 0;
  sc.collective            = collective;
  sc.gpus_per_node         = collective == Collective::HIERARCHICAL ? 8 : 1;
  sc.ring_mode             = mode;
  sc.sockets_per_peer      = sockets;
  sc.ring_by_worker_actors = by_actors;
  sc.allreduce_unit        = AllreduceUnit::BUCKET;
  return simulate_isolated(tiny::inputs(std::string(SGDSIM_SOURCE_DIR) + "/platforms/aws-p3.16xlarge.xml",
                                        std::string(SGDSIM_SOURCE_DIR) + "/workloads/resnet50-v100-b32.xml", sc))
      .step_time_mean_s;
}
} // namespace

TEST(RingSockets, OnlyMessagesBetweenHostsAreCut)
{
  // aws-p3.16xlarge: 8 GPUs per host behind a 25 Gbps NIC whose flows are capped at 10 Gbps. 16 workers on two
  // hosts, ResNet-50 in DDP's 25 MiB buckets: the flat ring's two hops between hosts carry 2(K-1)/K x 102.2 MB =
  // 191.6 MB per step, 0.153 s at 10 Gbps with one socket, 0.061 s at 25 Gbps with 16 (intra-host hops go over the
  // loopback, uncut: a cut one would go 16 x faster there and the receivers would wait for parts that never come).
  const auto p316 = [](int sockets, RingMode mode, bool by_actors = false) {
    return p316_step_s(16, Collective::RING, sockets, mode, by_actors);
  };
  for (RingMode mode : {RingMode::STEPS, RingMode::STREAM}) {
    const double one = p316(1, mode), sixteen = p316(16, mode);
    EXPECT_GT(one, 0.153) << "191.6 MB at 10 Gbps";
    EXPECT_LT(sixteen, one - 0.06) << "the inter-host hops run 2.5 x faster: 0.092 s less, less what overlap hid";
  }
  EXPECT_EQ(p316(16, RingMode::STEPS, true), p316(16, RingMode::STEPS)) << "actors and dispatcher agree";
}

TEST(RingSockets, HierarchicalLeadersRingIsCut)
{
  // aws-p3.16xlarge, 32 workers on 4 hosts, --collective hierarchical (8 GPUs per node): the leaders' ring crosses
  // the hosts, so its chunks are cut; the GPU-to-leader transfers inside a host are not. Steps mode through the
  // dispatcher and through the workers' actors, and stream mode.
  const auto run = [](int sockets, RingMode mode, bool by_actors) {
    return p316_step_s(32, Collective::HIERARCHICAL, sockets, mode, by_actors);
  };
  // 4 leaders: 2(n-1)/n x 102.2 MB = 153 MB per step on each hop between hosts, 0.123 s at 10 Gbps, 0.049 s at 25.
  const double one = run(1, RingMode::STEPS, false), sixteen = run(16, RingMode::STEPS, false);
  EXPECT_GT(one, 0.123);
  EXPECT_LT(sixteen, one - 0.05);
  EXPECT_EQ(run(16, RingMode::STEPS, true), sixteen) << "actors and dispatcher agree";
  EXPECT_LT(run(16, RingMode::STREAM, false), run(1, RingMode::STREAM, false) - 0.05);
}

TEST(RingSockets, TreeAndHalvingDoublingAreCutToo)
{
  // Halving-doubling, 4 workers: exchanges of 2, 1, 1 and 2 MB with one partner (each direction its own NIC link):
  // 6 ms at the 1 GB/s cap, 6 MB / 2.5 GB/s = 2.4 ms with 16 sockets.
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "1GBps", false, Collective::HALVING_DOUBLING), 6e-3, 1e-9);
  EXPECT_NEAR(step_s(16, RingMode::STEPS, "1GBps", false, Collective::HALVING_DOUBLING), 2.4e-3, 1e-9);
  // Tree, 3 workers, one chunk: both children send 4 MB to the root (its NIC in: 2 flows), then the root sends 4 MB
  // to each (its NIC out). One socket: each flow at the 1 GB/s cap, 4 + 4 ms; 16: 8 MB / 2.5 GB/s per phase.
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "1GBps", false, Collective::TREE, 3), 8e-3, 1e-9);
  EXPECT_NEAR(step_s(16, RingMode::STEPS, "1GBps", false, Collective::TREE, 3), 2 * 3.2e-3, 1e-9);
}

TEST(ConnectionRate, BindsEachConnectionAsAPerFlowCapWould)
{
  // --connection-rate 1GBps on the same star without a cap (docs/models.md §10.11): every closed form above holds,
  // the collective library's connection standing where the route's cap stood, in every collective and mode.
  for (int sockets : {1, 2, 4, 16})
    for (bool by_actors : {false, true}) {
      EXPECT_NEAR(step_s(sockets, RingMode::STEPS, "", by_actors, Collective::RING, 4, 1e9),
                  step_s(sockets, RingMode::STEPS, "1GBps", by_actors), 1e-9)
          << sockets << " sockets, actors " << by_actors;
    }
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "", false, Collective::RING, 4, 1e9), 6e-3, 1e-9);
  EXPECT_NEAR(step_s(1, RingMode::STREAM, "", false, Collective::RING, 4, 1e9), 6e-3, 1e-9);
  EXPECT_NEAR(step_s(2, RingMode::STREAM, "", false, Collective::RING, 4, 1e9), 3e-3, 1e-9);
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "", false, Collective::HALVING_DOUBLING, 4, 1e9), 6e-3, 1e-9);
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "", false, Collective::TREE, 3, 1e9), 8e-3, 1e-9);
  // Above the NIC's 2.5 GB/s a connection's rate changes nothing; with the route's cap, the lower one binds.
  EXPECT_EQ(step_s(1, RingMode::STEPS, "", false, Collective::RING, 4, 5e9), step_s(1, RingMode::STEPS, ""));
  EXPECT_NEAR(step_s(1, RingMode::STEPS, "1GBps", false, Collective::RING, 4, 0.5e9), 12e-3, 1e-9);
}

TEST(ConnectionRate, BindsTheSlicesOfNcclsRing)
{
  // NCCL's sliced ring (docs/models.md §10.10) on aws-p3.2xlarge-like hosts: the same rate as a platform cap gives
  // the same step, in the slices' dispatcher and in the workers' actors.
  const auto run = [](const std::string& cap, double rate_Bps, bool by_actors) {
    Scenario sc              = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 2, 1);
    sc.ps                    = 0;
    sc.ring_slice_bytes      = 64 * 1024;
    sc.ring_slices_in_flight = 4;
    sc.connection_rate_Bps   = rate_Bps;
    sc.ring_by_worker_actors = by_actors;
    return simulate_isolated(tiny::inputs(tiny::star_platform(4, "2.5GBps", "10us", cap),
                                          tiny::one_tensor_workload("4MB", "0s", "0s"), sc))
        .step_time_mean_s;
  };
  for (bool by_actors : {false, true}) {
    const double capped = run("1GBps", 0, by_actors);
    EXPECT_GT(capped, 6e-3) << "6 MB through 1 GB/s connections, and the latencies";
    EXPECT_NEAR(run("", 1e9, by_actors), capped, 1e-9) << "actors " << by_actors;
  }
}
