#include "sim/simulation.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/suggest.hpp"
#include "common/text_file.hpp"
#include "platform/background.hpp"
#include "platform/deployment.hpp"
#include "platform/platform_params.hpp"
#include "sim/parameter_server.hpp"
#include "sim/progress.hpp"
#include "sim/ring_driver.hpp"
#include "sim/ring_worker.hpp"
#include "sim/sim_context.hpp"
#include "sim/simgrid_guard.hpp"
#include "sim/step_recorder.hpp"
#include "sim/worker.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <simgrid/Exception.hpp>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unistd.h>
#include <unordered_map>
#include <xbt/config.hpp>
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(sgdsim, "sgdsim: simulation of data-parallel DNN training");

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
// Each actor's stack (contexts/stack-size, KiB) unless --cfg gives one. An actor touches a page or two of it, but
// with SimGrid's default of 8 MiB the resident memory still grows with the reserved size (the allocator's map of
// the stacks' extents, about a page per actor): a stream-mode ring took 34.1 KB per node at 65,536 nodes with 8 MiB
// and 27.0 KB with 256 KiB (bench/README.md, session 11). The whole test suite passes with 64 KiB, the least --cfg
// accepts. Sanitizer builds keep SimGrid's default: their frames are larger and their contexts are threads.
#ifdef SGDSIM_SANITIZER_BUILD
constexpr int kActorStackKiB = 8192;
#else
constexpr int kActorStackKiB = 256;
#endif

// The value of the last --cfg item for `key` (SimGrid applies them in order, so the last one holds), or nullptr.
const char* cfg_value(const std::vector<std::string>& cfg, const std::string& key)
{
  const char* value = nullptr;
  for (const std::string& item : cfg)
    if (item.size() > key.size() && item.compare(0, key.size(), key) == 0 && item[key.size()] == ':')
      value = item.c_str() + key.size() + 1;
  return value;
}

// Engine::on_time_advance feeds the progress reporter. SimGrid's signals outlive the engine, so the callback is
// connected once per process and reads the reporter of the run in progress, if any (one engine per process).
ProgressReporter* current_progress       = nullptr;
const StepRecorder* current_step_counter = nullptr;

struct ProgressHook {
  ProgressHook(ProgressReporter* reporter, const StepRecorder& recorder)
  {
    static bool connected = false;
    if (reporter && !connected) {
      sg4::Engine::on_time_advance_cb([](double) {
        if (current_progress)
          current_progress->update(current_step_counter->steps_done(), current_step_counter->steps_total(),
                                   sg4::Engine::get_clock());
      });
      connected = true;
    }
    current_progress     = reporter;
    current_step_counter = &recorder;
  }
  ~ProgressHook() { current_progress = nullptr; }
  ProgressHook(const ProgressHook&)            = delete;
  ProgressHook& operator=(const ProgressHook&) = delete;
};
} // namespace

std::string downlink_mailbox(int ps, int worker)
{
  return "dl/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string uplink_mailbox(int ps, int worker)
{
  return "ul/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string uplink_mailbox_fcfs(int ps)
{
  return "ul/ps" + std::to_string(ps);
}
std::string relay_down_mailbox(int ps, int worker)
{
  return "relay-dl/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string relay_up_mailbox(int ps, int worker)
{
  return "relay-ul/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}

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

namespace {
// The first worker host other than `from`, or `from` itself when every worker runs there.
const sg4::Host* first_worker_elsewhere(const sg4::Engine& engine, const Placement& placement, const sg4::Host* from)
{
  for (const std::string& h : placement.worker_hosts)
    if (const sg4::Host* host = engine.host_by_name(h); host != from)
      return host;
  return from;
}

// The route from `from` to the first worker on another host; within `from` when every worker runs there.
RouteInfo route_to_workers(const sg4::Engine& engine, const Placement& placement, const sg4::Host* from)
{
  return route_info(from, first_worker_elsewhere(engine, placement, from));
}

// The route the analytic models read (README "Parameters from the platform"). PS architectures: from PS 0 to the
// first worker on another host (with parameter servers beside workers, as tf_cnn_benchmarks ran them, worker 0 may
// share PS 0's host: that route is the loopback, not the network); ring: from worker 0 to the first worker on
// another host (its right neighbour, unless multi-GPU hosts hold several ranks: then the network between nodes).
RouteInfo network_route(const sg4::Engine& engine, const Placement& placement)
{
  return route_to_workers(
      engine, placement,
      engine.host_by_name(placement.ps_hosts.empty() ? placement.worker_hosts[0] : placement.ps_hosts[0]));
}

// The models' figures of `route`; all 0 for a route within one host (no network between the parties).
NetworkParams network_of(const RouteInfo& route)
{
  NetworkParams net;
  if (route.from_host != route.to_host) {
    net.bottleneck_Bps = route.bottleneck_Bps;
    net.flow_cap_Bps   = route.flow_cap_Bps;
    net.latency_s      = route.latency_s;
  }
  return net;
}
void check_readable(const std::string& path, const char* what)
{
  check_regular_input(path); // SimGrid exits on a folder and blocks on a named pipe
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, std::string("cannot read the ") + what + " file");
}

double mean_of(const std::vector<double>& v)
{
  double s = 0;
  for (double x : v)
    s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v)
{
  if (v.size() < 2)
    return 0;
  double m  = mean_of(v);
  double ss = 0;
  for (double x : v)
    ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

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

// The platform's nominal figures, read before the run (a --background schedule changes link bandwidths during it).
struct NominalNetwork {
  NetworkParams network;
  RouteInfo route;                  // the route `network` is read on (within the host when every worker is there)
  std::vector<RouteInfo> ps_routes; // per PS: its route to the first worker on another host (or within its host)
};

NominalNetwork nominal_network(const sg4::Engine& engine, const Placement& placement)
{
  NominalNetwork n;
  n.route   = network_route(engine, placement);
  n.network = network_of(n.route);
  for (const std::string& h : placement.ps_hosts)
    n.ps_routes.push_back(route_to_workers(engine, placement, engine.host_by_name(h)));
  return n;
}

SimResult summarize(const SimContext& ctx, const StepRecorder& rec, const Placement& placement,
                    const NominalNetwork& nominal)
{
  const Scenario& sc = ctx.scenario;
  const auto* engine = sg4::Engine::get_instance();
  SimResult r;
  r.sharing        = to_string(sc.sharing);
  r.steps_measured = sc.steps;
  std::vector<double> all_steps;
  for (int w = 0; w < sc.workers; w++) {
    const WorkerTrace& tr = rec.trace(w);
    WorkerStats ws;
    ws.rank        = w;
    ws.host        = placement.worker_hosts[static_cast<std::size_t>(w)];
    ws.speed_ratio = engine->host_by_name(ws.host)->get_speed() / ctx.workload.reference_speed;
    std::vector<double> steps;
    for (int s = sc.warmup; s < sc.warmup + sc.steps; s++) {
      double begin = s == 0 ? 0.0 : tr.step_end_s[static_cast<std::size_t>(s - 1)];
      steps.push_back(tr.step_end_s[static_cast<std::size_t>(s)] - begin);
      const StepSplit& split = tr.splits[static_cast<std::size_t>(s)];
      ws.compute_s += split.compute_s / sc.steps;
      ws.comm_exposed_s += split.comm_exposed_s / sc.steps;
      ws.wait_s += split.wait_s / sc.steps;
    }
    ws.step_time_mean_s = mean_of(steps);
    ws.step_time_std_s  = std_of(steps);
    all_steps.insert(all_steps.end(), steps.begin(), steps.end());
    r.throughput_examples_per_s += ctx.workload.batch / ws.step_time_mean_s;
    r.step_time_mean_s += ws.step_time_mean_s / sc.workers;
    r.compute_s += ws.compute_s / sc.workers;
    r.comm_exposed_s += ws.comm_exposed_s / sc.workers;
    r.wait_s += ws.wait_s / sc.workers;
    r.per_worker.push_back(ws);
  }
  r.step_time_std_s  = std_of(all_steps);
  r.step_time_min_s  = *std::min_element(all_steps.begin(), all_steps.end());
  r.step_time_max_s  = *std::max_element(all_steps.begin(), all_steps.end());
  r.simulated_time_s = sg4::Engine::get_clock();

  r.network   = nominal.network;
  r.route     = nominal.route;
  r.ps_routes = nominal.ps_routes;
  for (std::size_t p = 0; p < placement.ps_hosts.size(); p++) {
    PsStats ps;
    ps.rank        = static_cast<int>(p);
    ps.host        = placement.ps_hosts[p];
    ps.speed_ratio = sg4::Engine::get_instance()->host_by_name(ps.host)->get_speed() / ctx.workload.reference_speed;
    // The first link of its route to a worker on another host; 0 when every worker runs on its host.
    const RouteInfo& route = nominal.ps_routes[p];
    ps.nic_Bps             = route.from_host == route.to_host ? 0 : route.first_link_Bps;
    ps.tensors             = static_cast<int>(ctx.ps_tensors[p].size());
    for (int t : ctx.ps_tensors[p])
      ps.bytes += ctx.workload.tensors[static_cast<std::size_t>(t)].bytes;
    // Steady state: every worker moves the shard down and up once per step.
    double bytes_per_s = 0;
    for (const WorkerStats& ws : r.per_worker) // with hierarchical PS, a node's GPUs share one transfer
      bytes_per_s += ps.bytes / ws.step_time_mean_s / ctx.scenario.gpus_per_node;
    ps.downlink_utilization = ps.nic_Bps > 0 ? bytes_per_s / ps.nic_Bps : 0;
    ps.uplink_utilization   = ps.downlink_utilization;
    r.per_ps.push_back(ps);
  }
  return r;
}

std::vector<HostInfo> list_hosts(const sg4::Engine& engine)
{
  std::vector<HostInfo> hosts;
  for (const sg4::Host* h : engine.get_all_hosts()) {
    const char* role = h->get_property("role");
    hosts.push_back(HostInfo{h->get_name(), role ? role : "", h->get_core_count()});
  }
  return hosts;
}
} // namespace

namespace {
// A link's availability over time, applied by a daemon actor (SimGrid 3.32 refuses bandwidth profiles on links
// once the platform is sealed, and a cluster's links are sealed as it is loaded).
struct LinkSchedule {
  sg4::Link* link = nullptr;
  AvailabilityProfile profile;
};

struct Prepared {
  std::unique_ptr<sg4::Engine> engine;
  Placement placement;
  Scenario scenario;                         // with the sizes of the deployment when there is one
  std::vector<LinkSchedule> link_schedules;  // --background's link profiles
  std::set<std::string> varying_speed_hosts; // hosts with a --background speed profile
  double price_per_hour_usd = 0;             // of the hosts used; NaN if one has no price
};

// Attaches the background file's host profiles (SimGrid speed profiles scale the nominal speed by the given
// fraction from each time on), adds their hosts to `varying_speed_hosts` and returns the link schedules.
std::vector<LinkSchedule> apply_background(sg4::Engine& engine, const std::string& path,
                                           std::set<std::string>& varying_speed_hosts)
{
  std::vector<LinkSchedule> links_out;
  int n = 0;
  for (const AvailabilityProfile& p : read_background_file(path)) {
    if (p.target == AvailabilityProfile::Target::LINK) {
      sg4::Link* link = sg4::Link::by_name_or_null(p.name);
      if (link == nullptr)
        throw InputError(path, p.line, "<link name='" + p.name + "'>: no such link in the platform");
      links_out.push_back({link, p});
      continue;
    }
    sg4::Host* host = engine.host_by_name_or_null(p.name);
    if (host == nullptr)
      throw InputError(path, p.line, "host '" + p.name + "': not in the platform");
    if (p.target == AvailabilityProfile::Target::HOST) {
      varying_speed_hosts.insert(p.name);
      host->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
          "background-" + std::to_string(n++) + "-" + p.name, p.simgrid_trace(), p.repeat_s));
      continue;
    }
    // A NIC: the first link of a route from the host (up), the last of a route to it (down).
    sg4::Host* other = nullptr;
    for (sg4::Host* h : engine.get_all_hosts())
      if (h != host) {
        other = h;
        break;
      }
    std::vector<sg4::Link*> links;
    double latency = 0;
    if (other != nullptr) {
      if (p.target == AvailabilityProfile::Target::NIC_UP)
        host->route_to(other, links, &latency);
      else
        other->route_to(host, links, &latency);
    }
    if (links.empty())
      throw InputError(path, p.line, "<nic host='" + p.name + "'>: the host has no link to another host");
    links_out.push_back({p.target == AvailabilityProfile::Target::NIC_UP ? links.front() : links.back(), p});
  }
  // A <nic> and a <link> may name one link: two schedules would overwrite each other's bandwidth.
  std::map<const sg4::Link*, int> first_line;
  for (const LinkSchedule& ls : links_out)
    if (auto [it, fresh] = first_line.emplace(ls.link, ls.profile.line); !fresh)
      throw InputError(path, ls.profile.line,
                       "link '" + ls.link->get_name() + "' already has a profile (line " + std::to_string(it->second) +
                           "): give each link one element, with all its <at> steps");
  return links_out;
}

// The daemon that sets each scheduled link's bandwidth at its times (repeating if asked); it dies with the run.
void run_link_schedules(std::vector<LinkSchedule> schedules)
{
  struct Event {
    double time_s;
    std::size_t schedule;
    std::size_t step;
  };
  std::vector<double> nominal;
  for (const LinkSchedule& ls : schedules)
    nominal.push_back(ls.link->get_bandwidth());
  auto later = [](const Event& a, const Event& b) {
    return a.time_s > b.time_s || (a.time_s == b.time_s && a.schedule > b.schedule);
  };
  std::vector<Event> queue;
  for (std::size_t i = 0; i < schedules.size(); i++)
    queue.push_back({schedules[i].profile.steps[0].time_s, i, 0});
  std::make_heap(queue.begin(), queue.end(), later);
  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), later);
    Event e = queue.back();
    queue.pop_back();
    sg4::this_actor::sleep_until(e.time_s);
    const AvailabilityProfile& p = schedules[e.schedule].profile;
    schedules[e.schedule].link->set_bandwidth(nominal[e.schedule] * p.steps[e.step].fraction);
    std::size_t next = e.step + 1;
    double offset    = e.time_s - p.steps[e.step].time_s;
    if (next == p.steps.size()) {
      if (p.repeat_s <= 0)
        continue;
      next = 0;
      offset += p.repeat_s;
    }
    queue.push_back({offset + p.steps[next].time_s, e.schedule, next});
    std::push_heap(queue.begin(), queue.end(), later);
  }
}

// SimGrid maps each actor's stack with a guard page, two memory mappings per actor; Linux caps a process at
// vm.max_map_count mappings (65,530 by default), and SimGrid aborts beyond it ("Failed to protect stack"): a ring of
// 16,384 workers (32,768 actors) crossed it. Past that point, sgdsim drops the guard pages (contexts/guard-size:0),
// which changes no result; it only loses the clean crash of a stack overflow. A user's --cfg still overrides it.
bool needs_guardless_stacks(const Scenario& sc)
{
  const double actors  = max_actors(sc);
  double max_map_count = 65530; // Linux's default, when /proc does not say
  std::ifstream in("/proc/sys/vm/max_map_count");
  double v = 0;
  if (in >> v && v > 0)
    max_map_count = v;
  constexpr double kOtherMappings = 4096; // libraries, heap arenas, the platform: a few hundred, with margin
  return 2 * actors + kOtherMappings > max_map_count;
}

// SimGrid answers a misspelt key with the list of all its keys, one per line ("Bad config key: K\nExisting config
// keys:\n  name: (type)value\n..."): one line instead, with the closest key.
std::string cfg_error(const std::string& item, const std::string& what)
{
  const std::string bad = "Bad config key: ";
  if (what.rfind(bad, 0) != 0)
    return what.substr(0, what.find('\n'));
  const std::string key = item.substr(0, item.find(':'));
  std::vector<std::string> keys;
  std::istringstream lines(what);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  ", 0) == 0 && line.find(':') != std::string::npos)
      keys.push_back(line.substr(2, line.find(':') - 2));
  return "SimGrid has no configuration key '" + key + "'" + did_you_mean(key, keys) +
         " (the keys: SimGrid's documentation, \"Configuring SimGrid\")";
}

// Every pair of hosts that will exchange messages has a route (issue #21, class 2): SimGrid finds out only when the
// first message leaves, with an abort, a crash (Full routing without the route) or an exception (Floyd). The pairs:
// each worker and each PS, both ways; for the ring architecture, ring neighbours, the tree's parents, the
// halving-doubling partners and the ring of node leaders, a superset of what any collective uses.
void check_routes(const sg4::Engine& engine, const Placement& placement, const Scenario& sc, const std::string& path)
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
    if (from != to)
      keyed.emplace_back(static_cast<std::uint64_t>(from) << 32 | static_cast<std::uint32_t>(to), i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<char> first(pairs.size(), 0);
  for (std::size_t j = 0; j < keyed.size(); j++)
    if (j == 0 || keyed[j].first != keyed[j - 1].first)
      first[keyed[j].second] = 1;
  SimGridGuard guard(path + ": checking routes");
  std::vector<sg4::Link*> links;
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
    if (links.empty())
      throw InputError(what() +
                       ": SimGrid finds a route without any link (declare one, e.g. a <route> in a Full zone)");
  }
}

// Everything before the actors: engine, SimGrid settings, platform, placement, and their checks (all errors here
// are InputErrors or SimGrid ParseErrors, raised before Engine::run()).
Prepared prepare(const SimInputs& in)
{
  const Scenario& sc = in.scenario;
  validate_scenario(sc);
  check_readable(in.platform_path, "platform");
  if (!in.deployment_path.empty())
    check_readable(in.deployment_path, "deployment");

  std::vector<std::string> engine_args = {"sgdsim", "--log=xbt_cfg.thresh:warning"};
#ifdef SGDSIM_SANITIZER_BUILD
  // The context factory is chosen when the engine is built; see SGDSIM_SANITIZE in CMakeLists.txt.
  engine_args.emplace_back("--cfg=contexts/factory:thread");
#endif
  std::vector<char*> argv;
  for (std::string& a : engine_args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(engine_args.size());
  Prepared prep;
  prep.engine = std::make_unique<sg4::Engine>(&argc, argv.data());
  // SimGrid's own chatter about configuration changes goes away; the settings are echoed in the JSON output.
  xbt_log_control_set("xbt_cfg.thresh:warning");
  for (const std::string& setting : in.log_settings) {
    // SimGrid aborts on some settings (a file it cannot open) and throws on others (an unknown threshold).
    try {
      const SimGridGuard guard("--log '" + setting + "': SimGrid refuses it");
      xbt_log_control_set(setting.c_str());
    } catch (const std::exception& e) {
      const std::string what = e.what();
      throw InputError("--log '" + setting + "': " + what.substr(0, what.find('\n')));
    }
  }
  // Before the user's settings, which may replace it; not echoed in the outputs (it changes no result).
  sg4::Engine::set_config("contexts/stack-size:" + std::to_string(kActorStackKiB));
  for (const std::string& item : sc.simgrid_cfg) {
    if (item.find(':') == std::string::npos)
      throw InputError("--cfg '" + item + "': expected NAME:VALUE (e.g. network/model:CM02)");
    try {
      const SimGridGuard guard("--cfg '" + item + "': SimGrid refuses it"); // some values abort (network/model)
      sg4::Engine::set_config(item);
    } catch (const std::exception& e) {
      throw InputError("--cfg '" + item + "': " + cfg_error(item, e.what()));
    }
  }
  if (sc.flow_spread_in > 0 || sc.flow_spread_out > 0) {
    // The weights ride on the routes' latencies, which are a flow's whole sharing penalty only without weight-S
    // (docs/models.md §10.6).
    if (const char* weight_s = cfg_value(sc.simgrid_cfg, "network/weight-S"))
      throw InputError(std::string("--cfg 'network/weight-S:") + weight_s +
                       "': --flow-spread-in/out set network/weight-S to 0 themselves");
    sg4::Engine::set_config("network/weight-S:0");
  }
  try {
    const SimGridGuard guard(in.platform_path + ": SimGrid cannot load the platform");
    prep.engine->load_platform(in.platform_path); // a simgrid::ParseError names the file and the line
  } catch (const simgrid::ParseError&) {
    throw;
  } catch (const std::exception& e) {
    // SimGrid checks some platform errors with assertions (e.g. "Empty route ... forbidden"): still bad input.
    throw InputError(in.platform_path, 0, std::string("SimGrid cannot load the platform: ") + e.what());
  }

  const std::vector<HostInfo> hosts = list_hosts(*prep.engine);
  prep.placement                    = in.deployment_path.empty()
                                          ? auto_placement(hosts, sc.workers, sc.ps, in.platform_path)
                                          : read_deployment_file(in.deployment_path, hosts, in.platform_path, sc.is_ps());
  prep.scenario                     = sc;
  if (!in.deployment_path.empty()) {
    // The deployment decides the sizes; the options, if the user gave them, must agree (checked by the CLI).
    prep.scenario.workers = static_cast<int>(prep.placement.worker_hosts.size());
    prep.scenario.ps      = static_cast<int>(prep.placement.ps_hosts.size());
  }
  for (const std::string& h : prep.placement.worker_hosts)
    if (prep.engine->host_by_name(h)->get_speed() <= 0)
      throw InputError(in.platform_path, 0, "host '" + h + "': a worker host needs a positive speed");
  // The actors must fit the machine (issue #21, class 9): validate_scenario counted the options' sizes, a deployment
  // gives its own.
  if (!in.deployment_path.empty())
    check_actors_fit(
        max_actors(prep.scenario), 1024.0 * simgrid::config::get_value<int>("contexts/stack-size"),
        std::string(in.deployment_path).append(": ").append(std::to_string(prep.scenario.workers)).append(" workers"));
  if (!cfg_value(sc.simgrid_cfg, "contexts/guard-size") && needs_guardless_stacks(prep.scenario)) // before any actor
    sg4::Engine::set_config("contexts/guard-size:0");
  prep.price_per_hour_usd = cluster_price_per_hour_usd(*prep.engine, prep.placement, in.platform_path);
  check_routes(*prep.engine, prep.placement, prep.scenario, in.platform_path);
  if (!in.background_path.empty())
    prep.link_schedules = apply_background(*prep.engine, in.background_path, prep.varying_speed_hosts);
  return prep;
}

// A figure per PS rank and client (a worker, or with hierarchical PS a node's relay), from the two hosts.
template <class Figure>
std::vector<std::vector<double>> per_ps_client(sg4::Engine& engine, const Placement& placement, const SimContext& ctx,
                                               Figure figure)
{
  const int gpus = ctx.hierarchical_ps() ? ctx.scenario.gpus_per_node : 1;
  std::vector<std::vector<double>> table;
  for (const std::string& h : placement.ps_hosts) {
    sg4::Host* ps = engine.host_by_name(h);
    std::vector<double> row;
    for (int c = 0; c < ctx.ps_clients(); c++)
      row.push_back(figure(ps, ctx.worker_host_ptrs[static_cast<std::size_t>(c * gpus)]));
    table.push_back(std::move(row));
  }
  return table;
}

// PS connections as TCP streams (docs/models.md §10.5): each route's latency moves from the links, where SimGrid
// pays it before every message's bytes, to the PS's actors, which add it once to a burst of messages. Every
// transfer of a PS architecture is a message of a PS connection, so no link keeps a latency. The route from the
// PS to the client stands for both directions (the platforms' routes are symmetric).
void make_streams(sg4::Engine& engine, const Placement& placement, SimContext& ctx)
{
  const double factor  = simgrid::config::get_value<double>("network/latency-factor");
  ctx.stream_latency_s = per_ps_client(engine, placement, ctx, [factor](sg4::Host* ps, sg4::Host* client) {
    double route_s = 0;
    if (client != ps) {
      std::vector<sg4::Link*> links;
      ps->route_to(client, links, &route_s);
    }
    return route_s * factor;
  });
  for (sg4::Link* link : engine.get_all_links())
    link->set_latency(0);
}

// --flow-spread-in/out (docs/models.md §10.6): each worker's connections get their sharing weight through the latency
// of a link only they cross: the first link of the worker's route to each PS (in), the last of each route back (out).
// A link that another worker's connections cross as well, or none, would weigh them all alike: an input error.
void find_weight_links(sg4::Engine& engine, const Placement& placement, SimContext& ctx, const std::string& platform)
{
  std::map<sg4::Link*, int> owner; // link -> worker
  auto own = [&](sg4::Link* link, int w, const char* dir) {
    auto [it, fresh] = owner.emplace(link, w);
    if (!fresh && it->second != w)
      throw InputError(platform, 0,
                       std::string("--flow-spread-") + dir +
                           " needs a link of its own per worker, next to it on its routes to the PS: link '" +
                           link->get_name() + "' is on those of workers " + std::to_string(it->second) + " and " +
                           std::to_string(w));
  };
  for (int w = 0; w < ctx.scenario.workers; w++) {
    sg4::Host* me = ctx.worker_host_ptrs[static_cast<std::size_t>(w)];
    std::vector<sg4::Link*> in_links, out_links;
    for (const std::string& h : placement.ps_hosts) {
      sg4::Host* ps = engine.host_by_name(h);
      std::vector<sg4::Link*> up, down;
      me->route_to(ps, up, nullptr);
      ps->route_to(me, down, nullptr);
      if (up.empty() || down.empty())
        throw InputError(platform, 0,
                         "--flow-spread-in/out: worker " + std::to_string(w) + " is on the host of a PS (" + h +
                             "): its connection to it crosses no link to weigh");
      own(up.front(), w, "in");
      own(down.back(), w, "out");
      if (std::find(in_links.begin(), in_links.end(), up.front()) == in_links.end())
        in_links.push_back(up.front());
      if (std::find(out_links.begin(), out_links.end(), down.back()) == out_links.end())
        out_links.push_back(down.back());
    }
    ctx.weight_links_in.push_back(std::move(in_links));
    ctx.weight_links_out.push_back(std::move(out_links));
  }
}

// The connections a ring message between two hosts is cut over (docs/models.md §10.9). Cutting a message changes
// its rate only where a lone flow is capped (a FATPIPE link narrower than the route's narrowest shared link, between
// ring neighbours on two hosts; the caps of the shipped platforms are the same on every route between hosts) or
// where other all-reduces' flows share its links (several in flight): elsewhere each link of a ring carries one
// message at a time, and N flows of bytes / N on one route end together with the one flow of the bytes; the messages
// of a tree or of halving-doubling that share a link are all cut alike, so their shares stay as they were. There the
// collectives send one flow per message and the ring keeps its step replay (which emulates one flow per chunk; the
// dispatcher sends parts too).
int effective_ring_sockets(const SimContext& ctx)
{
  const Scenario& sc = ctx.scenario;
  if (sc.sockets_per_peer <= 1)
    return 1;
  if (ctx.lanes() > 1)
    return sc.sockets_per_peer;
  const int stride = sc.ring_stride();
  const int n      = sc.workers / stride;
  for (int i = 0; i < n; i++) {
    const sg4::Host* from = ctx.worker_host_ptrs[static_cast<std::size_t>(i * stride)];
    const sg4::Host* to   = ctx.worker_host_ptrs[static_cast<std::size_t>((i + 1) % n * stride)];
    if (from == to)
      continue;
    const RouteInfo r = route_info(from, to);
    if (r.flow_cap_Bps < r.bottleneck_Bps) // a cap that binds a lone flow
      return sc.sockets_per_peer;
  }
  return 1;
}

// Whether the run's ring is sliced (docs/models.md §10.10): sliced ring options, and some all-reduce whose chunk spans
// more than one slice (the largest call: the largest planned unit, or with fusion the buffer or the largest layer).
// Where every chunk fits in one slice, slices forward whole chunks once arrived, as the ring dispatcher does with
// the links' latencies: it runs those, faster.
bool ring_sliced_run(const Workload& wl, const Scenario& sc, const std::vector<GradUnit>& units)
{
  if (!sc.ring_sliced())
    return false;
  const int members    = sc.workers / sc.ring_stride();
  double largest_bytes = 0;
  if (sc.unit() == AllreduceUnit::FUSION) {
    largest_bytes = std::min(sc.fusion_buffer_bytes, wl.model_bytes());
    for (std::size_t l = 0; l < wl.layers.size(); l++)
      largest_bytes = std::max(largest_bytes, wl.layer_bytes(l));
  } else
    for (const GradUnit& u : units)
      largest_bytes = std::max(largest_bytes, u.bytes);
  return members > 1 && largest_bytes / members > sc.ring_slice_bytes;
}

// A sliced steps-mode ring (docs/models.md §10.10): each ring connection is a stream whose latency its actors add to
// each slice, so the route latencies move from the links to ctx.ring_latency_s, per worker to its right neighbour
// (the leaders' ring of the hierarchical all-reduce: its leaders'). No link keeps a latency: the hierarchical
// all-reduce's phases inside a node and background flows lose theirs.
void make_ring_streams(sg4::Engine& engine, SimContext& ctx)
{
  const Scenario& sc  = ctx.scenario;
  const double factor = simgrid::config::get_value<double>("network/latency-factor");
  const int stride    = sc.ring_stride();
  const int n         = sc.workers / stride;
  ctx.ring_latency_s.assign(static_cast<std::size_t>(sc.workers), 0.0);
  for (int i = 0; i < n; i++) {
    sg4::Host* from = ctx.worker_host_ptrs[static_cast<std::size_t>(i * stride)];
    sg4::Host* to   = ctx.worker_host_ptrs[static_cast<std::size_t>((i + 1) % n * stride)];
    double route_s  = 0;
    if (from != to) {
      std::vector<sg4::Link*> links;
      from->route_to(to, links, &route_s);
    }
    ctx.ring_latency_s[static_cast<std::size_t>(i * stride)] = route_s * factor;
  }
  for (sg4::Link* link : engine.get_all_links())
    link->set_latency(0);
}

// Whether the platform file declares profiles (availability_file, state_file, trace_connect; SimGrid's platform
// DTD 4.1), which may change any host's speed: SimGrid has no accessor for a host's profiles.
bool platform_declares_profiles(const std::string& platform_path)
{
  const std::string text = read_text_file(platform_path);
  for (const char* word : {"availability_file", "state_file", "trace_connect"})
    if (text.find(word) != std::string::npos)
      return true;
  return false;
}

} // namespace

PlatformProbe probe_platform(const SimInputs& in)
{
  Prepared prep = prepare(in);
  PlatformProbe probe;
  probe.network      = network_of(network_route(*prep.engine, prep.placement));
  probe.workers      = prep.scenario.workers;
  probe.ps           = prep.scenario.ps;
  probe.worker_hosts = prep.placement.worker_hosts;
  probe.ps_hosts     = prep.placement.ps_hosts;
  for (const std::string& h : prep.placement.worker_hosts)
    probe.speed_ratio.push_back(prep.engine->host_by_name(h)->get_speed() / in.workload.reference_speed);
  for (const std::string& h : prep.placement.ps_hosts)
    probe.ps_speed_ratio.push_back(prep.engine->host_by_name(h)->get_speed() / in.workload.reference_speed);
  return probe;
}

SimResult simulate(const SimInputs& in)
{
  xbt_assert(in.scenario.sharing != Sharing::HYBRID, "simulate(): hybrid sharing is two simulations");
  Prepared prep = prepare(in);
  check_step_takes_time(in.workload, prep.scenario);
  sg4::Engine& engine        = *prep.engine;
  const Placement& placement = prep.placement;
  const Scenario& scenario   = prep.scenario;

  SimContext ctx{in.workload, scenario, {},      {}, {}, {}, {}, {}, 0,  {}, {},
                 {},          {},       nullptr, {}, {}, {}, {}, {}, {}, 1,  {}};
  ctx.worker_hosts = placement.worker_hosts;
  ctx.recv_sink.assign(static_cast<std::size_t>(scenario.workers), nullptr);
  for (const std::string& h : placement.worker_hosts)
    ctx.worker_host_ptrs.push_back(engine.host_by_name(h));
  if (scenario.is_ps() && (scenario.flow_spread_in > 0 || scenario.flow_spread_out > 0))
    find_weight_links(engine, placement, ctx, in.platform_path); // before any actor: an input error exits cleanly
  // Steps-mode rings run through the ring dispatcher where it applies (ring_driver.hpp), otherwise the workers'
  // actors exchange the chunks through their inboxes, or, in a sliced run (docs/models.md §10.10), their slices
  // through mailboxes. Each lane (all-reduces in flight at once) is a ring of its own: members lane * workers + rank.
  std::optional<RingDriver> ring_driver;
  bool sliced = false;
  if (!scenario.is_ps()) {
    ctx.ring_sockets = effective_ring_sockets(ctx);
    ctx.grad_units = plan_grad_units(in.workload, scenario.unit(), scenario.bucket_bytes, scenario.first_bucket_bytes);
    sliced         = ring_sliced_run(in.workload, scenario, ctx.grad_units);
    std::vector<sg4::Host*> lane_hosts;
    for (int lane = 0; lane < ctx.lanes(); lane++)
      lane_hosts.insert(lane_hosts.end(), ctx.worker_host_ptrs.begin(), ctx.worker_host_ptrs.end());
    if (ring_driver_applies(scenario) && !sliced) {
      // Step replay (docs/design.md "Ring step replay") needs a platform that nothing changes during the run.
      const bool replay =
          ring_replay_applies(scenario) && in.background_path.empty() && !platform_declares_profiles(in.platform_path);
      ctx.ring_driver = &ring_driver.emplace(lane_hosts, replay, ctx.ring_sockets);
    } else if (scenario.ring_mode == RingMode::STEPS && !sliced) // sliced: mailboxes
      for (std::size_t m = 0; m < lane_hosts.size(); m++)
        ctx.ring_inbox.push_back(RingInbox{{}, false, sg4::Semaphore::create(0)});
  }
  if (!scenario.is_ps() && scenario.fusion_buffer_bytes > 0) {
    ctx.fusion_plan.pending.resize(static_cast<std::size_t>(scenario.workers));
    for (int w = 0; w < scenario.workers; w++)
      ctx.fusion_plan.posted.push_back(sg4::Semaphore::create(0));
  }
  for (std::size_t l = 0; l < in.workload.layers.size(); l++)
    ctx.layer_bytes.push_back(in.workload.layer_bytes(l));
  if (scenario.is_ps()) {
    ctx.tensor_ps = split_tensors(in.workload, scenario.ps, scenario.ps_split);
    ctx.ps_tensors.resize(static_cast<std::size_t>(scenario.ps));
    for (std::size_t t = 0; t < ctx.tensor_ps.size(); t++)
      ctx.ps_tensors[static_cast<std::size_t>(ctx.tensor_ps[t])].push_back(static_cast<int>(t));
    ctx.node_steps.assign(static_cast<std::size_t>(ctx.ps_clients()), -1);
    ctx.ps_cpu_exclusive = ps_cpu_exclusive(prep.placement, prep.varying_speed_hosts,
                                            platform_declares_profiles(in.platform_path), ctx.ps_tensors);
    if (scenario.ps_updates_as_executions)
      ctx.ps_cpu_exclusive.assign(ctx.ps_cpu_exclusive.size(), 0);
    if (scenario.message_s_per_byte > 0) // between hosts only (SimContext::message_s_per_byte)
      ctx.message_s_per_byte = per_ps_client(engine, placement, ctx, [&scenario](sg4::Host* ps, sg4::Host* client) {
        return client == ps ? 0.0 : scenario.message_s_per_byte;
      });
    ctx.messages.resize(static_cast<std::size_t>(scenario.workers));
    for (int w = 0; w < scenario.workers; w++)
      for (int t = 0; t < static_cast<int>(in.workload.tensors.size()); t++)
        ctx.messages[static_cast<std::size_t>(w)].push_back(TensorMsg{w, t});
  }

  StepRecorder recorder(scenario.workers, scenario.warmup, scenario.steps);
  if (in.timeline)
    recorder.enable_timeline();
  for (int p = 0; p < scenario.ps; p++)
    sg4::Actor::create("ps" + std::to_string(p), engine.host_by_name(placement.ps_hosts[static_cast<std::size_t>(p)]),
                       [&ctx, &recorder, p] { run_parameter_server(ctx, recorder, p); });
  if (ctx.hierarchical_ps()) // one relay per node and PS, on the node's first GPU host
    for (int n = 0; n < ctx.ps_clients(); n++)
      for (int p = 0; p < scenario.ps; p++)
        sg4::Actor::create(
            "relay" + std::to_string(n) + "-ps" + std::to_string(p),
            engine.host_by_name(placement.worker_hosts[static_cast<std::size_t>(n * scenario.gpus_per_node)]),
            [&ctx, n, p] { run_node_relay(ctx, n, p); });
  for (int w = 0; w < scenario.workers; w++) {
    sg4::Host* host = ctx.worker_host_ptrs[static_cast<std::size_t>(w)];
    if (scenario.is_ps())
      sg4::Actor::create("worker" + std::to_string(w), host, [&ctx, &recorder, w] { PsWorker(ctx, recorder, w)(); });
    else
      sg4::Actor::create("worker" + std::to_string(w), host,
                         [&ctx, &recorder, w] { run_ring_worker(ctx, recorder, w); });
  }
  const NominalNetwork nominal = nominal_network(engine, placement);
  if (scenario.is_ps() && scenario.stream)
    make_streams(engine, placement, ctx); // after the nominal figures, which report the links' latencies
  if (sliced)
    make_ring_streams(engine, ctx); // after the nominal figures too
  if (!prep.link_schedules.empty())
    sg4::Actor::create("background", engine.get_all_hosts().front(), [schedules = prep.link_schedules] {
      run_link_schedules(schedules);
    })->daemonize();
  std::optional<ProgressReporter> progress;
  if (in.progress)
    progress.emplace(stderr, in.progress_label, ::isatty(STDERR_FILENO) == 1);
  {
    const ProgressHook hook(progress ? &*progress : nullptr, recorder);
    engine.run();
  }
  if (progress)
    progress->finish();
  // SimGrid ends the run when every actor is blocked (it logs "Deadlock detected"); results from an unfinished run
  // would be garbage (negative throughputs were seen), so it is an internal error, never a result.
  if (!recorder.all_measured())
    throw std::runtime_error("the simulation deadlocked at t = " + std::to_string(sg4::Engine::get_clock()) +
                             " s before every worker finished its steps (a bug in sgdsim: please report it with "
                             "the command line)");
  // When the run ends is known only now: a background change planned after it changed nothing, which the user
  // should hear of (issue #21, class 8).
  if (!in.background_path.empty()) {
    int last_line = 0;
    for (const AvailabilityProfile& p : read_background_file(in.background_path))
      if (p.line != last_line && p.steps.front().time_s > sg4::Engine::get_clock()) {
        last_line = p.line; // a <nic direction="both"> is two profiles of one line
        std::fprintf(stderr,
                     "sgdsim: warning: %s:%d: the first change of '%s', at %.6g s, comes after the run ended at %.6g "
                     "s: it changed nothing\n",
                     in.background_path.c_str(), p.line, p.name.c_str(), p.steps.front().time_s,
                     sg4::Engine::get_clock());
      }
  }
  SimResult result                  = summarize(ctx, recorder, placement, nominal);
  result.cluster_price_per_hour_usd = prep.price_per_hour_usd;
  for (auto& [track, resource, name, step, start, end] : recorder.timeline())
    result.timeline.push_back(TimelineEvent{track, resource, name, step, start, end});
  return result;
}

} // namespace sgdsim
