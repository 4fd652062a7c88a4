#include "platform/platform_check.hpp"

#include "common/units.hpp"
#include "common/xml_source.hpp"

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

namespace sgdsim {

namespace {
struct NumericAttribute {
  const char* element;
  const char* field;
  Quantity quantity;
  bool positive; // 0 is refused too (a speed or bandwidth); latencies may be 0
  bool list;     // comma-separated values (a host's pstates, a Wi-Fi link's rates)
};

// The numeric attributes of SimGrid's platform DTD 4.1 (simgrid.dtd, shipped in libsimgrid-dev).
constexpr NumericAttribute kNumeric[] = {
    {"host", "speed", Quantity::SPEED, true, true},
    {"cluster", "speed", Quantity::SPEED, true, true},
    {"cluster", "bw", Quantity::BANDWIDTH, true, false},
    {"cluster", "lat", Quantity::TIME, false, false},
    {"cluster", "bb_bw", Quantity::BANDWIDTH, true, false},
    {"cluster", "bb_lat", Quantity::TIME, false, false},
    {"cluster", "loopback_bw", Quantity::BANDWIDTH, true, false},
    {"cluster", "loopback_lat", Quantity::TIME, false, false},
    {"cluster", "limiter_link", Quantity::BANDWIDTH, true, false},
    {"cabinet", "speed", Quantity::SPEED, true, true},
    {"cabinet", "bw", Quantity::BANDWIDTH, true, false},
    {"cabinet", "lat", Quantity::TIME, false, false},
    {"peer", "speed", Quantity::SPEED, true, true},
    {"peer", "bw_in", Quantity::BANDWIDTH, true, false},
    {"peer", "bw_out", Quantity::BANDWIDTH, true, false},
    {"peer", "lat", Quantity::TIME, false, false},
    {"link", "bandwidth", Quantity::BANDWIDTH, true, true},
    {"link", "latency", Quantity::TIME, false, false},
    {"backbone", "bandwidth", Quantity::BANDWIDTH, true, false},
    {"backbone", "latency", Quantity::TIME, false, false},
};

void check_number(const XmlSource& src, const pugi::xml_node& node, const NumericAttribute& a)
{
  const std::string text = node.attribute(a.field).value();
  std::vector<double> values;
  if (text.find(',') == std::string::npos) {
    values.push_back(xml_quantity(src, node, a.field, a.quantity));
  } else {
    if (!a.list)
      src.fail_value(node, a.field, "is one value, not a list");
    std::stringstream items(text);
    for (std::string item; std::getline(items, item, ',');) {
      try {
        values.push_back(parse_quantity(a.quantity, item, a.field));
      } catch (const InputError&) {
        src.fail_value(node, a.field,
                       "has an element '" + item + "' that is not a non-negative finite quantity (use " +
                           quantity_valid_units(a.quantity) + ")");
      }
    }
  }
  for (double value : values) {
    if (a.positive && !(value > 0))
      src.fail_value(
          node, a.field,
          std::string("must be positive (") +
              (a.quantity == Quantity::SPEED ? "a host that computes nothing" : "a link that carries nothing") +
              " never finishes a step)");
    if (a.positive && a.quantity == Quantity::SPEED && value < kMinSpeed_flops)
      src.fail_value(node, a.field,
                     "is below 1Mf, the slowest speed sgdsim takes (a typo or a unit mistake: 1f is one flop per "
                     "second; a host of the V100's speed is 15.7Tf)");
    if (a.positive && a.quantity == Quantity::BANDWIDTH && value < kMinBandwidth_Bps)
      src.fail_value(node, a.field,
                     "is below 1kbps, the slowest bandwidth sgdsim takes (a typo or a unit mistake: 1Bps is one byte "
                     "per second; a 10 Gbit/s NIC is 10Gbps)");
  }
}

// SimGrid's radical grammar: "0-63" or "0-3,8,10-12"; the number of hosts it names.
long radical_count(const XmlSource& src, const pugi::xml_node& node)
{
  const std::string text = node.attribute("radical").value();
  long count             = 0;
  std::stringstream parts(text);
  for (std::string part; std::getline(parts, part, ',');) {
    long lo = 0, hi = 0;
    char dash = 0, extra = 0;
    std::istringstream in(part);
    if (part.find('-') == std::string::npos) {
      if (!(in >> lo) || in >> extra)
        src.fail_value(node, "radical", "is not a list of numbers and ranges (e.g. 0-63 or 0-3,8)");
      hi = lo;
    } else if (!(in >> lo >> dash >> hi) || dash != '-' || in >> extra) {
      src.fail_value(node, "radical", "is not a list of numbers and ranges (e.g. 0-63 or 0-3,8)");
    }
    if (lo < 0 || hi < lo)
      src.fail_value(node, "radical", "has a range '" + part + "' that is empty or negative");
    if (hi - lo + 1 > kMaxPlatformHosts - count)
      src.fail_value(node, "radical",
                     "names more than " + std::to_string(kMaxPlatformHosts) +
                         " hosts, the most sgdsim loads (twice 16,384 nodes of 8 GPUs)");
    count += hi - lo + 1;
  }
  return count;
}

void walk(const XmlSource& src, const pugi::xml_node& node, int depth, int element_depth, long& hosts)
{
  // Elements other than zones nest a few levels in the DTD (zone > cluster > prop); this bounds the recursion.
  if (element_depth > 4 * kMaxZoneDepth)
    src.fail(node, "elements nested " + std::to_string(element_depth) + " deep");
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() != pugi::node_element)
      continue;
    const char* name = child.name();
    for (const NumericAttribute& a : kNumeric)
      if (std::strcmp(name, a.element) == 0 && child.attribute(a.field))
        check_number(src, child, a);
    if (const pugi::xml_attribute core = child.attribute("core");
        core && (std::strcmp(name, "host") == 0 || std::strcmp(name, "cluster") == 0)) {
      char* end        = nullptr;
      const long cores = std::strtol(core.value(), &end, 10);
      if (end == core.value() || *end != '\0' || cores < 1 || cores > kMaxWorkers)
        src.fail_value(child, "core",
                       std::string("must be a whole number of cores in [1, ").append(std::to_string(kMaxWorkers)) +
                           "] (one worker per core; sgdsim runs at most " + std::to_string(kMaxWorkers) + " workers)");
    }
    if (std::strcmp(name, "host") == 0 || std::strcmp(name, "peer") == 0)
      hosts++;
    if (child.attribute("radical"))
      hosts += radical_count(src, child);
    if (hosts > kMaxPlatformHosts)
      src.fail(child, "the platform has more than " + std::to_string(kMaxPlatformHosts) +
                          " hosts, the most sgdsim loads (twice 16,384 nodes of 8 GPUs)");
    const bool zone = std::strcmp(name, "zone") == 0 || std::strcmp(name, "AS") == 0;
    if (zone && depth + 1 > kMaxZoneDepth)
      src.fail(child, "zones nested " + std::to_string(depth + 1) + " deep; sgdsim loads at most " +
                          std::to_string(kMaxZoneDepth) + " levels");
    walk(src, child, depth + (zone ? 1 : 0), element_depth + 1, hosts);
  }
}
} // namespace

void check_platform_numbers(const std::string& platform_path)
{
  const XmlSource src(platform_path);
  long hosts = 0;
  walk(src, src.root("platform"), 0, 1, hosts);
}

} // namespace sgdsim
