// A data-parallel worker of the parameter-server architectures (docs/models.md §4's DAG, executed by SimGrid).
#pragma once

#include "common/rng.hpp"
#include "sim/sim_context.hpp"
#include "sim/step_recorder.hpp"

#include <simgrid/s4u.hpp>

namespace sgdsim {

class PsWorker {
public:
  PsWorker(const SimContext& ctx, StepRecorder& recorder, int rank);
  void operator()();

private:
  void run_step();
  void draw_flow_weights();
  bool layer_ready(int layer) const;

  const SimContext& ctx_;
  StepRecorder& recorder_;
  int rank_;
  Rng rng_;
  Rng flow_rng_; // --flow-spread-in/out: the connections' weights, a stream of its own (compute draws unchanged)
  IntervalAccount account_;
  double step_begin_s_ = 0;
  std::vector<double> fwd_s_; // this step's forward time per layer, on the reference device
  std::vector<double> bwd_s_;
  std::vector<char> arrived_; // per tensor, this step
  // Per-variable reads (docs/models.md §10.13): per PS, the next step's parameters received during this step.
  std::vector<std::size_t> prefetched_;
  std::vector<simgrid::s4u::Mailbox*> downlinks_; // per PS
  std::vector<simgrid::s4u::Mailbox*> uplinks_;   // per PS
};

} // namespace sgdsim
