// src/sim/parameter_server.cpp: the parameter server of ps-sync and ps-async.
// ps-sync: gradients of a tensor are aggregated until all K workers sent theirs, then the update is applied
// (an execution on the PS host); once every tensor of the shard is updated, the next parameters are sent to all
// workers (the barrier of Sync-SGD emerges from this). ps-async: each gradient is applied on arrival, and a
// worker gets the current parameters as soon as all of its gradients of the step are applied.

#include "sim/parameter_server.hpp"
#include "sim/ack_coupling.hpp"
#include "sim/connections.hpp"
#include "sim/ps_rules.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <simgrid/s4u.hpp>
#include <tuple>
#include <xbt/config.hpp>

XBT_LOG_EXTERNAL_CATEGORY(sgdsim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(sgdsim_ps, sgdsim, "Parameter servers");

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
/** Gradients received, in order, with their arrival dates, for one actor that takes each once it has arrived. */
struct ArrivalQueue {
  std::deque<std::pair<TensorMsg*, double>> grads;
  sg4::SemaphorePtr ready = sg4::Semaphore::create(0);

  void push(TensorMsg* grad, double arrival_s)
  {
    grads.emplace_back(grad, arrival_s);
    ready->release();
  }
  // The next gradient, once the clock has reached its arrival date.
  TensorMsg* take()
  {
    ready->acquire();
    const auto [grad, arrival_s] = grads.front();
    grads.pop_front();
    if (arrival_s > sg4::Engine::get_clock())
      sg4::this_actor::sleep_until(arrival_s);
    return grad;
  }
};

/** State shared by a PS's actors, which all run on the PS host (no simulated cost to share it). */
struct PsShared {
  ArrivalQueue arrivals;                  // gradients received, not yet applied
  std::vector<sg4::SemaphorePtr> send_to; // fair: one per worker, released when its parameters are due
  std::deque<int> fcfs_queue;             // fcfs: workers whose parameters are due, in order
  sg4::SemaphorePtr fcfs_ready = sg4::Semaphore::create(0);
  std::vector<double> due_s; // per worker: when its parameters of the last release are due (--release-quantum)
  // Per-variable reads (docs/models.md §10.13): per worker, the tensors released and not yet sent, with their due
  // dates; its sender takes one per release of send_to.
  std::vector<std::deque<std::pair<int, double>>> tensors_due;
  // Set where applying a gradient never blocks (the updates' dates are computed): the receivers then apply each
  // gradient themselves, which spares the main actor a wake-up per gradient (bench/README.md, session 12).
  std::function<void(TensorMsg*, double arrival_s)> apply_inline;
  // Where the PS's stream connections differ in latency: the gradients received, held until they can be handed over
  // in arrival order (ArrivalOrder), by an actor that `held_more` wakes when a receiver adds one.
  std::optional<ArrivalOrder<TensorMsg*>> held;
  sg4::SemaphorePtr held_more = sg4::Semaphore::create(0);
  int pulls_sending           = 0; // shard reads: the workers whose parameters this PS is sending now
};

// A message of `bytes` passes through the receiving process's one receive thread (--receive-overhead-per-byte,
// docs/models.md §10.5), one message at a time across all of that process's connections; none where `thread` is
// null.
void pass_receive_thread(const sg4::MutexPtr& thread, double s_per_byte, double bytes)
{
  if (!thread)
    return;
  thread->lock();
  sg4::this_actor::sleep_for(s_per_byte * bytes);
  thread->unlock();
}

// Sends tensor `t` to worker `w` on its downlink connection. The message first pays the software cost of sending it
// (--message-overhead and --message-overhead-per-byte times its size, docs/models.md §10.5), which holds the
// connection, then its pass through the worker's receive thread (paid here, before its bytes, which holds the
// connection too: the sum is what counts).
void send_tensor(const SimContext& ctx, int rank, int w, int t)
{
  const sg4::MutexPtr worker_thread =
      ctx.client_receive_thread.empty() ? nullptr : ctx.client_receive_thread[static_cast<std::size_t>(w)];
  const double bytes = ctx.workload.tensors[static_cast<std::size_t>(t)].bytes;
  if (const double cost_s = ctx.message_cost_s(rank, w, bytes); cost_s > 0)
    sg4::this_actor::sleep_for(cost_s);
  pass_receive_thread(worker_thread, ctx.scenario.receive_s_per_byte, bytes);
  sg4::CommPtr comm =
      sg4::Mailbox::by_name(downlink_mailbox(rank, w))->put_async(ctx.message(w, t), static_cast<std::uint64_t>(bytes));
  track_ack_coupling(comm, rank, false);
  comm->wait();
}

// Sends the shard to worker `w`, one tensor at a time in forward order. A stream connection (docs/models.md §10.5)
// sends the shard's messages back to back and each arrives the route's latency after its last byte: the whole shard
// is shifted by that latency once, paid here before the first byte (the links' own latencies are 0 then).
void send_shard(const SimContext& ctx, int rank, int w)
{
  if (const double latency_s = ctx.stream_latency(rank, w); latency_s > 0)
    sg4::this_actor::sleep_for(latency_s);
  for (int t : ctx.ps_tensors[static_cast<std::size_t>(rank)])
    send_tensor(ctx, rank, w, t);
}

// The sender of worker `w`'s parameters waits until they are due, then sends them. A pull that starts while the PS
// sends no other keeps --first-pull-weight against those started after it until it ends (docs/models.md §10.6, "The
// first pull"); the senders of one release start in the workers' order, as the PS posts them. With several PS a
// worker's connections out of all of them share its weight links: they carry the weight while any PS sends the
// worker a first pull (each PS posts worker 0 first, so its first pulls are worker 0's).
void send_when_due(const SimContext& ctx, int rank, int w, PsShared& shared)
{
  const double due_s = shared.due_s[static_cast<std::size_t>(w)];
  if (due_s > sg4::Engine::get_clock())
    sg4::this_actor::sleep_until(due_s);
  const bool first = shared.pulls_sending++ == 0 && ctx.scenario.first_pull_weight() != 1;
  if (first && ctx.first_pulls[static_cast<std::size_t>(w)]++ == 0)
    set_pull_weight(ctx, w);
  send_shard(ctx, rank, w);
  if (first && --ctx.first_pulls[static_cast<std::size_t>(w)] == 0)
    set_pull_weight(ctx, w);
  shared.pulls_sending--;
}

void spawn_connections(const SimContext& ctx, int rank, const std::shared_ptr<PsShared>& shared)
{
  sg4::Host* host          = sg4::this_actor::get_host();
  const int k              = ctx.ps_clients();
  const std::string prefix = "ps" + std::to_string(rank);
  // A gradient counts as arrived once its software cost of reception is paid (--message-overhead and
  // --message-overhead-per-byte, [LI20]'s per-tensor overhead a size + c after reception) and it has passed through
  // the PS's receive thread (--receive-overhead-per-byte); the connection takes the next one only then. On a stream
  // connection (docs/models.md §10.5) a gradient also arrives the route's latency after its last byte, and the next
  // ones' bytes flow meanwhile.
  const bool stream = !ctx.stream_latency_s.empty();
  // Hands a gradient, arrived at `arrival_s` (now or later), to the PS: applied at once where that never blocks
  // (apply_inline), else queued for the main actor, which waits for the arrival.
  auto land = [shared](TensorMsg* grad, double arrival_s) {
    if (shared->apply_inline) {
      shared->apply_inline(grad, arrival_s);
      return;
    }
    shared->arrivals.push(grad, arrival_s);
  };
  const sg4::MutexPtr ps_thread =
      ctx.ps_receive_thread.empty() ? nullptr : ctx.ps_receive_thread[static_cast<std::size_t>(rank)];
  auto deliver = [&ctx, rank, land, ps_thread](TensorMsg* grad) {
    const double bytes  = ctx.workload.tensors[static_cast<std::size_t>(grad->tensor)].bytes;
    const double cost_s = ctx.message_cost_s(rank, grad->worker, bytes);
    if (cost_s > 0)
      sg4::this_actor::sleep_for(cost_s);
    pass_receive_thread(ps_thread, ctx.scenario.receive_s_per_byte, bytes);
    land(grad, sg4::Engine::get_clock());
  };
  // A stream connection's receive is always posted: neither the latency nor the process's software costs hold the
  // wire, as a socket's buffer takes the next bytes while the last are in flight or being handled. Without software
  // costs, with one latency for all of this PS's clients the gradients, handed over as their last bytes come in,
  // arrive in that order; with several they are held and handed over in arrival order (ArrivalOrder). With software
  // costs each receiver's gradients wait for their arrival and pay their costs in order on an actor of their own
  // (the process handles them one at a time).
  bool pipelined     = stream && !ps_thread;
  double min_latency = stream ? ctx.stream_latency(rank, 0) : 0.0, max_latency = min_latency;
  for (int c = 0; c < ctx.ps_clients() && pipelined; c++) {
    pipelined   = ctx.message_cost_s(rank, c, 1) <= 0; // both costs are >= 0: either makes one byte cost
    min_latency = std::min(min_latency, ctx.stream_latency(rank, c));
    max_latency = std::max(max_latency, ctx.stream_latency(rank, c));
  }
  if (pipelined && max_latency > min_latency) {
    shared->held.emplace(min_latency);
    const double precision_s = simgrid::config::get_value<double>("surf/precision");
    sg4::Actor::create(prefix + "-arrivals", host, [shared, land, precision_s] {
      for (;;) {
        const double now_s = sg4::Engine::get_clock();
        while (auto grad = shared->held->pop_due(now_s, precision_s))
          land(grad->second, grad->first);
        const double due_s = shared->held->next_due_s();
        if (due_s == std::numeric_limits<double>::infinity())
          shared->held_more->acquire();
        else
          shared->held_more->acquire_timeout(due_s - now_s);
      }
    })->daemonize();
  }
  auto receiver = [&ctx, rank, deliver, land, stream, pipelined, shared, host](sg4::Mailbox* mb) {
    // Each receive posted is shown to the ACK coupling (a no-op without it), which counts the flow once both ends
    // are there.
    auto post = [rank, mb](TensorMsg** slot) {
      sg4::CommPtr comm = mb->get_async<TensorMsg>(slot);
      track_ack_coupling(comm, rank, true);
      return comm;
    };
    if (!stream)
      for (;;) {
        TensorMsg* grad = nullptr;
        post(&grad)->wait();
        deliver(grad);
      }
    if (pipelined) {
      TensorMsg* slot   = nullptr;
      sg4::CommPtr comm = post(&slot);
      for (;;) {
        comm->wait();
        TensorMsg* grad        = slot;
        const double arrival_s = comm->get_finish_time() + ctx.stream_latency(rank, grad->worker);
        comm                   = post(&slot);
        if (shared->held) {
          shared->held->push(arrival_s, grad);
          shared->held_more->release();
        } else
          land(grad, arrival_s);
      }
    }
    // Software costs on a stream: the gradients received, in order, with their arrival dates, for the actor that
    // handles them. (Until 2026-12-06 this receiver handled each itself with one receive posted ahead, so that a
    // connection carried two messages per route latency: docs/models.md §10.5.)
    auto backlog = std::make_shared<ArrivalQueue>();
    sg4::Actor::create(mb->get_name() + "-handle", host, [backlog, deliver] {
      for (;;)
        deliver(backlog->take());
    })->daemonize();
    TensorMsg* slot   = nullptr;
    sg4::CommPtr comm = post(&slot);
    for (;;) {
      comm->wait();
      TensorMsg* grad        = slot;
      const double arrival_s = comm->get_finish_time() + ctx.stream_latency(rank, grad->worker);
      comm                   = post(&slot);
      backlog->push(grad, arrival_s);
    }
  };
  if (ctx.scenario.sharing == Sharing::FCFS) {
    sg4::Mailbox* mb = sg4::Mailbox::by_name(uplink_mailbox_fcfs(rank));
    sg4::Actor::create(prefix + "-recv", host, [receiver, mb] { receiver(mb); })->daemonize();
    sg4::Actor::create(prefix + "-send", host, [&ctx, rank, shared] {
      for (;;) {
        shared->fcfs_ready->acquire();
        int w = shared->fcfs_queue.front();
        shared->fcfs_queue.pop_front();
        send_when_due(ctx, rank, w, *shared);
      }
    })->daemonize();
    return;
  }
  shared->tensors_due.resize(static_cast<std::size_t>(k));
  for (int w = 0; w < k; w++) {
    shared->send_to.push_back(sg4::Semaphore::create(0));
    sg4::Mailbox* mb = sg4::Mailbox::by_name(uplink_mailbox(rank, w));
    sg4::Actor::create(prefix + "-recv-w" + std::to_string(w), host, [receiver, mb] { receiver(mb); })->daemonize();
    if (ctx.scenario.ps_reads_per_variable) {
      // One tensor per release, in the order they were released. A stream (docs/models.md §10.5) pays the route's
      // latency once per burst: before a tensor that found nothing queued ahead of it.
      sg4::Actor::create(prefix + "-send-w" + std::to_string(w), host, [&ctx, rank, shared, w] {
        auto& due = shared->tensors_due[static_cast<std::size_t>(w)];
        for (;;) {
          const bool burst_start = due.empty();
          shared->send_to[static_cast<std::size_t>(w)]->acquire();
          const auto [t, due_s] = due.front();
          due.pop_front();
          if (due_s > sg4::Engine::get_clock())
            sg4::this_actor::sleep_until(due_s);
          if (const double latency_s = ctx.stream_latency(rank, w); burst_start && latency_s > 0)
            sg4::this_actor::sleep_for(latency_s);
          send_tensor(ctx, rank, w, t);
        }
      })->daemonize();
      continue;
    }
    sg4::Actor::create(prefix + "-send-w" + std::to_string(w), host, [&ctx, rank, shared, w] {
      for (;;) {
        shared->send_to[static_cast<std::size_t>(w)]->acquire();
        send_when_due(ctx, rank, w, *shared);
      }
    })->daemonize();
  }
}
} // namespace

// A date already on the grid up to a millionth of a quantum counts as on it: a timer set to a grid date may wake a
// few ulps off it.
double release_date(double now_s, double quantum_s)
{
  if (quantum_s <= 0)
    return now_s;
  return std::max(now_s, std::ceil(now_s / quantum_s - 1e-6) * quantum_s);
}

std::vector<char> ps_cpu_exclusive(const Placement& placement, const std::set<std::string>& varying_speed_hosts,
                                   bool platform_has_profiles, const std::vector<std::vector<int>>& ps_tensors)
{
  std::vector<char> out(placement.ps_hosts.size(), 0);
  if (platform_has_profiles)
    return out;
  const auto& workers = placement.worker_hosts;
  for (std::size_t p = 0; p < placement.ps_hosts.size(); p++) {
    const std::string& host = placement.ps_hosts[p];
    bool shared =
        varying_speed_hosts.count(host) > 0 || std::find(workers.begin(), workers.end(), host) != workers.end();
    for (std::size_t q = 0; q < placement.ps_hosts.size() && !shared; q++)
      shared = q != p && placement.ps_hosts[q] == host && !ps_tensors[q].empty();
    out[p] = shared ? 0 : 1;
  }
  return out;
}

void run_parameter_server(const SimContext& ctx, StepRecorder& recorder, int rank)
{
  sg4::Actor::self()->daemonize(); // the run ends when the workers are done
  auto shared = std::make_shared<PsShared>();
  shared->due_s.assign(static_cast<std::size_t>(ctx.ps_clients()), 0.0);
  spawn_connections(ctx, rank, shared);

  const auto& shard = ctx.ps_tensors[static_cast<std::size_t>(rank)];
  const int k       = ctx.ps_clients();
  const bool sync   = ctx.scenario.arch == Arch::PS_SYNC;
  const bool fcfs   = ctx.scenario.sharing == Sharing::FCFS;
  // Per-variable reads: tensor `t` joins worker w's queue, due at `ready_s` (rounded up to the release quantum).
  auto queue_tensor = [&](int w, int t, double ready_s) {
    shared->tensors_due[static_cast<std::size_t>(w)].emplace_back(
        t, release_date(ready_s, ctx.scenario.release_quantum_s));
    shared->send_to[static_cast<std::size_t>(w)]->release();
  };
  // Worker w's parameters are due at `ready_s` (rounded up to the release quantum).
  auto release = [&](int w, double ready_s) {
    if (ctx.scenario.ps_reads_per_variable) { // the whole shard, tensor by tensor (the initial parameters)
      for (int t : ctx.ps_tensors[static_cast<std::size_t>(rank)])
        queue_tensor(w, t, ready_s);
      return;
    }
    shared->due_s[static_cast<std::size_t>(w)] = release_date(ready_s, ctx.scenario.release_quantum_s);
    if (fcfs) {
      shared->fcfs_queue.push_back(w);
      shared->fcfs_ready->release();
    } else {
      shared->send_to[static_cast<std::size_t>(w)]->release();
    }
  };
  const double speed_flops    = sg4::this_actor::get_host()->get_speed();
  const double flops_per_byte = ps_update_flops_per_byte(ctx.workload);
  // Updates run one at a time in arrival order. On a CPU that runs nothing else at a constant speed their dates are
  // computed (ComputedUpdateQueue), which spares the simulation one event per gradient, an event that costs a pass
  // over every flow in the network (bench/README.md, session 6). Elsewhere the update is an execution on the host.
  const bool computed_queue = ctx.ps_cpu_exclusive[static_cast<std::size_t>(rank)] != 0;
  ComputedUpdateQueue queue(speed_flops);
  // Applies the update of tensor `t`, arrived at `now_s`, and returns when it ends (now_s, or a later date for a
  // computed queue). An execution starts now: only a computed queue gets gradients dated ahead (apply_inline).
  auto apply_update = [&](int t, double now_s) {
    if (flops_per_byte <= 0)
      return now_s;
    const double flops = flops_per_byte * ctx.workload.tensors[static_cast<std::size_t>(t)].bytes;
    double start_s     = now_s;
    double end_s       = now_s;
    if (computed_queue) {
      std::tie(start_s, end_s) = queue.push(flops, now_s);
    } else {
      sg4::this_actor::execute(flops);
      end_s = sg4::Engine::get_clock();
    }
    if (recorder.timeline_enabled())
      recorder.ps_op(rank, "update", ctx.workload.tensors[static_cast<std::size_t>(t)].name, start_s, end_s);
    return end_s;
  };

  if (shard.empty())
    return; // more PS than tensors: this one holds nothing
  for (int w = 0; w < k; w++)
    release(w, sg4::Engine::get_clock()); // the initial parameters

  PsGradientRules rules(sync, k, shard.size(), ctx.workload.tensors.size(), ctx.total_steps(),
                        ctx.scenario.ps_reads_per_variable);
  auto release_updated = [&](int w, double updated_s) {
    if (sync && w == 0)
      XBT_DEBUG("ps %d: step %d applied at %.9f", rank, rules.rounds() - 1, updated_s);
    release(w, updated_s);
  };
  auto release_tensor = [&](int t, double updated_s) {
    for (int w = 0; w < k; w++)
      queue_tensor(w, t, updated_s);
  };
  auto apply = [&](const TensorMsg* grad, double arrival_s) {
    rules.land(grad->worker, grad->tensor, arrival_s, apply_update, release_updated, release_tensor);
  };
  if (computed_queue || flops_per_byte <= 0) {
    // Nothing here blocks: the receivers apply each gradient as it arrives, in the order they deliver them, which is
    // the order this actor would take them from the queue. This actor's state must outlive them: it waits forever.
    shared->apply_inline = apply;
    shared->arrivals.ready->acquire(); // never released
    return;
  }
  for (;;) {
    const TensorMsg* grad = shared->arrivals.take();
    apply(grad, sg4::Engine::get_clock());
  }
}

} // namespace sgdsim

namespace sgdsim {

namespace {
// One step's uplink of a node's relay: each gradient from every GPU, then the sum to the PS (one tensor at a time on
// the PS connection), in the order the GPUs send them.
void relay_uplinks_once(const SimContext& ctx, int node, int ps, const std::vector<int>& up_order)
{
  const Workload& wl = ctx.workload;
  const int g        = ctx.scenario.gpus_per_node;
  sg4::Mailbox* to_ps =
      sg4::Mailbox::by_name(ctx.scenario.sharing == Sharing::FCFS ? uplink_mailbox_fcfs(ps) : uplink_mailbox(ps, node));
  sg4::CommPtr up;
  for (int t : up_order) {
    std::vector<sg4::CommPtr> from_gpus;
    for (int i = 0; i < g; i++)
      from_gpus.push_back(sg4::Mailbox::by_name(relay_up_mailbox(ps, node * g + i))
                              ->get_async<void>(&ctx.recv_sink[static_cast<std::size_t>(node * g + i)]));
    sg4::Comm::wait_all(from_gpus);
    if (up)
      up->wait();
    up = to_ps->put_async(ctx.message(node, t),
                          static_cast<std::uint64_t>(wl.tensors[static_cast<std::size_t>(t)].bytes));
  }
  if (up)
    up->wait();
}

void run_relay_uplinks(const SimContext& ctx, int node, int ps, const std::vector<int>& up_order)
{
  for (;;)
    relay_uplinks_once(ctx, node, ps, up_order);
}
} // namespace

void run_node_relay(const SimContext& ctx, int node, int ps)
{
  sg4::Actor::self()->daemonize();
  const Workload& wl = ctx.workload;
  const int g        = ctx.scenario.gpus_per_node;
  const auto& shard  = ctx.ps_tensors[static_cast<std::size_t>(ps)];
  if (shard.empty())
    return;
  // The order in which the GPUs send gradients to this PS: layers backward, each layer's tensors reversed.
  std::vector<int> up_order;
  for (auto l = wl.layers.rbegin(); l != wl.layers.rend(); ++l)
    for (auto t = l->tensors.rbegin(); t != l->tensors.rend(); ++t)
      if (ctx.tensor_ps[static_cast<std::size_t>(*t)] == ps)
        up_order.push_back(*t);
  sg4::Mailbox* from_ps = sg4::Mailbox::by_name(downlink_mailbox(ps, node));
  auto bytes = [&wl](int t) { return static_cast<std::uint64_t>(wl.tensors[static_cast<std::size_t>(t)].bytes); };
  // Passes tensor `t` on to every GPU of the node, one tensor at a time per GPU.
  std::vector<sg4::CommPtr> to_gpus(static_cast<std::size_t>(g));
  auto pass_on = [&](int t) {
    for (int i = 0; i < g; i++) {
      const int gpu = node * g + i;
      if (to_gpus[static_cast<std::size_t>(i)])
        to_gpus[static_cast<std::size_t>(i)]->wait();
      to_gpus[static_cast<std::size_t>(i)] =
          sg4::Mailbox::by_name(relay_down_mailbox(ps, gpu))->put_async(ctx.message(gpu, t), bytes(t));
    }
  };
  if (ctx.scenario.ps_reads_per_variable) {
    // Per-variable reads (docs/models.md §10.13): the PS's tensors come during the node's uplinks, each passed on as
    // it arrives, while another actor sums and sends the gradients.
    sg4::Actor::create(sg4::this_actor::get_name() + "-up", sg4::this_actor::get_host(), [&ctx, node, ps, up_order] {
      run_relay_uplinks(ctx, node, ps, up_order);
    })->daemonize();
    for (;;)
      pass_on(from_ps->get<TensorMsg>()->tensor);
  }
  for (;;) {
    // Downlink: each tensor from the PS, then to every GPU of the node; then the uplink.
    for (int t : shard) {
      from_ps->get<TensorMsg>();
      pass_on(t);
    }
    sg4::Comm::wait_all(to_gpus);
    std::fill(to_gpus.begin(), to_gpus.end(), nullptr);
    relay_uplinks_once(ctx, node, ps, up_order);
  }
}

} // namespace sgdsim
