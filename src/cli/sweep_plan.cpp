#include "cli/sweep_plan.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/scenario.hpp"

#include <algorithm>
#include <charconv>
#include <set>

namespace sgdsim {

namespace {
// Bounds that catch typos (e.g. 1:100000000) before they create a million processes: a value, the most workers a
// run takes (common/limits.hpp).
constexpr long kMaxValue         = kMaxWorkers;
constexpr std::size_t kMaxPoints = 100000;

std::vector<std::string> split(const std::string& s, char sep)
{
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      return out;
    start = end + 1;
  }
}

long to_long(const std::string& option, const std::string& text, const std::string& part)
{
  long v         = 0;
  const char* b  = part.data();
  const char* e  = part.data() + part.size();
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (part.empty() || ec != std::errc() || ptr != e)
    throw InputError(option + " '" + text + "': '" + part +
                     "' is not an integer (expected e.g. 1:32, 1:64:x2, 4:32:4 or 1,2,4,8)");
  if (v < 1 || v > kMaxValue)
    throw InputError(option + " '" + text + "': " + part + " must be in [1, " + std::to_string(kMaxValue) + "]");
  return v;
}
} // namespace

std::vector<int> parse_int_list(const std::string& option, const std::string& text)
{
  std::set<int> values;
  for (const std::string& item : split(text, ',')) {
    std::vector<std::string> parts = split(item, ':');
    if (parts.size() == 1) {
      values.insert(static_cast<int>(to_long(option, text, parts[0])));
      continue;
    }
    if (parts.size() > 3)
      throw InputError(option + " '" + text + "': '" + item + "' has more than three parts (FIRST:LAST[:STEP])");
    long first = to_long(option, text, parts[0]);
    long last  = to_long(option, text, parts[1]);
    if (last < first)
      throw InputError(option + " '" + text + "': '" + item + "' ends before it starts");
    bool geometric = parts.size() == 3 && !parts[2].empty() && parts[2][0] == 'x';
    long step      = parts.size() == 3 ? to_long(option, text, geometric ? parts[2].substr(1) : parts[2]) : 1;
    if (geometric && step < 2)
      throw InputError(option + " '" + text + "': '" + item + "': a factor must be at least x2");
    for (long v = first; v <= last; v = geometric ? v * step : v + step) {
      values.insert(static_cast<int>(v));
      if (values.size() > kMaxPoints)
        throw InputError(option + " '" + text + "': more than " + std::to_string(kMaxPoints) + " values");
    }
  }
  return {values.begin(), values.end()};
}

std::vector<std::string> parse_arch_list(const std::string& text)
{
  std::vector<std::string> out;
  for (const std::string& a : split(text, ',')) {
    parse_arch(a, "--arch"); // throws with the valid names
    if (std::find(out.begin(), out.end(), a) != out.end())
      throw InputError("--arch '" + text + "': '" + a + "' is given twice");
    out.push_back(a);
  }
  return out;
}

std::string point_id(const std::string& arch, int ps, int workers)
{
  std::string id = arch;
  if (ps > 0)
    id += "_ps" + std::to_string(ps);
  return id + "_w" + std::to_string(workers);
}

SweepPlan make_sweep_plan(const std::vector<std::string>& archs, const std::vector<int>& workers,
                          const std::vector<int>& ps_counts, const std::vector<std::string>& run_arguments)
{
  SweepPlan plan;
  plan.run_arguments = run_arguments;
  for (const std::string& arch : archs) {
    const bool ps_arch       = parse_arch(arch, "--arch") != Arch::RING;
    std::vector<int> ps_list = ps_arch ? ps_counts : std::vector<int>{0};
    for (int ps : ps_list)
      for (int k : workers) {
        SweepPoint p;
        p.arch    = arch;
        p.workers = k;
        p.ps      = ps;
        p.id      = point_id(arch, ps, k);
        p.args    = run_arguments;
        p.args.insert(p.args.end(), {"--arch", arch, "--workers", std::to_string(k)});
        if (ps_arch)
          p.args.insert(p.args.end(), {"--ps", std::to_string(ps)});
        plan.points.push_back(p);
      }
  }
  if (plan.points.size() > kMaxPoints)
    throw InputError("the sweep has " + std::to_string(plan.points.size()) + " points (at most " +
                     std::to_string(kMaxPoints) + ")");
  return plan;
}

nlohmann::ordered_json plan_json(const SweepPlan& plan)
{
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["run_arguments"]  = plan.run_arguments;
  j["points"]         = nlohmann::ordered_json::array();
  for (const SweepPoint& p : plan.points)
    j["points"].push_back({{"id", p.id}, {"arch", p.arch}, {"workers", p.workers}, {"ps", p.ps}, {"args", p.args}});
  return j;
}

SweepPlan plan_from_json(const nlohmann::ordered_json& j, const std::string& path)
{
  try {
    if (j.at("schema_version").get<int>() != 1)
      throw InputError(path, 0, "unknown sweep plan schema_version " + j.at("schema_version").dump());
    SweepPlan plan;
    plan.run_arguments = j.at("run_arguments").get<std::vector<std::string>>();
    for (const auto& p : j.at("points"))
      plan.points.push_back(SweepPoint{p.at("id").get<std::string>(), p.at("arch").get<std::string>(),
                                       p.at("workers").get<int>(), p.at("ps").get<int>(),
                                       p.at("args").get<std::vector<std::string>>()});
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("not a sweep plan: ") + e.what());
  }
}

} // namespace sgdsim
