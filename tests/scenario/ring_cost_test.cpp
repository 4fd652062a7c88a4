// The warning before a steps-mode ring run that simulates every one of its 2(K - 1)K chunks per all-reduce
// (sim/ring_cost.hpp): the count, and why the step replay does not apply, named from the scenario or from the
// ring's first edge unlike the others. The tests lower the threshold so that small runs show it.
#include "cli/options.hpp"
#include "sim/ring_cost.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"
#include "workload/grad_units.hpp"
#include "workload/workload_parser.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

using tiny::steps_ring;

namespace {
// The run's stderr with the warning threshold at `threshold` chunk messages.
std::string warnings_of(const std::string& platform, const Scenario& sc, double threshold)
{
  SimInputs in             = tiny::inputs(platform, tiny::layered_workload(4, "4MB", "2ms", "4ms"), sc, false);
  in.scenario.simgrid_cfg  = default_simgrid_cfg();
  in.ring_messages_warning = threshold;
  testing::internal::CaptureStderr(); // the simulation's child process writes there too
  const SimResult r = simulate_isolated(in);
  EXPECT_GT(r.step_time_mean_s, 0);
  return testing::internal::GetCapturedStderr();
}

} // namespace

TEST(RingCost, CountsTwoKMinusOneKChunksPerAllreduceOverTheRun)
{
  // 4 layers of 4 MB, one all-reduce per layer: 4 x 2 x 5 x 6 = 240 chunks a step, 3 steps and 1 warm-up.
  const Workload wl                 = parse_workload_file(tiny::layered_workload(4, "4MB", "2ms", "4ms"));
  Scenario sc                       = steps_ring(6);
  sc.allreduce_unit                 = AllreduceUnit::LAYER;
  const std::vector<GradUnit> units = plan_grad_units(wl, sc.unit(), 0, 0, 0);
  ASSERT_EQ(units.size(), 4U);
  EXPECT_DOUBLE_EQ(ring_steps_messages(wl, sc, units, 1, false), 4 * 240.0);
  // Each chunk over 3 sockets; in slices of 256 kB: 4 MB / 6 is 3 slices.
  EXPECT_DOUBLE_EQ(ring_steps_messages(wl, sc, units, 3, false), 3 * 4 * 240.0);
  sc.ring_slice_bytes = 256e3;
  EXPECT_DOUBLE_EQ(ring_steps_messages(wl, sc, units, 1, true), 3 * 4 * 240.0);
  // Stream mode and the PS simulate no chunks.
  sc.ring_mode = RingMode::STREAM;
  EXPECT_EQ(ring_steps_messages(wl, sc, units, 1, false), 0);
  Scenario ps = tiny::scenario(Arch::PS_SYNC, 6, Sharing::FAIR, true, 3, 1);
  EXPECT_EQ(ring_steps_messages(wl, ps, units, 1, false), 0);
}

TEST(RingCost, WarnsWithTheFirstUnlikeEdgeOfAFatTree)
{
  // 8 nodes, 4 per leaf: node-3 -> node-4 crosses the leaves' switch, 4 links where node-0 -> node-1 crosses 2.
  const std::string err = warnings_of(tiny::fat_tree_platform(8, 4), steps_ring(8), 1);
  EXPECT_NE(err.find("sgdsim: warning: this steps-mode ring of 8 members simulates about"), std::string::npos) << err;
  EXPECT_NE(err.find("ring edge node-3 -> node-4 crosses 4 links with 20 us of latency, node-0 -> node-1 2 with "
                     "10 us"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("--ring-mode stream"), std::string::npos) << err;
  // Below the threshold, nothing.
  EXPECT_EQ(warnings_of(tiny::fat_tree_platform(8, 4), steps_ring(8), 1e12).find("warning"), std::string::npos);
}

TEST(RingCost, NoWarningWhereTheStepsAreReplayedOrStreamed)
{
  const std::string star = tiny::star_platform(6, "1GBps", "5us");
  EXPECT_EQ(warnings_of(star, steps_ring(6), 1).find("warning"), std::string::npos);
  Scenario stream  = steps_ring(8);
  stream.ring_mode = RingMode::STREAM;
  EXPECT_EQ(warnings_of(tiny::fat_tree_platform(8, 4), stream, 1).find("warning"), std::string::npos);
}

TEST(RingCost, NamesWhatInTheScenarioKeepsTheReplayOff)
{
  const std::string star      = tiny::star_platform(6, "1GBps", "5us");
  Scenario lanes              = steps_ring(6);
  lanes.collectives_in_flight = 2;
  EXPECT_NE(warnings_of(star, lanes, 1).find("because several all-reduces are in flight at once"), std::string::npos);
  Scenario overhead           = steps_ring(6);
  overhead.message_overhead_s = 1e-5;
  EXPECT_NE(warnings_of(star, overhead, 1).find("because each worker's actor pays a per-message"), std::string::npos);
  EXPECT_EQ(ring_replay_refusal(steps_ring(6), false, false), "");
  EXPECT_NE(ring_replay_refusal(steps_ring(6), true, false).find("slices"), std::string::npos);
  EXPECT_NE(ring_replay_refusal(steps_ring(6), false, true).find("--background"), std::string::npos);
}
