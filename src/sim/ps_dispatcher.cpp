// src/sim/ps_dispatcher.cpp: see ps_dispatcher.hpp. The semantics are those of worker.cpp and parameter_server.cpp
// (docs/models.md §4 and §10.5); tests/scenario/ps_dispatcher_test.cpp runs both on the same scenarios.
//
// How a flow's messages are seen (SimGrid fact: under network/optim:Full the network model updates every flow's
// remaining bytes at each engine step by its rate times the step, and its rate changes only when the engine
// re-solves the sharing, before the next step): at each engine step the clock model reads each flow's bytes sent and
// its rate over the step just ended; a message whose last byte was sent during that step arrived at the previous
// step's date plus its bytes left then over that rate, the date SimGrid would have given a flow of its own. Messages
// are added to a running flow (its remaining bytes grow) at the first engine step at or after they are ready, and
// only while the flow runs: one that comes later starts the next flow, as the next message of a connection starts
// when the previous one ends.

#include "sim/ps_dispatcher.hpp"

#include "platform/deployment.hpp"
#include "sim/engine_hooks.hpp"
#include "sim/parameter_server.hpp"
#include "workload/step_sampler.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/asserts.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <functional>
#include <limits>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

namespace sgdsim {

namespace {
// SimGrid's signals are global and connected once per process; they reach the live dispatcher through this pointer.
PsDispatcher* current_dispatcher = nullptr;
} // namespace

bool ps_dispatcher_applies(const SimContext& ctx, const Placement& placement,
                           const std::set<std::string>& varying_speed_hosts, bool platform_has_profiles)
{
  const Scenario& sc = ctx.scenario;
  if (!sc.is_ps() || sc.ps_by_actors || sc.ps_reads_per_variable || platform_has_profiles ||
      sc.sharing != Sharing::FAIR || ctx.hierarchical_ps() || ctx.stream_latency_s.empty() ||
      sc.message_overhead_s > 0 || !ctx.message_s_per_byte.empty() || sc.receive_s_per_byte > 0 ||
      !ctx.weight_links_in.empty() || !ctx.weight_links_out.empty() || sc.ack_coupled())
    return false;
  if (simgrid::config::get_value<std::string>("network/optim") != "Full")
    return false;
  for (std::size_t p = 0; p < ctx.ps_tensors.size(); p++)
    if (!ctx.ps_tensors[p].empty() && ctx.workload.ps_update_s > 0 && ctx.ps_cpu_exclusive[p] == 0)
      return false; // the updates are executions on the PS host
  std::set<std::string> seen;
  for (const std::string& host : placement.worker_hosts) {
    const bool ps_there =
        std::find(placement.ps_hosts.begin(), placement.ps_hosts.end(), host) != placement.ps_hosts.end();
    if (!seen.insert(host).second || ps_there || varying_speed_hosts.count(host) > 0)
      return false; // a worker's compute would share its CPU
  }
  return true;
}

PsDispatcher::PsDispatcher(const SimContext& ctx, StepRecorder& recorder, const std::vector<sg4::Host*>& ps_hosts)
    : ctx_(ctx), recorder_(recorder), workers_(ctx.scenario.workers)
{
  xbt_assert(current_dispatcher == nullptr, "one PsDispatcher at a time");
  keep_flows_      = ctx.scenario.arch == Arch::PS_SYNC;
  surf_precision_  = simgrid::config::get_value<double>("surf/precision");
  bytes_precision_ = simgrid::config::get_value<double>("maxmin/precision") * surf_precision_;
  for (simgrid::kernel::resource::Model* model : sg4::Engine::get_instance()->get_all_models())
    if (dynamic_cast<simgrid::kernel::resource::NetworkModelIntf*>(model) != nullptr)
      network_ = model;
  xbt_assert(network_ != nullptr, "no network model");
  // A kept flow comes back with Action::resume(), which gives it the penalty 1 that CM02 gives a flow without latency
  // (docs/design.md, SimGrid fact 19): right only while the streams leave every link without one (make_streams).
  if (keep_flows_)
    for (const sg4::Link* link : sg4::Engine::get_instance()->get_all_links())
      xbt_assert(link->get_latency() == 0,
                 "PS dispatcher: link '%s' kept a latency; resumed flows would share it with penalty 1",
                 link->get_cname());
  const auto n_ps = static_cast<int>(ctx.ps_tensors.size());
  conns_.resize(static_cast<std::size_t>(2 * n_ps * workers_));
  for (int p = 0; p < n_ps; p++)
    for (int w = 0; w < workers_; w++)
      for (int dir = 0; dir < 2; dir++) {
        Conn& k  = conns_[static_cast<std::size_t>(down_conn(p, w) + dir)];
        k.ps     = p;
        k.worker = w;
        k.up     = dir == 1;
        k.src    = k.up ? ctx.worker_host_ptrs[static_cast<std::size_t>(w)] : ps_hosts[static_cast<std::size_t>(p)];
        k.dst    = k.up ? ps_hosts[static_cast<std::size_t>(p)] : ctx.worker_host_ptrs[static_cast<std::size_t>(w)];
      }
  for (int w = 0; w < workers_; w++) {
    workers_state_.emplace_back(Rng(ctx.scenario.seed, static_cast<std::uint64_t>(w)));
    workers_state_.back().arrival_s.assign(ctx.workload.tensors.size(), 0.0);
  }
  for (int p = 0; p < n_ps; p++) {
    const sg4::Host* host = ps_hosts[static_cast<std::size_t>(p)];
    const auto& latency_s = ctx.stream_latency_s[static_cast<std::size_t>(p)];
    ps_.push_back(
        PsState{ps_update_flops_per_byte(ctx.workload), ComputedUpdateQueue(host->get_speed()),
                PsGradientRules(ctx.scenario.arch == Arch::PS_SYNC, workers_,
                                ctx.ps_tensors[static_cast<std::size_t>(p)].size(), ctx.workload.tensors.size(),
                                ctx.total_steps()),
                std::vector<double>(static_cast<std::size_t>(workers_), -1.0),
                ArrivalOrder<Landing>(*std::min_element(latency_s.begin(), latency_s.end())),
                std::adjacent_find(latency_s.begin(), latency_s.end(), std::not_equal_to<>()) == latency_s.end()});
  }

  connect_dispatcher(current_dispatcher);
  static bool bandwidth_connected = false;
  if (!bandwidth_connected) {
    bandwidth_connected = true;
    sg4::Link::on_bandwidth_change_cb([](const sg4::Link&) {
      if (current_dispatcher != nullptr)
        current_dispatcher->on_bandwidth_change();
    });
  }
  current_dispatcher = this;
  add_dispatcher_clock("sgdsim-ps-clock", current_dispatcher);
  // The first kick is free: the dispatcher's first round, at date 0, releases the initial parameters.
  kick_     = sg4::Semaphore::create(1);
  kicked_   = true;
  all_done_ = sg4::Semaphore::create(0);
  start_dispatcher(ps_hosts.front(), "ps-dispatcher", kick_, [this] { dispatch(); });
  // The run ends when every worker has run its steps, as the workers' actors would end: this actor stands for them.
  sg4::Actor::create("ps-workers", ps_hosts.front(), [done = all_done_] { done->acquire(); });
}

PsDispatcher::~PsDispatcher()
{
  current_dispatcher = nullptr;
}

void PsDispatcher::on_flow_end(const Action& flow)
{
  auto it = by_flow_.find(flow.get_activity());
  if (it == by_flow_.end())
    return;
  // A kept flow does not end here (its tail): only where SimGrid ends a flow at once, on a route without links.
  Conn& k    = conns_[static_cast<std::size_t>(it->second)];
  k.rate_Bps = flow.get_rate(); // the rate of the step that ended it
  k.action   = nullptr;
  by_flow_.erase(it);
}

double PsDispatcher::next_date_delay(double now) const
{
  double next_s = timers_.empty() ? -1.0 : std::max(0.0, timers_.top().date_s - now);
  if (!keep_flows_)
    return next_s; // SimGrid ends the flows
  // A kept flow's bytes end before its tail, at the date SimGrid would end a flow of those bytes alone: its bytes left
  // over its rate (Model::next_occurring_event_full, asked after the network model has solved).
  for (const int c : busy_) {
    const Conn& k = conns_[static_cast<std::size_t>(c)];
    if (const double rate_Bps = k.action->get_rate(); rate_Bps > 0) {
      const double delay_s = k.left > 0 ? k.left / rate_Bps : 0.0;
      if (next_s < 0 || delay_s < next_s)
        next_s = delay_s;
    }
  }
  return next_s;
}

void PsDispatcher::clock_advanced(double now, double delta)
{
  std::size_t kept = 0;
  for (const int c : busy_) {
    Conn& k = conns_[static_cast<std::size_t>(c)];
    // Arrivals of this step: the bytes left at the previous step over the rate since (the flow's end is this date).
    // The flow's rate is the one of the step just ended (the engine solves again after the models' updates).
    const double rate_Bps = k.action != nullptr ? k.action->get_rate() : k.rate_Bps;
    if (k.action == nullptr) // SimGrid ended the flow (on_flow_end)
      k.left = 0;
    else if (keep_flows_) {
      // A kept flow: SimGrid's update of a flow's remaining bytes, and its end, on the bytes without the tail
      // (NetworkCm02Model::update_actions_state_full, Action::update_remains).
      k.left -= rate_Bps * delta;
      if (k.left < bytes_precision_)
        k.left = 0;
    } else
      k.left = k.action->get_remains_no_update();
    const bool ended  = k.left <= 0;
    const double done = ended ? k.put_bytes : k.put_bytes - k.left;
    while (!k.in_flow.empty() && k.in_flow.front().end_bytes <= done) {
      const Msg& m  = k.in_flow.front();
      double date_s = now;
      if (!(ended && k.in_flow.size() == 1) && rate_Bps > 0)
        date_s = std::clamp(k.last_s + (m.end_bytes - k.last_done) / rate_Bps, k.last_s, now);
      crossings_.push_back(Crossing{date_s, std::max(m.ready_s, k.prev_end_s), c, m.tensor});
      k.prev_end_s = date_s;
      k.in_flow.pop_front();
    }
    k.last_s    = now;
    k.last_done = done;
    if (ended) {
      xbt_assert(k.in_flow.empty(), "a PS connection's flow ended before its last message");
      if (k.action != nullptr)
        k.action->suspend(); // kept: out of the sharing from the next solve on, as a flow that ended
      k.listed = false;
      ended_.push_back(c);
      continue;
    }
    // Messages ready since the last step join the flow: their bytes follow the ones it still has to send.
    while (!k.cut && !k.waiting.empty() && k.waiting.front().ready_s <= now) {
      Msg m = k.waiting.front();
      k.waiting.pop_front();
      k.action->set_remains(k.action->get_remains_no_update() + m.bytes);
      k.left += m.bytes;
      k.put_bytes += m.bytes;
      m.end_bytes = k.put_bytes;
      k.in_flow.push_back(m);
    }
    busy_[kept++] = c;
  }
  busy_.resize(kept);
  // A date is due when the clock is within SimGrid's precision of it, as a sleep ends.
  while (!timers_.empty() && timers_.top().date_s - now < surf_precision_) {
    due_.push_back(timers_.top());
    timers_.pop();
  }
}

// A link's bandwidth changed (a --background schedule): SimGrid keeps, for a flow that runs, the bound it gave it when
// it started (its route's smallest bandwidth then) and, under LV08, the penalty change of links it only ACKs on
// (docs/design.md, SimGrid fact 17), where a message that starts later gets a flow of its own: each running flow ends
// with the message it sends now, and the next ones start a new flow then. Suspended flows, made under the old
// bandwidths, are replaced at their next busy period.
void PsDispatcher::on_bandwidth_change()
{
  for (Conn& k : conns_)
    k.stale = k.action != nullptr;
  for (const int c : busy_) {
    Conn& k = conns_[static_cast<std::size_t>(c)];
    if (k.in_flow.size() < 2) { // ends with its current message anyway (ended flows have left busy_)
      k.cut = true;
      continue;
    }
    const double after = k.put_bytes - k.in_flow.front().end_bytes;
    k.action->set_remains(k.action->get_remains_no_update() - after);
    k.left -= after;
    k.put_bytes = k.in_flow.front().end_bytes;
    while (k.in_flow.size() > 1) {
      k.waiting.push_front(k.in_flow.back());
      k.in_flow.pop_back();
    }
    k.cut = true;
  }
}

void PsDispatcher::on_time_advance()
{
  if ((!crossings_.empty() || !ended_.empty() || !due_.empty()) && !kicked_) {
    kicked_ = true;
    kick_->release(); // in maestro's context: wakes the dispatcher for the next scheduling round, at this date
  }
}

void PsDispatcher::set_timer(double date_s, int kind, int a, int b)
{
  timers_.push(Timer{date_s, timer_order_++, kind, a, b});
}

void PsDispatcher::dispatch()
{
  kicked_          = false;
  const double now = sg4::Engine::get_clock();
  if (!started_) {
    started_ = true;
    for (int w = 0; w < workers_; w++)
      begin_step(w);
    for (std::size_t p = 0; p < ps_.size(); p++)
      if (!ctx_.ps_tensors[p].empty())
        for (int w = 0; w < workers_; w++)
          release(static_cast<int>(p), w, now); // the initial parameters
  }
  // Messages whose last byte was sent, in date order (the order the PS's receivers would take them).
  std::vector<Crossing> crossings;
  crossings.swap(crossings_);
  std::stable_sort(crossings.begin(), crossings.end(), [](const Crossing& a, const Crossing& b) {
    return a.date_s < b.date_s || (a.date_s == b.date_s && a.conn > b.conn);
  });
  for (const Crossing& cr : crossings) {
    const Conn& k   = conns_[static_cast<std::size_t>(cr.conn)];
    WorkerState& ws = workers_state_[static_cast<std::size_t>(k.worker)];
    ws.account.add_comm(cr.start_s, cr.date_s);
    if (recorder_.timeline_enabled())
      recorder_.worker_op(k.worker, k.up ? "uplink" : "downlink",
                          ctx_.workload.tensors[static_cast<std::size_t>(cr.tensor)].name, cr.start_s, cr.date_s);
    if (!k.up) {
      ws.arrival_s[static_cast<std::size_t>(cr.tensor)] = cr.date_s;
      continue;
    }
    ws.ups_left--;
    PsState& s = ps_[static_cast<std::size_t>(k.ps)];
    s.arriving.push(cr.date_s + ctx_.stream_latency(k.ps, k.worker), Landing{k.worker, cr.tensor});
    if (s.one_latency)
      hand_over(k.ps); // arrives in crossing order: at once
  }
  // Elsewhere once this step's crossings are all held: one sent before `now` over a longer route may arrive after
  // one sent later over a shorter one.
  for (std::size_t p = 0; p < ps_.size(); p++)
    if (!ps_[p].one_latency)
      hand_over(static_cast<int>(p));
  std::vector<int> ended;
  ended.swap(ended_);
  std::sort(ended.begin(), ended.end(), std::greater<>());
  for (const int c : ended) {
    Conn& k = conns_[static_cast<std::size_t>(c)];
    if (k.action == nullptr) // SimGrid ended it
      k.comm = nullptr;
    const int w     = k.worker;
    WorkerState& ws = workers_state_[static_cast<std::size_t>(w)];
    k.cut           = false;
    if (!k.up) {
      if (!k.waiting.empty()) { // the rest of the shard (a link changed while it flowed)
        start_flow(c);
        continue;
      }
      if (--ws.downs_left == 0) {
        ws.receiving = false;
        schedule_compute(w);
      }
      continue;
    }
    if (!k.waiting.empty()) { // the next message was not ready while the flow ran
      if (k.waiting.front().ready_s - now < surf_precision_)
        start_flow(c);
      else {
        k.timed = true;
        set_timer(k.waiting.front().ready_s, 1, c, 0);
      }
    }
    if (ws.ups_left > 0 || !ws.stepping)
      continue; // gradients to come, or the step already ended (two uplinks ended at this date)
    // The step ends with its last gradient's arrival at its PS (the last byte sent: worker.cpp's uplink end).
    ws.stepping = false;
    recorder_.end_step(w, now, ws.account.close_window(ws.step_begin_s, now));
    ws.step_begin_s = now;
    ws.step++;
    const bool async = ctx_.scenario.arch == Arch::PS_ASYNC;
    if (ws.step >= ctx_.total_steps() && (!async || recorder_.all_measured())) {
      if (++finished_ == workers_) {
        all_done_->release();
        timers_ = {}; // a run ends with its workers (the actors' pending sleeps end with them)
      }
      continue;
    }
    begin_step(w);
  }
  std::vector<Timer> due;
  due.swap(due_);
  for (const Timer& t : due) {
    if (t.kind == 2) {
      ps_[static_cast<std::size_t>(t.a)].wake_s = -1;
      hand_over(t.a);
      continue;
    }
    const int c                               = t.kind == 0 ? down_conn(t.a, t.b) : t.a;
    conns_[static_cast<std::size_t>(c)].timed = false;
    start_flow(c);
  }
}

void PsDispatcher::begin_step(int w)
{
  WorkerState& ws = workers_state_[static_cast<std::size_t>(w)];
  ws.receiving    = true;
  ws.stepping     = true;
  draw_step_times(ctx_.workload, ws.rng, ctx_.scenario.compute_jitter_cv, ws.fwd_s, ws.bwd_s);
  ws.downs_left = 0;
  ws.ups_left   = static_cast<int>(ctx_.workload.tensors.size());
  for (std::size_t p = 0; p < ps_.size(); p++)
    if (!ctx_.ps_tensors[p].empty()) {
      ws.downs_left++;
      try_start_down(static_cast<int>(p), w);
    }
}

void PsDispatcher::release(int ps, int worker, double ready_s)
{
  ps_[static_cast<std::size_t>(ps)].due_s[static_cast<std::size_t>(worker)] =
      release_date(ready_s, ctx_.scenario.release_quantum_s);
  try_start_down(ps, worker);
}

// A shard's first byte leaves when it is due plus the route's latency (the PS's sender sleeps both) and once the
// worker has begun its step (it posts its receives then).
void PsDispatcher::try_start_down(int ps, int worker)
{
  double& due_s         = ps_[static_cast<std::size_t>(ps)].due_s[static_cast<std::size_t>(worker)];
  const WorkerState& ws = workers_state_[static_cast<std::size_t>(worker)];
  if (due_s < 0 || !ws.receiving)
    return;
  const double now     = sg4::Engine::get_clock();
  const double start_s = std::max(due_s + ctx_.stream_latency(ps, worker), ws.step_begin_s);
  xbt_assert(start_s - now > -surf_precision_, "PS %d: worker %d's parameters released in the past", ps, worker);
  due_s   = -1;
  Conn& k = conns_[static_cast<std::size_t>(down_conn(ps, worker))];
  if (start_s - now < surf_precision_) {
    start_flow(down_conn(ps, worker));
    return;
  }
  k.timed = true;
  set_timer(start_s, 0, ps, worker);
}

// The worker's compute once all its parameters arrived: one execution at a time on its host, at the host's speed
// (worker.cpp: forward of layer i once its tensors arrived and layer i-1 is done, then backward in reverse order;
// without overlap, forward once every tensor arrived and uplinks once backward is done).
void PsDispatcher::schedule_compute(int w)
{
  WorkerState& ws          = workers_state_[static_cast<std::size_t>(w)];
  const Workload& wl       = ctx_.workload;
  const bool overlap       = ctx_.scenario.overlap;
  const double speed_flops = ctx_.worker_host_ptrs[static_cast<std::size_t>(w)]->get_speed();
  const double now         = sg4::Engine::get_clock();
  const auto n_layers      = wl.layers.size();
  double all_arrived_s     = ws.step_begin_s;
  for (const double a : ws.arrival_s)
    all_arrived_s = std::max(all_arrived_s, a);
  double cur_s = ws.step_begin_s;
  for (std::size_t l = 0; l < n_layers; l++) {
    double ready_s = all_arrived_s;
    if (overlap) {
      ready_s = ws.step_begin_s;
      for (const int t : wl.layers[l].tensors)
        ready_s = std::max(ready_s, ws.arrival_s[static_cast<std::size_t>(t)]);
    }
    const double start_s = std::max(cur_s, ready_s);
    cur_s                = start_s + ws.fwd_s[l] * wl.reference_speed / speed_flops;
    ws.account.add_compute(start_s, cur_s);
    if (recorder_.timeline_enabled())
      recorder_.worker_op(w, "compute", "fwd " + wl.layers[l].name, start_s, cur_s);
  }
  for (std::size_t i = n_layers; i-- > 0;) {
    const double start_s = cur_s;
    cur_s                = start_s + ws.bwd_s[i] * wl.reference_speed / speed_flops;
    ws.account.add_compute(start_s, cur_s);
    if (recorder_.timeline_enabled())
      recorder_.worker_op(w, "compute", "bwd " + wl.layers[i].name, start_s, cur_s);
    const auto& tensors = wl.layers[i].tensors;
    for (auto it = tensors.rbegin(); it != tensors.rend(); ++it) {
      const int p = ctx_.tensor_ps[static_cast<std::size_t>(*it)];
      conns_[static_cast<std::size_t>(down_conn(p, w) + 1)].waiting.push_back(
          Msg{*it, static_cast<double>(static_cast<std::uint64_t>(wl.tensors[static_cast<std::size_t>(*it)].bytes)),
              cur_s});
    }
  }
  for (std::size_t p = 0; p < ps_.size(); p++) {
    const int c = down_conn(static_cast<int>(p), w) + 1;
    Conn& k     = conns_[static_cast<std::size_t>(c)];
    if (k.waiting.empty())
      continue;
    if (!overlap)
      for (Msg& m : k.waiting)
        m.ready_s = cur_s; // every uplink waits for the whole backward
    xbt_assert(!k.listed && !k.timed, "worker %d: an uplink of the previous step still runs", w);
    if (k.waiting.front().ready_s - now < surf_precision_)
      start_flow(c);
    else {
      k.timed = true;
      set_timer(k.waiting.front().ready_s, 1, c, 0);
    }
  }
}

// Hands PS `ps` the gradients that can be handed over now, in arrival order (ArrivalOrder: with one latency for all
// its workers, each at once), and sets a timer for the next one held.
void PsDispatcher::hand_over(int ps)
{
  PsState& s       = ps_[static_cast<std::size_t>(ps)];
  const double now = sg4::Engine::get_clock();
  while (auto held = s.arriving.pop_due(now, surf_precision_))
    land(ps, held->second.worker, held->second.tensor, held->first);
  const double next_s = s.arriving.next_due_s();
  if (next_s == std::numeric_limits<double>::infinity() || (s.wake_s >= 0 && s.wake_s <= next_s))
    return; // none held, or a timer comes first
  s.wake_s = next_s;
  set_timer(next_s, 2, ps, 0);
}

// The PS applies a gradient by the rules the PS actor follows (ps_rules.hpp), its updates in a computed queue.
void PsDispatcher::land(int ps, int worker, int tensor, double arrival_s)
{
  PsState& s  = ps_[static_cast<std::size_t>(ps)];
  auto update = [&s, ps, this](int t, double now_s) {
    if (s.flops_per_byte <= 0)
      return now_s;
    const auto [start_s, end_s] =
        s.queue.push(s.flops_per_byte * ctx_.workload.tensors[static_cast<std::size_t>(t)].bytes, now_s);
    if (recorder_.timeline_enabled())
      recorder_.ps_op(ps, "update", ctx_.workload.tensors[static_cast<std::size_t>(t)].name, start_s, end_s);
    return end_s;
  };
  s.rules.land(worker, tensor, arrival_s, update, [ps, this](int w, double updated_s) { release(ps, w, updated_s); });
}

// A flow for the connection's messages ready now: a downlink's whole shard, in forward order, or the gradients an
// uplink has ready.
void PsDispatcher::start_flow(int c)
{
  Conn& k          = conns_[static_cast<std::size_t>(c)];
  const double now = sg4::Engine::get_clock();
  xbt_assert(!k.listed, "a PS connection started a second flow");
  k.put_bytes = 0;
  if (!k.up && k.waiting.empty()) {
    for (const int t : ctx_.ps_tensors[static_cast<std::size_t>(k.ps)]) {
      const auto bytes =
          static_cast<double>(static_cast<std::uint64_t>(ctx_.workload.tensors[static_cast<std::size_t>(t)].bytes));
      k.put_bytes += bytes;
      k.in_flow.push_back(Msg{t, bytes, now, k.put_bytes});
    }
  } else {
    while (!k.waiting.empty() && k.waiting.front().ready_s - now < surf_precision_) {
      Msg m = k.waiting.front();
      k.waiting.pop_front();
      k.put_bytes += m.bytes;
      m.end_bytes = k.put_bytes;
      k.in_flow.push_back(m);
    }
  }
  xbt_assert(!k.in_flow.empty(), "a PS connection started a flow with nothing to send");
  k.last_s     = now;
  k.last_done  = 0;
  k.prev_end_s = now;
  k.left       = k.put_bytes;
  if (keep_flows_ && k.action != nullptr && !k.stale) { // the connection's flow, suspended since its last busy period
    k.action->set_remains(k.put_bytes + kKeptFlowTailBytes);
    k.action->resume();
  } else {
    if (k.comm != nullptr) { // kept, made before a link changed: SimGrid keeps the bound it gave it then
      by_flow_.erase(k.comm->get_impl());
      k.comm->cancel();
    }
    if (keep_flows_) {
      const KeptFlow kept = start_kept_flow(k.src, k.dst, k.put_bytes, *network_);
      k.comm              = kept.comm;
      k.action            = kept.action;
    } else {
      k.comm   = sg4::Comm::sendto_async(k.src, k.dst, static_cast<std::uint64_t>(k.put_bytes));
      k.action = flow_of(*network_, k.comm->get_impl());
      xbt_assert(k.action != nullptr, "the flow of a PS connection is not among the network's started flows");
    }
    k.stale = false;
    by_flow_.emplace(k.comm->get_impl(), c);
  }
  if (!k.listed) {
    k.listed = true;
    busy_.push_back(c);
  }
}

} // namespace sgdsim
