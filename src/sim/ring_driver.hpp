// src/sim/ring_driver.hpp: the steps-mode ring all-reduce run by one dispatcher for the whole ring instead of by
// each worker's actor (issue #9). Every chunk still is a real host-to-host comm whose contention SimGrid computes;
// what changes is who starts the next chunk: a worker's actor exchanging its own chunks pays two simcalls (start,
// wait) and two context switches per chunk, while here the worker's actor blocks once per all-reduce and one
// dispatcher actor starts, in a single simcall, every chunk whose predecessors ended at the current date.
#pragma once

#include "common/scenario.hpp"
#include "sim/engine_hooks.hpp"

#include <simgrid/forward.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace sgdsim {

/** Whether a simulation of `sc` runs its ring all-reduces through the RingDriver: steps mode, a decentralized
 *  architecture, and neither a per-message software cost, a measured all-reduce's (spread over the steps) nor a
 *  summation cost (all are the worker's own activities between two chunks, which only the worker's actor can
 *  charge), unless the scenario asks for the workers' actors; and SimGrid's network/optim:Full (sgdsim's default,
 *  README "The network"): under Lazy, with LV08's ACK traffic on uneven hosts, the driver's all-reduces ended up to
 *  0.1% earlier than the actors' (found by a random comparison, cause not found), so such runs keep the actors. */
bool ring_driver_applies(const Scenario& sc, std::string* why = nullptr);

/** Whether the RingDriver of a simulation of `sc` may replay steps of lockstep all-reduces instead of simulating
 *  their chunks (docs/design.md "Ring step replay"): the driver applies, every all-reduce is the ring of all the
 *  workers (the ring collective, one all-reduce in flight per worker, so that the ring's chunks are the only
 *  traffic), and the scenario does not ask for every step to be simulated. The platform's conditions are checked
 *  by the RingDriver itself; simulate() says whether anything changes the platform during the run. Where either
 *  function returns false and `why` is given, it says which condition failed, for people. */
bool ring_replay_applies(const Scenario& sc, std::string* why = nullptr);

/** One worker's state in the steps-mode ring. */
struct RingMember {
  simgrid::s4u::CommPtr out;                // its chunk in flight to the next member (null: none, or a replayed one)
  std::vector<simgrid::s4u::CommPtr> parts; // with several sockets per peer: the chunk's other parts in flight
  int parts_left           = 0;             // parts of its chunk in flight (the chunk ends with the last)
  simgrid::s4u::Host* from = nullptr;       // its host
  double chunk_bytes       = 0;             // bytes / n of the current all-reduce
  int next                 = 0;             // the next member's worker rank
  int steps_left           = 0;             // exchanges left in the current all-reduce (0: not in one)
  bool sending             = false;         // its chunk of the current exchange is in flight (simulated or replayed)
  long received            = 0;             // chunks that arrived from the previous member, over the run
  long consumed            = 0;             // of which used by a completed exchange
  long chunk_order         = 0;             // its current chunk's start, in the driver's order of chunk starts
  int kept                 = -1;            // the kept flow of its last chunk's edge (RingDriver::kept_), -1: none
  std::vector<int> edges;                   // its edges' kept flows (usually one: to its next member's host)
  simgrid::s4u::SemaphorePtr done;          // released when this member's all-reduce is over
};

/** The chunk that every member sends in a replayed step, updated as SimGrid's network model updates a flow under
 *  network/optim:Full (NetworkModel::next_occurring_event_full, NetworkCm02Model::update_actions_state_full): the
 *  chunks of a lockstep step are alike, so one stands for all. Plain arithmetic (tested without a simulation in
 *  tests/scenario/ring_replay_test.cpp). */
struct EmulatedChunk {
  double latency = 0;     // the flow's latency_ left to pay before its bytes move
  double remains = 0;     // bytes left
  double rate    = 0;     // the rate of the last solve (0 until the solve after the latency is paid)
  bool active    = false; // its max-min variable is enabled (the latency is paid)

  /** A new flow of `cost` bytes whose route latency (times the latency factor) is `latency`. */
  void start(double cost, double latency_s);
  /** The solve before an event, where the max-min rate of an active flow is `rate_Bps`: the delay to this flow's
   *  next event (latency paid or bytes sent), -1 if none. */
  double solve(double rate_Bps);
  /** The engine moved the clock by `delta`; SimGrid's precisions (surf/precision, and maxmin/precision times it).
   *  True when the flow ends with this update. */
  bool advance(double delta, double surf_precision, double remains_precision);
};

/** Runs every steps-mode ring all-reduce of one simulation. At most one RingDriver exists at a time (SimGrid's
 *  signals are global); it must be built before Engine::run() and outlive it.
 *
 *  Semantics (the same as the actors' ring in collectives.cpp, and NCCL's and Gloo's): exchange s of a member sends
 *  its chunk s to the next member as soon as its exchange s-1 is complete, that is its own chunk s-1 has arrived
 *  at the next member and the previous member's chunk s-1 has arrived here; a member's all-reduce ends when its
 *  2(n-1) exchanges are complete. A chunk's successor starts at the simulated date its predecessors ended.
 *
 *  It charges no per-message software cost and no summation time (both are the worker's own activities between
 *  two chunks): use it only when the scenario has neither.
 *
 *  Step replay (docs/design.md "Ring step replay"): where `replay` is true and the platform is homogeneous along the
 *  ring, an all-reduce whose first steps are in lockstep (every member's chunk starts at one date and all end in one
 *  update of the engine, at one rate, exactly where the EmulatedChunk says) has its middle steps replayed: one
 *  EmulatedChunk, driven by the engine's own clock updates through a resource model of the driver's, stands for
 *  the K chunks of each step, and the last step is simulated again.
 *
 *  Kept flows (docs/design.md "Kept flows in the ring"): where nothing is replayed and nothing changes the platform,
 *  each ring edge keeps one flow for the run, suspended between its chunks; an EmulatedChunk per edge keeps what
 *  SimGrid would keep for a flow of the current chunk alone, and the driver's clock gives the engine its dates. */
class RingDriver {
public:
  /** `hosts[w]`: worker w's host. Connects to SimGrid's signals and creates the dispatcher actor (a daemon).
   *  `replay`: ring_replay_applies() holds and nothing changes the platform during the run (no background file,
   *  no profile in the platform). `sockets`: the connections a chunk between two hosts is cut over
   *  (SimContext::ring_sockets, socket_parts()); with more than one nothing is replayed. `keep_flows`: nothing
   *  changes the platform during the run, so that each ring edge may keep one flow for the run (docs/design.md
   *  "Kept flows in the ring"; with one socket per peer and the network model LV08 or CM02 only). */
  RingDriver(const std::vector<simgrid::s4u::Host*>& hosts, bool replay, int sockets = 1,
             double connection_rate_Bps = 0, bool keep_flows = false);
  ~RingDriver();
  RingDriver(const RingDriver&)            = delete;
  RingDriver& operator=(const RingDriver&) = delete;

  /** Called by worker `self`'s actor: all-reduce of `bytes` among the n members of its ring, whose next member is
   *  `next`; blocks the actor until this member's part is over. Every member of the ring makes the same calls in
   *  the same order. n >= 2, bytes > 0. */
  void allreduce(int self, int next, int n, double bytes);

  /** Whether the step replay may run (the static conditions held), and if not which one failed, for people: e.g.
   *  "ring edge n-15 -> n-16 crosses 4 links with 100 us of latency, n-0 -> n-1 2 with 50 us" (empty when the
   *  replay was not asked for). */
  bool replays() const { return replay_ok_; }
  const std::string& replay_refusal() const { return replay_refusal_; }

  // Called from SimGrid's engine (engine_hooks.hpp); public for the hooks only.
  void on_flow_end(const simgrid::kernel::resource::Action& flow); // a chunk's flow ended
  void on_time_advance();

private:
  /** The flow that one ring edge (a member to the host of its next member) keeps for the run: SimGrid never ends it
   *  (kKeptFlowTailBytes); between chunks it is suspended, and `chunk` holds what SimGrid would hold for a flow of
   *  the current chunk alone: its latency left, bytes left and whether its latency is paid. */
  struct EdgeFlow {
    simgrid::s4u::Host* to = nullptr;
    KeptFlow flow;
    double latency_s = 0; // the route's latency times the latency factor, paid by each chunk before its bytes
    double penalty   = 1; // its max-min penalty once its latency is paid (RingDriver::enable)
    EmulatedChunk chunk;
    int member = 0;
  };
  void start_chunk(int self);
  void advance(int self); // completes the member's exchange if both of its halves are done
  void dispatch();        // in maestro's context, after SimGrid has finished the chunks that ended
  bool start_kept_chunk(int self, simgrid::s4u::Host* to, double bytes); // false: the edge keeps no flow
  static void enable(EdgeFlow& e);
  double clock_next_event();
  void clock_advance(double delta);
  void collect_ends(); // the chunks that ended in this update of the engine, in their start order, into ended_

  // Step replay. The static conditions (constructor), then per step of the chunks in flight.
  bool replay_conditions(const std::vector<simgrid::s4u::Host*>& hosts);
  bool step_replayable(); // the step whose chunks just ended was lockstep and emulated exactly; may replay the next
  void begin_replay();
  void end_replay();
  double replay_next_event();        // the replay clock: the delay to the replayed chunk's next event, -1 if none
  void replay_advance(double delta); // the replay clock: the engine moved the clock by `delta`

  std::vector<RingMember> members_;
  int sockets_                = 1;
  double connection_rate_Bps_ = 0; // each flow between hosts at most (docs/models.md §10.11); 0: none
  /** Chunks in flight: the kernel activity of each, to its sender. */
  std::unordered_map<const simgrid::kernel::activity::ActivityImpl*, int> in_flight_;
  std::vector<int> ended_; // senders whose chunk ended since the last dispatch, in SimGrid's order
  // Kept flows (docs/design.md "Kept flows in the ring").
  bool keep_flows_                           = false;
  simgrid::kernel::resource::Model* network_ = nullptr;
  std::vector<EdgeFlow> kept_; // every edge's kept flow, as made
  std::vector<int> running_;   // the kept flows with a chunk in flight, in chunk start order
  long chunks_started_ = 0;
  long kept_chunks_    = 0; // chunks the kept flows carried, for the log
  struct Ended {
    long order;
    int self;
  };
  std::vector<Ended> update_ends_; // chunks that ended in this update of the engine, before collect_ends()
  bool kicked_ = false;            // the dispatcher has been woken and has not run yet
  simgrid::s4u::SemaphorePtr kick_;

  bool replay_ok_ = false;       // the static conditions hold
  std::string replay_refusal_;   // the one that failed (replay_conditions)
  double latency_s_         = 0; // every ring edge's route latency times the latency factor
  double surf_precision_    = 0;
  double remains_precision_ = 0;
  double latency_factor_    = 1; // network/latency-factor
  double weight_S_          = 0; // network/weight-S
  // The step whose chunks are in flight, while it may still prove lockstep.
  bool recording_          = false;
  double step_date_        = 0;     // when its chunks started
  double step_cost_        = 0;     // their size
  std::size_t step_chunks_ = 0;     // how many started
  std::vector<double> step_deltas_; // the engine's clock updates since they started
  std::vector<double> ended_rates_; // the rate of each ended chunk, as ended_
  int verified_         = 0;        // consecutive lockstep steps emulated exactly, at one rate
  double verified_rate_ = 0;
  // The replay in progress.
  bool replaying_      = false;
  bool virtual_starts_ = false;      // start_chunk marks the chunk in flight without a comm
  std::vector<int> virtual_started_; // members whose chunk start_chunk marked so, in order
  EmulatedChunk chunk_;              // the replayed step's chunk
  int replay_left_     = 0;          // replayed steps left, this one included
  int replay_total_    = 0;          // steps of this replay
  int head_            = 0;          // the first member of the replayed step's start order (a ring rotation)
  long steps_replayed_ = 0;          // over the run, for the log
  long replays_        = 0;
};

} // namespace sgdsim
