#include "cli/run_command.hpp"

#include "cli/options.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "report/run_report.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace sgdsim {

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
  validate_scenario(opts.scenario);
  SimInputs inputs;
  inputs.platform_path   = opts.platform;
  inputs.deployment_path = opts.deployment;
  inputs.workload        = parse_workload_file(opts.workload);
  inputs.scenario        = opts.scenario;
  inputs.log_settings    = opts.log_settings;

  const auto wall_start = std::chrono::steady_clock::now();
  RunReport report;
  report.simulated    = simulate_isolated(inputs);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  report.platform_path   = opts.platform;
  report.deployment_path = opts.deployment;
  report.workload        = &inputs.workload;
  report.scenario        = opts.scenario;
  report.log_settings    = opts.log_settings;
  if (!opts.deployment.empty()) {
    const int k = static_cast<int>(report.simulated.per_worker.size());
    const int m = static_cast<int>(report.simulated.per_ps.size());
    if (opts.workers_given && opts.scenario.workers != k)
      throw InputError("--workers " + std::to_string(opts.scenario.workers) + ": the deployment " + opts.deployment +
                       " has " + std::to_string(k) + " workers");
    if (opts.ps_given && opts.scenario.ps != m)
      throw InputError("--ps " + std::to_string(opts.scenario.ps) + ": the deployment " + opts.deployment + " has " +
                       std::to_string(m) + " parameter servers");
    report.scenario.workers = k;
    report.scenario.ps      = m;
  }

  std::cout << format_table(report);
  std::cout.flush();
  if (!opts.json_path.empty())
    write_file_atomically(opts.json_path, report_json(report).dump(2) + "\n");
  std::fprintf(stderr, "sgdsim: simulated %d steps of %d workers in %.3f s of wall time\n",
               opts.scenario.warmup + opts.scenario.steps, report.scenario.workers, wall_s);
  return 0;
}

} // namespace sgdsim
