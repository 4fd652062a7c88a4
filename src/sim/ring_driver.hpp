// src/sim/ring_driver.hpp: the steps-mode ring all-reduce run by one dispatcher for the whole ring instead of by
// each worker's actor (issue #9). Every chunk still is a real host-to-host comm whose contention SimGrid computes;
// what changes is who starts the next chunk: a worker's actor exchanging its own chunks pays two simcalls (start,
// wait) and two context switches per chunk, while here the worker's actor blocks once per all-reduce and one
// dispatcher actor starts, in a single simcall, every chunk whose predecessors ended at the current date.
#pragma once

#include "common/scenario.hpp"

#include <simgrid/forward.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <unordered_map>
#include <vector>

namespace sgdsim {

/** Whether a simulation of `sc` runs its ring all-reduces through the RingDriver: steps mode, a decentralized
 *  architecture, and neither a per-message software cost nor a summation cost (both are the worker's own
 *  activities between two chunks, which only the worker's actor can charge), unless the scenario asks for the
 *  workers' actors. */
bool ring_driver_applies(const Scenario& sc);

/** One worker's state in the steps-mode ring. */
struct RingMember {
  simgrid::s4u::CommPtr out;          // its chunk in flight to the next member (null: none in flight)
  simgrid::s4u::Host* from = nullptr; // its host
  double chunk_bytes       = 0;       // bytes / n of the current all-reduce
  int next                 = 0;       // the next member's worker rank
  int steps_left           = 0;       // exchanges left in the current all-reduce (0: not in one)
  long received            = 0;       // chunks that arrived from the previous member, over the run
  long consumed            = 0;       // of which used by a completed exchange
  simgrid::s4u::SemaphorePtr done;    // released when this member's all-reduce is over
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
 *  two chunks): use it only when the scenario has neither. */
class RingDriver {
public:
  /** `hosts[w]`: worker w's host. Connects to SimGrid's signals and creates the dispatcher actor (a daemon). */
  explicit RingDriver(const std::vector<simgrid::s4u::Host*>& hosts);
  ~RingDriver();
  RingDriver(const RingDriver&)            = delete;
  RingDriver& operator=(const RingDriver&) = delete;

  /** Called by worker `self`'s actor: all-reduce of `bytes` among the n members of its ring, whose next member is
   *  `next`; blocks the actor until this member's part is over. Every member of the ring makes the same calls in
   *  the same order. n >= 2, bytes > 0. */
  void allreduce(int self, int next, int n, double bytes);

private:
  void start_chunk(int self);
  void advance(int self); // completes the member's exchange if both of its halves are done
  void on_chunk_end(const simgrid::kernel::activity::ActivityImpl* comm);
  void on_time_advance();
  void dispatch(); // in maestro's context, after SimGrid has finished the chunks that ended

  std::vector<RingMember> members_;
  /** Chunks in flight: the kernel activity of each, to its sender. */
  std::unordered_map<const simgrid::kernel::activity::ActivityImpl*, int> in_flight_;
  std::vector<int> ended_; // senders whose chunk ended since the last dispatch, in SimGrid's order
  bool kicked_ = false;    // the dispatcher has been woken and has not run yet
  simgrid::s4u::SemaphorePtr kick_;
};

} // namespace sgdsim
