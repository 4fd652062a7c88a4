// src/sim/collectives.cpp: all-reduce algorithms (docs/models.md §3; NCCL/MPI's tree and recursive halving-doubling;
// [LI22] §4.4's hierarchical all-reduce). Messages carry no data (a pointer to ctx.ring_token): only their sizes
// matter to SimGrid. The summation of received data costs ctx.scenario.reduce_s_per_byte on the worker's host.

#include "sim/collectives.hpp"

#include "sim/engine_hooks.hpp"

#include "sim/ring_driver.hpp"
#include "sim/sliced_ring.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/simix.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>
#include <deque>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

std::string pair_mailbox(int src, int dst, int lane)
{
  std::string name = "p2p/" + std::to_string(src) + "/" + std::to_string(dst);
  if (lane > 0)
    name.append("/").append(std::to_string(lane));
  return name;
}

RingSlicing::RingSlicing(double bytes, int members, double max_slice_bytes, int min_per_step) : n(members)
{
  const double chunk = bytes / n;
  per_step           = std::max(min_per_step, static_cast<int>(std::ceil(chunk / max_slice_bytes)));
  slice_bytes        = chunk / per_step;
  total              = 2 * (n - 1) * per_step;
}

double sliced_ring_alone_s(const RingSlicing& cut, int window, double slice_s, double latency_s, double step_cost_s)
{
  const double steps = 2.0 * (cut.n - 1);
  // Where neither the credits nor the step before ever hold a slice back, the closed forms (docs/models.md §10.10):
  // one slice per step with two or more in flight waits for the step before alone (its credit is back by then), a
  // step of several slices hides the latency behind its own while eq. (43)'s conditions hold.
  if (cut.per_step == 1 && window >= 2)
    return cut.total * slice_s + steps * (latency_s + step_cost_s);
  if (cut.per_step > 1 && (cut.per_step - 1) * slice_s >= latency_s && (window - 1) * slice_s >= 2 * latency_s)
    return cut.total * slice_s + latency_s + steps * step_cost_s;
  // Otherwise the recurrence. By symmetry every member's slice i leaves when its left neighbour's does, so the left's
  // slice i - per_step arrives when this member's own would: one recurrence on the dates slice i's bytes have left.
  std::vector<double> left_s(static_cast<std::size_t>(cut.total));
  double last_s = 0;
  for (int i = 0; i < cut.total; i++) {
    double ready_s = last_s;
    if (i >= cut.per_step)
      ready_s = std::max(ready_s, left_s[static_cast<std::size_t>(i - cut.per_step)] + latency_s);
    if (i >= window)
      ready_s = std::max(ready_s, left_s[static_cast<std::size_t>(i - window)] + 2 * latency_s);
    if (i % cut.per_step == 0)
      ready_s += step_cost_s;
    last_s = left_s[static_cast<std::size_t>(i)] = ready_s + slice_s;
  }
  return cut.total > 0 ? last_s + latency_s : 0.0;
}

std::vector<double> socket_parts(double bytes, int sockets)
{
  if (sockets <= 1 || !(bytes > kSocketMinPartBytes))
    return {bytes};
  const double part = std::max(kSocketMinPartBytes, std::ceil(bytes / sockets));
  std::vector<double> parts;
  for (double left = bytes; left > 0; left -= part)
    parts.push_back(std::min(part, left));
  return parts;
}

sg4::CommPtr start_flow(sg4::Host* from, sg4::Host* to, double bytes, double rate_Bps)
{
  sg4::CommPtr comm = sg4::Comm::sendto_async(from, to, static_cast<std::uint64_t>(bytes));
  if (rate_Bps <= 0 || from == to)
    return comm;
  // SimGrid 3.32 hands s4u's rate to mailbox comms only: bound the started flow itself (min with the bound the
  // network model gave it, e.g. CM02's window).
  simgrid::kernel::actor::simcall_answered([&comm, rate_Bps] {
    simgrid::kernel::resource::Model* const network = network_model();
    if (simgrid::kernel::resource::Action* flow = flow_of(*network, comm->get_impl()); flow != nullptr)
      flow->set_bound(flow->get_bound() > 0 ? std::min(flow->get_bound(), rate_Bps) : rate_Bps);
  });
  return comm;
}

sg4::CommPtr start_put(sg4::Mailbox* box, void* payload, double bytes, const sg4::Host* from, const sg4::Host* to,
                       double rate_Bps)
{
  if (rate_Bps <= 0 || from == to)
    return box->put_async(payload, static_cast<std::uint64_t>(bytes));
  sg4::CommPtr comm = box->put_init(payload, static_cast<std::uint64_t>(bytes));
  comm->set_rate(rate_Bps)->start();
  return comm;
}

namespace {
void* token(const SimContext& ctx)
{
  return const_cast<int*>(&ctx.ring_token);
}

void reduce_cost(const SimContext& ctx, double bytes)
{
  if (ctx.scenario.reduce_s_per_byte > 0 && bytes > 0)
    sg4::this_actor::execute(ctx.scenario.reduce_s_per_byte * bytes * sg4::this_actor::get_host()->get_speed());
}

// The parts a message of `bytes` from worker `src` to worker `dst` travels in: NCCL's parts between two hosts with
// sockets per peer (docs/models.md §10.9), the whole message inside a host.
std::vector<double> message_parts(const SimContext& ctx, int src, int dst, double bytes)
{
  const bool between_hosts =
      ctx.worker_host_ptrs[static_cast<std::size_t>(src)] != ctx.worker_host_ptrs[static_cast<std::size_t>(dst)];
  return socket_parts(bytes, between_hosts ? ctx.ring_sockets : 1);
}

// A message between two workers' mailboxes: one comm per part (both ends count the same parts, and SimGrid matches a
// mailbox's comms in order).
struct Message {
  std::vector<sg4::CommPtr> parts;
  void wait() const
  {
    for (const sg4::CommPtr& c : parts)
      c->wait();
  }
};

// The message's parts, put in the pair's mailbox now.
// `byte_scale`: the parts' bytes scaled, their number that of `bytes` (docs/models.md §10.7 "What they add, paid as
// a slower rate": the receiver's count of them does not depend on the sender's rate).
Message post(const SimContext& ctx, int src, int dst, double bytes, int lane = 0, double byte_scale = 1)
{
  sg4::Mailbox* const box = sg4::Mailbox::by_name(pair_mailbox(src, dst, lane));
  Message m;
  const sg4::Host* const from = ctx.worker_host_ptrs[static_cast<std::size_t>(src)];
  const sg4::Host* const to   = ctx.worker_host_ptrs[static_cast<std::size_t>(dst)];
  for (double part : message_parts(ctx, src, dst, bytes))
    m.parts.push_back(start_put(box, token(ctx), part * byte_scale, from, to, ctx.scenario.connection_rate_Bps));
  return m;
}

Message send(const SimContext& ctx, int src, int dst, double bytes, int lane = 0)
{
  if (ctx.scenario.message_overhead_s > 0) // the sender's software cost of each message, before it leaves
    sg4::this_actor::sleep_for(ctx.scenario.message_overhead_s);
  return post(ctx, src, dst, bytes, lane);
}

// A receive into the worker's sink slot (ctx.recv_sink), which outlives every comm of the run; `bytes` (the
// message's size) says how many parts come.
Message recv(const SimContext& ctx, int src, int dst, double bytes, int lane = 0)
{
  sg4::Mailbox* const box = sg4::Mailbox::by_name(pair_mailbox(src, dst, lane));
  Message m;
  for (std::size_t p = message_parts(ctx, src, dst, bytes).size(); p > 0; p--)
    m.parts.push_back(box->get_async<void>(&ctx.recv_sink[static_cast<std::size_t>(dst)]));
  return m;
}

// Send to `to` and receive from `from` at once (full duplex), then wait for both. `parts_bytes`: the size that sets
// the number of parts, the message's own by default (the stream ring cuts its flow as a step's chunk would be).
void exchange(const SimContext& ctx, int self, int to, int from, double bytes, int lane = 0, double parts_bytes = -1)
{
  const double cut      = parts_bytes < 0 ? bytes : parts_bytes;
  const std::size_t out = message_parts(ctx, self, to, cut).size(), in = message_parts(ctx, from, self, cut).size();
  if (ctx.scenario.message_overhead_s > 0) // the sender's software cost of each message, before it leaves
    sg4::this_actor::sleep_for(ctx.scenario.message_overhead_s);
  sg4::Mailbox* const box_out  = sg4::Mailbox::by_name(pair_mailbox(self, to, lane));
  sg4::Mailbox* const box_in   = sg4::Mailbox::by_name(pair_mailbox(from, self, lane));
  const sg4::Host* const here  = ctx.worker_host_ptrs[static_cast<std::size_t>(self)];
  const sg4::Host* const there = ctx.worker_host_ptrs[static_cast<std::size_t>(to)];
  const double rate_Bps        = ctx.scenario.connection_rate_Bps;
  if (out == 1 && in == 1) {
    sg4::CommPtr sent     = start_put(box_out, token(ctx), bytes, here, there, rate_Bps);
    sg4::CommPtr received = box_in->get_async<void>(&ctx.recv_sink[static_cast<std::size_t>(self)]);
    // Waiting for one then the other ends at the same simulated time as waiting for both (both are in flight), and
    // allocates no vector.
    received->wait();
    sent->wait();
    return;
  }
  std::vector<sg4::CommPtr> comms;
  for (std::size_t p = 0; p < out; p++)
    comms.push_back(start_put(box_out, token(ctx), bytes / static_cast<double>(out), here, there, rate_Bps));
  for (std::size_t p = 0; p < in; p++)
    comms.push_back(box_in->get_async<void>(&ctx.recv_sink[static_cast<std::size_t>(self)]));
  sg4::Comm::wait_all(comms);
}
// Steps mode with slices (docs/models.md §10.10), as NCCL runs a ring. Each connection is a stream: its slices
// leave one after the other, each right after the previous one's bytes, and arrive the route's latency later (the
// links carry none in such a run: connections.cpp moves it to ctx.ring_latency_s). The chunk of each of the 2(n - 1)
// steps travels in slices of at most ring_slice_bytes; slice j of step s leaves once slice j of step s - 1 has
// arrived (and been summed), and once the receiver has a free buffer: at most ring_slices_in_flight slices ahead of
// those whose credit came back (a slice's credit returns one latency after it arrived, NCCL's FIFO of NCCL_STEPS
// buffers). So a step's latency overlaps the transfers of the slices before it instead of adding to each step.
void sliced_ring_steps(const SimContext& ctx, int self, int right, int left, int n, double bytes, int lane,
                       double step_cost_s, double byte_scale)
{
  const Scenario& sc = ctx.scenario;
  const RingSlicing cut(bytes, n, sc);
  const int per_step       = cut.per_step;
  const double slice       = cut.slice_bytes;
  const int total          = cut.total; // slices this worker sends, and receives
  const int window         = sc.ring_slices_in_flight;
  const double out_lat_s   = ctx.ring_latency_s[static_cast<std::size_t>(self)];
  const double in_lat_s    = ctx.ring_latency_s[static_cast<std::size_t>(left)];
  const double reduce_s    = sc.reduce_s_per_byte * slice; // on the device, beside the transfers (NCCL's kernels)
  const double precision_s = simgrid::config::get_value<double>("surf/precision");
  std::vector<double> arrival_s(static_cast<std::size_t>(total)); // of each received slice, summed where it is
  std::vector<double> credit_s(static_cast<std::size_t>(total));  // when each sent slice's buffer is free again
  // This worker is the permanent receiver of its left's mailbox (SimGrid starts a slice's bytes when it is put, as
  // TCP does, without waiting for the get), so it takes a slice only when it needs it: no receive is posted ahead
  // (a call of 5 slices per step at 1,024 workers would hold 10 million), the mailbox holds the slices sent and not
  // yet taken, at most a step's and the window's. A slice's arrival is its comm's end plus the latency, read from the
  // comm. No comm is polled and no wait has a timeout: SimGrid fact 16.
  sg4::Mailbox::by_name(pair_mailbox(left, self, lane))->set_receiver(sg4::Actor::self());
  int sent = 0, received = 0;
  const auto take_next = [&] {
    const Message in = recv(ctx, left, self, slice, lane);
    sg4::Comm::wait_all(in.parts);
    double end_s = 0;
    for (const sg4::CommPtr& c : in.parts)
      end_s = std::max(end_s, c->get_finish_time());
    arrival_s[static_cast<std::size_t>(received)] = end_s + in_lat_s + (cut.summed(received) ? reduce_s : 0);
    received++;
  };
  while (sent < total) {
    // Slice `sent` leaves once the same slice of the step before has arrived and its buffer's credit is back.
    const int dep = sent - per_step;
    while (dep >= received)
      take_next();
    double ready_s = dep >= 0 ? arrival_s[static_cast<std::size_t>(dep)] : 0;
    if (sent >= window)
      ready_s = std::max(ready_s, credit_s[static_cast<std::size_t>(sent - window)]);
    // A wait shorter than SimGrid's precision is none (sleep_until would still take a step of the engine, 1 ns).
    if (ready_s - sg4::Engine::get_clock() >= precision_s)
      sg4::this_actor::sleep_until(ready_s);
    if (sent % per_step == 0 && step_cost_s > 0) // the sender's cost of each step's message
      sg4::this_actor::sleep_for(step_cost_s);
    const Message out = post(ctx, self, right, slice, lane, byte_scale);
    sg4::Comm::wait_all(out.parts); // a connection sends one slice after the other
    credit_s[static_cast<std::size_t>(sent)] = sg4::Engine::get_clock() + 2 * out_lat_s; // arrived, credit back
    sent++;
  }
  while (received < total)
    take_next();
  // The call ends when the last slice has arrived (and been summed).
  if (const double last_s = arrival_s.back(); last_s > sg4::Engine::get_clock())
    sg4::this_actor::sleep_until(last_s);
}
} // namespace

void receive_sliced_ring(const SimContext& ctx, int rank, int lane)
{
  const int stride = ctx.scenario.ring_stride();
  const int n      = ctx.scenario.workers / stride;
  if (ctx.ring_latency_s.empty() || ctx.sliced_ring != nullptr || rank % stride != 0 || n < 2)
    return;
  const int left = (rank / stride + n - 1) % n * stride;
  sg4::Mailbox::by_name(pair_mailbox(left, rank, lane))->set_receiver(sg4::Actor::self());
}

void ring_allreduce(const SimContext& ctx, int stride, int n, int me, double bytes, RingMode mode,
                    double extra_latency_s, int lane, double step_extra_s, double byte_scale)
{
  if (n <= 1 || bytes <= 0)
    return;
  const int self  = me * stride;
  const int right = (me + 1) % n * stride;
  if (mode == RingMode::STREAM) {
    // With several sockets, a stream between two hosts is cut as each step's chunk would be (docs/models.md §10.9).
    if (step_extra_s > 0) // no steps: all of them first
      sg4::this_actor::sleep_for(2.0 * (n - 1) * step_extra_s);
    exchange(ctx, self, right, (me + n - 1) % n * stride, 2.0 * (n - 1) / n * bytes * byte_scale, lane, bytes / n);
    reduce_cost(ctx, (n - 1.0) / n * bytes);
    if (extra_latency_s > 0)
      sg4::this_actor::sleep_for(extra_latency_s);
    if (!ctx.stream_end.empty()) // the ring ends together, when its slowest member (edge, flow, start) allows
      ctx.stream_end[static_cast<std::size_t>(lane)]->wait();
    return;
  }
  const int lane_base      = lane * ctx.scenario.workers; // this lane's ring members (SimContext::ring_inbox)
  const double step_cost_s = ctx.scenario.message_overhead_s + step_extra_s; // the sender's, before each step's message
  if (!ctx.ring_latency_s.empty()) {                                         // a sliced ring (docs/models.md §10.10)
    const int left = (me + n - 1) % n * stride;
    if (ctx.sliced_ring != nullptr) // through its dispatcher (sliced_ring.hpp)
      ctx.sliced_ring->allreduce(lane_base + self, lane_base + right, self, left, n, bytes, step_cost_s, byte_scale);
    else
      sliced_ring_steps(ctx, self, right, left, n, bytes, lane, step_cost_s, byte_scale);
    return;
  }
  if (ctx.ring_driver != nullptr) { // steps mode without per-message software costs (ring_driver.hpp)
    xbt_assert(step_extra_s == 0 && byte_scale == 1, "the ring dispatcher has no measured cost (ring_driver_applies)");
    ctx.ring_driver->allreduce(lane_base + self, lane_base + right, n, bytes);
    return;
  }
  // Steps mode: each chunk leaves as soon as its sender has it (its previous chunk sent, the left neighbour's
  // received and summed), as in NCCL and Gloo, whose receivers keep buffers posted ahead. A chunk is a host-to-host
  // comm that the sender hands to the receiver's inbox; both wait for it (the receiver only if it is still running).
  // Without mailboxes (no matching, no receive-side comm, no semaphore per message), a message costs about a quarter
  // less, with the same simulated times on a homogeneous ring (bench/README.md). With several sockets per peer, a
  // chunk between two hosts travels in parts, one comm each (docs/models.md §10.9; NCCL moves data inside a node
  // without sockets); the sender hands all the parts to the inbox at once, so that a woken receiver finds them all.
  const double chunk        = bytes / n;
  sg4::Host* const from     = ctx.worker_host_ptrs[static_cast<std::size_t>(self)];
  sg4::Host* const to       = ctx.worker_host_ptrs[static_cast<std::size_t>(right)];
  std::vector<double> parts = message_parts(ctx, self, right, chunk);
  for (double& part : parts) // as many parts, of the bytes scaled (post())
    part *= byte_scale;
  const std::size_t parts_in = message_parts(ctx, (me + n - 1) % n * stride, self, chunk).size(); // the left's cut
  RingInbox& inbox           = ctx.ring_inbox[static_cast<std::size_t>(lane_base + self)];
  RingInbox& theirs          = ctx.ring_inbox[static_cast<std::size_t>(lane_base + right)];
  std::vector<sg4::CommPtr> outs(parts.size());
  // The receiver waits for a chunk with wait_any, the sender with wait: in SimGrid 3.32 a host-to-host comm (no
  // actor at either end) records every waiter's timeout as its receiver's, so a second wait() on it while it runs
  // leaks the first waiter's sleep action on its host's CPU. Where a fast hop inside a multi-GPU host leaves its
  // sender waiting on the slow hop between hosts, that was one leaked action per message: 3.1 GB and 64 s at 512
  // workers on aws-p3.16xlarge, against 45 MB and 24 s once only one actor waits (bench/README.md session 14).
  std::vector<sg4::CommPtr> received(1);
  for (int s = 0; s < 2 * (n - 1); s++) {
    if (step_cost_s > 0) // the sender's software cost of each message, before it leaves
      sg4::this_actor::sleep_for(step_cost_s);
    for (std::size_t p = 0; p < parts.size(); p++)
      outs[p] = start_flow(from, to, parts[p], ctx.scenario.connection_rate_Bps);
    theirs.pending.insert(theirs.pending.end(), outs.begin(), outs.end());
    if (theirs.receiver_waiting) {
      theirs.receiver_waiting = false;
      theirs.wake->release();
    }
    for (sg4::CommPtr& out : outs) {
      out->wait();
      out = nullptr; // released once waited
    }
    if (inbox.pending.empty()) { // the left neighbour has not sent this step's chunk yet
      inbox.receiver_waiting = true;
      inbox.wake->acquire(); // the sender clears receiver_waiting
    }
    for (std::size_t p = 0; p < parts_in; p++) {
      received[0] = std::move(inbox.pending.front());
      inbox.pending.pop_front();
      if (received[0]->get_state() != sg4::Activity::State::FINISHED) // else nothing to wait for
        sg4::Comm::wait_any(received);                                // not wait(): see `received` above
      received[0] = nullptr;
    }
    if (s < n - 1) // reduce-scatter: sum the received chunk
      reduce_cost(ctx, chunk);
  }
}

void halving_doubling_allreduce(const SimContext& ctx, int rank, double bytes)
{
  const int k = ctx.scenario.workers;
  if (k <= 1 || bytes <= 0)
    return;
  double size = bytes;
  for (int dist = k / 2; dist >= 1; dist /= 2) { // reduce-scatter: keep half, send the other half
    size /= 2;
    exchange(ctx, rank, rank ^ dist, rank ^ dist, size);
    reduce_cost(ctx, size);
  }
  for (int dist = 1; dist < k; dist *= 2) { // all-gather: the halves come back in reverse order
    exchange(ctx, rank, rank ^ dist, rank ^ dist, size);
    size *= 2;
  }
}

void tree_allreduce(const SimContext& ctx, int rank, double bytes)
{
  const int k = ctx.scenario.workers;
  if (k <= 1 || bytes <= 0)
    return;
  const int chunks   = std::max(1, ctx.scenario.pipeline_chunks);
  const double chunk = bytes / chunks;
  const int parent   = rank == 0 ? -1 : (rank - 1) / 2;
  std::vector<int> children;
  for (int c : {2 * rank + 1, 2 * rank + 2})
    if (c < k)
      children.push_back(c);
  // Reduce and broadcast run at once (a helper actor on this host broadcasts), so that chunk i goes down while
  // chunk i+1 comes up. One chunk at a time on each edge, as NCCL's pipelines do.
  sg4::SemaphorePtr reduced = sg4::Semaphore::create(0); // root: chunks reduced so far
  std::vector<Message> from_parent;
  if (parent >= 0)
    for (int i = 0; i < chunks; i++)
      from_parent.push_back(recv(ctx, parent, rank, chunk));
  sg4::ActorPtr broadcaster =
      sg4::Actor::create("tree-bcast-" + std::to_string(rank), sg4::this_actor::get_host(),
                         [&ctx, &children, &from_parent, &reduced, parent, rank, chunks, chunk] {
                           std::vector<Message> down(children.size()); // none in flight yet
                           for (int i = 0; i < chunks; i++) {
                             if (parent >= 0)
                               from_parent[static_cast<std::size_t>(i)].wait();
                             else
                               reduced->acquire();
                             for (std::size_t c = 0; c < children.size(); c++) {
                               down[c].wait();
                               down[c] = send(ctx, rank, children[c], chunk);
                             }
                           }
                           for (const Message& d : down)
                             d.wait();
                         });
  // Reduce: chunk i goes up once every child's chunk i has arrived and been summed.
  std::vector<std::vector<Message>> from_children(static_cast<std::size_t>(chunks));
  for (int i = 0; i < chunks; i++)
    for (int c : children)
      from_children[static_cast<std::size_t>(i)].push_back(recv(ctx, c, rank, chunk));
  Message up; // none in flight yet
  for (int i = 0; i < chunks; i++) {
    for (const Message& m : from_children[static_cast<std::size_t>(i)])
      m.wait();
    reduce_cost(ctx, chunk * static_cast<double>(children.size()));
    if (parent < 0) {
      reduced->release();
      continue;
    }
    up.wait();
    up = send(ctx, rank, parent, chunk);
  }
  up.wait();
  broadcaster->join();
}

void hierarchical_allreduce(const SimContext& ctx, int rank, double bytes, double extra_latency_s)
{
  const int g      = ctx.scenario.gpus_per_node;
  const int leader = rank / g * g;
  const int nodes  = ctx.scenario.workers / g;
  if (bytes <= 0)
    return;
  if (rank != leader) {                    // a GPU: send its gradients to the leader, get the result back
    send(ctx, rank, leader, bytes).wait(); // inside the host: one part
    recv(ctx, leader, rank, bytes).wait();
    return;
  }
  std::vector<Message> locals;
  for (int r = leader + 1; r < leader + g; r++)
    locals.push_back(recv(ctx, r, leader, bytes));
  for (const Message& m : locals)
    m.wait();
  reduce_cost(ctx, bytes * (g - 1));
  ring_allreduce(ctx, g, nodes, leader / g, bytes, ctx.scenario.ring_mode, extra_latency_s);
  std::vector<Message> out;
  for (int r = leader + 1; r < leader + g; r++)
    out.push_back(send(ctx, leader, r, bytes));
  for (const Message& m : out)
    m.wait();
}

} // namespace sgdsim
