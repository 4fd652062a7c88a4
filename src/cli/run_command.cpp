#include "cli/run_command.hpp"

#include "analytic/predict.hpp"
#include "cli/options.hpp"
#include "cli/sweep_plan.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "report/run_report.hpp"
#include "report/sweep_table.hpp"
#include "report/timeline.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <unistd.h>

namespace sgdsim {

namespace {
AnalyticInputs analytic_inputs(const RunOptions& opts, const Workload& wl, const Scenario& sc, const NetworkParams& net,
                               std::vector<double> speed_ratio, const std::vector<double>& ps_speed_ratio)
{
  AnalyticInputs a;
  a.workload = &wl;
  a.scenario = sc;
  a.net      = net;
  // A calibrated platform's NIC holds SimGrid's factors above the measured rate; the models take the measured rate
  // (docs/models.md §10.7, "The ring's ACKs").
  if (net.bottleneck_Bps > 0 && std::isfinite(net.bottleneck_Bps))
    a.net.bottleneck_Bps = net.bottleneck_Bps / opts.nic_factor;
  // Where the route's latency was measured apart, the models take eq. (41)'s alpha and c fitted over every node
  // count: the simulation's excess per node count, which holds the rest, is not theirs (docs/models.md §10.7 "The
  // route's latency, measured apart"). An --allreduce-overhead given on the command line stands.
  if (opts.models_latency_s >= 0)
    a.net.latency_s = opts.models_latency_s;
  if (opts.models_allreduce_overhead_s >= 0)
    a.scenario.allreduce_overhead_s = opts.models_allreduce_overhead_s;
  a.speed_ratio = std::move(speed_ratio);
  if (!ps_speed_ratio.empty())
    a.ps_speed_ratio = *std::min_element(ps_speed_ratio.begin(), ps_speed_ratio.end());
  a.rho_t                      = opts.rho_t;
  a.tensor_overhead_s          = opts.tensor_overhead_s;
  a.tensor_overhead_s_per_byte = opts.tensor_overhead_s_per_byte;
  return a;
}

std::vector<double> speed_ratios(const SimResult& r)
{
  std::vector<double> out;
  for (const WorkerStats& w : r.per_worker)
    out.push_back(w.speed_ratio);
  return out;
}

std::vector<double> ps_speed_ratios(const SimResult& r)
{
  std::vector<double> out;
  for (const PsStats& p : r.per_ps)
    out.push_back(p.speed_ratio);
  return out;
}

SimInputs sim_inputs(const RunOptions& opts)
{
  validate_scenario(opts.scenario);
  SimInputs inputs;
  inputs.platform_path   = opts.platform;
  inputs.deployment_path = opts.deployment;
  inputs.background_path = opts.background;
  inputs.workload        = parse_workload_file(opts.workload);
  inputs.scenario        = opts.scenario;
  inputs.log_settings    = opts.log_settings;
  return inputs;
}

// SimGrid writes the --log appenders' files and the trace itself, in the simulation process: each goes to a
// temporary file beside its path, renamed there once the command succeeded and removed otherwise, as sgdsim's own
// outputs are (write_file_atomically), so that a failed run leaves no partial file and replaces nothing.
class SimGridFiles {
public:
  SimGridFiles(const RunOptions& opts, SimInputs& inputs)
  {
    const std::string suffix = ".tmp." + std::to_string(::getpid());
    for (const SimGridOutput& f : opts.simgrid_files)
      files_.emplace_back(f.path + suffix, f.path);
    for (std::string& setting : inputs.log_settings)
      if (const std::string file = log_setting_file(setting); !file.empty())
        setting = log_setting_with_file(setting, file + suffix);
    if (const std::string trace = simgrid_trace_file(inputs.scenario.simgrid_cfg); !trace.empty())
      inputs.scenario.simgrid_cfg.push_back("tracing/filename:" + trace + suffix);
  }
  SimGridFiles(const SimGridFiles&)            = delete;
  SimGridFiles& operator=(const SimGridFiles&) = delete;
  ~SimGridFiles()
  {
    for (const auto& [tmp, path] : files_)
      std::remove(tmp.c_str()); // after commit(), nothing is left to remove
  }
  void commit()
  {
    for (const auto& [tmp, path] : files_)
      if (path_exists(tmp) && std::rename(tmp.c_str(), path.c_str()) != 0)
        throw InputError(path, 0, std::string("cannot write SimGrid's output file: ") + std::strerror(errno));
  }

private:
  std::vector<std::pair<std::string, std::string>> files_; // temporary, final
};

// With a deployment, the sizes come from it; options that disagree are errors.
Scenario resolve_sizes(const RunOptions& opts, int workers, int ps)
{
  Scenario sc = opts.scenario;
  if (opts.deployment.empty())
    return sc;
  if (opts.workers_given && sc.workers != workers)
    throw InputError("--workers " + std::to_string(sc.workers) + ": the deployment " + opts.deployment + " has " +
                     std::to_string(workers) + " workers");
  if (opts.ps_given && sc.ps != ps)
    throw InputError("--ps " + std::to_string(sc.ps) + ": the deployment " + opts.deployment + " has " +
                     std::to_string(ps) + " parameter servers");
  sc.workers = workers;
  sc.ps      = ps;
  return sc;
}
// --csv: one row of the sweep CSV, appended; a file with another header is not ours to extend.
void append_csv_row(const std::string& path, const RunReport& report)
{
  const std::string header = sweep_csv_header();
  if (path_exists(path)) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    if (first + "\n" != header)
      throw InputError(path, 1, "--csv: the file exists with another header; choose a new file");
  }
  const Scenario& sc   = report.scenario;
  const std::string id = point_id(to_string(sc.arch), sc.is_ps() ? sc.ps : 0, sc.workers);
  std::string text     = path_exists(path) ? "" : header;
  text += sweep_csv_row(SweepResult{id, report_json(report)}, std::numeric_limits<double>::quiet_NaN());
  std::ofstream out(path, std::ios::app);
  out << text;
  out.flush();
  if (!out)
    throw InputError(path, 0, "--csv: cannot write the file");
}
} // namespace

int analytic_command(const std::vector<std::string>& args, const std::string& data_dir)
{
  RunOptions opts = parse_run_options(args, data_dir, "analytic");
  if (opts.help) {
    std::cout << opts.help_text;
    return 0;
  }
  SimInputs inputs        = sim_inputs(opts);
  inputs.scenario.sharing = Sharing::FAIR; // the probe loads the platform only; sharing plays no part
  SimGridFiles simgrid_files(opts, inputs);
  PlatformProbe probe = probe_platform_isolated(inputs);
  RunReport report;
  report.platform_path   = opts.platform;
  report.deployment_path = opts.deployment;
  report.background_path = opts.background;
  report.workload        = &inputs.workload;
  report.scenario        = resolve_sizes(opts, probe.workers, probe.ps);
  check_step_takes_time(inputs.workload, report.scenario);
  report.log_settings   = opts.log_settings;
  report.has_simulation = false;
  report.network        = probe.network;
  report.nic_factor     = opts.nic_factor;
  report.analytic       = predict(
            analytic_inputs(opts, inputs.workload, report.scenario, probe.network, probe.speed_ratio, probe.ps_speed_ratio));
  std::cout << format_analytic_table(report);
  if (!opts.json_path.empty())
    write_file_atomically(opts.json_path, report_json(report).dump(2) + "\n");
  simgrid_files.commit();
  return 0;
}

namespace {
// Async-PS workers that are alike and draw nothing at random stay in lockstep in the simulation (all pull, then all
// push), where real ones drift apart and the PS's NIC carries both directions at once: the step comes out long, up to
// K times one worker's (docs/models.md §10.6; the held-out series of 2026-12-01d, validation/testbed/README.md). The
// flow spreads of the incast microbenchmark, or compute jitter, break the symmetry. Said once, after the results.
void warn_if_lockstep(const RunReport& report)
{
  const Scenario& sc    = report.scenario;
  const SimResult& sim  = report.simulated;
  constexpr double kTie = 1e-3; // steps within 0.1% of their mean: the workers never drifted apart
  if (sc.arch != Arch::PS_ASYNC || sc.workers < 2 || sc.flow_spread_in > 0 || sc.flow_spread_out > 0 ||
      sc.compute_jitter_cv > 0 || !(sim.step_time_mean_s > 0) || sim.step_time_std_s > kTie * sim.step_time_mean_s)
    return;
  std::fprintf(stderr,
               "sgdsim: warning: ps-async: every worker's step took %.6f s: alike workers without --flow-spread-in/out "
               "or --compute-jitter run in lockstep, which real workers leave as they drift apart, so the step may be "
               "long (up to %d times one worker's); the spreads come from the incast microbenchmark "
               "(tools/measure/fit_incast.py, docs/models.md §10.6)\n",
               sim.step_time_mean_s, sc.workers);
}
} // namespace

int run_command(const std::vector<std::string>& args, const std::string& data_dir)
{
  RunOptions opts = parse_run_options(args, data_dir);
  if (opts.help) {
    std::cout << opts.help_text;
    return 0;
  }
  if (opts.print_scenario) {
    std::cout << scenario_file_text(opts);
    return 0;
  }
  SimInputs inputs = sim_inputs(opts);
  inputs.timeline  = !opts.timeline_path.empty();
  inputs.progress  = opts.progress == "on" || (opts.progress == "auto" && ::isatty(STDERR_FILENO) == 1);
  SimGridFiles simgrid_files(opts, inputs);

  // The analytic models need the platform's figures only: while the simulation runs in its child, a probe of the
  // platform (another child) gives them and the models are computed here, on the other core. Used only where the
  // probe's figures equal the simulation's (they do unless a bug differs), and not when SimGrid writes log or trace
  // files, which the probe would write too.
  struct Early {
    PlatformProbe probe;
    std::vector<Prediction> analytic;
    bool done = false;
  } early;
  auto analytic_meanwhile = [&] {
    // Above 16,384 workers the probe's copy of the platform would add hundreds of MB beside the simulation's, which
    // the memory check (common/limits.hpp) does not count: the models then wait for the simulation, as before.
    constexpr int kMostWorkersForEarlyProbe = 16384;
    if (!opts.simgrid_files.empty() || !opts.log_settings.empty() ||
        inputs.scenario.workers > kMostWorkersForEarlyProbe)
      return;
    SimInputs probe_inputs        = inputs;
    probe_inputs.scenario.sharing = Sharing::FAIR; // the probe loads the platform only
    probe_inputs.progress         = false;
    early.probe                   = probe_platform_isolated(probe_inputs);
    early.analytic =
        predict(analytic_inputs(opts, inputs.workload, resolve_sizes(opts, early.probe.workers, early.probe.ps),
                                early.probe.network, early.probe.speed_ratio, early.probe.ps_speed_ratio));
    early.done = true;
  };

  const auto wall_start = std::chrono::steady_clock::now();
  RunReport report;
  report.simulated    = simulate_isolated(inputs, analytic_meanwhile);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  report.platform_path     = opts.platform;
  report.deployment_path   = opts.deployment;
  report.background_path   = opts.background;
  report.workload          = &inputs.workload;
  report.scenario          = resolve_sizes(opts, static_cast<int>(report.simulated.per_worker.size()),
                                           static_cast<int>(report.simulated.per_ps.size()));
  report.log_settings      = opts.log_settings;
  report.network           = report.simulated.network;
  report.nic_factor        = opts.nic_factor;
  const NetworkParams& net = report.simulated.network;
  const bool early_holds   = early.done && early.probe.workers == report.scenario.workers &&
                           early.probe.ps == report.scenario.ps && early.probe.network == net &&
                           early.probe.speed_ratio == speed_ratios(report.simulated) &&
                           early.probe.ps_speed_ratio == ps_speed_ratios(report.simulated);
  report.analytic = early_holds
                        ? std::move(early.analytic)
                        : predict(analytic_inputs(opts, inputs.workload, report.scenario, net,
                                                  speed_ratios(report.simulated), ps_speed_ratios(report.simulated)));
  std::cout << format_table(report);
  std::cout.flush();
  if (!opts.json_path.empty())
    write_file_atomically(opts.json_path, report_json(report).dump(2) + "\n");
  if (!opts.timeline_path.empty())
    write_file_atomically(opts.timeline_path, chrome_trace(report.simulated).dump() + "\n");
  if (!opts.csv_path.empty())
    append_csv_row(opts.csv_path, report);
  simgrid_files.commit();
  warn_if_lockstep(report);
  if (!opts.quiet)
    std::fprintf(stderr, "sgdsim: simulated %d steps of %d workers in %.3f s of wall time%s\n",
                 opts.scenario.warmup + opts.scenario.steps, report.scenario.workers, wall_s,
                 !report.simulated.ps_dispatcher        ? ""
                 : report.simulated.sharing == "hybrid" ? " (its fair half through the PS dispatcher, docs/design.md)"
                                                        : " (through the PS dispatcher, docs/design.md)");
  return 0;
}

} // namespace sgdsim
