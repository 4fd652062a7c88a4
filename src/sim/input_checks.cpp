#include "sim/input_checks.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/text_file.hpp"
#include "sim/engine_setup.hpp"
#include "sim/simgrid_guard.hpp"
#include "sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <unordered_map>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

void validate_scenario(const Scenario& sc)
{
  // Bounds: beyond these a run would not fit a machine (common/limits.hpp); they catch typos such as --workers
  // 10000000. A million steps of the smallest workload is already days of wall time.
  constexpr int kMaxSteps = 1000000;
  for (const auto& [option, n, least] : {std::tuple{"--workers", sc.workers, 1}, {"--ps", sc.ps, 1}}) {
    if (option == std::string("--ps") && !sc.is_ps())
      continue;
    if (n > kMaxWorkers)
      throw InputError(std::string(option) + " " + std::to_string(n) + ": more than " + std::to_string(kMaxWorkers) +
                       ", the most sgdsim runs (twice 16,384 nodes of 8 GPUs, docs/design.md \"Limits\")");
    if (n < least)
      throw InputError(std::string(option) + " " + std::to_string(n) + ": must be in [1, " +
                       std::to_string(kMaxWorkers) + "]");
  }
  if (sc.arch == Arch::RING && sc.collective == Collective::HALVING_DOUBLING && (sc.workers & (sc.workers - 1)) != 0)
    throw InputError("--collective halving-doubling: needs a power-of-two number of workers (--workers " +
                     std::to_string(sc.workers) + ")");
  if (sc.gpus_per_node < 1)
    throw InputError("--gpus-per-node " + std::to_string(sc.gpus_per_node) + ": must be at least 1");
  if (sc.is_ps() && sc.gpus_per_node > 1 && sc.workers % sc.gpus_per_node != 0)
    throw InputError("--gpus-per-node " + std::to_string(sc.gpus_per_node) + ": must divide --workers " +
                     std::to_string(sc.workers));
  if (sc.arch == Arch::RING && sc.collective == Collective::HIERARCHICAL &&
      (sc.gpus_per_node < 2 || sc.workers % sc.gpus_per_node != 0))
    throw InputError("--collective hierarchical: --gpus-per-node " + std::to_string(sc.gpus_per_node) +
                     " must be at least 2 and divide --workers " + std::to_string(sc.workers));
  if (sc.arch == Arch::RING && sc.collective == Collective::TREE &&
      (sc.pipeline_chunks < 1 || sc.pipeline_chunks > kMaxSteps))
    throw InputError("--pipeline-chunks " + std::to_string(sc.pipeline_chunks) + ": must be in [1, " +
                     std::to_string(kMaxSteps) + "]");
  if (!sc.is_ps() && sc.ps != 0)
    throw InputError("--ps " + std::to_string(sc.ps) + ": the " + to_string(sc.arch) +
                     " architecture has no parameter servers");
  if (sc.steps < 1 || sc.steps > kMaxSteps)
    throw InputError("--steps " + std::to_string(sc.steps) + ": must be in [1, " + std::to_string(kMaxSteps) + "]");
  if (sc.warmup < 0 || sc.warmup > kMaxSteps)
    throw InputError("--warmup " + std::to_string(sc.warmup) + ": must be in [0, " + std::to_string(kMaxSteps) + "]");
  // The actors must fit the machine (common/limits.hpp): checked here with the options' sizes, before the platform
  // loads, and again by prepare() with a deployment's. Their stacks: sgdsim's default (kActorStackKiB), or --cfg's.
  const char* stack_cfg  = cfg_value(sc.simgrid_cfg, "contexts/stack-size");
  const double stack_kib = stack_cfg ? std::strtod(stack_cfg, nullptr) : kActorStackKiB;
  std::string what       = std::string("--workers ").append(std::to_string(sc.workers));
  if (sc.is_ps())
    what.append(" --ps ").append(std::to_string(sc.ps));
  check_actors_fit(max_actors(sc), 1024 * stack_kib, what);
}

void check_step_takes_time(const Workload& wl, const Scenario& sc)
{
  // Every PS architecture moves each tensor (at least one byte) over a link; a ring of one worker moves nothing.
  if (!sc.is_ps() && sc.workers == 1 && !(wl.compute_s() > 0))
    throw InputError(wl.source_file, 0,
                     "every forward and backward time is 0, and a ring of 1 worker sends nothing: a step would take "
                     "no time (an infinite throughput); give the layers their compute times, or run 2 workers or "
                     "more");
}

void check_readable(const std::string& path, const char* what)
{
  check_regular_input(path); // SimGrid exits on a folder and blocks on a named pipe
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, std::string("cannot read the ") + what + " file");
}

namespace {
// The first line of a text file that contains `needle` (1-based), 0 if none: for errors about values that
// SimGrid loaded without telling where they came from.
int line_containing(const std::string& path, const std::string& needle)
{
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); n++)
    if (line.find(needle) != std::string::npos)
      return n;
  return 0;
}

} // namespace

// The summed price of the distinct hosts the run uses (README "Platform": host property price_per_hour_usd);
// NaN when one of them has no price. A price that is not a non-negative number is bad input.
double cluster_price_per_hour_usd(const sg4::Engine& engine, const Placement& placement,
                                  const std::string& platform_path)
{
  std::vector<std::string> used = placement.worker_hosts;
  used.insert(used.end(), placement.ps_hosts.begin(), placement.ps_hosts.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  double total = 0;
  for (const std::string& h : used) {
    const char* value = engine.host_by_name(h)->get_property("price_per_hour_usd");
    if (value == nullptr) {
      total = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    char* end    = nullptr;
    double price = std::strtod(value, &end);
    if (end == value || *end != '\0' || !std::isfinite(price) || price < 0)
      throw InputError(platform_path, line_containing(platform_path, "value=\"" + std::string(value) + "\""),
                       "host '" + h + "': property price_per_hour_usd '" + value +
                           "' is not a non-negative number (USD per hour, e.g. 3.06)");
    total += price;
  }
  return total;
}

namespace {
// A <cluster> without loopback_bw routes a node to itself through its own link, up and then down (SimGrid's
// ClusterZone): two ranks of one host would then exchange their tensors over the host's NIC, beside its traffic to
// the other hosts, where a real host copies them in memory. Legal, so not an error; said once, naming the first host.
void warn_within_host_over_network(const std::vector<const sg4::Host*>& host_of, const std::vector<int>& id,
                                   const std::vector<std::pair<int, int>>& pairs,
                                   const std::vector<std::pair<std::size_t, std::vector<sg4::Link*>>>& within,
                                   const std::vector<std::string>& roles, const std::string& path)
{
  if (host_of.size() < 2)
    return; // no other host: nothing to share the links with
  int hosts = 0;
  std::string first;
  std::vector<sg4::Link*> out;
  for (const auto& [i, self_links] : within) {
    const auto [a, b] = pairs[i];
    const int h       = id[static_cast<std::size_t>(a)];
    const auto* other = host_of[h == 0 ? 1 : 0];
    double latency_s  = 0;
    out.clear();
    host_of[static_cast<std::size_t>(h)]->route_to(other, out, &latency_s);
    const auto shared = std::find_first_of(self_links.begin(), self_links.end(), out.begin(), out.end());
    if (shared == self_links.end())
      continue;
    if (hosts++ == 0)
      first = "host '" + host_of[static_cast<std::size_t>(h)]->get_name() + "' reaches itself over link '" +
              (*shared)->get_name() +
              "', which also carries its traffic to other hosts: " + roles[static_cast<std::size_t>(a)] + " and " +
              roles[static_cast<std::size_t>(b)] + " exchange their tensors over the network";
  }
  if (hosts > 0)
    std::cerr << "sgdsim: warning: " << path << ": " << first
              << (hosts > 1 ? " (and on " + std::to_string(hosts - 1) + (hosts > 2 ? " more hosts)" : " more host)")
                            : std::string())
              << "; for a copy within the host declare a loopback (a <cluster>'s loopback_bw and loopback_lat) or a "
                 "<route> from the host to itself\n";
}
} // namespace

// Every pair of hosts that will exchange messages has a route (issue #21, class 2): SimGrid finds out only when the
// first message leaves, with an abort, a crash (Full routing without the route) or an exception (Floyd). The pairs:
// each worker and each PS, both ways; for the ring architecture, ring neighbours, the tree's parents, the
// halving-doubling partners and the ring of node leaders, a superset of what any collective uses.
void check_routes(const sg4::Engine& engine, const Placement& placement, const Scenario& sc, const std::string& path,
                  bool warn)
{
  std::vector<std::pair<int, int>> pairs; // indices into `hosts`
  std::vector<std::string> hosts = placement.worker_hosts;
  const int workers              = static_cast<int>(placement.worker_hosts.size());
  for (std::size_t p = 0; p < placement.ps_hosts.size(); p++) {
    hosts.push_back(placement.ps_hosts[p]);
    for (int w = 0; w < workers; w++) {
      pairs.emplace_back(w, static_cast<int>(hosts.size()) - 1);
      pairs.emplace_back(static_cast<int>(hosts.size()) - 1, w);
    }
  }
  // The PS's transfers are made even between two ranks of one host: a PS on a worker's host, and a hierarchical PS's
  // relay, on its node's first GPU host, with every GPU of the node (parameter_server.cpp, run_node_relay). SimGrid
  // needs a link or a latency for a transfer within a host, and aborts mid-run without one.
  const std::size_t ps_pairs = pairs.size();
  if (sc.is_ps() && sc.gpus_per_node > 1)
    for (int r = 0; r < workers; r++) {
      const int relay = r - r % sc.gpus_per_node;
      pairs.emplace_back(relay, r);
      pairs.emplace_back(r, relay);
    }
  const std::size_t within_host_pairs = pairs.size(); // [0, within_host_pairs): checked within a host too
  if (!sc.is_ps()) {
    const int g = std::max(1, sc.gpus_per_node);
    for (int r = 0; r < workers; r++) {
      pairs.emplace_back(r, (r + 1) % workers);
      pairs.emplace_back((r + 1) % workers, r);
      if (r > 0) {
        pairs.emplace_back(r, (r - 1) / 2);
        pairs.emplace_back((r - 1) / 2, r);
      }
      for (int bit = 1; bit < workers; bit *= 2)
        if ((r ^ bit) < workers)
          pairs.emplace_back(r, r ^ bit);
      if (r % g == 0)
        pairs.emplace_back(r, (r + g) % workers);
    }
  }
  auto role = [workers](int i) {
    return i < workers ? std::string("worker ").append(std::to_string(i))
                       : std::string("PS ").append(std::to_string(i - workers));
  };
  // A route depends on the two hosts only: each ordered pair of distinct hosts is asked once, at its first place in
  // `pairs`, so the first pair to fail and the roles named are the same as when every pair is asked (a ring of
  // 16,384 workers lists about 300,000 pairs, some twice, and ranks of one multi-GPU host share their routes).
  std::unordered_map<std::string, int> host_id;
  std::vector<const sg4::Host*> host_of;
  std::vector<int> id(hosts.size());
  for (std::size_t i = 0; i < hosts.size(); i++) {
    auto [it, fresh] = host_id.emplace(hosts[i], static_cast<int>(host_of.size()));
    if (fresh)
      host_of.push_back(engine.host_by_name(hosts[i]));
    id[i] = it->second;
  }
  // The context SimGrid's abort or crash is reported with (sim/simgrid_guard.hpp) changes once per pair: its pieces
  // are escaped once per host and role, and the message itself is built only on failure.
  std::vector<std::string> host_json, roles;
  for (std::size_t i = 0; i < hosts.size(); i++) {
    host_json.push_back(SimGridGuard::json_escaped(hosts[i]));
    roles.push_back(role(static_cast<int>(i)));
  }
  const std::string path_json = SimGridGuard::json_escaped(path);
  // The first place of each ordered pair of distinct hosts, found by sorting (a hash set of 300,000 pairs cost more
  // than the routes themselves).
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed; // (from << 32 | to, place in `pairs`)
  keyed.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); i++) {
    const int from = id[static_cast<std::size_t>(pairs[i].first)], to = id[static_cast<std::size_t>(pairs[i].second)];
    if (from != to || i < within_host_pairs || (warn && !sc.is_ps())) // a ring's ranks of one host: the warning's
      keyed.emplace_back(static_cast<std::uint64_t>(from) << 32 | static_cast<std::uint32_t>(to), i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<char> first(pairs.size(), 0);
  for (std::size_t j = 0; j < keyed.size(); j++)
    if (j == 0 || keyed[j].first != keyed[j - 1].first)
      first[keyed[j].second] = 1;
  SimGridGuard guard(path + ": checking routes");
  std::vector<sg4::Link*> links;
  std::vector<std::pair<std::size_t, std::vector<sg4::Link*>>> within; // a pair within a host, and its route's links
  for (std::size_t i = 0; i < pairs.size(); i++) {
    if (!first[i])
      continue;
    const auto [a, b] = pairs[i];
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    guard.set_context_escaped({path_json, ": no route from host '", host_json[ia], "' (", roles[ia], ") to host '",
                               host_json[ib], "' (", roles[ib], ")"});
    links.clear();
    double latency_s = 0;
    auto what        = [&] {
      return path + ": no route from host '" + hosts[ia] + "' (" + roles[ia] + ") to host '" + hosts[ib] + "' (" +
             roles[ib] + ")";
    };
    try {
      host_of[static_cast<std::size_t>(id[ia])]->route_to(host_of[static_cast<std::size_t>(id[ib])], links, &latency_s);
    } catch (const std::exception& e) {
      throw InputError(what() + ": " + e.what());
    }
    if (id[ia] == id[ib]) {
      if (links.empty() && latency_s <= 0 && i >= within_host_pairs)
        continue; // the collectives' pairs are a superset of what one uses: left to the run, as before
      if (links.empty() && latency_s <= 0) {
        // A PS pair names its roles; a relay pair is (relay, GPU) either way, the relay the node's first GPU.
        const std::string who = i < ps_pairs
                                    ? roles[ia] + " and " + roles[ib]
                                    : "worker " + std::to_string(std::max(a, b)) + " and its node's relay (node " +
                                          std::to_string(std::min(a, b) / sc.gpus_per_node) + ", hierarchical PS)";
        throw InputError(path + ": host '" + hosts[ia] + "' has no link to itself, and " + who +
                         " exchange tensors on it: declare a loopback (a <cluster>'s loopback_bw and loopback_lat) or "
                         "a <route> from the host to itself, or place them on different hosts");
      }
      if (warn)
        within.emplace_back(i, links); // once per host: its pairs within it are one key
      continue;
    }
    if (links.empty())
      throw InputError(what() +
                       ": SimGrid finds a route without any link (declare one, e.g. a <route> in a Full zone)");
  }
  warn_within_host_over_network(host_of, id, pairs, within, roles, path);
}

} // namespace sgdsim
