// One simulation of one scenario: loads the platform, checks the deployment, creates the actors, runs SimGrid
// and summarizes the recorded steps. SimGrid allows one engine per process (docs/design.md, SimGrid fact 1):
// call simulate() at most once per process, or use simulate_isolated() (isolated_run.hpp), which forks.
#pragma once

#include "common/network_params.hpp"
#include "common/scenario.hpp"
#include "sim/ring_cost.hpp"
#include "sim/sim_result.hpp"
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace sgdsim {

struct SimInputs {
  std::string platform_path;
  std::string deployment_path; // empty: automatic placement (--workers, --ps)
  std::string background_path; // empty: none (README "Background traffic and stragglers")
  Workload workload;
  Scenario scenario;                     // sharing FAIR or FCFS (HYBRID is two simulations: isolated_run.hpp)
  std::vector<std::string> log_settings; // SimGrid --log items ("sgdsim_worker.thresh:debug")
  bool timeline = false;                 // record the operations of the measured steps (SimResult::timeline)
  bool progress = false;                 // report progress on stderr (sim/progress.hpp)
  std::string progress_label;            // which of several simulations at once reports ("fair", "fcfs")
  bool warnings = true; // print the platform's warnings (check_routes) on stderr (hybrid sharing: its fair half only)
  /** A steps-mode ring that would simulate more chunk messages than this, none replayed, is warned of on stderr
   *  (with `warnings`; ring_cost.hpp). Tests lower it. */
  double ring_messages_warning = kRingMessagesWarning;
};

/** What the analytic models need from the platform, read without simulating. */
struct PlatformProbe {
  NetworkParams network;
  std::vector<double> speed_ratio;    // per worker rank
  std::vector<double> ps_speed_ratio; // per PS rank
  int workers = 0;
  int ps      = 0;
  std::vector<std::string> worker_hosts; // the placement, by rank
  std::vector<std::string> ps_hosts;
};

/** Loads the platform and the placement (same checks as simulate()) and reads them. One engine: once per process. */
PlatformProbe probe_platform(const SimInputs& inputs);

/** Runs the simulation in this process. Throws InputError for any bad input, before the engine runs. */
SimResult simulate(const SimInputs& inputs);

/** Checks the scenario's numbers (workers, ps, steps...); throws InputError naming the option. */
void validate_scenario(const Scenario& sc);

/** Throws InputError naming the workload file if a step would take no time at all (nothing computed, nothing sent:
 *  a ring of one worker on a workload whose every forward and backward time is 0), whose throughput would be
 *  infinite. `sc` holds the run's sizes (a deployment's, where there is one). */
void check_step_takes_time(const Workload& wl, const Scenario& sc);

} // namespace sgdsim
