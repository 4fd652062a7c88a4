// Runs of the ring dispatcher compared bit for bit (tests/scenario/ring_replay_test.cpp,
// tests/scenario/ring_kept_flows_test.cpp): inputs with the CLI's SimGrid settings (network/optim:Full, which the
// dispatcher needs), its log and a timeline, and a comparison of every result and every timeline event.
#pragma once

#include "cli/options.hpp"
#include "sim/sim_result.hpp"
#include "support/sim_helpers.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace sgdsim::tiny {

/** `tiny::inputs` under the CLI's SimGrid settings and then `extra_cfg`, with the ring driver's log at verbose (its
 *  step replay and kept flows report there) and a timeline. */
inline SimInputs cli_inputs(const std::string& platform, const std::string& workload, const Scenario& sc,
                            const std::vector<std::string>& extra_cfg = {})
{
  SimInputs in            = inputs(platform, workload, sc, false);
  in.scenario.simgrid_cfg = default_simgrid_cfg();
  in.scenario.simgrid_cfg.insert(in.scenario.simgrid_cfg.end(), extra_cfg.begin(), extra_cfg.end());
  in.log_settings = {"sgdsim_ring_driver.thresh:verbose"};
  in.timeline     = true;
  return in;
}

/** Every figure of the two results and every operation of their timelines, compared exactly. */
inline void expect_identical(const SimResult& a, const SimResult& b, const std::string& what)
{
  EXPECT_EQ(a.simulated_time_s, b.simulated_time_s) << what;
  EXPECT_EQ(a.step_time_mean_s, b.step_time_mean_s) << what;
  EXPECT_EQ(a.step_time_std_s, b.step_time_std_s) << what;
  EXPECT_EQ(a.step_time_min_s, b.step_time_min_s) << what;
  EXPECT_EQ(a.step_time_max_s, b.step_time_max_s) << what;
  EXPECT_EQ(a.throughput_examples_per_s, b.throughput_examples_per_s) << what;
  EXPECT_EQ(a.compute_s, b.compute_s) << what;
  EXPECT_EQ(a.comm_exposed_s, b.comm_exposed_s) << what;
  EXPECT_EQ(a.wait_s, b.wait_s) << what;
  ASSERT_EQ(a.per_worker.size(), b.per_worker.size()) << what;
  for (std::size_t w = 0; w < a.per_worker.size(); w++) {
    EXPECT_EQ(a.per_worker[w].step_time_mean_s, b.per_worker[w].step_time_mean_s) << what << ", worker " << w;
    EXPECT_EQ(a.per_worker[w].step_time_std_s, b.per_worker[w].step_time_std_s) << what << ", worker " << w;
    EXPECT_EQ(a.per_worker[w].comm_exposed_s, b.per_worker[w].comm_exposed_s) << what << ", worker " << w;
    EXPECT_EQ(a.per_worker[w].wait_s, b.per_worker[w].wait_s) << what << ", worker " << w;
  }
  ASSERT_EQ(a.timeline.size(), b.timeline.size()) << what;
  for (std::size_t i = 0; i < a.timeline.size(); i++) { // the same operations, in the same order, at the same dates
    const TimelineEvent& x = a.timeline[i];
    const TimelineEvent& y = b.timeline[i];
    EXPECT_TRUE(x.track == y.track && x.name == y.name && x.step == y.step && x.start_s == y.start_s &&
                x.end_s == y.end_s)
        << what << ", timeline event " << i << ": " << x.track << " " << x.name << " " << x.start_s << "-" << x.end_s
        << " against " << y.track << " " << y.name << " " << y.start_s << "-" << y.end_s;
  }
}

} // namespace sgdsim::tiny
