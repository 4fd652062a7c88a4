#include "platform/deployment.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/xml_source.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace sgdsim {

namespace {
constexpr const char* kPlatform = "platform";
constexpr const char* kVersion  = "version";
constexpr const char* kActor    = "actor";
constexpr const char* kHost     = "host";
constexpr const char* kFunction = "function";
constexpr const char* kArgument = "argument";
constexpr const char* kValue    = "value";
constexpr const char* kWorker   = "worker";
constexpr const char* kPs       = "ps";
constexpr const char* kRole     = "role";
// Ranks run 0..n-1 and a run has at most kMaxWorkers workers (common/limits.hpp).
constexpr long kMaxRank = kMaxWorkers - 1;

std::string host_list_summary(const std::vector<HostInfo>& hosts)
{
  if (hosts.empty())
    return "none";
  std::vector<std::string> names;
  for (const HostInfo& h : hosts)
    names.push_back(h.name);
  std::sort(names.begin(), names.end(), natural_less);
  if (names.size() <= 6) {
    std::string out;
    for (const auto& n : names)
      out += (out.empty() ? "" : ", ") + n;
    return out;
  }
  return names.front() + " ... " + names.back() + ", " + std::to_string(names.size()) + " hosts";
}

void fill_ranks(const XmlSource& src, const std::map<long, std::pair<std::string, pugi::xml_node>>& by_rank,
                std::vector<std::string>& out, const pugi::xml_node& root, const char* function)
{
  long expected = 0;
  for (const auto& [rank, entry] : by_rank) {
    if (rank != expected)
      src.fail(root, std::string("the ranks of function '") + function + "' have a gap: rank " +
                         std::to_string(expected) + " is missing (ranks must be 0.." +
                         std::to_string(by_rank.size() - 1) + ")");
    out.push_back(entry.first);
    expected++;
  }
}
} // namespace

bool natural_less(const std::string& a, const std::string& b)
{
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i;
      std::size_t j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end])))
        i_end++;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end])))
        j_end++;
      // Compare the digit runs as numbers: strip leading zeros, then shorter is smaller.
      std::string_view da(a.data() + i, i_end - i);
      std::string_view db(b.data() + j, j_end - j);
      da.remove_prefix(std::min(da.find_first_not_of('0'), da.size()));
      db.remove_prefix(std::min(db.find_first_not_of('0'), db.size()));
      if (da.size() != db.size())
        return da.size() < db.size();
      if (da != db)
        return da < db;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j])
        return a[i] < b[j];
      i++;
      j++;
    }
  }
  if (a.size() - i != b.size() - j)
    return a.size() - i < b.size() - j;
  return a < b;
}

Placement read_deployment_file(const std::string& path, const std::vector<HostInfo>& hosts,
                               const std::string& platform_path, bool needs_ps)
{
  XmlSource src(path);
  pugi::xml_node root = src.root(kPlatform);
  src.check_attributes(root, {kVersion});
  src.check_children(root, {kActor});
  std::set<std::string> host_names;
  for (const HostInfo& h : hosts)
    host_names.insert(h.name);

  std::map<long, std::pair<std::string, pugi::xml_node>> workers;
  std::map<long, std::pair<std::string, pugi::xml_node>> servers;
  for (pugi::xml_node actor : root.children(kActor)) {
    src.check_attributes(actor, {kHost, kFunction});
    src.check_children(actor, {kArgument});
    std::string host     = src.required(actor, kHost);
    std::string function = src.required(actor, kFunction);
    if (!host_names.count(host))
      src.fail_value(actor, kHost, "is not a host of " + platform_path + " (hosts: " + host_list_summary(hosts) + ")");
    if (function != kWorker && function != kPs)
      src.fail_value(actor, kFunction, "is not a known function (valid: worker, ps)");
    auto args = actor.children(kArgument);
    std::vector<pugi::xml_node> arg_nodes(args.begin(), args.end());
    if (arg_nodes.size() != 1)
      src.fail(actor, "needs exactly one <argument value=\"RANK\"/> (found " + std::to_string(arg_nodes.size()) + ")");
    src.check_attributes(arg_nodes[0], {kValue});
    src.check_children(arg_nodes[0], {});
    long rank  = src.required_int(arg_nodes[0], kValue, 0, kMaxRank);
    auto& into = function == kWorker ? workers : servers;
    if (auto [it, fresh] = into.emplace(rank, std::make_pair(host, actor)); !fresh)
      src.fail(actor, "duplicate " + function + " rank " + std::to_string(rank) + " (first at line " +
                          std::to_string(src.line_of(it->second.second)) + ")");
  }
  if (workers.empty())
    src.fail(root, "no actor with function='worker'");
  if (servers.empty() && needs_ps)
    src.fail(root, "no actor with function='ps'");
  if (!servers.empty() && !needs_ps)
    src.fail(servers.begin()->second.second,
             "this architecture has no parameter servers: remove the actors with function='ps'");
  Placement placement;
  fill_ranks(src, workers, placement.worker_hosts, root, kWorker);
  fill_ranks(src, servers, placement.ps_hosts, root, kPs);
  return placement;
}

Placement auto_placement(const std::vector<HostInfo>& hosts, int workers, int ps, const std::string& platform_path)
{
  std::vector<HostInfo> sorted = hosts;
  std::sort(sorted.begin(), sorted.end(),
            [](const HostInfo& a, const HostInfo& b) { return natural_less(a.name, b.name); });
  bool roles = false;
  for (const HostInfo& h : sorted) {
    if (h.role.empty())
      continue;
    if (h.role != kPs && h.role != kWorker)
      throw InputError(platform_path, 0,
                       "host '" + h.name + "': property '" + kRole + "': '" + h.role +
                           "' is unknown (valid: ps, worker)");
    roles = true;
  }
  Placement placement;
  auto fill_workers = [&](const HostInfo& h) {
    for (int s = 0; s < std::max(1, h.slots) && static_cast<int>(placement.worker_hosts.size()) < workers; s++)
      placement.worker_hosts.push_back(h.name);
  };
  if (roles) {
    for (const HostInfo& h : sorted) {
      if (h.role == kPs && static_cast<int>(placement.ps_hosts.size()) < ps)
        placement.ps_hosts.push_back(h.name);
      if (h.role == kWorker)
        fill_workers(h);
    }
    auto count = [&](const char* role) {
      return std::count_if(sorted.begin(), sorted.end(), [&](const HostInfo& h) { return h.role == role; });
    };
    if (static_cast<int>(placement.ps_hosts.size()) < ps)
      throw InputError(platform_path, 0,
                       "--ps " + std::to_string(ps) + ": the platform has only " + std::to_string(count(kPs)) +
                           " hosts with role='ps'");
    if (static_cast<int>(placement.worker_hosts.size()) < workers) {
      const auto hosts_n = count(kWorker);
      const auto slots_n = static_cast<long>(placement.worker_hosts.size());
      throw InputError(platform_path, 0,
                       "--workers " + std::to_string(workers) + ": the platform has only " +
                           (slots_n == hosts_n ? std::to_string(hosts_n) + " hosts with role='worker'"
                                               : std::to_string(slots_n) + " worker slots (cores) on its " +
                                                     std::to_string(hosts_n) + " hosts with role='worker'"));
    }
    return placement;
  }
  for (std::size_t i = 0; i < sorted.size(); i++) {
    if (static_cast<int>(placement.ps_hosts.size()) < ps)
      placement.ps_hosts.push_back(sorted[i].name);
    else
      fill_workers(sorted[i]);
  }
  if (static_cast<int>(placement.ps_hosts.size()) < ps || static_cast<int>(placement.worker_hosts.size()) < workers) {
    bool multi = std::any_of(sorted.begin(), sorted.end(), [](const HostInfo& h) { return h.slots > 1; });
    throw InputError(platform_path, 0,
                     "--workers " + std::to_string(workers) + " --ps " + std::to_string(ps) +
                         ": the platform has only " + std::to_string(sorted.size()) +
                         (multi ? " hosts (a PS takes a host, a worker one core of one)"
                                : " hosts (one per worker and per PS is needed)"));
  }
  return placement;
}

} // namespace sgdsim
