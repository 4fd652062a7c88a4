#include "sim/engine_setup.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/suggest.hpp"
#include "common/text_file.hpp"
#include "sim/input_checks.hpp"
#include "sim/simgrid_guard.hpp"

#include <fstream>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <sstream>
#include <xbt/config.hpp>
#include <xbt/log.h>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

// The value of the last --cfg item for `key` (SimGrid applies them in order, so the last one holds), or nullptr.
const char* cfg_value(const std::vector<std::string>& cfg, const std::string& key)
{
  const char* value = nullptr;
  for (const std::string& item : cfg)
    if (item.size() > key.size() && item.compare(0, key.size(), key) == 0 && item[key.size()] == ':')
      value = item.c_str() + key.size() + 1;
  return value;
}

namespace {
std::vector<HostInfo> list_hosts(const sg4::Engine& engine)
{
  std::vector<HostInfo> hosts;
  for (const sg4::Host* h : engine.get_all_hosts()) {
    const char* role = h->get_property("role");
    hosts.push_back(HostInfo{h->get_name(), role ? role : "", h->get_core_count()});
  }
  return hosts;
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

} // namespace

// Everything before the actors: engine, SimGrid settings, platform, placement, and their checks (all errors here
// are InputErrors or SimGrid ParseErrors, raised before Engine::run()).
Prepared prepare(const SimInputs& in, bool warnings)
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
  if (sc.weighs_flows()) {
    // The weights ride on the routes' latencies, which are a flow's whole sharing penalty only without weight-S
    // (docs/models.md §10.6).
    if (const char* weight_s = cfg_value(sc.simgrid_cfg, "network/weight-S"))
      throw InputError(std::string("--cfg 'network/weight-S:") + weight_s +
                       "': --flow-spread-in/out set network/weight-S to 0 themselves (so does --first-pull-weight)");
    sg4::Engine::set_config("network/weight-S:0");
  }
  if (sc.ack_coupled()) {
    // The measured coupling replaces SimGrid's ACK traffic (docs/models.md §10.6), on every flow of the run. The
    // user's --cfg items are set above: SimGrid's own reading of the value says whether one turned it on.
    if (const char* cross = cfg_value(sc.simgrid_cfg, "network/crosstraffic");
        cross != nullptr && simgrid::config::get_value<bool>("network/crosstraffic"))
      throw InputError(std::string("--cfg 'network/crosstraffic:") + cross +
                       "': --ack-coupling-in/out turn SimGrid's ACK traffic off themselves");
    sg4::Engine::set_config("network/crosstraffic:0");
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
  // Sealing adds the routes SimGrid makes itself (a Full zone's host-to-itself routes over the network model's
  // loopback), which the checks must see as the run will; Engine::run() would seal it anyway.
  prep.engine->seal_platform();
  check_routes(*prep.engine, prep.placement, prep.scenario, in.platform_path, warnings);
  if (!in.background_path.empty())
    prep.link_schedules = apply_background(*prep.engine, in.background_path, prep.varying_speed_hosts);
  return prep;
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

} // namespace sgdsim
