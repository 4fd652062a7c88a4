// The read-only context every actor of a simulation shares (docs/design.md "Actors": validated before
// Engine::run(), the actors then assume valid input).
#pragma once

#include "common/scenario.hpp"
#include "sim/messages.hpp"
#include "workload/grad_units.hpp"
#include "workload/ps_split.hpp"
#include "workload/workload.hpp"

#include <deque>
#include <map>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <tuple>
#include <vector>

namespace sgdsim {

class RingDriver;
class SlicedRing;

/** A worker's incoming steps-mode ring chunks: host-to-host comms its left neighbour started, in order. Actors run
 *  one at a time, so plain members are safe; `wake` is released only when the receiver waits for a chunk that its
 *  sender has not started yet. */
struct RingInbox {
  std::deque<simgrid::s4u::CommPtr> pending;
  bool receiver_waiting = false;
  simgrid::s4u::SemaphorePtr wake;
};

/** Tensor fusion decided once for the whole group, as Horovod's coordinator does: rank 0's collective actor chooses
 *  each fused buffer and posts it to every other rank, which all-reduce the same buffers in the same order. Local
 *  decisions diverged when all-reduces ended at slightly different times on different ranks (a layer landing just
 *  before or after the fusion timeout), and mismatched all-reduces deadlocked (VGG-16 on 4 x 4 GPUs). */
struct FusionPlan {
  struct Entry {
    double bytes;   // the fused buffer (0: nothing to send, the step's last layers had no gradients)
    int last_layer; // the buffer holds the gradients of the layers down to this one (backward order)
  };
  std::vector<std::deque<Entry>> pending;         // per rank (rank 0's stays empty)
  std::vector<simgrid::s4u::SemaphorePtr> posted; // per rank: entries posted and not yet taken
};

/** Planned all-reduce units on two lanes or more (docs/models.md §10.8): the next unit goes to whichever lane is free
 *  first, as a thread of Gloo's pool takes the next queued work. Rank 0's lanes decide and post each unit, numbered
 *  across steps (step * units + unit), to the same lane of every other rank, so that a lane's ring carries the same
 *  all-reduces on every rank (Gloo matches them by tag, sgdsim's lanes by their ring). */
struct LanePlan {
  std::vector<std::vector<std::deque<long>>> pending;          // per rank and lane (rank 0's stay empty)
  std::vector<std::vector<simgrid::s4u::SemaphorePtr>> posted; // per rank and lane: units posted and not yet taken
};

struct SimContext {
  const Workload& workload;
  const Scenario& scenario;                 // scenario.sharing is FAIR or FCFS here (hybrid runs both)
  std::vector<std::vector<int>> ps_tensors; // per PS rank: the tensors it holds, in forward order
  std::vector<int> tensor_ps;               // per tensor: the PS rank that holds it
  /** messages[worker][tensor]: the payload of every transfer between that worker and a PS. */
  std::vector<std::vector<TensorMsg>> messages;
  std::vector<double> layer_bytes; // per layer: bytes of its gradients (ring all-reduce)
  /** Decentralized architectures: the all-reduces of a step in launch order (empty with tensor fusion, whose
   *  buffers are decided at run time). */
  std::vector<GradUnit> grad_units;
  std::vector<std::string> worker_hosts; // per worker rank
  int ring_token = 0;                    // the payload of collective messages (they carry no data)
  /** Per worker: where its collective receives write the payload pointer, which nobody reads. SimGrid 3.32
   *  needs a destination to start a receive; a slot that lives as long as the run keeps it valid. */
  mutable std::vector<void*> recv_sink;
  /** Per worker rank: its host, resolved once (collectives send host to host). */
  std::vector<simgrid::s4u::Host*> worker_host_ptrs;
  /** Per lane and worker rank (index lane * workers + rank): the steps-mode ring chunks sent to it and not yet
   *  consumed (sim/collectives.cpp). */
  mutable std::vector<RingInbox> ring_inbox;
  /** Decentralized architectures with tensor fusion: the group's fusion decisions. */
  mutable FusionPlan fusion_plan;
  /** Decentralized architectures with planned units: which lane runs each unit. */
  mutable LanePlan lane_plan;
  /** Steps-mode ring without per-message software costs: the ring dispatcher (ring_driver.hpp); null otherwise,
   *  and the workers' actors exchange the chunks themselves through ring_inbox. */
  RingDriver* ring_driver = nullptr;
  /** Per PS rank: its host's CPU runs nothing but this PS's updates, at a constant speed (no worker, no other PS
   *  with tensors, no speed profile on the host). Its updates are then a FIFO queue whose end dates are computed,
   *  not simulated (parameter_server.cpp); otherwise each update is an execution on the host. */
  std::vector<char> ps_cpu_exclusive;
  /** PS with stream connections (scenario.stream): per PS rank and client, the route's latency (times SimGrid's
   *  latency factor), which the PS's actors add to each message's delivery; the links' own latencies are then 0
   *  (connections.cpp). Empty otherwise. */
  std::vector<std::vector<double>> stream_latency_s;
  double stream_latency(int ps, int client) const
  {
    return stream_latency_s.empty() ? 0.0
                                    : stream_latency_s[static_cast<std::size_t>(ps)][static_cast<std::size_t>(client)];
  }

  /** ps-*: per PS rank and client, the software cost per byte of each message between them (scenario.
   *  message_s_per_byte where the two are on different hosts, 0 on one host: the transport's figure is measured
   *  between machines, docs/models.md §10.5). Empty where message_s_per_byte is 0. */
  std::vector<std::vector<double>> message_s_per_byte;
  /** Async hierarchical PS: per node, the steps its GPUs run, once one of them has seen every worker measured (-1
   *  before; sim/worker.cpp). */
  mutable std::vector<int> node_steps;
  /** --flow-spread-in/out: per worker, its own links into its PS and out of it (the first link of each route to a
   *  PS, the last of each route back), whose latency carries its connections' sharing weight (sim/worker.cpp). */
  std::vector<std::vector<simgrid::s4u::Link*>> weight_links_in, weight_links_out;
  /** Collectives: the connections each message between hosts is cut over (scenario.sockets_per_peer), or 1
   *  where cutting changes no rate: no per-flow cap on the ring's routes, one all-reduce at a time, no background
   *  (connections.cpp; docs/models.md §10.9). */
  int ring_sockets = 1;
  /** Sliced steps-mode ring (scenario.ring_slice_bytes, docs/models.md §10.10): per worker rank, the latency of the
   *  route to its right neighbour in its ring (times SimGrid's latency factor), which the ring's connections add to
   *  each slice; the links' own latencies are then 0 (connections.cpp). Empty otherwise. */
  std::vector<double> ring_latency_s;
  /** Stream-mode ring (the ring collective, or the hierarchical one's ring of leaders): per lane, where its members
   *  end each all-reduce together. The 2(K - 1) steps of a ring all-reduce carry a member's delay around the whole
   *  ring, so that every member ends it when its slowest edge allows, as steps mode shows: a member whose own flow
   *  and edge are fast does not end before (README "The ring"). Empty otherwise. */
  std::vector<simgrid::s4u::BarrierPtr> stream_end;
  /** Sliced steps-mode ring: its dispatcher (sliced_ring.hpp); null where the workers' actors move the slices
   *  themselves (scenario.ring_by_worker_actors) or the ring is not sliced. */
  SlicedRing* sliced_ring = nullptr;
  /** scenario.receive_s_per_byte > 0: the one receive thread of each PS rank and of each PS client (a worker, or a
   *  node's relay), held while a message's bytes pass through it (docs/models.md §10.5); empty otherwise. */
  std::vector<simgrid::s4u::MutexPtr> ps_receive_thread = {}, client_receive_thread = {};
  /** Per worker, the latency its weight links out carry without a first pull (the step's draw of --flow-spread-out,
   *  sim/worker.cpp), and how many PS are sending it a first pull now (--first-pull-weight: its connections out of
   *  every PS share those links, which carry the weight from the first such pull to the end of the last;
   *  set_pull_weight in connections.cpp). */
  mutable std::vector<double> out_weight_latency_s = {};
  mutable std::vector<int> first_pulls             = {};
  /** The software cost of one PS message of `bytes` between PS `ps` and client `client` (docs/models.md §10.5). */
  double message_cost_s(int ps, int client, double bytes) const
  {
    const double per_byte_s =
        message_s_per_byte.empty()
            ? 0.0
            : message_s_per_byte[static_cast<std::size_t>(ps)][static_cast<std::size_t>(client)] * bytes;
    return scenario.message_overhead_s + per_byte_s;
  }

  /** The PS's clients: the workers, or with hierarchical PS (gpus_per_node > 1) the nodes' relays. */
  int ps_clients() const { return hierarchical_ps() ? scenario.workers / scenario.gpus_per_node : scenario.workers; }
  bool hierarchical_ps() const { return scenario.is_ps() && scenario.gpus_per_node > 1; }
  int total_steps() const { return scenario.warmup + scenario.steps; }
  /** Decentralized architectures: the all-reduces a worker runs at once, each on its own lane (ring_worker.cpp). */
  int lanes() const { return scenario.unit() == AllreduceUnit::FUSION ? 1 : scenario.collectives_in_flight; }
  TensorMsg* message(int worker, int tensor) const
  {
    return const_cast<TensorMsg*>(&messages[static_cast<std::size_t>(worker)][static_cast<std::size_t>(tensor)]);
  }
  /** Sliced ring: what one all-reduce takes alone on the network (sliced_ring_alone_s) by bytes, members, latency
   *  and rate, computed once for every worker (adaFusion asks for it at every layer of every step). */
  mutable std::map<std::tuple<double, int, double, double>, double> sliced_alone_s = {};
  /** With scenario.measured_sizes: the fits of scenario.allreduce_time and allreduce_queued_time without their
   *  measured sizes (eq. (37)'s lines), to tell what the sizes add (ring_worker.cpp, call_cost); empty otherwise. */
  std::vector<AllreduceTimeFit> allreduce_line_time = {}, allreduce_queued_line_time = {};
};

} // namespace sgdsim
