// Scenario tests: real simulations on tiny star platforms (each in its own child process, via
// simulate_isolated), with expectations in closed form.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace sgdsim;
using tiny::inputs;
using tiny::scenario;

TEST(PsScenario, PerFlowCapKeepsDownlinkTimeForOneAndTwoWorkers)
{
  // validation/sources/li22-facts fact 4 (p3.16xlarge): a 25 Gbps NIC whose single flows are capped at 10 Gbps.
  // Platform: h0 (PS) and h1..h3 (workers), 25 Gbps full-duplex NICs, a 10 Gbps FATPIPE link on every route.
  // Workload: one 100 MB tensor, no compute, no update; ps-sync, fair, overlap off: step = downlink + uplink.
  // Expectation: K = 1 and 2: each flow at 10 Gbps = 1.25 GB/s: 2 * 100 MB / 1.25 GB/s = 0.16 s;
  //              K = 3: flows share 25 Gbps, 8.33 Gbps each: 2 * 100 MB / (3.125 GB/s / 3) = 0.192 s.
  std::string plat = tiny::star_platform(4, "25Gbps", "0s", "10Gbps");
  std::string wl   = tiny::one_tensor_workload("100MB", "0s", "0s");
  double step[4]   = {0, 0, 0, 0};
  for (int k = 1; k <= 3; k++)
    step[k] = simulate_isolated(inputs(plat, wl, scenario(Arch::PS_SYNC, k, Sharing::FAIR, false))).step_time_mean_s;
  EXPECT_NEAR(step[1], 0.16, 0.16 * 1e-6) << "1 worker: " << step[1] << " s";
  EXPECT_NEAR(step[2], step[1], step[1] * 0.01) << "2 workers: " << step[2] << " s vs 1 worker: " << step[1] << " s";
  EXPECT_GT(step[3], step[2] * 1.1) << "3 workers: " << step[3] << " s vs 2 workers: " << step[2] << " s";
  EXPECT_NEAR(step[3], 0.192, 0.192 * 1e-6) << "3 workers: " << step[3] << " s";
}

namespace {
double throughput(const std::string& plat, const std::string& wl, Arch arch, int k, Sharing sharing, bool overlap)
{
  return simulate_isolated(inputs(plat, wl, scenario(arch, k, sharing, overlap))).throughput_examples_per_s;
}
} // namespace

TEST(PsScenario, OverlapIsNeverSlowerAndAsyncNeverBelowSync)
{
  // 4 workers and 1 PS on 1 GB/s NICs; 8 layers of 10 MB, 5 ms forward and 10 ms backward each (T_C = 120 ms,
  // M/B = 80 ms): communication and compute are comparable, so both effects are visible.
  std::string plat = tiny::star_platform(5, "1GBps");
  std::string wl   = tiny::layered_workload(8, "10MB", "5ms", "10ms", "2ms");
  for (Sharing sharing : {Sharing::FAIR, Sharing::FCFS}) {
    for (Arch arch : {Arch::PS_SYNC, Arch::PS_ASYNC}) {
      double on  = throughput(plat, wl, arch, 4, sharing, true);
      double off = throughput(plat, wl, arch, 4, sharing, false);
      EXPECT_GE(on, off * (1 - 1e-9)) << to_string(arch) << " " << to_string(sharing) << ": overlap on " << on
                                      << " ex/s, off " << off << " ex/s";
    }
    for (bool overlap : {true, false}) {
      double sync  = throughput(plat, wl, Arch::PS_SYNC, 4, sharing, overlap);
      double async = throughput(plat, wl, Arch::PS_ASYNC, 4, sharing, overlap);
      EXPECT_GE(async, sync * (1 - 1e-9))
          << to_string(sharing) << " overlap " << overlap << ": async " << async << " ex/s, sync " << sync << " ex/s";
    }
  }
}

TEST(PsScenario, SlowWorkerSetsTheSyncStep)
{
  // h0: PS; h1: 1 Gf worker; h2: 0.5 Gf worker. The workload's reference speed is 1 Gf: T_F 0.1 s, T_B 0.2 s on
  // h1, twice that on h2. One 1 MB tensor on 1 GB/s NICs (1 ms per transfer).
  // Expectation (sync): both workers step together; the step is at least h2's compute, 0.6 s; h1 computes 0.3 s
  // and waits about 0.3 s for h2 every step.
  std::string plat        = tiny::star_platform({{"1Gf", "1GBps"}, {"1Gf", "1GBps"}, {"0.5Gf", "1GBps"}});
  std::string wl          = tiny::one_tensor_workload("1MB", "0.1s", "0.2s");
  SimResult sync          = simulate_isolated(inputs(plat, wl, scenario(Arch::PS_SYNC, 2, Sharing::FAIR, true)));
  const WorkerStats& fast = sync.per_worker[0];
  const WorkerStats& slow = sync.per_worker[1];
  EXPECT_DOUBLE_EQ(fast.speed_ratio, 1.0);
  EXPECT_DOUBLE_EQ(slow.speed_ratio, 0.5);
  EXPECT_NEAR(fast.step_time_mean_s, slow.step_time_mean_s, 1e-9);
  EXPECT_GE(slow.step_time_mean_s, 0.6);
  EXPECT_NEAR(slow.compute_s, 0.6, 1e-9) << "the slow host runs the reference times twice as long";
  EXPECT_NEAR(fast.compute_s, 0.3, 1e-9);
  EXPECT_NEAR(fast.wait_s, 0.3, 0.3 * 0.02) << "fast worker waits for the slow one: " << fast.wait_s << " s";
  // Async: each worker runs at its own pace, the fast one about twice as often.
  SimResult async = simulate_isolated(inputs(plat, wl, scenario(Arch::PS_ASYNC, 2, Sharing::FAIR, true)));
  EXPECT_NEAR(async.per_worker[1].step_time_mean_s / async.per_worker[0].step_time_mean_s, 2.0, 0.05);
  EXPECT_GT(async.throughput_examples_per_s, sync.throughput_examples_per_s * 1.3);
}

TEST(PsScenario, TwoParameterServersHalveTheBottleneck)
{
  // Two 50 MB tensors, 4 workers, 1 GB/s NICs, no compute, overlap off, fair.
  // One PS: 2 * K * M / B = 2 * 4 * 100 MB / 1 GB/s = 0.8 s.
  // Two PS (one tensor each, round-robin): each PS NIC carries 4 * 50 MB per direction: 0.2 + 0.2 = 0.4 s
  // (a worker NIC carries 2 flows of 250 MB/s, not a bottleneck).
  std::string plat = tiny::star_platform(6, "1GBps");
  std::string wl   = tiny::layered_workload(2, "50MB", "0s", "0s");
  Scenario one     = scenario(Arch::PS_SYNC, 4, Sharing::FAIR, false);
  Scenario two     = one;
  two.ps           = 2;
  double t1        = simulate_isolated(inputs(plat, wl, one)).step_time_mean_s;
  SimResult r2     = simulate_isolated(inputs(plat, wl, two));
  EXPECT_NEAR(t1, 0.8, 0.8 * 1e-6);
  EXPECT_NEAR(r2.step_time_mean_s, 0.4, 0.4 * 1e-6);
  ASSERT_EQ(r2.per_ps.size(), 2u);
  EXPECT_EQ(r2.per_ps[0].tensors, 1);
  EXPECT_DOUBLE_EQ(r2.per_ps[1].bytes, 50e6);
  // Steady-state utilization: 4 workers * 50 MB per 0.4 s = 500 MB/s on a 1 GB/s NIC.
  EXPECT_NEAR(r2.per_ps[0].downlink_utilization, 0.5, 1e-6);
  // Each of the 4 measured steps (the warm-up left out) of each worker is reported, each the closed form's 0.4 s.
  for (const WorkerStats& w : r2.per_worker) {
    ASSERT_EQ(w.step_times_s.size(), 4u) << "worker " << w.rank;
    for (double step_s : w.step_times_s)
      EXPECT_NEAR(step_s, 0.4, 0.4 * 1e-6) << "worker " << w.rank;
  }
}

TEST(PsScenario, StepTimesAreTheStepsTheMeanIsTakenOver)
{
  // The slow-worker platform of SlowWorkerSetsTheSyncStep, asynchronous, 3 steps after 2 warm-up: the fast worker's
  // steps last about half the slow one's (0.3 s against 0.6 s of compute, 1 ms transfers), and every worker's mean
  // is that of its reported steps.
  std::string plat = tiny::star_platform({{"1Gf", "1GBps"}, {"1Gf", "1GBps"}, {"0.5Gf", "1GBps"}});
  std::string wl   = tiny::one_tensor_workload("1MB", "0.1s", "0.2s");
  SimResult r      = simulate_isolated(inputs(plat, wl, scenario(Arch::PS_ASYNC, 2, Sharing::FAIR, true, 3, 2)));
  ASSERT_EQ(r.per_worker.size(), 2u);
  for (const WorkerStats& w : r.per_worker) {
    ASSERT_EQ(w.step_times_s.size(), 3u) << "worker " << w.rank;
    double sum_s = 0;
    for (double step_s : w.step_times_s)
      sum_s += step_s;
    EXPECT_NEAR(sum_s / 3, w.step_time_mean_s, 1e-12) << "worker " << w.rank;
    const double lo_s = w.rank == 0 ? 0.3 : 0.6;
    for (double step_s : w.step_times_s) {
      EXPECT_GE(step_s, lo_s) << "worker " << w.rank;
      EXPECT_LT(step_s, lo_s * 1.05) << "worker " << w.rank;
    }
  }
}

TEST(PsScenario, StepSplitAddsUpToTheStepTime)
{
  std::string plat = tiny::star_platform(5, "1GBps", "10us");
  std::string wl   = tiny::layered_workload(8, "10MB", "5ms", "10ms", "2ms");
  for (Arch arch : {Arch::PS_SYNC, Arch::PS_ASYNC}) {
    SimResult r = simulate_isolated(inputs(plat, wl, scenario(arch, 4, Sharing::FAIR, true), false));
    for (const WorkerStats& w : r.per_worker)
      EXPECT_NEAR(w.compute_s + w.comm_exposed_s + w.wait_s, w.step_time_mean_s, 1e-9)
          << to_string(arch) << " worker " << w.rank;
    EXPECT_NEAR(r.compute_s, 0.12, 1e-9) << "8 layers x (5 + 10) ms on a host of the reference speed";
  }
}

TEST(PsScenario, SampledLayerTimesVaryWithTheSeedOnly)
{
  // The sampled workload draws each layer's (fwd, bwd) among its profiled samples, per worker and step.
  std::string plat = tiny::star_platform({{"15.7Tf", "1GBps"}, {"15.7Tf", "1GBps"}, {"15.7Tf", "1GBps"}});
  SimInputs in =
      inputs(plat, SGDSIM_TEST_DATA "/sampled_workload.xml", scenario(Arch::PS_ASYNC, 2, Sharing::FAIR, true, 20, 1));
  SimResult a      = simulate_isolated(in);
  SimResult b      = simulate_isolated(in);
  in.scenario.seed = 2;
  SimResult c      = simulate_isolated(in);
  EXPECT_EQ(to_json(a).dump(), to_json(b).dump());
  EXPECT_NE(to_json(a).dump(), to_json(c).dump());
  EXPECT_GT(a.per_worker[0].step_time_std_s, 0) << "the samples differ, so step times must vary";
}

TEST(PsScenario, HierarchicalPsSendsOneTransferPerNode)
{
  // [LI22] §4.4 with a PS across nodes. h0: PS; h1..h4: 4 GPUs in 2 nodes of 2 (relays on h1 and h3).
  // One 100 MB tensor, no compute, Sync-PS, fair, overlap off, 1 GB/s NICs.
  // Flat PS: 2 * 4 * 0.1 = 0.8 s. Hierarchical: PS -> 2 relays (0.2 s), relay -> its other GPU (0.1 s; the relay's
  // own GPU is on its host), GPU -> relay (0.1 s), 2 relays -> PS (0.2 s): 0.6 s.
  std::string plat    = tiny::star_platform(5, "1GBps");
  std::string wl      = tiny::one_tensor_workload("100MB", "0s", "0s");
  Scenario flat       = scenario(Arch::PS_SYNC, 4, Sharing::FAIR, false);
  Scenario nodes      = flat;
  nodes.gpus_per_node = 2;
  EXPECT_NEAR(simulate_isolated(inputs(plat, wl, flat)).step_time_mean_s, 0.8, 0.8 * 1e-6);
  EXPECT_NEAR(simulate_isolated(inputs(plat, wl, nodes)).step_time_mean_s, 0.6, 0.6 * 1e-6);
}

TEST(PsScenario, AsyncHierarchicalPsEndsWithoutDeadlock)
{
  // Async workers run past their measured steps until all have measured; the GPUs of a node must stop after the same
  // step, or their relay waits for the gradients of one that stopped and SimGrid ends the run on a "deadlock". 4
  // nodes of 2 GPUs with different speeds (so that they measure at different times), 2 PS.
  std::vector<tiny::HostSpec> hosts(10);
  for (std::size_t i = 0; i < hosts.size(); i++)
    hosts[i].speed = std::to_string(1 + i % 3) + "Gf";
  std::string plat = tiny::star_platform(hosts);
  std::string wl   = tiny::layered_workload(4, "20MB", "1ms", "2ms", "1ms");
  Scenario sc      = scenario(Arch::PS_ASYNC, 8, Sharing::FAIR, true);
  sc.ps            = 2;
  sc.gpus_per_node = 2;
  testing::internal::CaptureStderr(); // the simulation's child process writes SimGrid's log there too
  const SimResult r     = simulate_isolated(inputs(plat, wl, sc));
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_GT(r.step_time_mean_s, 0);
  EXPECT_EQ(log.find("Deadlock"), std::string::npos) << log.substr(0, 2000);
}

TEST(PsScenario, CostPerExampleSumsThePricesOfTheHostsUsed)
{
  // 1 PS (h0, 1 USD/h) and 2 workers (h1, h2 at 2 USD/h); h3 (100 USD/h) is not used. A 1-byte tensor and
  // 1 s of compute: throughput = 2 workers x batch 32 / 1 s = 64 examples/s; the cluster costs 5 USD/h.
  std::vector<tiny::HostSpec> hosts(4);
  hosts[0].price   = "1";
  hosts[1].price   = "2";
  hosts[2].price   = "2";
  hosts[3].price   = "100";
  std::string plat = tiny::star_platform(hosts);
  std::string wl   = tiny::one_tensor_workload("1B", "0.5s", "0.5s");
  SimResult r      = simulate_isolated(inputs(plat, wl, scenario(Arch::PS_SYNC, 2, Sharing::FAIR, false)));
  EXPECT_DOUBLE_EQ(r.cluster_price_per_hour_usd, 5.0);
  EXPECT_NEAR(r.throughput_examples_per_s, 64.0, 1e-3);

  hosts[2].price = ""; // one used host without a price: no cost
  r = simulate_isolated(inputs(tiny::star_platform(hosts), wl, scenario(Arch::PS_SYNC, 2, Sharing::FAIR, false)));
  EXPECT_TRUE(std::isnan(r.cluster_price_per_hour_usd));
}

TEST(PsScenario, PerMessageCostHoldsEachConnection)
{
  // One worker, no overlap, 4 layers of one 1 MB tensor on 1 GB/s NICs, no latency. The PS pays 1 ms before sending
  // each tensor and 1 ms after receiving each gradient, and its connection takes the next message only then: 4
  // downlinks and 4 uplinks make the step 8 ms longer, whatever else it holds.
  auto step_s = [](const std::string& overhead) {
    Scenario sc           = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 3, 1);
    sc.message_overhead_s = overhead.empty() ? 0 : 1e-3;
    sc.stream             = false; // the connection, wire included, is held (a stream lets the bytes flow)
    return simulate_isolated(
               tiny::inputs(tiny::star_platform(2, "1GBps"), tiny::layered_workload(4, "1MB", "1ms", "2ms"), sc))
        .step_time_mean_s;
  };
  EXPECT_NEAR(step_s("1ms") - step_s(""), 8e-3, 1e-9);
}

TEST(PsScenario, PerByteMessageCostScalesWithTheTensor)
{
  // [LI20] eq. (19)'s a: the same 4 x 1 MB shard as above, a = 1 ns per byte, so 1 ms per message, paid where the
  // constant is. Connection held (stream off): 4 downlinks and 4 uplinks, 8 ms. On a stream the PS's receiver has
  // the next gradient's bytes flowing while it pays for the previous one (docs/models.md §10.5), so the uplinks
  // add only the last gradient's 1 ms: 4 + 1 ms. And a 2 MB tensor pays twice what a 1 MB one does.
  auto step_s = [](const std::string& size, double s_per_byte, bool stream) {
    Scenario sc           = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 3, 1);
    sc.message_s_per_byte = s_per_byte;
    sc.stream             = stream;
    return simulate_isolated(
               tiny::inputs(tiny::star_platform(2, "1GBps"), tiny::layered_workload(4, size, "1ms", "2ms"), sc))
        .step_time_mean_s;
  };
  EXPECT_NEAR(step_s("1MB", 1e-9, false) - step_s("1MB", 0, false), 8e-3, 1e-9);
  EXPECT_NEAR(step_s("1MB", 1e-9, true) - step_s("1MB", 0, true), 5e-3, 1e-9);
  EXPECT_NEAR(step_s("2MB", 1e-9, false) - step_s("2MB", 0, false), 16e-3, 1e-9);
}

TEST(PsScenario, PerByteMessageCostOnlyBetweenHosts)
{
  // The per-byte cost is a transport's between two machines (docs/models.md §10.5): a worker on the PS's own host
  // pays none, a worker on another host pays it. PS on h0; worker 0 on h0 or on h1; one 1 MB tensor, a = 1 ns/B.
  auto step_s = [](const std::string& worker_host, double s_per_byte) {
    Scenario sc           = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 3, 1);
    sc.message_s_per_byte = s_per_byte;
    SimInputs in = tiny::inputs(tiny::star_platform(2, "1GBps"), tiny::one_tensor_workload("1MB", "1ms", "2ms"), sc);
    in.deployment_path = tiny::deployment({"h0"}, {worker_host});
    return simulate_isolated(in).step_time_mean_s;
  };
  EXPECT_NEAR(step_s("h1", 1e-9) - step_s("h1", 0), 2e-3, 1e-9) << "a downlink and an uplink of 1 MB, 1 ms each";
  EXPECT_EQ(step_s("h0", 1e-9), step_s("h0", 0)) << "PS and worker on one host pay no per-byte cost";
}

TEST(PsScenario, StreamConnectionsPayTheRouteLatencyOncePerBurst)
{
  // One worker, no overlap, 4 layers of one 1 MB tensor on 1 GB/s NICs, 50 us per link (100 us per route), 12 ms of
  // compute. Messages paying the latency one after the other (--stream off): 4 downlinks and 4 uplinks of
  // 100 us + 1 MB / B each. A stream (docs/models.md §10.5): the shard arrives 100 us after its bytes, and the
  // gradients reach the PS 100 us after theirs, which delays the next step's shard: 2 latencies a step, not 8.
  auto step_s = [](bool stream) {
    Scenario sc = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 4, 2);
    sc.stream   = stream;
    return simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps", "50us"),
                                          tiny::layered_workload(4, "1MB", "1ms", "2ms"), sc))
        .step_time_mean_s;
  };
  const double off = step_s(false), on = step_s(true);
  EXPECT_NEAR(off - on, 6 * 100e-6, 1e-9) << "stream off " << off << " s, on " << on << " s";
  // And a stream pays nothing more than no latency at all, but those 2 latencies.
  const double no_latency =
      simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps"), tiny::layered_workload(4, "1MB", "1ms", "2ms"),
                                     tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 4, 2)))
          .step_time_mean_s;
  EXPECT_NEAR(on - no_latency, 2 * 100e-6, 1e-9) << "stream on " << on << " s, no latency " << no_latency << " s";
}

TEST(PsScenario, StreamReceiverHandlesGradientsWithoutHoldingTheWire)
{
  // One worker, no overlap, 16 layers of one 1 kB tensor on 1 GB/s NICs, 1 ms per link (2 ms per route), and a
  // software cost of 100 us per message: the PS's sender pays it before each parameter, its receiver after each
  // gradient. On a stream the socket's buffer takes the next gradients while the PS handles one (docs/models.md
  // §10.5), so the cost adds 16 x 100 us on each side and the route's latency nothing more, less the 15 gradients'
  // bytes (1 us each) that now pass while the PS handles the one before: 3.2 - 0.015 ms. (Until
  // 2026-12-06 the receiver posted one receive ahead and handled each gradient itself: a connection carried two
  // gradients per latency, and the cost added 16.5 ms.)
  auto step_s = [](double overhead_s) {
    Scenario sc           = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 4, 2);
    sc.message_overhead_s = overhead_s;
    return simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps", "1ms"),
                                          tiny::layered_workload(16, "1kB", "1ms", "2ms"), sc))
        .step_time_mean_s;
  };
  const double with = step_s(100e-6), without = step_s(0);
  EXPECT_NEAR(with - without, 2 * 16 * 100e-6 - 15 * 1e-6, 1e-9)
      << "with the cost " << with << " s, without " << without << " s";
}

TEST(PsScenario, FlowSpreadSharesUnequallyButKeepsTheLinkFull)
{
  // docs/models.md §10.6. Sync-PS, 2 workers, one 100 MB tensor, no compute, overlap off, 1 GB/s NICs. Fair: both
  // downlinks share the PS's NIC and end together at 0.2 s, then both uplinks: step 0.4 s. With unequal weights the
  // first downlink ends at t1 < 0.2 s, the second still at 0.2 s (the NIC stays busy); the first worker's uplink
  // runs alone into the PS from t1 (the other direction of its NIC), so the PS's receive link carries its 200 MB
  // from t1 on, the other uplink's 100 MB included: the last uplink ends at t1 + 0.2 s (plus the weights' latency,
  // 1-7.4 us per message).
  std::string plat = tiny::star_platform(3, "1GBps");
  std::string wl   = tiny::one_tensor_workload("100MB", "0s", "0s");
  SimInputs fair   = inputs(plat, wl, scenario(Arch::PS_SYNC, 2, Sharing::FAIR, false));
  fair.timeline    = true;
  fair.scenario.simgrid_cfg.push_back("network/crosstraffic:0"); // no ACK share: the two NIC directions are independent
  fair.scenario.warmup            = 0;                           // one step: the weights are drawn anew each step
  fair.scenario.steps             = 1;
  SimInputs spread                = fair;
  spread.scenario.flow_spread_in  = 1;
  spread.scenario.flow_spread_out = 1;
  const SimResult a               = simulate_isolated(fair);
  const SimResult b               = simulate_isolated(spread);
  // The downlinks of the first measured step: their ends, from that step's start.
  auto downlink_ends = [](const SimResult& r) {
    int first = 1 << 30;
    for (const TimelineEvent& e : r.timeline)
      first = std::min(first, e.step);
    double start = 1e300;
    std::vector<double> ends;
    for (const TimelineEvent& e : r.timeline)
      if (e.step == first && e.track.rfind("worker", 0) == 0) {
        start = std::min(start, e.start_s);
        if (e.resource == "downlink")
          ends.push_back(e.end_s);
      }
    for (double& x : ends)
      x -= start;
    std::sort(ends.begin(), ends.end());
    return ends;
  };
  const std::vector<double> ea = downlink_ends(a), eb = downlink_ends(b);
  ASSERT_EQ(ea.size(), 2u);
  ASSERT_EQ(eb.size(), 2u);
  EXPECT_NEAR(a.step_time_mean_s, 0.4, 0.4 * 1e-6);
  EXPECT_NEAR(ea[0], ea[1], 1e-9) << "fair: the two downlinks end together";
  EXPECT_NEAR(eb[1], 0.2, 2e-5) << "weighted: the last downlink still ends when the NIC has sent 200 MB";
  EXPECT_LT(eb[0], eb[1] - 0.01) << "weighted: one downlink ends first";
  double last_end = 0; // one step from 0: a worker's step time is when its last uplink ends
  for (const auto& w : b.per_worker)
    last_end = std::max(last_end, w.step_time_mean_s);
  EXPECT_NEAR(last_end, eb[0] + 0.2, 3e-5) << "the first worker's uplink overlaps the other's downlink";
}

TEST(PsScenario, FirstPullKeepsItsWeightUntilItEnds)
{
  // docs/models.md §10.6, "The first pull". Sync-PS, 3 workers, one 100 MB tensor, no compute, overlap off, 1 GB/s
  // NICs, no ACK traffic. The PS releases worker 0 first, into an idle NIC: with weight W = 2 its pull takes half the
  // NIC (0.5 GB/s) and ends at 0.2 s, when the other two have 50 MB each left; they end together when the NIC has
  // sent 300 MB, at 0.3 s. Without the weight all three end at 0.3 s. W comes from the K:W table, linear in K:
  // 2 at K = 3 between 1 at K = 2 and 3 at K = 4.
  auto pull_ends = [](const std::vector<std::pair<int, double>>& weights) {
    SimInputs in = inputs(tiny::star_platform(4, "1GBps"), tiny::one_tensor_workload("100MB", "0s", "0s"),
                          scenario(Arch::PS_SYNC, 3, Sharing::FAIR, false));
    in.timeline  = true;
    in.scenario.simgrid_cfg.push_back("network/crosstraffic:0");
    in.scenario.warmup             = 0;
    in.scenario.steps              = 2; // the weight is given again at the second release, and taken back between
    in.scenario.first_pull_weights = weights;
    const SimResult r              = simulate_isolated(in);
    std::map<std::pair<int, std::string>, double>
        ends; // (step, worker track) -> its downlink's end from the step's start
    std::map<int, double> starts;
    for (const TimelineEvent& e : r.timeline)
      if (e.track.rfind("worker", 0) == 0) {
        auto [it, fresh] = starts.emplace(e.step, e.start_s);
        it->second       = std::min(it->second, e.start_s);
      }
    for (const TimelineEvent& e : r.timeline)
      if (e.track.rfind("worker", 0) == 0 && e.resource == "downlink")
        ends[{e.step, e.track}] = e.end_s - starts[e.step];
    return ends;
  };
  const auto fair     = pull_ends({});
  const auto weighted = pull_ends({{2, 1.0}, {4, 3.0}});
  ASSERT_EQ(fair.size(), 6u);
  ASSERT_EQ(weighted.size(), 6u);
  int first_track = 0;
  for (const auto& [key, end_s] : fair)
    EXPECT_NEAR(end_s, 0.3, 2e-5) << key.second << " step " << key.first << ": fair, every pull ends at 0.3 s";
  for (const auto& [key, end_s] : weighted) {
    const bool first = key.second == "worker 0"; // released first
    first_track += first;
    EXPECT_NEAR(end_s, first ? 0.2 : 0.3, 2e-5) << key.second << " step " << key.first;
  }
  EXPECT_EQ(first_track, 2) << "worker 0's pull, once per step";
}

TEST(PsScenario, FirstPullWithTwoPsHoldsTheWeightUntilTheLastEnds)
{
  // docs/models.md §10.6, "The first pull", with two PS. Sync-PS, 3 workers, PS 0 holding a 100 MB tensor and PS 1
  // a 50 MB one, no compute, overlap off, 1 GB/s NICs, no ACK traffic. At the first release (t = 0) both PS post
  // worker 0 first; its connections out of both share its weight link, which carries W = 1.5 while either PS sends
  // it a first pull: 1.5 / 3.5 of each PS NIC, 0.4286 GB/s. Its 50 MB pull ends at 0.1167 s, PS 0's pull keeps the
  // weight and ends at 100 MB / 0.4286 GB/s = 0.2333 s; the others end at 0.3 s, when PS 0 has sent 300 MB. Were
  // the weight taken back when PS 1's pull ends, worker 0 would end at 0.2667 s.
  auto pull_ends = [](double weight) {
    const std::string wl = tiny::write_file(
        "two-sizes.xml", "<workload name=\"two\" batch=\"32\" device=\"test\" reference_speed=\"1Gf\" "
                         "ps_update=\"0s\">\n"
                         "  <layer name=\"l0\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"a\" size=\"100MB\"/></layer>\n"
                         "  <layer name=\"l1\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"b\" size=\"50MB\"/></layer>\n"
                         "</workload>\n");
    SimInputs in   = inputs(tiny::star_platform(5, "1GBps"), wl, scenario(Arch::PS_SYNC, 3, Sharing::FAIR, false));
    in.timeline    = true;
    in.scenario.ps = 2; // round robin: a on PS 0, b on PS 1
    in.scenario.simgrid_cfg.push_back("network/crosstraffic:0");
    in.scenario.warmup = 0;
    in.scenario.steps  = 2;
    if (weight != 1)
      in.scenario.first_pull_weights = {{3, weight}};
    const SimResult r = simulate_isolated(in);
    std::map<std::pair<int, std::string>, double> ends; // (step, worker track) -> its last downlink's end
    for (const TimelineEvent& e : r.timeline)
      if (e.track.rfind("worker", 0) == 0 && e.resource == "downlink") {
        double& end_s = ends[{e.step, e.track}];
        end_s         = std::max(end_s, e.end_s);
      }
    return ends;
  };
  const auto fair     = pull_ends(1);
  const auto weighted = pull_ends(1.5);
  ASSERT_EQ(fair.size(), 6u);
  ASSERT_EQ(weighted.size(), 6u);
  for (const std::string w : {"worker 0", "worker 1", "worker 2"}) {
    EXPECT_NEAR(fair.at({0, w}), 0.3, 2e-5) << w << ": fair, every pull ends at 0.3 s";
    EXPECT_NEAR(weighted.at({0, w}), w == "worker 0" ? 0.7 / 3 : 0.3, 2e-5) << w;
  }
  // The second release: PS 1 (the smaller shard's gradients in first) before PS 0; worker 0's pulls still end first.
  EXPECT_LT(weighted.at({1, "worker 0"}), weighted.at({1, "worker 1"}) - 0.01);
  EXPECT_NEAR(fair.at({1, "worker 0"}), fair.at({1, "worker 1"}), 2e-5);
}

TEST(PsScenario, FlowSpreadDesynchronizesAsyncWorkersDeterministically)
{
  // Async-PS, 4 workers on one PS, 4 layers of 20 MB, compute shorter than the transfers: the spreads move the
  // workers' step times apart from where fair sharing has them (docs/models.md §10.6), the same way for the same seed
  // and another way for another seed.
  std::string plat                = tiny::star_platform(5, "1GBps");
  std::string wl                  = tiny::layered_workload(4, "20MB", "2ms", "4ms", "1ms");
  SimInputs fair                  = inputs(plat, wl, scenario(Arch::PS_ASYNC, 4, Sharing::FAIR, true));
  SimInputs spread                = fair;
  spread.scenario.flow_spread_in  = 0.5;
  spread.scenario.flow_spread_out = 0.5;
  const SimResult a               = simulate_isolated(fair);
  const SimResult b               = simulate_isolated(spread);
  const SimResult b2              = simulate_isolated(spread);
  spread.scenario.seed            = 2;
  const SimResult c               = simulate_isolated(spread);
  ASSERT_EQ(a.per_worker.size(), 4u);
  ASSERT_EQ(b.per_worker.size(), 4u);
  double fair_range = 0, spread_range = 0;
  for (std::size_t w = 1; w < 4; w++) {
    fair_range = std::max(fair_range, std::abs(a.per_worker[w].step_time_mean_s - a.per_worker[0].step_time_mean_s));
    spread_range =
        std::max(spread_range, std::abs(b.per_worker[w].step_time_mean_s - b.per_worker[0].step_time_mean_s));
  }
  EXPECT_GT(std::abs(spread_range - fair_range), 1e-3 * a.step_time_mean_s) << "the weights move the workers apart";
  EXPECT_EQ(b.step_time_mean_s, b2.step_time_mean_s) << "same seed, same result";
  EXPECT_NE(b.step_time_mean_s, c.step_time_mean_s) << "another seed, other weights";
}
