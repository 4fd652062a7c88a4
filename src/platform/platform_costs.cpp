#include "platform/platform_costs.hpp"

#include "common/input_error.hpp"
#include "common/scenario.hpp"
#include "common/units.hpp"
#include "common/xml_source.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace sgdsim {

namespace {
constexpr const char* kAllreduceTimeGrammar =
    "expected 'K:a1,b1,threshold,a2,b2[,smallest][;bytes=s...]' items separated by spaces, K an integer >= 2 in "
    "increasing order, the others finite numbers (s, s, bytes > 0, s per byte >= 0, s, bytes >= 0), the measured "
    "sizes from the threshold on, increasing, their times >= 0 and not decreasing";

// The measured sizes after an item's fit ("bytes=s" separated by ';'), checked as kAllreduceTimeGrammar says; false
// where one is malformed or out of order.
bool parse_measured(const std::string& text, AllreduceTimeFit& f)
{
  if (text.empty() || text.back() == ';') // getline would drop the empty last pair
    return false;
  std::istringstream pairs(text);
  std::string pair;
  while (std::getline(pairs, pair, ';')) {
    SizeTime x;
    char tail = 0;
    if (std::sscanf(pair.c_str(), "%lf=%lf%c", &x.bytes, &x.time_s, &tail) != 2 || !std::isfinite(x.bytes) ||
        !std::isfinite(x.time_s) || x.bytes < f.eq.threshold_bytes || x.time_s < 0 ||
        (!f.measured.empty() && (x.bytes <= f.measured.back().bytes || x.time_s < f.measured.back().time_s)))
      return false;
    f.measured.push_back(x);
  }
  return !f.measured.empty();
}

std::vector<AllreduceTimeFit> parse_allreduce_time(const XmlSource& src, const pugi::xml_node& prop)
{
  std::vector<AllreduceTimeFit> fits;
  std::istringstream items(prop.attribute("value").value());
  std::string item;
  while (items >> item) {
    AllreduceTimeFit f;
    char tail                   = 0;
    const std::size_t semicolon = item.find(';');
    const std::string fit       = item.substr(0, semicolon);
    // The smallest size measured is optional (calibrations before it wrote five numbers after K).
    const bool with_smallest = std::count(fit.begin(), fit.end(), ',') == 5;
    const int got            = with_smallest
                                   ? std::sscanf(fit.c_str(), "%d:%lf,%lf,%lf,%lf,%lf,%lf%c", &f.nodes, &f.eq.a1_s, &f.eq.b1_s,
                                                 &f.eq.threshold_bytes, &f.eq.a2_s_per_byte, &f.eq.b2_s, &f.smallest_bytes, &tail)
                                   : std::sscanf(fit.c_str(), "%d:%lf,%lf,%lf,%lf,%lf%c", &f.nodes, &f.eq.a1_s, &f.eq.b1_s,
                                                 &f.eq.threshold_bytes, &f.eq.a2_s_per_byte, &f.eq.b2_s, &tail);
    const PiecewiseTime& e   = f.eq;
    const bool finite        = std::isfinite(e.a1_s) && std::isfinite(e.b1_s) && std::isfinite(e.threshold_bytes) &&
                        std::isfinite(e.a2_s_per_byte) && std::isfinite(e.b2_s) && std::isfinite(f.smallest_bytes);
    if (got != (with_smallest ? 7 : 6) || !finite || f.nodes < 2 || !(e.threshold_bytes > 0) || e.a2_s_per_byte < 0 ||
        f.smallest_bytes < 0 || (!fits.empty() && f.nodes <= fits.back().nodes) ||
        (semicolon != std::string::npos && !parse_measured(item.substr(semicolon + 1), f)))
      src.fail_value(prop, "value", std::string("item '") + item + "': " + kAllreduceTimeGrammar);
    fits.push_back(f);
  }
  if (fits.empty())
    src.fail_value(prop, "value", std::string("no item: ") + kAllreduceTimeGrammar);
  return fits;
}
} // namespace

std::string format_allreduce_time(const std::vector<AllreduceTimeFit>& fits)
{
  std::string out;
  for (const AllreduceTimeFit& f : fits) {
    // The threshold exact as the sizes below: rounded to 9 digits it could pass its first measured size (a size of
    // 11 digits or more), which the reader refuses.
    char item[200];
    if (f.smallest_bytes > 0)
      std::snprintf(item, sizeof item, "%d:%.9g,%.9g,%.17g,%.9g,%.9g,%.9g", f.nodes, f.eq.a1_s, f.eq.b1_s,
                    f.eq.threshold_bytes, f.eq.a2_s_per_byte, f.eq.b2_s, f.smallest_bytes);
    else
      std::snprintf(item, sizeof item, "%d:%.9g,%.9g,%.17g,%.9g,%.9g", f.nodes, f.eq.a1_s, f.eq.b1_s,
                    f.eq.threshold_bytes, f.eq.a2_s_per_byte, f.eq.b2_s);
    if (!out.empty())
      out.append(" ");
    out.append(item);
    for (const SizeTime& x : f.measured) {
      std::snprintf(item, sizeof item, ";%.17g=%.9g", x.bytes, x.time_s); // sizes exact: they must stay increasing
      out.append(item);
    }
  }
  return out;
}

PlatformCosts read_platform_costs(const std::string& platform_path)
{
  const XmlSource src(platform_path);
  src.root("platform"); // a workload or deployment given as --platform is named here, not by SimGrid's parser
  PlatformCosts costs;
  for (const pugi::xpath_node& x : src.doc().select_nodes("//prop")) {
    const pugi::xml_node prop = x.node();
    const std::string id      = prop.attribute("id").value();
    if (id.rfind("sgdsim.", 0) != 0)
      continue;
    if (id == "sgdsim.allreduce_time" || id == "sgdsim.allreduce_queued_time") {
      std::vector<AllreduceTimeFit>& slot =
          id == "sgdsim.allreduce_time" ? costs.allreduce_time : costs.allreduce_queued_time;
      std::vector<AllreduceTimeFit> fits = parse_allreduce_time(src, prop);
      if (!slot.empty() && format_allreduce_time(fits) != format_allreduce_time(slot))
        src.fail_value(prop, "value", "differs from an earlier " + id + " in the file (one value per platform)");
      slot = std::move(fits);
      continue;
    }
    if (id == "sgdsim.nccl_sockets" || id == "sgdsim.shared_cores") {
      const bool sockets       = id == "sgdsim.nccl_sockets";
      std::optional<int>& slot = sockets ? costs.nccl_sockets : costs.shared_cores;
      const int most           = sockets ? Scenario::kMaxSocketsPerPeer : Scenario::kMaxSharedCores;
      const std::string v      = prop.attribute("value").value();
      int n                    = 0;
      const auto [end, ec]     = std::from_chars(v.data(), v.data() + v.size(), n);
      if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 1 || n > most)
        src.fail_value(prop, "value",
                       std::string("expected a whole number of ") + (sockets ? "sockets" : "cores") + " in [1, " +
                           std::to_string(most) +
                           (sockets ? "] (NCCL's MAX_SOCKETS)"
                                    : "] (those of the one machine the all-reduce microbenchmark's ranks ran on)"));
      if (slot && *slot != n)
        src.fail_value(prop, "value", "differs from an earlier " + id + " in the file (one value per platform)");
      slot = n;
      continue;
    }
    if (id == "sgdsim.nic_factor") {
      const std::string v  = prop.attribute("value").value();
      double f             = 0;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), f);
      if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(f >= 1 && f <= kMaxNicFactor)) {
        std::ostringstream why;
        why << "expected a plain number in [1, " << kMaxNicFactor
            << "]: the NICs' bandwidth over the measured rate of a flow's data";
        src.fail_value(prop, "value", why.str());
      }
      if (costs.nic_factor && *costs.nic_factor != f)
        src.fail_value(prop, "value", "differs from an earlier " + id + " in the file (one value per platform)");
      costs.nic_factor = f;
      continue;
    }
    std::optional<double>* slot = id == "sgdsim.allreduce_overhead"          ? &costs.allreduce_overhead_s
                                  : id == "sgdsim.message_overhead"          ? &costs.message_overhead_s
                                  : id == "sgdsim.message_overhead_per_byte" ? &costs.message_s_per_byte
                                  : id == "sgdsim.models_latency"            ? &costs.models_latency_s
                                  : id == "sgdsim.models_allreduce_overhead" ? &costs.models_allreduce_overhead_s
                                                                             : nullptr;
    if (slot == nullptr)
      src.fail_value(prop, "id",
                     "unknown sgdsim property (valid: sgdsim.allreduce_overhead, sgdsim.allreduce_queued_time, "
                     "sgdsim.allreduce_time, sgdsim.message_overhead, sgdsim.message_overhead_per_byte, "
                     "sgdsim.models_allreduce_overhead, sgdsim.models_latency, sgdsim.nccl_sockets, "
                     "sgdsim.nic_factor, sgdsim.shared_cores)");
    const double s = xml_quantity(src, prop, "value", Quantity::TIME); // finite and >= 0, or an InputError
    if (slot == &costs.message_s_per_byte && s > kMaxMessageSPerByte)
      src.fail_value(prop, "value", "more than 1us per byte (a transport slower than 1 MB/s)");
    if (slot->has_value() && **slot != s)
      src.fail_value(prop, "value", "differs from an earlier " + id + " in the file (one value per platform)");
    *slot = s;
  }
  return costs;
}

} // namespace sgdsim
