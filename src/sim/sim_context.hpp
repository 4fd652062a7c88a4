// The read-only context every actor of a simulation shares (STYLE.md §2: validated before Engine::run(), the
// actors then assume valid input).
#pragma once

#include "common/scenario.hpp"
#include "sim/messages.hpp"
#include "workload/ps_split.hpp"
#include "workload/workload.hpp"

#include <deque>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <vector>

namespace sgdsim {

/** A worker's incoming steps-mode ring chunks: host-to-host comms its left neighbour started, in order. Actors run
 *  one at a time, so plain members are safe; `wake` is released only when the receiver waits for a chunk that its
 *  sender has not started yet. */
struct RingInbox {
  std::deque<simgrid::s4u::CommPtr> pending;
  bool receiver_waiting = false;
  simgrid::s4u::SemaphorePtr wake;
};

struct SimContext {
  const Workload& workload;
  const Scenario& scenario;                 // scenario.sharing is FAIR or FCFS here (hybrid runs both)
  std::vector<std::vector<int>> ps_tensors; // per PS rank: the tensors it holds, in forward order
  std::vector<int> tensor_ps;               // per tensor: the PS rank that holds it
  /** messages[worker][tensor]: the payload of every transfer between that worker and a PS. */
  std::vector<std::vector<TensorMsg>> messages;
  std::vector<double> layer_bytes;       // per layer: bytes of its gradients (ring all-reduce)
  std::vector<std::string> worker_hosts; // per worker rank
  int ring_token = 0;                    // the payload of collective messages (they carry no data)
  /** Per worker: where its collective receives write the payload pointer, which nobody reads. SimGrid 3.32
   *  needs a destination to start a receive; a slot that lives as long as the run keeps it valid. */
  mutable std::vector<void*> recv_sink;
  /** Per worker rank: its host, resolved once (collectives send host to host). */
  std::vector<simgrid::s4u::Host*> worker_host_ptrs;
  /** Per worker rank: the steps-mode ring chunks sent to it and not yet consumed (sim/collectives.cpp). */
  mutable std::vector<RingInbox> ring_inbox;

  /** The PS's clients: the workers, or with hierarchical PS (gpus_per_node > 1) the nodes' relays. */
  int ps_clients() const { return hierarchical_ps() ? scenario.workers / scenario.gpus_per_node : scenario.workers; }
  bool hierarchical_ps() const { return scenario.is_ps() && scenario.gpus_per_node > 1; }
  int total_steps() const { return scenario.warmup + scenario.steps; }
  TensorMsg* message(int worker, int tensor) const
  {
    return const_cast<TensorMsg*>(&messages[static_cast<std::size_t>(worker)][static_cast<std::size_t>(tensor)]);
  }
};

} // namespace sgdsim
