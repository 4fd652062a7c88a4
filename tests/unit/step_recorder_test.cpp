#include "sim/step_recorder.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

TEST(StepRecorder, UnionLengthMergesAndClips)
{
  // [0,2] u [1,3] u [5,6] = [0,3] u [5,6]; clipped to [0.5, 5.5]: 2.5 + 0.5 = 3.
  EXPECT_DOUBLE_EQ(union_length({{1, 3}, {0, 2}, {5, 6}}, 0.5, 5.5), 3.0);
  EXPECT_DOUBLE_EQ(union_length({}, 0, 10), 0.0);
  EXPECT_DOUBLE_EQ(union_length({{2, 2}}, 0, 10), 0.0);
}

TEST(StepRecorder, SplitAddsUpToTheStepAndCarriesLongIntervals)
{
  IntervalAccount acc;
  // Step window [0, 10]: compute [1, 4], transfers [0, 2] and [3, 6] and [8, 12] (reaches into the next step).
  // compute 3; busy = [0, 6] u [8, 10] = 8, so exposed communication 5 and waiting 2.
  acc.add_compute(1, 4);
  acc.add_comm(0, 2);
  acc.add_comm(3, 6);
  acc.add_comm(8, 12);
  StepSplit s = acc.close_window(0, 10);
  EXPECT_DOUBLE_EQ(s.compute_s, 3);
  EXPECT_DOUBLE_EQ(s.comm_exposed_s, 5);
  EXPECT_DOUBLE_EQ(s.wait_s, 2);
  // Next window [10, 15]: the carried transfer covers [10, 12]; nothing else: exposed 2, waiting 3.
  StepSplit t = acc.close_window(10, 15);
  EXPECT_DOUBLE_EQ(t.compute_s, 0);
  EXPECT_DOUBLE_EQ(t.comm_exposed_s, 2);
  EXPECT_DOUBLE_EQ(t.wait_s, 3);
}

TEST(StepRecorder, KnowsWhenEveryWorkerMeasured)
{
  StepRecorder rec(2, 1, 2); // 2 workers, 1 warm-up + 2 measured steps each
  for (int s = 0; s < 3; s++)
    rec.end_step(0, s + 1.0, {});
  EXPECT_FALSE(rec.all_measured());
  for (int s = 0; s < 3; s++)
    rec.end_step(1, s + 1.5, {});
  EXPECT_TRUE(rec.all_measured());
  EXPECT_EQ(rec.trace(1).step_end_s.size(), 3u);
}

TEST(StepRecorder, CountsStepsDoneUpToEachWorkersLastMeasuredStep)
{
  StepRecorder rec(2, 1, 2); // 6 steps in all
  EXPECT_EQ(rec.steps_total(), 6);
  for (int s = 0; s < 5; s++) // an async worker runs on past its 3 steps: those extra steps are not progress
    rec.end_step(0, s + 1.0, {});
  EXPECT_EQ(rec.steps_done(), 3);
  rec.end_step(1, 1.0, {});
  EXPECT_EQ(rec.steps_done(), 4);
}
