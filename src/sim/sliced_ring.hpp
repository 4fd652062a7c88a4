// src/sim/sliced_ring.hpp: the sliced steps-mode ring (docs/models.md §10.10) run by one dispatcher for every ring
// of the simulation instead of by each worker's actor, as the RingDriver does for whole chunks (ring_driver.hpp).
// A slice still is a real host-to-host comm whose contention SimGrid computes; what changes is who starts the next
// one and how its dates are kept: the workers' actors paid a put, a get, two waits and often a sleep per slice,
// each a switch to SimGrid's maestro and back. Here a worker's actor blocks once per all-reduce; the dispatcher sees
// each slice end through SimGrid's network signal, keeps each slice's arrival (its end plus the route's latency) and
// each buffer's credit as dates, and wakes at those dates through a resource model of its own (a clock, as the
// ring step replay's), once per date for every slice due then.
#pragma once

#include "sim/collectives.hpp"
#include "sim/sim_context.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace sgdsim {

/** Runs every sliced steps-mode ring all-reduce of one simulation (ctx.ring_latency_s is filled: a sliced run). At
 *  most one exists at a time (SimGrid's signals are global); build it before Engine::run(), keep it beyond.
 *
 *  Semantics, those of the workers' actors in collectives.cpp (sliced_ring_steps), which tests compare it with:
 *  each member sends 2(n-1) steps of per_step slices to the next member, one slice after the other on its
 *  connection; slice i leaves once slice i - per_step has arrived from the previous member (its comm's end plus
 *  the route's latency, plus the summation in the reduce-scatter) and the credit of slice i - window is back (its
 *  comm's end plus twice the latency); the first slice of each step pays the message overhead before it leaves. A
 *  member's call ends when its last slice has arrived and its own last slice has left.
 *
 *  With scenario.egress_fifo (docs/models.md §10.12; the dispatcher only, not the workers' actors) every host's
 *  egress is one FIFO queue: a slice that may leave waits until the slices queued before it by the other members on
 *  its host (the other lanes' calls, the other ranks of a multi-GPU host) have left, or with scenario.fifo_wait AVERAGE
 *  for their queue's time average ((queued - 1/2) slices each, once one of their call's slices has left), with PHASE
 *  the same but until they have left behind a member whose call moves one slice per ring step, and,
 *  with credit messages and no measured all-reduce, the credit of a slice leaves its receiver when the slice has
 *  arrived and the receiver's own slices queued before it have left. A member's queued slices: the one in flight and
 *  those it could start back to back at that date. */
class SlicedRing {
public:
  /** `members`: the host of each member (index lane * workers + rank, as the RingDriver's). */
  SlicedRing(const SimContext& ctx, const std::vector<simgrid::s4u::Host*>& members);
  ~SlicedRing();
  SlicedRing(const SlicedRing&)            = delete;
  SlicedRing& operator=(const SlicedRing&) = delete;

  /** Called by a worker's actor: the all-reduce of `bytes` among the n members of its ring, this member `self`
   *  (worker `rank`) sending to member `next` and receiving from worker `prev_rank`. Blocks the actor until this
   *  member's part is over. Every member of the ring makes the same calls in the same order. `step_cost_s`: what
   *  this member pays before each step's message (the per-message cost, plus the measured all-reduce's excess
   *  spread over the steps, docs/models.md §10.7); `byte_scale`: its slices' bytes scaled (what the measured large
   *  sizes add, §10.7 "What they add, paid as a slower rate"). */
  void allreduce(int self, int next, int rank, int prev_rank, int n, double bytes, double step_cost_s,
                 double byte_scale = 1);

  // Called from SimGrid's engine (engine_hooks.hpp); public for the hooks only.
  void on_flow_end(const simgrid::kernel::resource::Action& flow); // a part of a slice ended
  void on_time_advance();
  double next_date_delay(double now) const;
  void clock_advanced(double now, double delta);

private:
  struct Member {
    simgrid::s4u::Host* host = nullptr;
    int next                 = 0; // the next member (index)
    double out_latency_s     = 0; // the route's latency to the next member
    double in_latency_s      = 0; // the previous member's route latency to this one
    RingSlicing cut;              // the current call's slices
    bool in_call   = false;       // between allreduce() and the call's end
    int started    = 0;           // own slices started in this call
    int sent_done  = 0;           // own slices whose comms ended
    int received   = 0;           // slices of the previous member's that have arrived
    bool busy      = false;       // an own slice in flight
    bool timed     = false;       // its next slice waits for a date on the clock
    int parts_left = 0;           // comms of the slice in flight not ended yet (sockets per peer)
    std::vector<simgrid::s4u::CommPtr> parts;
    // The dates still needed, so that a member keeps those of the slices in flight around it, not a call's all (a
    // 10 GiB tensor over 1,024 workers is 20,460 slices per member): arrival_s[i - arrival_base] is when received
    // slice i arrived (and was summed), credit_s[i - credit_base] when the credit of sent slice i came back.
    std::deque<double> arrival_s, credit_s;
    int arrival_base      = 0;
    int credit_base       = 0;
    double last_arrival_s = 0;       // of the last slice received
    std::vector<double> early_end_s; // the previous member's slices that ended before this member's call took them
    simgrid::s4u::SemaphorePtr done;
    int call = 0; // calls entered: a credit of an earlier call that comes back late is dropped
    // FIFO egress: credits this member sends back to its previous member, each behind slices_ahead own slices.
    struct QueuedCredit {
      int to;           // the member the credit returns to
      int call;         // that member's call it belongs to
      int slices_ahead; // own slices still to leave before it
    };
    std::deque<QueuedCredit> queued_credits;
    // FIFO egress: the other members on this host, whose slices share its egress queue; the members whose next slice
    // waits for slices_ahead of this member's queued slices to leave; the members whose queued slices this member's
    // next slice still waits for.
    std::vector<int> same_host;
    struct Waiter {
      int member;
      int slices_ahead;
    };
    std::vector<Waiter> behind;
    int fifo_waits     = 0;
    double step_cost_s = 0; // this call's, before each step's message
    double byte_scale  = 1; // this call's slices' bytes scaled
    // FIFO egress, waits at the queue's average: when the slice in flight started; how long this call's last slice
    // that left took (0: none has left yet).
    double slice_start_s = 0;
    double last_slice_s  = 0;
  };
  enum class TimerKind { START_SLICE, CREDIT_ISSUED, LEAVE_QUEUE };
  struct Timer {
    double date_s;
    std::uint64_t order; // ties: in the order they were set
    int member;
    TimerKind kind = TimerKind::START_SLICE;
    int call       = 0; // CREDIT_ISSUED: the sender's call
    bool operator>(const Timer& o) const { return date_s > o.date_s || (date_s == o.date_s && order > o.order); }
  };

  // When slice k of member m may leave: its slice of the step before arrived, the credit a window before it back;
  // nullopt while either date is unknown. Whether slice k first pays the message overhead (each step's first).
  std::optional<double> ready_s(const Member& m, int k) const;
  bool pays_message_overhead(const Member& m, int k) const;
  void try_send(int self);       // starts the member's next slice, or sets its date on the clock, if it may
  void leave_or_queue(int self); // the slice may leave now: starts it, or queues it behind the host's other slices
  // How long a slice of m that may leave now waits behind the other members' queued slices at their average
  // (scenario.fifo_wait); nullopt, the exact wait, where one of them has no slice of its call's left yet, or, with
  // PHASE, moves one slice per ring step.
  std::optional<double> average_wait_s(const Member& m, double now) const;
  void start_slice(int self);
  void receive(int self, double end_s); // a slice from the previous member ended at end_s
  void take(Member& m, double end_s);   // ... and is this member's next one of the current call
  void maybe_done(int self);
  void dispatch();
  // FIFO egress (docs/models.md §10.12): the credit of `sender`'s slice, issued by its next member when the slice
  // arrived; the own slices of a member in its egress queue at this date; a slice of `self`'s left that queue; a
  // credit back at `to` at date_s (dropped if that member has left the call). fifo_credits: the option applies.
  void credit_issued(int sender, int call);
  int slices_queued(const Member& m, double now) const;
  void slice_left(int self, double now);
  void credit_back(int to, int call, double date_s);
  bool fifo_credits() const;
  bool off_host(const Member& m) const; // in a call whose slices leave the host (not a multi-GPU host's loopback)

  const SimContext& ctx_;
  std::vector<Member> members_;
  std::unordered_map<const simgrid::kernel::activity::ActivityImpl*, int> in_flight_;
  std::vector<int> ended_; // members whose slice ended since the last dispatch, in SimGrid's order
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::vector<Timer> due_; // dates that came, in date order
  std::uint64_t timer_order_ = 0;
  double surf_precision_     = 0;
  bool kicked_               = false;
  simgrid::s4u::SemaphorePtr kick_;
};

} // namespace sgdsim
