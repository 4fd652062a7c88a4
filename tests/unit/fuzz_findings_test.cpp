// Regression tests of what the fuzzers found (docs/fuzzing.md "Findings") that is not an input error, and so has no
// case in tests/bad_input/cases/fuzz_findings.txt.
#include "platform/calibration.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace sgdsim;

// fuzz_calibration: an all-reduce CSV whose times fall as sizes grow above every threshold made eq. (37) fit a
// negative time per byte; `calibrate -o` wrote it into sgdsim.allreduce_time, which `run` then refused.
TEST(FuzzFindings, CalibrateWritesNoAllreduceTimeThatRunRefuses)
{
  const std::vector<CommMeasurement> m = {
      {2, 10000, 0.01, 2}, {20001, 100, 0.001, 3}, {2, 1e9, 0.002, 4}, {2, 1000, 0.001, 5}, {2, 1e6, 1.002, 6}};
  const CalibrationFit f = calibrate(CommKind::ALLREDUCE, m);
  for (const AllreduceTimeFit& a : f.by_nodes) {
    EXPECT_GE(a.eq.a2_s_per_byte, 0) << a.nodes << " nodes";
    EXPECT_TRUE(std::isfinite(a.eq.a2_s_per_byte) && std::isfinite(a.eq.b2_s)) << a.nodes << " nodes";
  }
  EXPECT_TRUE(f.by_nodes.empty()) << "2 nodes: the only threshold leaves 1 MB in 1.002 s and 1 GB in 0.002 s above it";
}
