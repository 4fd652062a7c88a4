#include "platform/platform_costs.hpp"

#include "common/input_error.hpp"
#include "common/units.hpp"
#include "common/xml_source.hpp"

namespace sgdsim {

PlatformCosts read_platform_costs(const std::string& platform_path)
{
  const XmlSource src(platform_path);
  PlatformCosts costs;
  for (const pugi::xpath_node& x : src.doc().select_nodes("//prop")) {
    const pugi::xml_node prop = x.node();
    const std::string id      = prop.attribute("id").value();
    if (id.rfind("sgdsim.", 0) != 0)
      continue;
    std::optional<double>* slot = id == "sgdsim.allreduce_overhead" ? &costs.allreduce_overhead_s
                                  : id == "sgdsim.message_overhead" ? &costs.message_overhead_s
                                                                    : nullptr;
    if (slot == nullptr)
      src.fail_value(prop, "id", "unknown sgdsim property (valid: sgdsim.allreduce_overhead, sgdsim.message_overhead)");
    const double s = xml_quantity(src, prop, "value", Quantity::TIME); // finite and >= 0, or an InputError
    if (slot->has_value() && **slot != s)
      src.fail_value(prop, "value", "differs from an earlier " + id + " in the file (one value per platform)");
    *slot = s;
  }
  return costs;
}

} // namespace sgdsim
