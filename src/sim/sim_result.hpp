// What one simulation measured (README "Output"): plain data, serializable to JSON so that a simulation run in
// a child process can hand its result to the parent.
#pragma once

#include "common/network_params.hpp"
#include "platform/platform_params.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sgdsim {

struct WorkerStats {
  int rank = 0;
  std::string host;
  double speed_ratio      = 1; // host speed / the workload's reference speed
  double step_time_mean_s = 0; // mean over measured steps
  double step_time_std_s  = 0;
  double compute_s        = 0; // per step: time the compute stream was busy
  double comm_exposed_s   = 0; // per step: own transfers in flight while not computing
  double wait_s           = 0; // per step: neither (barrier, PS update, transfers not yet started)
  /** Each measured step's time, in order (warm-up left out): to compare a simulated series with a measured one
   *  step by step, e.g. workers leaving lockstep at an asynchronous PS (docs/models.md §10.6). */
  std::vector<double> step_times_s;
};

struct PsStats {
  int rank = 0;
  std::string host;
  double speed_ratio          = 1; // host speed / reference speed: its updates take ps_update / speed_ratio
  double nic_Bps              = 0; // first link of the route from this PS to a worker on another host (0: none)
  int tensors                 = 0;
  double bytes                = 0; // size of the shard this PS holds
  double downlink_utilization = 0; // steady state: sum_k bytes / step_time_k / nic_Bps
  double uplink_utilization   = 0;
};

/** One operation of a measured step, for --timeline (README "Timeline"). */
struct TimelineEvent {
  std::string track;    // "worker 3", "ps 0"
  std::string resource; // compute, downlink, uplink, allreduce, update
  std::string name;     // e.g. "bwd conv1", "fc.weight"
  int step       = 0;   // the worker's step (-1 for PS updates)
  double start_s = 0;
  double end_s   = 0;
};

struct SimResult {
  std::string sharing; // fair, fcfs, or hybrid (the average of the two)
  int steps_measured               = 0;
  double throughput_examples_per_s = 0;
  double step_time_mean_s          = 0; // mean over workers of their mean step time
  double step_time_std_s           = 0; // standard deviation over all measured worker steps
  double step_time_min_s           = 0;
  double step_time_max_s           = 0;
  double compute_s                 = 0; // means over workers, per step
  double comm_exposed_s            = 0;
  double wait_s                    = 0;
  double simulated_time_s          = 0; // simulated clock at the end of the run
  /** ps-*: the PS dispatcher ran the steps (sim/ps_dispatcher.hpp), not the actors of the workers and the PS. */
  bool ps_dispatcher = false;
  /** Sum of the price_per_hour_usd properties of the distinct hosts used (workers and PS); NaN if one has none. */
  double cluster_price_per_hour_usd = 0;
  std::vector<WorkerStats> per_worker;
  std::vector<PsStats> per_ps;
  std::vector<SimResult> components; // hybrid: the fair and the fcfs runs
  NetworkParams network;             // read off the platform: route from PS 0 to worker 0
  /** The route `network` is read on, with its links (README "Parameters from the platform"); when every worker
   *  shares the host it starts from, the route within that host. from_host empty when not read. */
  RouteInfo route;
  /** Per PS rank: its route to the first worker on another host (within its host when every worker runs there),
   *  for the PS lines of the run header; empty when not read. In the JSON: per_ps[].route. */
  std::vector<RouteInfo> ps_routes;
  std::vector<TimelineEvent> timeline; // only when asked for (--timeline)
};

/** The cluster's price per million examples at the simulated throughput (USD); NaN without prices. */
double cost_usd_per_million_examples(const SimResult& r);

/** Hybrid sharing (docs/models.md §2 and §4, [LI22]): the throughputs of the fair and the fcfs runs averaged. Step
 * times are the ones that give these throughputs (harmonic means); time splits are arithmetic means. */
SimResult combine_hybrid(const SimResult& fair, const SimResult& fcfs);

nlohmann::ordered_json to_json(const SimResult& r);
SimResult sim_result_from_json(const nlohmann::ordered_json& j);

} // namespace sgdsim
