#include "platform/background.hpp"

#include "common/units.hpp"
#include "common/xml_source.hpp"

#include <cstdio>

namespace sgdsim {

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
  XmlSource src(path);
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
      if (*end != '\0' || !(st.fraction > 0) || st.fraction > kMaxFraction)
        src.fail_value(at, value, "must be a fraction of the nominal rate in (0, 1000], e.g. 0.5");
      if (!p.steps.empty() && st.time_s <= p.steps.back().time_s)
        src.fail_value(at, "time", "must come after the previous <at> of this element");
      if (p.repeat_s > 0 && st.time_s >= p.repeat_s)
        src.fail_value(at, "time", "must be before the element's repeat period");
      p.steps.push_back(st);
    }
    if (p.steps.empty())
      src.fail(n, "needs at least one <at time=... " + std::string(value) + "=.../>");
    out.push_back(p);
    if (both) {
      p.target = AvailabilityProfile::Target::NIC_DOWN;
      out.push_back(p);
    }
  }
  return out;
}

} // namespace sgdsim
