#include "common/units.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <simgrid/Exception.hpp>
#include <xbt/parse_units.hpp>

namespace sgdsim {

const char* quantity_si_unit(Quantity q)
{
  switch (q) {
  case Quantity::TIME:
    return "seconds";
  case Quantity::SIZE:
    return "bytes";
  case Quantity::BANDWIDTH:
    return "bytes/s";
  case Quantity::SPEED:
    return "flop/s";
  }
  return "?";
}

const char* quantity_valid_units(Quantity q)
{
  switch (q) {
  case Quantity::TIME:
    return "ns, us, ms, s, m, h";
  case Quantity::SIZE:
    return "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB";
  case Quantity::BANDWIDTH:
    return "Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, bps, kbps, Mbps, Gbps, Tbps";
  case Quantity::SPEED:
    return "f, kf, Mf, Gf, Tf, Pf";
  }
  return "?";
}

namespace {
// Problems are reported without the file/line prefix, which the caller adds.
struct UnitProblem {
  std::string text;
};

double parse_or_problem(Quantity q, const std::string& text)
{
  if (text.empty())
    throw UnitProblem{"is empty"};
  if (text.find_first_of(" \t") != std::string::npos)
    throw UnitProblem{std::string("contains a space (write the unit right after the number; use ") +
                      quantity_valid_units(q) + ")"};
  if (!std::isalpha(static_cast<unsigned char>(text.back()))) {
    // A bare number: only 0 means the same in every unit.
    char* end    = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && value == 0.0)
      return 0.0;
    throw UnitProblem{std::string("has no unit (use ") + quantity_valid_units(q) + ")"};
  }
  double value = 0;
  try {
    switch (q) {
    case Quantity::TIME:
      value = xbt_parse_get_time("", 0, text, "");
      break;
    case Quantity::SIZE:
      value = xbt_parse_get_size("", 0, text, "");
      break;
    case Quantity::BANDWIDTH:
      value = xbt_parse_get_bandwidth("", 0, text, "");
      break;
    case Quantity::SPEED:
      value = xbt_parse_get_speed("", 0, text, "");
      break;
    }
  } catch (const simgrid::ParseError&) {
    // SimGrid refuses a number that overflows (1e400) as if its unit were wrong.
    errno = 0;
    if (const double number = std::strtod(text.c_str(), nullptr); errno == ERANGE && std::isinf(number))
      throw UnitProblem{"is not a finite number (it overflows a double)"};
    throw UnitProblem{std::string("has an unknown unit (use ") + quantity_valid_units(q) + ")"};
  } catch (const std::exception&) {
    throw UnitProblem{std::string("is not a number with a unit (use ") + quantity_valid_units(q) + ")"};
  }
  if (std::isnan(value) || std::isinf(value))
    throw UnitProblem{"is not a finite number"};
  if (value < 0)
    throw UnitProblem{"is negative"};
  return value;
}
} // namespace

double parse_quantity(Quantity q, const std::string& text, const std::string& context)
{
  try {
    return parse_or_problem(q, text);
  } catch (const UnitProblem& p) {
    throw InputError(context + ": '" + text + "' " + p.text);
  }
}

double xml_quantity(const XmlSource& src, const pugi::xml_node& node, const char* field, Quantity q)
{
  std::string text = src.required(node, field);
  try {
    return parse_or_problem(q, text);
  } catch (const UnitProblem& p) {
    src.fail_value(node, field, p.text);
  }
}

namespace {
constexpr double kBitsPerByte     = 8;   // an octet
constexpr double kBitsPerGigabit  = 1e9; // SI giga, as SimGrid's "Gbps" (xbt/parse_units.cpp)
constexpr double kMicrosPerSecond = 1e6;

std::string format_g4(double x, const char* unit)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g %s", x, unit);
  return buf;
}
} // namespace

std::string format_Gbps(double Bps)
{
  return format_g4(Bps * kBitsPerByte / kBitsPerGigabit, "Gbps");
}

std::string format_us(double s)
{
  return format_g4(s * kMicrosPerSecond, "us");
}

} // namespace sgdsim
