// Regression tests of what the fuzzers found (docs/fuzzing.md "Findings") that is not an input error, and so has no
// case in tests/bad_input/cases/fuzz_findings.txt.
#include "common/input_error.hpp"
#include "platform/calibration.hpp"
#include "platform/platform_costs.hpp"

#include <cmath>
#include <fstream>
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

// fuzz_calibration (CI run of 3b05f3b, 2026-12-06): two times of 1e308 s at one size, their median taken as
// (a + b) / 2, gave a measured time of infinity for 4 nodes; `calibrate -o` wrote it, and `run` refused it.
TEST(FuzzFindings, CalibrateWritesNoInfiniteMeasuredTime)
{
  const std::vector<CommMeasurement> m = {{2, 4096, 0.001, 2},    {2, 16384, 0.006, 3},    {2, 4194304, 0.02, 4},
                                          {4, 4096, 0.002, 5},    {4, 16384, 0.0022, 6},   {4, 65536, 1e308, 7},
                                          {4, 262144, 0.004, 8},  {4, 1048575, 0.012, 9},  {4, 419536, 1e308, 10},
                                          {4, 262144, 0.004, 11}, {4, 1048575, 0.012, 12}, {4, 4194304, 0.04, 13}};
  const CalibrationFit f               = calibrate(CommKind::ALLREDUCE, m);
  for (const AllreduceTimeFit& a : f.by_nodes)
    for (const SizeTime& x : a.measured)
      EXPECT_TRUE(std::isfinite(x.time_s)) << a.nodes << " nodes, " << x.bytes << " bytes";
  const std::string path = testing::TempDir() + "/fuzz_finding_calibrated.xml";
  std::ofstream(path) << "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">\n"
                      << "    <host id=\"h\" speed=\"1Gf\"><prop id=\"sgdsim.allreduce_time\" value=\""
                      << format_allreduce_time(f.by_nodes) << "\"/></host>\n  </zone>\n</platform>\n";
  EXPECT_NO_THROW(read_platform_costs(path));
}
