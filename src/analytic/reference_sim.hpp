// The fine-grained reference simulation of [LI22] §2.2, Algorithm 1 (docs/models.md §4): a discrete-event replay of
// each worker's per-layer DAG with an idealized network (one shared downlink and one shared uplink at the PS),
// independent of SimGrid. Cross-checks the SimGrid simulation in its ideal limits.
#pragma once

#include "workload/workload.hpp"

#include <cstdint>
#include <vector>

namespace sgdsim {

enum class RefSharing {
  PS,        // share 1/|active| of the PS link among the workers using it
  FCFS,      // the first active worker (arrival order) gets the whole link; it keeps it while it has queued ops
  ALL_REDUCE // every worker has its own link; downlinks skipped; uplink work 2(K-1)/K * size/B
};

struct RefSimInputs {
  const Workload* workload = nullptr;
  std::vector<double> speed_ratio; // per worker: host speed / reference speed (compute time divided by it)
  bool sync                         = true;
  bool overlap                      = true;
  RefSharing sharing                = RefSharing::PS;
  double bandwidth_Bps              = 0; // B
  double flow_cap_Bps               = 0; // per-flow cap; 0 or infinity: none
  double tensor_overhead_s          = 0; // [LI20] per-tensor overhead a*size + c after each reception: c
  double tensor_overhead_s_per_byte = 0; // a
  int steps                         = 10;
  int warmup                        = 2;
  std::uint64_t seed                = 1; // per-layer samples are drawn exactly as the SimGrid workers draw them
  double compute_jitter_cv          = 0; // as Scenario::compute_jitter_cv
  double ps_speed_ratio             = 1; // PS host speed / reference speed: an update takes ps_update / this
};

struct RefSimResult {
  double throughput_steps_per_s = 0; // sum over workers of 1 / mean step time
  double step_time_mean_s       = 0; // mean over workers
  std::vector<double> worker_step_s;
  std::uint64_t events = 0;
};

/** Runs Algorithm 1. Sync: all workers start the next step when every queue is empty (barrier). Async: a worker
 *  starts its next step as soon as its own queues are empty; workers go on until every one measured its steps. */
RefSimResult reference_simulation(const RefSimInputs& in);

} // namespace sgdsim
