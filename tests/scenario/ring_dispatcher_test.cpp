// The steps-mode ring dispatcher (sim/ring_driver.hpp, issue #9) against the workers' own actors exchanging the
// same chunks (sim/collectives.cpp): the same simulated times on uniform and uneven clusters, with stragglers and
// background traffic, hierarchical rings and tensor fusion; and the dispatcher is used exactly where it applies.
#include "sim/ring_driver.hpp"
#include "support/same_times.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
using tiny::steps_ring;

// Runs `in` through the dispatcher and through the workers' actors, under network/optim:Full (which the dispatcher
// needs) after the test's network settings.
void expect_same_times(SimInputs in, const std::string& what)
{
  in.scenario.simgrid_cfg.push_back("network/optim:Full");
  ASSERT_TRUE(ring_driver_applies(in.scenario)) << what;
  const SimResult dispatched        = simulate_isolated(in);
  in.scenario.ring_by_worker_actors = true;
  ASSERT_FALSE(ring_driver_applies(in.scenario));
  tiny::expect_same_times(dispatched, simulate_isolated(in), what);
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
  Scenario lazy    = sc;
  lazy.simgrid_cfg = {"network/optim:Full", "network/optim:Lazy"}; // the last setting holds
  EXPECT_FALSE(ring_driver_applies(lazy)) << "under Lazy the workers' actors run the ring";
  Scenario unset    = sc;
  unset.simgrid_cfg = {};
  EXPECT_FALSE(ring_driver_applies(unset)) << "SimGrid's own default is Lazy";
}

TEST(RingDispatcher, SameTimesWithAckTrafficOnUnevenHosts)
{
  // SimGrid's LV08 model (ACK traffic, bandwidth and latency factors) on hosts of uneven speeds and NICs: under
  // network/optim:Lazy the dispatcher's all-reduces ended up to 0.1% early here (so it needs Full).
  SimInputs in = tiny::inputs(tiny::star_platform(tiny::uneven_hosts(10), "15us"),
                              tiny::layered_workload(4, "5MB", "2ms", "6ms"), steps_ring(10), false);
  expect_same_times(in, "LV08, uneven hosts");
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
  expect_same_times(tiny::inputs(tiny::star_platform(tiny::uneven_hosts(6), "10us"),
                                 tiny::layered_workload(5, "2MB", "3ms", "5ms"), steps_ring(6)),
                    "uneven hosts");
}

TEST(RingDispatcher, SameTimesWithAStragglerAndNicTrafficThatChangeMidRun)
{
  SimInputs in = tiny::inputs(tiny::star_platform(5, "1GBps", "5us"), tiny::layered_workload(4, "8MB", "5ms", "5ms"),
                              steps_ring(5));
  in.background_path = tiny::straggler_background("dispatcher-background.xml");
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
