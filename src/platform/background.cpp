#include "platform/background.hpp"

#include "common/units.hpp"
#include "common/xml_source.hpp"

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace sgdsim {

namespace {
std::string fmt_rate(double per_s)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", per_s);
  return buf;
}

std::string resource_name(AvailabilityProfile::Target target, const std::string& name)
{
  switch (target) {
  case AvailabilityProfile::Target::HOST:
    return "host '" + name + "'";
  case AvailabilityProfile::Target::LINK:
    return "link '" + name + "'";
  case AvailabilityProfile::Target::NIC_UP:
    return "the uplink of host '" + name + "'";
  case AvailabilityProfile::Target::NIC_DOWN:
    return "the downlink of host '" + name + "'";
  }
  return name;
}
} // namespace

std::string AvailabilityProfile::simgrid_trace() const
{
  std::string s;
  char buf[96];
  for (const AvailabilityStep& st : steps) {
    std::snprintf(buf, sizeof buf, "%.17g %.17g\n", st.time_s, st.fraction);
    s += buf;
  }
  return s;
}

std::vector<AvailabilityProfile> read_background_file(const std::string& path)
{
  // A bound that catches typos such as speed="50" for 50%: availability is a fraction of the nominal rate.
  constexpr double kMaxFraction = 1e3;
  // Its mirror below: a thousandth of a host or link is one that has stopped (a step of 0.1 s would take 100 s), and
  // far below it SimGrid's solver takes the rate for 0 (maxmin/precision) and the run ends in a deadlock.
  constexpr double kMinFraction = 1e-3;
  XmlSource src(path);
  std::map<std::pair<AvailabilityProfile::Target, std::string>, int> first_line; // one profile per resource
  double events_per_s = 0; // of the repeating profiles, which never run out
  pugi::xml_node root = src.root("background");
  src.check_attributes(root, {});
  src.check_children(root, {"host", "nic", "link"});
  std::vector<AvailabilityProfile> out;
  for (pugi::xml_node n : root.children()) {
    if (n.type() != pugi::node_element)
      continue;
    const std::string kind = n.name();
    AvailabilityProfile p;
    bool both         = false; // a <nic direction="both">: one profile per direction
    p.line            = src.line_of(n);
    const char* value = kind == "host" ? "speed" : "bandwidth";
    if (kind == "host") {
      src.check_attributes(n, {"name", "repeat"});
      p.target = AvailabilityProfile::Target::HOST;
      p.name   = src.required(n, "name");
    } else if (kind == "link") {
      src.check_attributes(n, {"name", "repeat"});
      p.target = AvailabilityProfile::Target::LINK;
      p.name   = src.required(n, "name");
    } else {
      src.check_attributes(n, {"host", "direction", "repeat"});
      p.name                = src.required(n, "host");
      const std::string dir = src.optional(n, "direction").value_or("both");
      if (dir != "up" && dir != "down" && dir != "both")
        src.fail_value(n, "direction", "is unknown (valid: up, down, both)");
      p.target = dir == "down" ? AvailabilityProfile::Target::NIC_DOWN : AvailabilityProfile::Target::NIC_UP;
      both     = dir == "both";
    }
    if (auto r = src.optional(n, "repeat")) {
      p.repeat_s = xml_quantity(src, n, "repeat", Quantity::TIME);
      if (!(p.repeat_s > 0))
        src.fail_value(n, "repeat", "must be positive (the period after which the steps repeat)");
    }
    src.check_children(n, {"at"});
    for (pugi::xml_node at : n.children("at")) {
      src.check_attributes(at, {"time", value});
      AvailabilityStep st;
      st.time_s              = xml_quantity(src, at, "time", Quantity::TIME);
      const std::string text = src.required(at, value);
      char* end              = nullptr;
      st.fraction            = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !(st.fraction >= kMinFraction) || st.fraction > kMaxFraction)
        src.fail_value(at, value, "must be a fraction of the nominal rate in [0.001, 1000], e.g. 0.5");
      if (!p.steps.empty() && st.time_s <= p.steps.back().time_s)
        src.fail_value(at, "time", "must come after the previous <at> of this element");
      if (p.repeat_s > 0 && st.time_s >= p.repeat_s)
        src.fail_value(at, "time", "must be before the element's repeat period");
      p.steps.push_back(st);
    }
    if (p.steps.empty())
      src.fail(n, "needs at least one <at time=... " + std::string(value) + "=.../>");
    // Two profiles of one resource would overwrite each other (SimGrid aborts on a host's second speed profile).
    for (const auto target :
         both ? std::vector{p.target, AvailabilityProfile::Target::NIC_DOWN} : std::vector{p.target})
      if (auto [it, fresh] = first_line.emplace(std::pair{target, p.name}, p.line); !fresh)
        src.fail(n, resource_name(target, p.name) + " already has a profile (line " + std::to_string(it->second) +
                        "): give each resource one element, with all its <at> steps");
    if (p.repeat_s > 0) {
      events_per_s += static_cast<double>(p.steps.size()) / p.repeat_s * (both ? 2 : 1);
      if (events_per_s > kMaxBackgroundEventsPerSecond * (1 + 1e-9)) // 2 steps / 20 us is the limit, not above
        src.fail_value(n, "repeat",
                       std::string("makes, with the repeating elements before it, ")
                           .append(fmt_rate(events_per_s))
                           .append(" background changes per simulated second, more than the ")
                           .append(fmt_rate(kMaxBackgroundEventsPerSecond))
                           .append(" sgdsim takes (docs/design.md \"Limits\"): lengthen the period or drop steps"));
    }
    out.push_back(p);
    if (both) {
      p.target = AvailabilityProfile::Target::NIC_DOWN;
      out.push_back(p);
    }
  }
  return out;
}

} // namespace sgdsim
