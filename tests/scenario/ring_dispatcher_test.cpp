// The steps-mode ring dispatcher (sim/ring_driver.hpp, issue #9) against the workers' own actors exchanging the
// same chunks (sim/collectives.cpp): the same simulated times on uniform and uneven clusters, with stragglers and
// background traffic, hierarchical rings and tensor fusion; and the dispatcher is used exactly where it applies.
#include "sim/ring_driver.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
Scenario steps_ring(int workers)
{
  Scenario sc  = tiny::scenario(Arch::RING, workers, Sharing::FAIR, true, 3, 1);
  sc.ps        = 0;
  sc.ring_mode = RingMode::STEPS;
  return sc;
}

// Runs `in` through the dispatcher and through the workers' actors; every worker's step times must agree to
// rounding (the two start the same comms at the same dates, possibly in another order).
void expect_same_times(SimInputs in, const std::string& what)
{
  ASSERT_TRUE(ring_driver_applies(in.scenario)) << what;
  const SimResult dispatched        = simulate_isolated(in);
  in.scenario.ring_by_worker_actors = true;
  ASSERT_FALSE(ring_driver_applies(in.scenario));
  const SimResult by_actors = simulate_isolated(in);
  ASSERT_EQ(dispatched.per_worker.size(), by_actors.per_worker.size()) << what;
  EXPECT_GT(dispatched.step_time_mean_s, 0) << what;
  EXPECT_NEAR(dispatched.step_time_mean_s, by_actors.step_time_mean_s, 1e-9 * by_actors.step_time_mean_s) << what;
  EXPECT_NEAR(dispatched.simulated_time_s, by_actors.simulated_time_s, 1e-9 * by_actors.simulated_time_s) << what;
  for (std::size_t w = 0; w < by_actors.per_worker.size(); w++) {
    const WorkerStats& a = dispatched.per_worker[w];
    const WorkerStats& b = by_actors.per_worker[w];
    EXPECT_NEAR(a.step_time_mean_s, b.step_time_mean_s, 1e-9 * b.step_time_mean_s) << what << ", worker " << w;
    EXPECT_NEAR(a.step_time_std_s, b.step_time_std_s, 1e-9 * b.step_time_mean_s) << what << ", worker " << w;
    EXPECT_NEAR(a.comm_exposed_s, b.comm_exposed_s, 1e-9 * b.step_time_mean_s) << what << ", worker " << w;
  }
}
} // namespace

TEST(RingDispatcher, AppliesToStepsModeRingsWithoutPerMessageCosts)
{
  Scenario sc = steps_ring(4);
  EXPECT_TRUE(ring_driver_applies(sc));
  Scenario stream  = sc;
  stream.ring_mode = RingMode::STREAM;
  EXPECT_FALSE(ring_driver_applies(stream));
  Scenario overhead           = sc;
  overhead.message_overhead_s = 1e-6;
  EXPECT_FALSE(ring_driver_applies(overhead)) << "a per-message cost is the worker's own activity";
  Scenario reduce          = sc;
  reduce.reduce_s_per_byte = 1e-10;
  EXPECT_FALSE(ring_driver_applies(reduce)) << "the summation runs on the worker's CPU";
  Scenario ps = tiny::scenario(Arch::PS_SYNC, 4, Sharing::FAIR, true);
  EXPECT_FALSE(ring_driver_applies(ps));
  Scenario hierarchical      = sc;
  hierarchical.collective    = Collective::HIERARCHICAL;
  hierarchical.gpus_per_node = 2;
  EXPECT_TRUE(ring_driver_applies(hierarchical)) << "the leaders' ring is a steps-mode ring";
}

TEST(RingDispatcher, SameTimesAsTheWorkersActorsOnAUniformStar)
{
  // 8 workers, 6 layers of 4 MB with overlap, 5 us per link: latency and bandwidth both count.
  expect_same_times(tiny::inputs(tiny::star_platform(8, "1GBps", "5us"), tiny::layered_workload(6, "4MB", "2ms", "4ms"),
                                 steps_ring(8)),
                    "uniform star");
}

TEST(RingDispatcher, SameTimesOnUnevenHostsAndLinks)
{
  // Hosts alternate full and half speed, NICs 1 GB/s and 0.25 GB/s: members enter each all-reduce at different
  // dates and chunks end at different dates, so exchanges wait on either half.
  std::vector<tiny::HostSpec> hosts;
  for (int h = 0; h < 6; h++)
    hosts.push_back(tiny::HostSpec{h % 2 == 0 ? "1Gf" : "0.5Gf", h % 3 == 0 ? "0.25GBps" : "1GBps", ""});
  expect_same_times(
      tiny::inputs(tiny::star_platform(hosts, "10us"), tiny::layered_workload(5, "2MB", "3ms", "5ms"), steps_ring(6)),
      "uneven hosts");
}

TEST(RingDispatcher, SameTimesWithAStragglerAndNicTrafficThatChangeMidRun)
{
  SimInputs in = tiny::inputs(tiny::star_platform(5, "1GBps", "5us"), tiny::layered_workload(4, "8MB", "5ms", "5ms"),
                              steps_ring(5));
  in.background_path =
      tiny::write_file("dispatcher-background.xml", "<background>\n"
                                                    "  <host name=\"h2\"><at time=\"0.03s\" speed=\"0.4\"/></host>\n"
                                                    "  <nic host=\"h3\"><at time=\"0.02s\" bandwidth=\"0.3\"/></nic>\n"
                                                    "</background>\n");
  expect_same_times(in, "straggler and NIC traffic");
}

TEST(RingDispatcher, SameTimesForTheLeadersRingOfAHierarchicalAllReduce)
{
  Scenario sc      = steps_ring(8);
  sc.collective    = Collective::HIERARCHICAL;
  sc.gpus_per_node = 2;
  expect_same_times(
      tiny::inputs(tiny::star_platform(8, "1GBps", "5us"), tiny::layered_workload(4, "4MB", "2ms", "3ms"), sc),
      "hierarchical");
}

TEST(RingDispatcher, SameTimesWithTensorFusion)
{
  Scenario sc            = steps_ring(6);
  sc.fusion_buffer_bytes = 6e6;
  sc.fusion_timeout_s    = 1e-3;
  expect_same_times(
      tiny::inputs(tiny::star_platform(6, "1GBps", "5us"), tiny::layered_workload(8, "1MB", "1ms", "2ms"), sc),
      "fusion");
}
