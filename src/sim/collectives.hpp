// All-reduce algorithms run by the workers' collective actors (README "Collectives"), by real messages between
// the workers' hosts, so that SimGrid computes every contention. Each call blocks the calling actor until this
// worker's part of the all-reduce is done; every worker of the group must make the same calls in the same order.
#pragma once

#include "sim/sim_context.hpp"

#include <vector>

namespace sgdsim {

/** Ring among the n ranks 0, stride, 2*stride, ..., (n-1)*stride, in that order (this worker is me*stride; stride
 *  1 is every worker, stride g the leaders of nodes of g GPUs): reduce-scatter then all-gather, 2(n-1) exchanges of
 *  bytes/n with the next member (steps mode), or one flow of 2(n-1)/n of the bytes per edge plus `extra_latency_s`
 *  (stream mode). Members are computed, not listed: a list per worker was K^2 memory (1 GB at 16,384 workers).
 *  `lane`: which of the worker's all-reduces in flight at once this is (ctx.lanes(); each lane is a ring of its
 *  own, whose messages never match another lane's). `step_extra_s`: a software cost paid before each step's message
 *  beside the per-message cost (the measured all-reduce's excess, docs/models.md §10.7); stream mode, which has no
 *  steps, pays 2(n-1) of them before its flow. `byte_scale`: the bytes each message carries on the network, scaled
 *  (a measured bandwidth shortfall, docs/models.md §10.7 "What they add, paid as a slower rate"; not the summation's).
 */
void ring_allreduce(const SimContext& ctx, int stride, int n, int me, double bytes, RingMode mode,
                    double extra_latency_s, int lane = 0, double step_extra_s = 0, double byte_scale = 1);

/** A sliced ring moved by the workers' actors (ctx.sliced_ring null): makes the calling actor, worker `rank`'s
 *  collective actor for `lane`, the permanent receiver of its previous ring member's mailbox before its first call,
 *  so that slices flow as soon as they are sent, as into the buffers NCCL and Gloo register when they connect
 *  (otherwise the first slices sent to a member that has not entered its first call would wait for it). */
void receive_sliced_ring(const SimContext& ctx, int rank, int lane);

/** Recursive halving (reduce-scatter) then recursive doubling (all-gather), Rabenseifner's algorithm: 2 log2(K)
 *  exchanges with partners at distance K/2, K/4, ..., of bytes/2, bytes/4, ... K must be a power of two. */
void halving_doubling_allreduce(const SimContext& ctx, int rank, double bytes);

/** Binary tree in heap order (children 2r+1, 2r+2): reduce towards rank 0, then broadcast, with the buffer cut
 *  into ctx.scenario.pipeline_chunks chunks forwarded as soon as they are complete. */
void tree_allreduce(const SimContext& ctx, int rank, double bytes);

/** Multi-GPU nodes ([LI22] §4.4): reduce to the node's leader (its first rank), ring among the leaders, broadcast
 *  from the leader; ctx.scenario.gpus_per_node consecutive ranks form a node. */
void hierarchical_allreduce(const SimContext& ctx, int rank, double bytes, double extra_latency_s);

/** Starts a flow of `bytes` from `from` to `to`: between two hosts at most at `rate_Bps` when it is > 0 (one
 *  connection of the collective library, Scenario::connection_rate_Bps); inside a host, or without a rate, as the
 *  network alone decides. */
simgrid::s4u::CommPtr start_flow(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, double rate_Bps);

/** Puts `payload` of `bytes` in `box`, from a sender on `from` to a receiver on `to`, at most at `rate_Bps` between
 *  two hosts (as start_flow). */
simgrid::s4u::CommPtr start_put(simgrid::s4u::Mailbox* box, void* payload, double bytes, const simgrid::s4u::Host* from,
                                const simgrid::s4u::Host* to, double rate_Bps);

/** NCCL's socket transport's smallest part of a message (net_socket.cc, MIN_CHUNKSIZE: 64 KiB). */
constexpr double kSocketMinPartBytes = 64.0 * 1024;

/** The parts a message of `bytes` travels in over `sockets` connections to one peer, as NCCL's socket transport cuts
 *  it (docs/models.md §10.9): parts of max(64 KiB, ceil(bytes / sockets)) bytes, the last one the remainder, one
 *  per connection; a single part with one socket or a message of 64 KiB or less. */
std::vector<double> socket_parts(double bytes, int sockets);

/** How a sliced ring (docs/models.md §10.10) cuts one all-reduce of `bytes` among n members: each step's chunk of
 *  bytes / n in per_step slices of at most `max_slice_bytes`, 2(n - 1) x per_step slices sent (and received) per
 *  member, the first (n - 1) x per_step of them summed where they arrive (the reduce-scatter). */
struct RingSlicing {
  int per_step       = 1;
  double slice_bytes = 0;
  int total          = 0;
  int n              = 0;
  RingSlicing(double bytes, int members, double max_slice_bytes, int min_per_step);
  /** The scenario's cut: slices of at most ring_slice_bytes, at least ring_min_slices_per_step per step. */
  RingSlicing(double bytes, int members, const Scenario& sc)
      : RingSlicing(bytes, members, sc.ring_slice_bytes, sc.ring_min_slices_per_step)
  {
  }
  RingSlicing() = default;
  /** Whether received slice i is summed where it arrives. */
  bool summed(int i) const { return i / per_step < n - 1; }
};

/** How long one all-reduce cut as `cut` lasts on a ring of identical members with nothing else on the network, as
 *  the sliced steps run it (docs/models.md §10.10): slice i leaves once slice i - 1's bytes have left, slice
 *  i - per_step has arrived and slice i - window's credit is back (one latency after its arrival), each step's first
 *  slice step_cost_s after that; a slice's bytes take slice_s and arrive latency_s later; the call ends when its last
 *  slice has arrived. Summation is left out (the network's time alone). O(2(n - 1) per_step) where credits or the
 *  step before bind, O(1) where they do not (closed forms). */
double sliced_ring_alone_s(const RingSlicing& cut, int window, double slice_s, double latency_s, double step_cost_s);

/** Mailbox of messages from `src` to `dst` (one FIFO per ordered pair and lane). */
std::string pair_mailbox(int src, int dst, int lane = 0);

} // namespace sgdsim
