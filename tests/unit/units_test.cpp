#include "common/input_error.hpp"
#include "common/units.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

struct UnitCase {
  Quantity q;
  const char* text;
  double expected;
};

class UnitsParse : public ::testing::TestWithParam<UnitCase> {};

TEST_P(UnitsParse, GivesSIValue)
{
  const UnitCase& c = GetParam();
  EXPECT_DOUBLE_EQ(parse_quantity(c.q, c.text, "--x"), c.expected) << c.text;
}

INSTANTIATE_TEST_SUITE_P(SimGridGrammar, UnitsParse,
                         ::testing::Values(UnitCase{Quantity::TIME, "1.5ms", 1.5e-3},
                                           UnitCase{Quantity::TIME, "25us", 25e-6}, UnitCase{Quantity::TIME, "2s", 2},
                                           UnitCase{Quantity::TIME, "0", 0}, UnitCase{Quantity::SIZE, "25MB", 25e6},
                                           UnitCase{Quantity::SIZE, "1KiB", 1024},
                                           UnitCase{Quantity::BANDWIDTH, "10Gbps", 1.25e9},
                                           UnitCase{Quantity::BANDWIDTH, "1GBps", 1e9},
                                           UnitCase{Quantity::SPEED, "15.7Tf", 15.7e12}));

namespace {
std::string error_of(Quantity q, const std::string& text)
{
  try {
    parse_quantity(q, text, "--fusion-buffer");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}
} // namespace

TEST(Units, RejectsWithTheValueAndTheValidUnits)
{
  EXPECT_EQ(error_of(Quantity::SIZE, "64"),
            "--fusion-buffer: '64' has no unit (use B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)");
  EXPECT_EQ(error_of(Quantity::BANDWIDTH, "10Gbit"),
            "--fusion-buffer: '10Gbit' has an unknown unit (use Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, bps, "
            "kbps, Mbps, Gbps, Tbps)");
  EXPECT_EQ(error_of(Quantity::TIME, "-3ms"), "--fusion-buffer: '-3ms' is negative");
  EXPECT_NE(error_of(Quantity::SIZE, "4.1 MiB").find("contains a space"), std::string::npos);
  EXPECT_NE(error_of(Quantity::TIME, "").find("is empty"), std::string::npos);
}
