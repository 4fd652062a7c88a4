// Two runs of one scenario by two code paths (a dispatcher against the workers' own actors) must give the same
// simulated times to rounding: the two start the same comms at the same dates, possibly in another order.
#pragma once

#include "sim/sim_result.hpp"

#include <gtest/gtest.h>
#include <string>

namespace sgdsim::tiny {

inline void expect_same_times(const SimResult& a, const SimResult& b, const std::string& what)
{
  ASSERT_EQ(a.per_worker.size(), b.per_worker.size()) << what;
  EXPECT_GT(a.step_time_mean_s, 0) << what;
  EXPECT_NEAR(a.step_time_mean_s, b.step_time_mean_s, 1e-9 * b.step_time_mean_s) << what;
  EXPECT_NEAR(a.simulated_time_s, b.simulated_time_s, 1e-9 * b.simulated_time_s) << what;
  for (std::size_t w = 0; w < b.per_worker.size(); w++) {
    const WorkerStats& x = a.per_worker[w];
    const WorkerStats& y = b.per_worker[w];
    EXPECT_NEAR(x.step_time_mean_s, y.step_time_mean_s, 1e-9 * y.step_time_mean_s) << what << ", worker " << w;
    EXPECT_NEAR(x.step_time_std_s, y.step_time_std_s, 1e-9 * y.step_time_mean_s) << what << ", worker " << w;
    EXPECT_NEAR(x.comm_exposed_s, y.comm_exposed_s, 1e-9 * y.step_time_mean_s) << what << ", worker " << w;
  }
}

} // namespace sgdsim::tiny
