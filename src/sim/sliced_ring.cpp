// src/sim/sliced_ring.cpp: see sliced_ring.hpp. How the end of a slice is seen and when its successors start: as in
// ring_driver.cpp (the network signal records the ended comms, Engine::on_time_advance wakes the dispatcher actor,
// which starts the successors after SimGrid has finished the ended comms, at the same simulated date).

#include "sim/sliced_ring.hpp"

#include "sim/collectives.hpp"
#include "sim/engine_hooks.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/asserts.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
// SimGrid's signals are global and connected once per process; they reach the live ring through this pointer.
SlicedRing* current_ring = nullptr;
} // namespace

SlicedRing::SlicedRing(const SimContext& ctx, const std::vector<sg4::Host*>& members) : ctx_(ctx)
{
  xbt_assert(current_ring == nullptr, "one SlicedRing at a time");
  members_.resize(members.size());
  for (std::size_t i = 0; i < members.size(); i++) {
    members_[i].host = members[i];
    members_[i].done = sg4::Semaphore::create(0);
  }
  if (ctx.scenario.egress_fifo) { // the members whose slices share each host's egress (lanes, multi-GPU ranks)
    std::unordered_map<const sg4::Host*, std::vector<int>> by_host;
    for (std::size_t i = 0; i < members.size(); i++)
      by_host[members[i]].push_back(static_cast<int>(i));
    for (std::size_t i = 0; i < members.size(); i++)
      for (const int j : by_host[members[i]])
        if (j != static_cast<int>(i))
          members_[i].same_host.push_back(j);
  }
  in_flight_.reserve(members.size());
  kick_           = sg4::Semaphore::create(0);
  surf_precision_ = simgrid::config::get_value<double>("surf/precision");
  connect_dispatcher(current_ring);
  current_ring = this;
  // The dates the ring waits for (a slice's arrival, a credit, a message overhead): the engine stops at the earliest
  // one as it would at the end of a worker's sleep_until().
  add_dispatcher_clock("sgdsim-sliced-ring-clock", current_ring);
  // The dispatcher: one simcall per date at which slices ended or dates came.
  start_dispatcher(members.front(), "sliced-ring-dispatcher", kick_, [this] { dispatch(); });
}

SlicedRing::~SlicedRing()
{
  current_ring = nullptr;
}

void SlicedRing::allreduce(int self, int next, int rank, int prev_rank, int n, double bytes, double step_cost_s,
                           double byte_scale)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  xbt_assert(!m.in_call, "member %d entered a sliced all-reduce before its previous one ended", self);
  m.next          = next;
  m.step_cost_s   = step_cost_s;
  m.byte_scale    = byte_scale;
  m.out_latency_s = ctx_.ring_latency_s[static_cast<std::size_t>(rank)];
  m.in_latency_s  = ctx_.ring_latency_s[static_cast<std::size_t>(prev_rank)];
  m.cut           = RingSlicing(bytes, n, ctx_.scenario);
  m.started = m.sent_done = m.received = 0;
  m.last_slice_s                       = 0;
  m.arrival_s.clear();
  m.credit_s.clear();
  m.arrival_base = m.credit_base = 0;
  m.in_call                      = true;
  m.call++;
  // The previous member's slices of this call that ended before this member entered it (the actors' mailbox held
  // them): taken now, in order.
  std::vector<double> early;
  early.swap(m.early_end_s);
  for (const double end_s : early)
    receive(self, end_s);
  try_send(self);
  m.done->acquire();
  // The call ends when the last slice has arrived (and been summed).
  if (m.last_arrival_s > sg4::Engine::get_clock())
    sg4::this_actor::sleep_until(m.last_arrival_s);
}

void SlicedRing::receive(int self, double end_s)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  if (!m.in_call || m.received == m.cut.total) { // a slice of this member's next call
    m.early_end_s.push_back(end_s);
    return;
  }
  const double sum_s = m.cut.summed(m.received) ? ctx_.scenario.reduce_s_per_byte * m.cut.slice_bytes : 0.0;
  m.last_arrival_s   = end_s + m.in_latency_s + sum_s;
  m.arrival_s.push_back(m.last_arrival_s);
  m.received++;
}

std::optional<double> SlicedRing::ready_s(const Member& m, int k) const
{
  const int dep = k - m.cut.per_step; // the same slice of the step before
  if (dep >= m.received)
    return std::nullopt; // not arrived yet: receive() of it calls back
  double ready     = dep >= 0 ? m.arrival_s[static_cast<std::size_t>(dep - m.arrival_base)] : 0.0;
  const int window = ctx_.scenario.ring_slices_in_flight;
  if (k >= window) {
    const auto credit = static_cast<std::size_t>(k - window - m.credit_base);
    if (credit >= m.credit_s.size())
      return std::nullopt; // not back yet (a FIFO egress holds it): credit_back() calls back
    ready = std::max(ready, m.credit_s[credit]);
  }
  return ready;
}

bool SlicedRing::pays_message_overhead(const Member& m, int k) const
{
  return k % m.cut.per_step == 0 && m.step_cost_s > 0; // the sender's cost of each step's message
}

void SlicedRing::try_send(int self)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  if (!m.in_call || m.busy || m.timed || m.fifo_waits > 0 || m.started == m.cut.total)
    return;
  const std::optional<double> ready = ready_s(m, m.started);
  if (!ready)
    return;
  const double now = sg4::Engine::get_clock();
  double start_s   = *ready - now >= surf_precision_ ? *ready : now; // a shorter wait is none (collectives.cpp)
  if (pays_message_overhead(m, m.started))
    start_s += m.step_cost_s;
  if (start_s > now) {
    m.timed = true;
    timers_.push(Timer{start_s, timer_order_++, self, TimerKind::START_SLICE, 0});
    return;
  }
  leave_or_queue(self);
}

// FIFO egress (docs/models.md §10.12, "Another call's segments ahead"): the slices the host's other members have
// handed to TCP leave first; this one starts after their queue's average (average_wait_s), or when the last of them
// has left (slice_left()).
void SlicedRing::leave_or_queue(int self)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  if (!m.same_host.empty() && off_host(m)) {
    const double now = sg4::Engine::get_clock();
    if (ctx_.scenario.fifo_wait != FifoWait::EXACT) {
      if (const std::optional<double> wait_s = average_wait_s(m, now)) {
        if (*wait_s < surf_precision_) {
          start_slice(self);
        } else {
          m.timed = true;
          timers_.push(Timer{now + *wait_s, timer_order_++, self, TimerKind::LEAVE_QUEUE, 0});
        }
        return;
      }
    }
    for (const int j : m.same_host) {
      Member& o        = members_[static_cast<std::size_t>(j)];
      const int queued = off_host(o) ? slices_queued(o, now) : 0;
      if (queued > 0) {
        o.behind.push_back(Member::Waiter{self, queued});
        m.fifo_waits++;
      }
    }
    if (m.fifo_waits > 0)
      return;
  }
  start_slice(self);
}

// docs/models.md §10.12 "The queue's average": a message written at a moment unrelated to the queue's progress waits
// for its time average. A member with `queued` slices (the one in flight and those it could start back to back)
// holds, over the time one slice takes, from `queued` down to `queued - 1` of them: (queued - 1/2) on average, each
// taking as long as its last that left. In a homogeneous ring the exact wait meets the large call's slices in
// lockstep, one just started, every step: `queued` whole slices.
std::optional<double> SlicedRing::average_wait_s(const Member& m, double now) const
{
  double wait_s = 0;
  for (const int j : m.same_host) {
    const Member& o  = members_[static_cast<std::size_t>(j)];
    const int queued = off_host(o) ? slices_queued(o, now) : 0;
    if (queued == 0)
      continue;
    if (o.last_slice_s <= 0)
      return std::nullopt; // no slice of its call has left: how long one takes is not known yet
    // A call of one slice a ring step forwards each as the previous host's arrives, as this call does: the two rings'
    // steps run in phase and this message finds its slice just started (§10.12 "In phase with a call of one slice a
    // step"): wait until its slices have left.
    if (ctx_.scenario.fifo_wait == FifoWait::PHASE && o.cut.per_step <= 1)
      return std::nullopt;
    wait_s += (queued - 0.5) * o.last_slice_s;
  }
  return wait_s;
}

bool SlicedRing::off_host(const Member& m) const
{
  return m.in_call && members_[static_cast<std::size_t>(m.next)].host != m.host;
}

void SlicedRing::start_slice(int self)
{
  Member& m           = members_[static_cast<std::size_t>(self)];
  sg4::Host* const to = members_[static_cast<std::size_t>(m.next)].host;
  m.busy              = true;
  m.slice_start_s     = sg4::Engine::get_clock();
  m.started++;
  // The next slices need the arrivals from started - per_step on and the credits from started - window on.
  const int window = ctx_.scenario.ring_slices_in_flight;
  for (; m.arrival_base < m.started - m.cut.per_step && !m.arrival_s.empty(); m.arrival_base++)
    m.arrival_s.pop_front();
  for (; m.credit_base < m.started - window && !m.credit_s.empty(); m.credit_base++)
    m.credit_s.pop_front();
  for (const double part : socket_parts(m.cut.slice_bytes, to != m.host ? ctx_.ring_sockets : 1)) {
    m.parts.push_back(start_flow(m.host, to, part * m.byte_scale, ctx_.scenario.connection_rate_Bps));
    in_flight_.emplace(m.parts.back()->get_impl(), self);
  }
  m.parts_left = static_cast<int>(m.parts.size());
}

void SlicedRing::maybe_done(int self)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  if (m.in_call && m.sent_done == m.cut.total && m.received == m.cut.total) {
    m.in_call = false;
    m.done->release();
  }
}

void SlicedRing::on_flow_end(const simgrid::kernel::resource::Action& flow)
{
  auto it = in_flight_.find(flow.get_activity());
  if (it == in_flight_.end())
    return; // another collective's comm
  const int self = it->second;
  in_flight_.erase(it);
  if (--members_[static_cast<std::size_t>(self)].parts_left == 0)
    ended_.push_back(self); // the slice ends with its last part
}

void SlicedRing::on_time_advance()
{
  if ((!ended_.empty() || !due_.empty()) && !kicked_) {
    kicked_ = true;
    kick_->release(); // in maestro's context: wakes the dispatcher for the next scheduling round, at this date
  }
}

double SlicedRing::next_date_delay(double now) const
{
  return timers_.empty() ? -1.0 : std::max(0.0, timers_.top().date_s - now);
}

// A date is due when the engine's clock is within SimGrid's precision of it, as a sleep ends (an action's
// max_duration left below surf/precision counts as 0).
void SlicedRing::clock_advanced(double now, double /*delta*/)
{
  while (!timers_.empty() && timers_.top().date_s - now < surf_precision_) {
    due_.push_back(timers_.top());
    timers_.pop();
  }
}

void SlicedRing::dispatch()
{
  kicked_          = false;
  const double now = sg4::Engine::get_clock();
  // Slices that ended, in SimGrid's order (deterministic); SimGrid has finished their comms.
  std::vector<int> ended;
  ended.swap(ended_);
  for (const int self : ended) {
    Member& m = members_[static_cast<std::size_t>(self)];
    m.parts.clear();
    m.busy         = false;
    m.last_slice_s = now - m.slice_start_s;
    if (fifo_credits()) // of slice sent_done: issued by the next member when it arrives (docs/models.md §10.12)
      timers_.push(Timer{now + m.out_latency_s, timer_order_++, self, TimerKind::CREDIT_ISSUED, m.call});
    else
      m.credit_s.push_back(now + 2 * m.out_latency_s); // of slice sent_done: arrived, credit back
    m.sent_done++;
    slice_left(self, now);
    receive(m.next, now);
    try_send(m.next);
    maybe_done(m.next);
    try_send(self);
    maybe_done(self);
  }
  std::vector<Timer> due;
  due.swap(due_);
  for (const Timer& t : due) {
    if (t.kind == TimerKind::CREDIT_ISSUED) {
      credit_issued(t.member, t.call);
      continue;
    }
    members_[static_cast<std::size_t>(t.member)].timed = false;
    if (t.kind == TimerKind::LEAVE_QUEUE)
      start_slice(t.member); // its wait behind the other members' queue at their average is over
    else
      leave_or_queue(t.member);
  }
}

// A measured all-reduce (docs/models.md §10.7) holds the credits' wait behind the call's own slices: not simulated
// again; the slices of other calls ahead are not in it (§10.12).
bool SlicedRing::fifo_credits() const
{
  return ctx_.scenario.egress_fifo && ctx_.scenario.ring_credit_messages && !ctx_.scenario.measured_allreduce;
}

void SlicedRing::credit_issued(int sender, int call)
{
  const Member& s  = members_[static_cast<std::size_t>(sender)];
  Member& receiver = members_[static_cast<std::size_t>(s.next)];
  const double now = sg4::Engine::get_clock();
  const int queued = slices_queued(receiver, now);
  if (queued == 0)
    credit_back(sender, call, now + s.out_latency_s); // the receiver's egress is empty: it leaves at once
  else
    receiver.queued_credits.push_back(Member::QueuedCredit{sender, call, queued});
}

// A member's own slices in its egress queue at `now`: the one in flight, and those it may start one after the other
// without waiting for a date (their slice of the step before has arrived, their credit is back, no message overhead
// first), which the framework has handed to TCP already. At most the window's.
int SlicedRing::slices_queued(const Member& m, double now) const
{
  if (!m.in_call || !m.busy)
    return 0; // idle (a member that may start a slice starts it at once)
  const int window = ctx_.scenario.ring_slices_in_flight;
  int queued       = 1;
  for (int k = m.started; k < m.cut.total && queued < window; k++, queued++) {
    // Ready now, as try_send() takes it: a date within SimGrid's precision of now is now.
    const std::optional<double> ready = ready_s(m, k);
    if (!ready || *ready - now >= surf_precision_ || pays_message_overhead(m, k))
      break;
  }
  return queued;
}

void SlicedRing::slice_left(int self, double now)
{
  Member& m = members_[static_cast<std::size_t>(self)];
  for (Member::QueuedCredit& c : m.queued_credits)
    c.slices_ahead--;
  while (!m.queued_credits.empty() && m.queued_credits.front().slices_ahead <= 0) {
    const Member::QueuedCredit c = m.queued_credits.front();
    m.queued_credits.pop_front();
    credit_back(c.to, c.call, now + members_[static_cast<std::size_t>(c.to)].out_latency_s);
  }
  if (m.behind.empty())
    return;
  // The members whose slice waited for this one, in the order they came: those with nothing more ahead leave.
  std::vector<int> free;
  auto kept = m.behind.begin();
  for (Member::Waiter& w : m.behind) {
    if (--w.slices_ahead > 0)
      *kept++ = w;
    else if (--members_[static_cast<std::size_t>(w.member)].fifo_waits == 0)
      free.push_back(w.member);
  }
  m.behind.erase(kept, m.behind.end());
  for (const int w : free)
    start_slice(w);
}

void SlicedRing::credit_back(int to, int call, double date_s)
{
  Member& m = members_[static_cast<std::size_t>(to)];
  if (!m.in_call || m.call != call)
    return; // a credit of a call that has ended: no slice waits for it
  m.credit_s.push_back(date_s);
  try_send(to);
}

} // namespace sgdsim
