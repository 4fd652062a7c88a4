// The parameter server's update queue and release quantum (sim/parameter_server.cpp, issue #9): where the PS's CPU
// runs nothing else, the computed update dates give the same simulated times as executions on the PS host; the
// release quantum moves each release to the next multiple of the quantum, and no further.
#include "sim/parameter_server.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
// 2 ms per update of the whole model: every update lasts far longer than SimGrid's timing precision (1 ns), so
// executions and computed dates can only differ by rounding.
SimInputs ps_inputs(Arch arch, int workers, Sharing sharing, int ps = 1)
{
  Scenario sc = tiny::scenario(arch, workers, sharing, true, 3, 1);
  sc.ps       = ps;
  return tiny::inputs(tiny::star_platform(workers + ps, "1GBps", "5us"),
                      tiny::layered_workload(5, "2MB", "1ms", "2ms", "2ms"), sc);
}

// An execution's end is rounded to SimGrid's timing precision (precision/timing, 1 ns), a computed date is not: each
// update may differ by that much, and a step chains a few of them. 10 ns absolute on top of 1e-9 relative.
constexpr double kRoundingS = 10e-9;

void expect_same_times(SimInputs in, const std::string& what)
{
  const SimResult computed             = simulate_isolated(in);
  in.scenario.ps_updates_as_executions = true;
  const SimResult executed             = simulate_isolated(in);
  ASSERT_EQ(computed.per_worker.size(), executed.per_worker.size()) << what;
  EXPECT_GT(computed.step_time_mean_s, 0) << what;
  EXPECT_NEAR(computed.step_time_mean_s, executed.step_time_mean_s, 1e-9 * executed.step_time_mean_s + kRoundingS)
      << what;
  EXPECT_NEAR(computed.simulated_time_s, executed.simulated_time_s, 1e-9 * executed.simulated_time_s + kRoundingS)
      << what;
  for (std::size_t w = 0; w < executed.per_worker.size(); w++)
    EXPECT_NEAR(computed.per_worker[w].step_time_mean_s, executed.per_worker[w].step_time_mean_s,
                1e-9 * executed.step_time_mean_s + kRoundingS)
        << what << ", worker " << w;
}
} // namespace

TEST(PsUpdateQueue, ComputedOnlyWhereThePsHostRunsNothingElse)
{
  const std::vector<std::vector<int>> two_shards = {{0, 2}, {1}};
  Placement alone{{"w0", "w1"}, {"p0", "p1"}};
  EXPECT_EQ(ps_cpu_exclusive(alone, {}, false, two_shards), (std::vector<char>{1, 1}));
  EXPECT_EQ(ps_cpu_exclusive(alone, {}, true, two_shards), (std::vector<char>{0, 0}))
      << "a profile in the platform file may slow any host";
  EXPECT_EQ(ps_cpu_exclusive(alone, {"p1"}, false, two_shards), (std::vector<char>{1, 0}))
      << "a background speed profile on p1";
  Placement on_worker{{"w0", "w1"}, {"w0", "p1"}};
  EXPECT_EQ(ps_cpu_exclusive(on_worker, {}, false, two_shards), (std::vector<char>{0, 1}))
      << "worker 0 computes on PS 0's host";
  Placement together{{"w0", "w1"}, {"p", "p"}};
  EXPECT_EQ(ps_cpu_exclusive(together, {}, false, two_shards), (std::vector<char>{0, 0}))
      << "two PS updating on one host";
  EXPECT_EQ(ps_cpu_exclusive(together, {}, false, {{0, 1, 2}, {}}), (std::vector<char>{1, 0}))
      << "the second PS holds no tensor, so never updates on the first one's CPU";
}

TEST(PsUpdateQueue, SameTimesAsExecutions)
{
  expect_same_times(ps_inputs(Arch::PS_ASYNC, 6, Sharing::FAIR), "async, fair");
  expect_same_times(ps_inputs(Arch::PS_ASYNC, 6, Sharing::FCFS), "async, fcfs");
  expect_same_times(ps_inputs(Arch::PS_SYNC, 6, Sharing::FAIR), "sync, fair");
  expect_same_times(ps_inputs(Arch::PS_SYNC, 6, Sharing::FCFS), "sync, fcfs");
  expect_same_times(ps_inputs(Arch::PS_ASYNC, 6, Sharing::FAIR, 2), "async, 2 PS");
  SimInputs hierarchical              = ps_inputs(Arch::PS_SYNC, 8, Sharing::FAIR);
  hierarchical.scenario.gpus_per_node = 2;
  expect_same_times(hierarchical, "sync, hierarchical PS");
}

TEST(PsUpdateQueue, UpdatesQueueOnThePsCpu)
{
  // The queue must serialize: with updates as long as a step's compute, more workers wait longer for their
  // parameters, so Async-PS with 4 workers is slower per step than with 1 (the network is far from saturated).
  auto step_s = [](int workers) {
    Scenario sc = tiny::scenario(Arch::PS_ASYNC, workers, Sharing::FAIR, true, 3, 1);
    return simulate_isolated(tiny::inputs(tiny::star_platform(workers + 1, "100GBps"),
                                          tiny::layered_workload(2, "1kB", "1ms", "2ms", "3ms"), sc))
        .step_time_mean_s;
  };
  // One worker: 6 ms of compute, then the update of layer 0's tensor (1.5 ms); layer 1's update overlaps layer 0's
  // backward.
  EXPECT_NEAR(step_s(1), 7.5e-3, 1e-5);
  EXPECT_NEAR(step_s(4), 12e-3, 1e-4) << "4 workers' updates (12 ms) per step: the PS's CPU is the bottleneck";
}

TEST(ReleaseQuantum, SyncStepsMoveByLessThanOneQuantum)
{
  // Sync-PS releases every worker at one date: the quantum delays each step's start by less than the quantum,
  // and every later event moves with it.
  const double quantum_s        = 1e-3;
  SimInputs in                  = ps_inputs(Arch::PS_SYNC, 4, Sharing::FAIR);
  const SimResult exact         = simulate_isolated(in);
  in.scenario.release_quantum_s = quantum_s;
  const SimResult rounded       = simulate_isolated(in);
  EXPECT_NE(rounded.simulated_time_s, exact.simulated_time_s) << "the quantum must have moved some release";
  EXPECT_GE(rounded.simulated_time_s, exact.simulated_time_s);
  EXPECT_LE(rounded.simulated_time_s,
            exact.simulated_time_s + in.scenario.warmup * quantum_s + in.scenario.steps * quantum_s + 1e-9);
  EXPECT_NEAR(rounded.step_time_mean_s, exact.step_time_mean_s, quantum_s);
}

TEST(ReleaseQuantum, EveryStepsFirstDownlinkStartsOnTheGrid)
{
  const double quantum_s        = 1e-3;
  SimInputs in                  = ps_inputs(Arch::PS_ASYNC, 4, Sharing::FAIR);
  in.timeline                   = true;
  in.scenario.release_quantum_s = quantum_s;
  in.scenario.stream            = false; // a stream's first bytes follow the release by the route's latency
  const SimResult r             = simulate_isolated(in);
  int first_downlinks           = 0;
  for (const TimelineEvent& e : r.timeline) {
    if (e.resource != "downlink" || e.name != in.workload.tensors.front().name)
      continue;
    first_downlinks++;
    const double quanta = e.start_s / quantum_s;
    EXPECT_NEAR(quanta, std::round(quanta), 1e-6) << e.track << ", step " << e.step << ", start " << e.start_s;
  }
  EXPECT_EQ(first_downlinks, 4 * in.scenario.steps) << "one per worker and measured step";
}

TEST(PsUpdateQueue, ThePsHostsSpeedScalesItsUpdates)
{
  // One worker, no overlap: a step is downlink, compute, uplink, then the update of the whole model (10 ms on the
  // reference device, 1 Gf). On a PS host of 0.5 Gf the update takes 20 ms, so the step is 10 ms longer, both as
  // computed dates and as executions (the sum of the other parts does not depend on the PS's speed).
  auto step_s = [](const std::string& ps_speed, bool executions) {
    Scenario sc                 = tiny::scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 3, 1);
    sc.ps_updates_as_executions = executions;
    const std::string platform  = tiny::star_platform({{ps_speed, "1GBps", ""}, {"1Gf", "1GBps", ""}});
    const std::string workload  = tiny::one_tensor_workload("1MB", "1ms", "2ms", "10ms");
    return simulate_isolated(tiny::inputs(platform, workload, sc)).step_time_mean_s;
  };
  for (bool executions : {false, true}) {
    EXPECT_NEAR(step_s("0.5Gf", executions) - step_s("1Gf", executions), 10e-3, 1e-9) << executions;
    EXPECT_NEAR(step_s("2Gf", executions) - step_s("1Gf", executions), -5e-3, 1e-9) << executions;
  }
}
