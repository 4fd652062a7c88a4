#include "common/suggest.hpp"
#include "sim/progress.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

TEST(Progress, ReportsStepsSimulatedTimeAndTheTimeLeft)
{
  // A quarter done in 8 s of wall time: three quarters left take 24 s at the same rate.
  EXPECT_EQ(progress_line("", 30, 120, 12.3, 8),
            "sgdsim: step 30 of 120 (25%), simulated 12.3 s, wall 8 s, about 24 s left");
  EXPECT_EQ(progress_line("fcfs", 30, 120, 12.3, 8),
            "sgdsim: fcfs: step 30 of 120 (25%), simulated 12.3 s, wall 8 s, about 24 s left");
}

TEST(Progress, GivesNoEstimateBeforeTheFirstStepNorAfterTheLast)
{
  EXPECT_EQ(progress_line("", 0, 120, 0.5, 3), "sgdsim: step 0 of 120 (0%), simulated 0.5 s, wall 3 s");
  EXPECT_EQ(progress_line("", 120, 120, 50, 9), "sgdsim: step 120 of 120 (100%), simulated 50 s, wall 9 s");
}

TEST(Suggest, NamesTheClosestOptionForATypoOrAPrefix)
{
  const std::vector<std::string> names = {"--workers", "--steps", "--ps", "--cfg", "--output", "--message-overhead"};
  EXPECT_EQ(closest_name("--worker", names), "--workers");  // a prefix
  EXPECT_EQ(closest_name("--wrokers", names), "--workers"); // two letters swapped
  EXPECT_EQ(closest_name("--stpes", names), "--steps");     // two letters swapped
  EXPECT_EQ(closest_name("--ouput", names), "--output");    // one letter missing
  EXPECT_EQ(closest_name("--message-overhed", names), "--message-overhead");
  EXPECT_EQ(closest_name("--frobnicate", names), ""); // nothing close
  EXPECT_EQ(closest_name("--csv", names), "");        // two of three letters wrong: not a typo
  EXPECT_EQ(did_you_mean("--stpes", names), ", did you mean --steps?");
  EXPECT_EQ(did_you_mean("--zzz", names), "");
}
