// src/sim/ring_worker.cpp: ring all-reduce workers. Model: docs/models.md §3 ([LI22] §3.1.2) and §7 ([OSF22]).
// Compute actor: forward of every layer, backward in reverse; after the backward of layer i (with overlap) its
// gradients are handed to the collective actor; then it waits for the step's all-reduces, applies the update
// locally, and starts the next step. Collective actor: all-reduces one buffer at a time (as Horovod's background
// thread and NCCL's single stream do), with tensor fusion of computed gradients: gradients join a buffer of Q bytes,
// which is sent when the next layer does not fit, when no gradient arrives within the fusion timeout, or after layer 1
// (fusion of launched tensors runs planned buffers, as units: docs/models.md §10.1).
// All-reduce, steps mode: reduce-scatter then all-gather, 2(K-1) exchanges of size/K with the right neighbour,
// each waiting for the left neighbour's chunk, so that a slow link slows the whole ring. Stream mode: one flow of
// 2(K-1)/K of the buffer per ring edge plus the 2(K-1)-1 further per-step latencies (fast for large K).

#include "sim/ring_worker.hpp"

#include "common/network_params.hpp"
#include "sim/collectives.hpp"
#include "sim/ring_call_cost.hpp"
#include "workload/step_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

XBT_LOG_EXTERNAL_CATEGORY(sgdsim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(sgdsim_ring, sgdsim, "Ring all-reduce workers");

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
/** Compute actor -> collective actors of the same worker (shared memory on one host, no simulated cost). */
struct RingShared {
  // Tensor fusion (one collective actor): the layers whose gradients are ready, in backward order.
  std::deque<int> ready_layers;
  sg4::SemaphorePtr layer_ready = sg4::Semaphore::create(0);
  // Planned units (one collective actor per lane): the step whose gradients are being produced, and the lowest
  // layer whose backward is done in it (layers count down); a lane waiting for a unit is woken once it is ready.
  int step         = -1;
  int lowest_ready = std::numeric_limits<int>::max();
  struct LaneWait {
    int step               = -1; // >= 0: the lane waits for layer `layer` of this step
    int layer              = 0;
    sg4::SemaphorePtr wake = sg4::Semaphore::create(0);
  };
  std::vector<LaneWait> lane_waits;
  sg4::SemaphorePtr step_done = sg4::Semaphore::create(0); // released once a step's all-reduces are all done
  long units_done             = 0;                         // planned units: this step's all-reduces that have finished
  // Planned units: which of this step's have finished (they may end out of order: a small call beside a large one
  // can end first), and the first that has not.
  std::vector<char> unit_finished;
  std::size_t first_unfinished = 0;
  long next_unit               = 0; // planned units: the next one a free lane takes (rank 0, or any rank with one lane)
  IntervalAccount* account     = nullptr;
  StepRecorder* recorder       = nullptr;

  /** The compute actor: the gradients of `layer` (and of every layer above it) exist. */
  void gradients_ready(int layer, bool fusion)
  {
    if (fusion) {
      ready_layers.push_back(layer);
      layer_ready->release();
      return;
    }
    lowest_ready = layer;
    for (LaneWait& w : lane_waits)
      if (w.step == step && w.layer >= layer) {
        w.step = -1;
        w.wake->release();
      }
  }
  /** Planned units (in launch order, each ready no later than the next): how many of this step's all-reduces the
   *  framework runs now, at most `lanes`: those whose gradients exist (a prefix of the units) and that have not
   *  finished (in any order), and the sizes of those counted besides unit `self` (at most count - 1; for
   *  --in-flight-cost each, docs/models.md §10.8 "Calls of different sizes"). Two calls that start at the same time
   *  see the same count, whichever lane runs first (docs/models.md §10.8). */
  struct UnderWay {
    int count = 1;
    std::vector<double> others;
  };
  UnderWay calls_under_way(const std::vector<GradUnit>& units, int lanes, std::size_t self) const
  {
    UnderWay out;
    int n = 0;
    for (std::size_t u = first_unfinished; u < units.size() && n < lanes; u++) {
      if (u < unit_finished.size() && unit_finished[u] != 0)
        continue;
      if (units[u].ready_layer < lowest_ready)
        break;
      n++;
      if (u != self)
        out.others.push_back(units[u].bytes);
    }
    out.count = std::max(n, 1);
    if (out.others.size() > static_cast<std::size_t>(out.count - 1))
      out.others.resize(static_cast<std::size_t>(out.count - 1));
    return out;
  }
  /** Planned units: unit `u` of this step (of `units` in all) has finished; true once all of them have. */
  bool unit_done(std::size_t u, std::size_t units)
  {
    unit_finished.resize(units, 0);
    unit_finished[u] = 1;
    while (first_unfinished < units && unit_finished[first_unfinished] != 0)
      first_unfinished++;
    if (++units_done < static_cast<long>(units))
      return false;
    units_done       = 0;
    first_unfinished = 0;
    std::fill(unit_finished.begin(), unit_finished.end(), 0);
    return true;
  }
  /** A lane: blocks until the backward of `layer` in step `of_step` is done. */
  void wait_ready(int lane, int of_step, int layer)
  {
    if (step == of_step && lowest_ready <= layer)
      return;
    LaneWait& w = lane_waits[static_cast<std::size_t>(lane)];
    w.step      = of_step;
    w.layer     = layer;
    w.wake->acquire();
  }
};

/** The route from this actor's host to rank's right neighbour as SimGrid's network model sees it: what adaFusion's
 *  cost estimates and the measured software cost's network part use (RingCallCost). */
RingRoute route_to_right(const SimContext& ctx, int rank)
{
  const int k = ctx.scenario.workers;
  RingRoute route;
  double ack_factor = 1; // 1.05 where the ring's reverse ACKs share this worker's links (kSimgridAckWeight)
  if (k > 1) {
    std::vector<sg4::Link*> links;
    sg4::this_actor::get_host()->route_to(ctx.worker_host_ptrs[static_cast<std::size_t>((rank + 1) % k)], links,
                                          &route.latency_s);
    route.Bps = std::numeric_limits<double>::infinity();
    for (const sg4::Link* l : links)
      route.Bps = std::min(route.Bps, l->get_bandwidth());
    // With SimGrid's ACK traffic, the left neighbour's flow sends its ACKs on the route back to it; where that
    // route shares a link with the one to the right (a star's uplink), this worker's data get 1 / 1.05 of it.
    if (simgrid::config::get_value<bool>("network/crosstraffic")) {
      std::vector<sg4::Link*> back;
      sg4::this_actor::get_host()->route_to(ctx.worker_host_ptrs[static_cast<std::size_t>((rank + k - 1) % k)], back,
                                            nullptr);
      if (std::find_first_of(links.begin(), links.end(), back.begin(), back.end()) != links.end())
        ack_factor = 1.0 + kSimgridAckWeight;
    }
    const double rate_Bps = ctx.scenario.connection_rate_Bps; // docs/models.md §10.11
    if (rate_Bps > 0 && ctx.worker_host_ptrs[static_cast<std::size_t>((rank + 1) % k)] != sg4::this_actor::get_host() &&
        rate_Bps * ctx.ring_sockets < route.Bps) {
      route.Bps  = rate_Bps * ctx.ring_sockets;
      ack_factor = 1; // a connection held below the link's share: the ACKs beside it take nothing from it
    }
  }
  route.latency_factor = simgrid::config::get_value<double>("network/latency-factor");
  // The bandwidth factor's setting is not readable as a number, so models other than LV08 count as 1.
  route.bandwidth_factor =
      (simgrid::config::get_value<std::string>("network/model") == "LV08" ? kLv08BandwidthFactor : 1.0) / ack_factor;
  return route;
}

class RingCollective {
public:
  RingCollective(const SimContext& ctx, int rank, int lane, std::shared_ptr<RingShared> shared)
      : ctx_(ctx), rank_(rank), lane_(lane), k_(ctx.scenario.workers), shared_(std::move(shared)),
        cost_(ctx, rank, route_to_right(ctx, rank))
  {
    speed_ratio_ = sg4::this_actor::get_host()->get_speed() / ctx_.workload.reference_speed;
    receive_sliced_ring(ctx_, rank_, lane_);
    // The ring of the stream mode: all workers, or the node leaders for the hierarchical all-reduce.
    const int g = ctx_.scenario.ring_stride();
    const int n = k_ / g;
    if (ctx_.scenario.ring_mode == RingMode::STREAM && n > 1) {
      // Stream mode pays the latencies of the 2(n-1)-1 steps it does not simulate: the route to the next member
      // times SimGrid's latency factor (the one simulated flow pays its own).
      std::vector<sg4::Link*> links;
      double latency = 0;
      const int next = (rank_ / g * g + g) % k_;
      sg4::this_actor::get_host()->route_to(ctx_.worker_host_ptrs[static_cast<std::size_t>(next)], links, &latency);
      extra_latency_s_ =
          (2.0 * (n - 1) - 1) * (latency * cost_.route().latency_factor + ctx_.scenario.message_overhead_s);
    }
  }

  void operator()()
  {
    if (ctx_.scenario.fusion_at_run_time())
      for (;;)
        run_fusion_step();
    else if (!ctx_.grad_units.empty())
      run_planned_units();
  }

private:
  // Planned units (tensor, layer, bucket, fusion of launched tensors), in launch order across steps: whenever this lane
  // is free it takes the next unit, waits until its gradients exist and all-reduces it, so that up to L all-reduces run
  // at once, started in order, each on the lane that was free first (Gloo's thread pool: docs/models.md §10.8). Rank
  // 0's lanes take the units, the other ranks' lanes run those rank 0 posted to them (LanePlan, sim_context.hpp). The
  // last unit of a step to finish ends the step.
  void run_planned_units()
  {
    const auto& units = ctx_.grad_units;
    const auto n      = static_cast<long>(units.size());
    for (;;) {
      const long next = take_unit();
      const int step  = static_cast<int>(next / n);
      const auto& u   = units[static_cast<std::size_t>(next % n)];
      shared_->wait_ready(lane_, step, u.ready_layer);
      const RingShared::UnderWay under_way =
          shared_->calls_under_way(units, ctx_.lanes(), static_cast<std::size_t>(next % n));
      allreduce(u.bytes, under_way.count, under_way.others);
      if (shared_->unit_done(static_cast<std::size_t>(next % n), static_cast<std::size_t>(n)))
        shared_->step_done->release();
    }
  }

  // The next unit this lane runs (numbered across steps: step * units + unit). With one lane every rank runs the
  // units in order and nothing is posted.
  long take_unit()
  {
    if (ctx_.lanes() == 1)
      return shared_->next_unit++;
    LanePlan& plan  = ctx_.lane_plan;
    const auto lane = static_cast<std::size_t>(lane_);
    if (rank_ == 0) {
      const long next = shared_->next_unit++;
      for (std::size_t r = 1; r < plan.pending.size(); r++) {
        plan.pending[r][lane].push_back(next);
        plan.posted[r][lane]->release();
      }
      return next;
    }
    const auto r = static_cast<std::size_t>(rank_);
    plan.posted[r][lane]->acquire();
    const long next = plan.pending[r][lane].front();
    plan.pending[r][lane].pop_front();
    return next;
  }

  // Gradients of layer i join the buffer; the buffer is all-reduced when the next layer does not fit, when the
  // timeout passes without a new layer, or after layer 1 (the last of the backward): docs/models.md eq. (31)-(33). With
  // fusion, rank 0 decides and the other ranks follow its plan (FusionPlan, sim_context.hpp).
  void run_fusion_step()
  {
    const Workload& wl = ctx_.workload;
    const double q     = ctx_.scenario.fusion_buffer_bytes;
    if (rank_ > 0) {
      follow_plan();
      return;
    }
    double buffer      = 0;
    int seen           = 0;
    int last_layer     = static_cast<int>(wl.layers.size()); // the last layer taken (none yet)
    const int n_layers = static_cast<int>(wl.layers.size());
    auto flush         = [&](int through_layer) { // all-reduce the buffer (layers down to through_layer)
      post(buffer, through_layer);
      allreduce(buffer);
      buffer = 0;
    };
    while (seen < n_layers) {
      bool timed_out = false;
      if (buffer > 0)
        timed_out = shared_->layer_ready->acquire_timeout(ctx_.scenario.fusion_timeout_s);
      else
        shared_->layer_ready->acquire();
      if (timed_out) { // no new gradients within the timeout: send what the buffer holds
        flush(last_layer);
        continue;
      }
      const int layer = shared_->ready_layers.front();
      shared_->ready_layers.pop_front();
      seen++;
      const double bytes = ctx_.layer_bytes[static_cast<std::size_t>(layer)];
      if (buffer > 0 && buffer + bytes > q)
        flush(last_layer);
      buffer += bytes;
      last_layer = layer;
      if (ctx_.scenario.ada_fusion && buffer > 0 && layer > 0 && !holding_pays(buffer, layer))
        flush(layer);
      if (layer == 0)
        flush(0);
    }
    shared_->step_done->release();
  }

  // Rank 0: every other rank will all-reduce this buffer next.
  void post(double bytes, int through_layer)
  {
    FusionPlan& plan = ctx_.fusion_plan;
    for (int r = 1; r < k_; r++) {
      plan.pending[static_cast<std::size_t>(r)].push_back(FusionPlan::Entry{bytes, through_layer});
      plan.posted[static_cast<std::size_t>(r)]->release();
    }
  }

  // Ranks > 0: all-reduce rank 0's buffers, each once this worker's own gradients for it are ready.
  void follow_plan()
  {
    FusionPlan& plan                       = ctx_.fusion_plan;
    std::deque<FusionPlan::Entry>& pending = plan.pending[static_cast<std::size_t>(rank_)];
    int lowest_taken                       = static_cast<int>(ctx_.workload.layers.size());
    while (lowest_taken > 0) {
      plan.posted[static_cast<std::size_t>(rank_)]->acquire();
      const FusionPlan::Entry entry = pending.front();
      pending.pop_front();
      while (lowest_taken > entry.last_layer) {
        shared_->layer_ready->acquire();
        lowest_taken = shared_->ready_layers.front();
        shared_->ready_layers.pop_front();
      }
      allreduce(entry.bytes);
    }
    shared_->step_done->release();
  }

  // adaFusion (docs/models.md eq. (36)), looking ahead: after layer i joined the buffer B, hold B for the next layer
  // with gradients (D) only if t(B + D) + t_wait < t(B) + t(D), where t_wait is the backward time until that layer on
  // this host (at most the fusion timeout, after which the buffer goes anyway).
  bool holding_pays(double buffer, int layer) const
  {
    double wait = 0;
    for (int next = layer - 1; next >= 0; next--) {
      wait += ctx_.workload.layers[static_cast<std::size_t>(next)].bwd_s / speed_ratio_;
      const double d = ctx_.layer_bytes[static_cast<std::size_t>(next)];
      if (d <= 0)
        continue;
      if (buffer + d > ctx_.scenario.fusion_buffer_bytes)
        return false; // it would not fit: send now
      wait = std::min(wait, ctx_.scenario.fusion_timeout_s);
      return cost_.estimated_allreduce_s(buffer + d) + wait <
             cost_.estimated_allreduce_s(buffer) + cost_.estimated_allreduce_s(d);
    }
    return true; // no gradients left: the buffer goes after layer 1 anyway
  }

  // One all-reduce of `bytes`, started with `in_flight` calls of this worker under way (itself included), `others`
  // the sizes of those besides itself (RingShared::calls_under_way; fewer: taken as this one's).
  void allreduce(double bytes, int in_flight = 1, const std::vector<double>& others = {})
  {
    if (bytes <= 0 || k_ <= 1)
      return;
    const double start = sg4::Engine::get_clock();
    if (ctx_.scenario.allreduce_overhead_s > 0)
      sg4::this_actor::sleep_for(ctx_.scenario.allreduce_overhead_s);
    const RingCallCost::CallCost cost = cost_.call_cost(bytes, in_flight, others);
    switch (ctx_.scenario.collective) {
    case Collective::RING:
      ring_allreduce(ctx_, 1, k_, rank_, bytes, ctx_.scenario.ring_mode, extra_latency_s_, lane_, cost.step_extra_s,
                     cost.byte_scale);
      break;
    case Collective::TREE:
      tree_allreduce(ctx_, rank_, bytes);
      break;
    case Collective::HALVING_DOUBLING:
      halving_doubling_allreduce(ctx_, rank_, bytes);
      break;
    case Collective::HIERARCHICAL:
      hierarchical_allreduce(ctx_, rank_, bytes, extra_latency_s_);
      break;
    }
    shared_->account->add_comm(start, sg4::Engine::get_clock());
    if (shared_->recorder->timeline_enabled())
      shared_->recorder->worker_op(rank_, "allreduce", std::to_string(static_cast<long long>(bytes)) + " B", start,
                                   sg4::Engine::get_clock());
    XBT_DEBUG("worker %d: all-reduce of %.0f bytes in %.9f s", rank_, bytes, sg4::Engine::get_clock() - start);
  }

  const SimContext& ctx_;
  int rank_;
  int lane_; // which of the worker's all-reduces in flight this actor runs (planned units; 0 with fusion)
  int k_;
  std::shared_ptr<RingShared> shared_;
  RingCallCost cost_; // of the route to the right neighbour
  double extra_latency_s_ = 0;
  double speed_ratio_     = 1;
};
} // namespace

void run_ring_worker(const SimContext& ctx, StepRecorder& recorder, int rank)
{
  const Workload& wl = ctx.workload;
  const int n_layers = static_cast<int>(wl.layers.size());
  auto shared        = std::make_shared<RingShared>();
  IntervalAccount account;
  shared->account  = &account;
  shared->recorder = &recorder;
  // Fusion of computed gradients: the buffer takes layers as they come (fusion of launched tensors is planned units).
  const bool fusion = ctx.scenario.fusion_at_run_time();
  const int lanes   = ctx.lanes();
  shared->lane_waits.resize(static_cast<std::size_t>(lanes));
  for (int lane = 0; lane < lanes; lane++)
    sg4::Actor::create("worker" + std::to_string(rank) + "-allreduce" + (lane > 0 ? std::to_string(lane) : ""),
                       sg4::this_actor::get_host(),
                       [&ctx, rank, lane, shared] { RingCollective(ctx, rank, lane, shared)(); })
        ->daemonize();

  Rng rng(ctx.scenario.seed, static_cast<std::uint64_t>(rank));
  std::vector<double> fwd_s, bwd_s;
  double step_begin = 0;
  auto compute      = [&](double ref_s, const char* what, int layer) {
    if (ref_s <= 0)
      return;
    const double start = sg4::Engine::get_clock();
    // Times are on the reference device; a host of another speed scales them (README "Compute").
    sg4::this_actor::execute(ref_s * wl.reference_speed);
    account.add_compute(start, sg4::Engine::get_clock());
    if (recorder.timeline_enabled())
      recorder.worker_op(rank, "compute",
                         layer < 0 ? std::string(what) : what + wl.layers[static_cast<std::size_t>(layer)].name, start,
                              sg4::Engine::get_clock());
  };
  auto gradients_ready = [&](int layer) { shared->gradients_ready(layer, fusion); };
  for (int step = 0; step < ctx.total_steps(); step++) {
    // The collective actors are done with the previous step (step_done below): this step's readiness starts afresh.
    shared->step         = step;
    shared->lowest_ready = std::numeric_limits<int>::max();
    draw_step_times(wl, rng, ctx.scenario.compute_jitter_cv, fwd_s, bwd_s);
    for (int l = 0; l < n_layers; l++)
      compute(fwd_s[static_cast<std::size_t>(l)], "fwd ", l);
    for (int l = n_layers - 1; l >= 0; l--) {
      compute(bwd_s[static_cast<std::size_t>(l)], "bwd ", l);
      if (ctx.scenario.overlap)
        gradients_ready(l);
    }
    if (!ctx.scenario.overlap) {
      if (fusion) // the buffer takes them in backward order
        for (int l = n_layers - 1; l >= 0; l--)
          gradients_ready(l);
      else // all at once: no lane may start before every unit is ready (calls_under_way counts them)
        gradients_ready(0);
    }
    if (fusion || !ctx.grad_units.empty()) // released by the fusion actor, or by the last of the step's units to end
      shared->step_done->acquire();
    compute(wl.ps_update_s, "update", -1); // each worker applies the averaged gradients itself
    const double now = sg4::Engine::get_clock();
    recorder.end_step(rank, now, account.close_window(step_begin, now));
    step_begin = now;
  }
}

} // namespace sgdsim
