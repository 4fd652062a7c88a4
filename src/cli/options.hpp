// The options of `sgdsim run` (README "Options"), from the command line and from a scenario file in the same
// syntax (--scenario FILE, one "name = value" per line), so that a validation case is a file.
#pragma once

#include "cli/simgrid_settings.hpp"
#include "common/scenario.hpp"

#include <boost/program_options/options_description.hpp>
#include <string>
#include <vector>

namespace sgdsim {

/** A file SimGrid itself writes during a run: a --log appender's file or the --cfg tracing file. */
struct SimGridOutput {
  std::string label; // "--log 'SETTING'" or "--cfg tracing/filename"
  std::string path;
};

struct RunOptions {
  std::string platform;      // resolved path
  std::string workload;      // resolved path
  std::string deployment;    // empty: automatic placement
  std::string background;    // empty: none
  std::string json_path;     // empty: no JSON output
  std::string timeline_path; // empty: no timeline
  std::string csv_path;      // empty: no CSV row
  bool force           = false;
  bool print_scenario  = false;
  bool quiet           = false; // no progress, no wall-time line (errors and warnings still go to stderr)
  std::string progress = "off"; // auto (stderr is a terminal), on, off
  bool help            = false;
  bool workers_given   = false;
  bool ps_given        = false;
  Scenario scenario;                        // scenario.simgrid_cfg: default_simgrid_cfg() followed by user_cfg
  std::vector<std::string> user_cfg;        // the --cfg items the user gave
  std::vector<std::string> log_settings;    // one SimGrid log setting each (a --log value split at its spaces)
  std::vector<SimGridOutput> simgrid_files; // what the --log appenders and --cfg tracing write, checked as outputs
  double rho_t                      = 0.6;  // analytic: eq. 5 threshold
  double tensor_overhead_s          = 0;    // analytic: [LI20] c
  double tensor_overhead_s_per_byte = 0;    // analytic: [LI20] a
  double nic_factor                 = 1;    // analytic: B = the route's bottleneck / the platform's sgdsim.nic_factor
  // analytic: the platform's sgdsim.models_latency / sgdsim.models_allreduce_overhead (< 0: none, or the per-call
  // cost given with --allreduce-overhead; the route's latency and the scenario's per-call cost then).
  double models_latency_s            = -1;
  double models_allreduce_overhead_s = -1;
  std::string help_text; // set only with `help`
};

/** Parses `sgdsim run` arguments (argv[0] is "run"). `data_dir` is where the shipped default inputs are looked
 *  up when they are not under the working directory. Throws InputError on any bad option. */
RunOptions parse_run_options(const std::vector<std::string>& args, const std::string& data_dir,
                             const std::string& command = "run");

/** The options `sgdsim run` reads from its command line (for `sweep`, which passes them on). */
boost::program_options::options_description run_options_description();

/** The resolved options as a scenario file that reproduces the run (--print-scenario). */
std::string scenario_file_text(const RunOptions& opts);

} // namespace sgdsim
