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
  long next_unit              = 0; // planned units: the next one a free lane takes (rank 0, or any rank with one lane)
  IntervalAccount* account    = nullptr;
  StepRecorder* recorder      = nullptr;

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
    for (auto u = static_cast<std::size_t>(units_done); u < units.size() && n < lanes; u++) {
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

class RingCollective {
public:
  RingCollective(const SimContext& ctx, int rank, int lane, std::shared_ptr<RingShared> shared)
      : ctx_(ctx), rank_(rank), lane_(lane), k_(ctx.scenario.workers), shared_(std::move(shared))
  {
    speed_ratio_ = sg4::this_actor::get_host()->get_speed() / ctx_.workload.reference_speed;
    if (k_ > 1) { // the route to the right neighbour: what adaFusion's cost estimates use
      std::vector<sg4::Link*> links;
      sg4::this_actor::get_host()->route_to(ctx_.worker_host_ptrs[static_cast<std::size_t>((rank_ + 1) % k_)], links,
                                            &route_latency_s_);
      route_Bps_ = std::numeric_limits<double>::infinity();
      for (const sg4::Link* l : links)
        route_Bps_ = std::min(route_Bps_, l->get_bandwidth());
      // With SimGrid's ACK traffic, the left neighbour's flow sends its ACKs on the route back to it; where that
      // route shares a link with the one to the right (a star's uplink), this worker's data get 1 / 1.05 of it.
      if (simgrid::config::get_value<bool>("network/crosstraffic")) {
        std::vector<sg4::Link*> back;
        sg4::this_actor::get_host()->route_to(ctx_.worker_host_ptrs[static_cast<std::size_t>((rank_ + k_ - 1) % k_)],
                                              back, nullptr);
        if (std::find_first_of(links.begin(), links.end(), back.begin(), back.end()) != links.end())
          ack_factor_ = 1.0 + kSimgridAckWeight;
      }
      const double rate_Bps = ctx_.scenario.connection_rate_Bps; // docs/models.md §10.11
      if (rate_Bps > 0 &&
          ctx_.worker_host_ptrs[static_cast<std::size_t>((rank_ + 1) % k_)] != sg4::this_actor::get_host() &&
          rate_Bps * ctx_.ring_sockets < route_Bps_) {
        route_Bps_  = rate_Bps * ctx_.ring_sockets;
        ack_factor_ = 1; // a connection held below the link's share: the ACKs beside it take nothing from it
      }
    }
    receive_sliced_ring(ctx_, rank_, lane_);
    latency_factor_ = simgrid::config::get_value<double>("network/latency-factor");
    // The bandwidth factor's setting is not readable as a number, so models other than LV08 count as 1.
    bandwidth_factor_ =
        (simgrid::config::get_value<std::string>("network/model") == "LV08" ? kLv08BandwidthFactor : 1.0) / ack_factor_;
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
      extra_latency_s_ = (2.0 * (n - 1) - 1) * (latency * latency_factor_ + ctx_.scenario.message_overhead_s);
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
      if (++shared_->units_done == n) {
        shared_->units_done = 0;
        shared_->step_done->release();
      }
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

  // What one all-reduce of `bytes` costs on the network alone over `k` ranks, without contention (docs/models.md eq.
  // (12) plus delta): 2(k-1)/k * D / B + 2(k-1) * (alpha + per-message cost) + delta, with B and alpha of the route to
  // the right neighbour as SimGrid's network model sees them (LV08 takes 0.97 of each link's bandwidth, the reverse
  // flow's ACKs 1 / 1.05 of what is left where they share the link). The ring's own
  // k by default; the measured all-reduce evaluates it at the node counts it was measured at.
  double network_allreduce_s(double bytes, int k) const
  {
    if (bytes <= 0)
      return 0;
    const Scenario& sc = ctx_.scenario;
    if (!ctx_.ring_latency_s.empty()) {
      // A sliced ring (docs/models.md §10.10; its latency already times the factor): as its steps run alone, where
      // the latency comes once per call if a chunk spans several slices (eq. (43)), at each step if it is one, and
      // the credits' round trip at each step if it is two with two in flight (Gloo's).
      const double latency_s = ctx_.ring_latency_s[static_cast<std::size_t>(rank_)];
      const double rate_Bps  = route_Bps_ * bandwidth_factor_;
      const auto [at, added] = ctx_.sliced_alone_s.try_emplace({bytes, k, latency_s, rate_Bps}, 0.0);
      if (added) {
        const RingSlicing cut(bytes, k, sc);
        at->second = sliced_ring_alone_s(cut, sc.ring_slices_in_flight, network_bytes_s(bytes, k) / cut.total,
                                         latency_s, sc.message_overhead_s);
      }
      return at->second + sc.allreduce_overhead_s;
    }
    return network_bytes_s(bytes, k) + 2.0 * (k - 1) * (route_latency_s_ * latency_factor_ + sc.message_overhead_s) +
           sc.allreduce_overhead_s;
  }
  double network_allreduce_s(double bytes) const { return network_allreduce_s(bytes, k_); }
  // Its bytes' part: 2(k-1)/k * D / B.
  double network_bytes_s(double bytes, int k) const
  {
    return 2.0 * (k - 1) / k * bytes / (route_Bps_ * bandwidth_factor_);
  }
  double network_bytes_s(double bytes) const { return network_bytes_s(bytes, k_); }

  // The software cost of one all-reduce beyond the network (docs/models.md §10.7): what the microbenchmark measured
  // for K ranks and `bytes` minus what the network alone takes; 0 without a measured all-reduce. A call that starts
  // with `in_flight` - 1 others under way on this worker, where the platform has the back-to-back microbenchmark,
  // lasts in_flight times its time per call T_q, of which the network, shared by the calls, takes its latencies once
  // and its bytes in_flight times (docs/models.md §10.8); with --in-flight-cost each or paired (the default) the
  // others in flight, whose sizes `others` gives, each add their own T_q beyond their bytes instead of this call's
  // (§10.8 "Calls of different sizes"), and with paired a call beside shorter ones keeps part of its time alone
  // (§10.8 "A call beside shorter ones"). Beyond the largest node count measured, the excess there
  // plus, for each ring step more, the software cost per step that the node counts measured show, which each call in
  // flight pays; where the microbenchmark's ranks shared one machine's cores, the excess there times the steps and
  // the ranks per core.
  // `line`: from eq. (37)'s lines alone, without the measured sizes (--measured-sizes on only); `clamp` false: below
  // the network's own time, negative (within the node counts measured); `uncovered` false: without paired's
  // uncovered gain.
  double measured_excess_s(double bytes, int in_flight = 1, bool line = false, bool clamp = true,
                           const std::vector<double>& others = {}, bool uncovered = true) const
  {
    const Scenario& sc = ctx_.scenario;
    if (!sc.measured_allreduce || bytes <= 0)
      return 0;
    const std::vector<AllreduceTimeFit>& alone = line ? ctx_.allreduce_line_time : sc.allreduce_time;
    const bool queued                          = back_to_back(in_flight);
    const std::vector<AllreduceTimeFit>& fits =
        queued ? (line ? ctx_.allreduce_queued_line_time : sc.allreduce_queued_time) : alone;
    const int calls = queued ? in_flight : 1;
    const int k_hi  = fits.back().nodes;
    if (k_ <= k_hi)
      return pooled_excess_s(fits, alone, k_, bytes, calls, clamp, others, uncovered);
    if (sc.shared_cores > 0) {
      // Ranks sharing one machine's cores: each step's software time grows with the ranks per core, so the excess
      // grows with the steps times the ranks per core (docs/models.md §10.7, "Ranks sharing cores").
      const double c = sc.shared_cores;
      return pooled_excess_s(fits, alone, k_hi, bytes, calls, true, others, uncovered) * (k_ - 1.0) / (k_hi - 1.0) *
             std::max<double>(k_, c) / std::max<double>(k_hi, c);
    }
    std::vector<int> nodes;
    std::vector<double> per_call_s; // one call's excess at each node count measured
    for (const AllreduceTimeFit& f : fits) {
      nodes.push_back(f.nodes);
      per_call_s.push_back(pooled_excess_s(fits, alone, f.nodes, bytes, 1));
    }
    return pooled_excess_s(fits, alone, k_hi, bytes, calls, true, others, uncovered) +
           calls * 2.0 * (k_ - k_hi) * excess_per_step_s(nodes, per_call_s);
  }
  // The excess at node count k within the fits' range, from the measured_node_window node counts measured nearest to
  // k (ties: the smaller): with one, excess_at_s at k; with more, a least-squares line of their excess per ring step
  // against the node count, evaluated at k, times k's 2(k - 1) steps (docs/models.md §10.7 "Neighbouring node counts
  // pooled"). Below the smallest node count measured, excess_at_s's (that node count's time).
  double pooled_excess_s(const std::vector<AllreduceTimeFit>& fits, const std::vector<AllreduceTimeFit>& alone, int k,
                         double bytes, int in_flight, bool clamp = true, const std::vector<double>& others = {},
                         bool uncovered = true) const
  {
    const std::size_t window = static_cast<std::size_t>(ctx_.scenario.measured_node_window);
    if (window <= 1 || fits.size() < 2 || k < fits.front().nodes)
      return excess_at_s(fits, alone, k, bytes, in_flight, clamp, others, uncovered);
    std::vector<int> measured;
    for (const AllreduceTimeFit& f : fits)
      measured.push_back(f.nodes);
    // Only the window's node counts are evaluated (a call's cost is asked for on every all-reduce), nearest first.
    std::vector<double> nodes;
    std::vector<double> per_step_s; // unclamped: a row below the network counts as below
    for (const std::size_t i : nearest_node_counts(measured, k, window)) {
      nodes.push_back(measured[i]);
      per_step_s.push_back(excess_at_s(fits, alone, measured[i], bytes, in_flight, false, others, uncovered) /
                           (2.0 * (measured[i] - 1)));
    }
    const double floor = clamp ? 0.0 : std::numeric_limits<double>::lowest();
    return std::max(floor, line_at(nodes, per_step_s, k) * 2.0 * (k - 1));
  }
  // The excess at node count k within the fits' range: T_meas - network (one call), or in_flight T_q - latencies -
  // in_flight x bytes (calls back to back, docs/models.md §10.8; --in-flight-cost same), or with --in-flight-cost
  // each T_q - bytes for this call plus max(0, T_q - bytes) at each other call's size, less the latencies; with
  // paired (the default) plus the share of this call's gain T_meas - T_q that the longest other call's T_q leaves
  // uncovered.
  double excess_at_s(const std::vector<AllreduceTimeFit>& fits, const std::vector<AllreduceTimeFit>& alone, int k,
                     double bytes, int in_flight, bool clamp = true, const std::vector<double>& others = {},
                     bool uncovered = true) const
  {
    const double floor = clamp ? 0.0 : std::numeric_limits<double>::lowest();
    if (in_flight <= 1)
      return std::max(floor, measured_allreduce_s(fits, k, bytes) - network_allreduce_s(bytes, k));
    const double bytes_s    = network_bytes_s(bytes, k);
    const double latency_s  = network_allreduce_s(bytes, k) - bytes_s;
    const double n          = in_flight;
    const InFlightCost rule = ctx_.scenario.in_flight_cost;
    const double own_q_s    = queued_allreduce_s(fits, alone, k, bytes);
    if (rule == InFlightCost::SAME)
      return std::max(floor, n * own_q_s - latency_s - n * bytes_s);
    // Each call in flight adds its own back-to-back time beyond its bytes (what it keeps the worker's software busy
    // for; never below 0), at its own size; calls the count has but `others` does not name are taken as this one.
    double busy_s    = own_q_s - bytes_s;
    double longest_s = 0; // the longest other call's back-to-back time
    for (int i = 1; i < in_flight; i++) {
      const auto at    = static_cast<std::size_t>(i - 1);
      const double o   = at < others.size() ? others[at] : bytes;
      const double o_q = queued_allreduce_s(fits, alone, k, o);
      busy_s += std::max(0.0, o_q - network_bytes_s(o, k));
      longest_s = std::max(longest_s, o_q);
    }
    if (rule == InFlightCost::PAIRED && uncovered && own_q_s > 0) {
      // The back-to-back gain over the call alone comes from calls that fill each other's gaps; a call beside
      // shorter ones keeps the share of it they do not cover (docs/models.md §10.8 "A call beside shorter ones").
      const double uncovered_share = 1 - std::min(1.0, longest_s / own_q_s);
      busy_s += uncovered_share * std::max(0.0, measured_allreduce_s(alone, k, bytes) - own_q_s);
    }
    return std::max(floor, busy_s - latency_s);
  }

  // How a call pays its measured software cost (measured_allreduce is the ring's only): spread over its ring steps,
  // before each step's message (docs/models.md §10.7 "Over the steps"), except where the microbenchmark's large sizes
  // differ from eq. (37)'s line (--measured-sizes on) by a rate: what they add above the line is a bandwidth the
  // call's bytes lack, paid as a slower rate of them (their bytes scaled), so that they hold the host's egress the
  // while; and where the row of this node count took less than the network alone, the bytes move at the row's rate
  // (docs/models.md §10.7 "What they add, paid as a slower rate"). With `in_flight` calls back to back the link is
  // shared, so a byte of this call's costs that many times its time alone.
  struct CallCost {
    double step_extra_s = 0;
    double byte_scale   = 1;
  };
  CallCost call_cost(double bytes, int in_flight, const std::vector<double>& others = {}) const
  {
    // Unclamped: where the rows' time lies below the network's own, negative (the excess itself is never).
    const double signed_s = measured_excess_s(bytes, in_flight, false, false, others);
    double excess_s       = std::max(0.0, signed_s);
    double byte_scale     = 1;
    const double bytes_s  = (back_to_back(in_flight) ? in_flight : 1) * network_bytes_s(bytes);
    // No rate to scale where the route to the next rank has no link (a host's own loopback): bytes_s is 0.
    if (!ctx_.scenario.measured_sizes || !(bytes_s > 0 && std::isfinite(bytes_s)))
      return uncovered_as_rate(bytes, in_flight, others, signed_s, CallCost{excess_s / (2.0 * (k_ - 1)), byte_scale});
    const double line_s = measured_excess_s(bytes, in_flight, true, true, others);
    if (excess_s > line_s) {
      byte_scale = 1 + (excess_s - line_s) / bytes_s;
      excess_s   = line_s;
    } else if (signed_s < 0 && among_measured_sizes(bytes)) // the rows' time below the network's
      byte_scale = std::max(kFastestByteScale, 1 + signed_s / bytes_s);
    return uncovered_as_rate(bytes, in_flight, others, signed_s, CallCost{excess_s / (2.0 * (k_ - 1)), byte_scale});
  }
  // --uncovered-gain rate (the default; docs/models.md §10.8 "The uncovered gain holds the connection"): what paired
  // adds to each, the share of the call's gain over the call alone that shorter partners leave uncovered, moves from
  // the waits before its steps (at most all of them) to a slower rate of its own bytes, which hold its connection so
  // that the messages the other lane writes behind them wait too. `signed_s`: call_cost's unclamped excess, paired's;
  // clamped at 0 it is what measured_excess_s gives clamped, on every path.
  CallCost uncovered_as_rate(double bytes, int in_flight, const std::vector<double>& others, double signed_s,
                             CallCost cost) const
  {
    const Scenario& sc = ctx_.scenario;
    if (sc.uncovered_gain != UncoveredGain::RATE || sc.in_flight_cost != InFlightCost::PAIRED ||
        !back_to_back(in_flight))
      return cost;
    // paired less each: the uncovered gain
    const double gain_s = std::max(0.0, signed_s) - measured_excess_s(bytes, in_flight, false, true, others, false);
    const double steps  = 2.0 * (k_ - 1);
    const double own_s  = network_bytes_s(bytes); // this call's bytes alone on the link
    const double move_s = std::min(cost.step_extra_s * steps, std::max(0.0, gain_s));
    if (!(own_s > 0 && std::isfinite(own_s)) || move_s <= 0)
      return cost;
    cost.step_extra_s -= move_s / steps;
    cost.byte_scale += move_s / own_s;
    return cost;
  }
  // Whether a call started with `in_flight` calls under way pays the back-to-back microbenchmark's time (§10.8).
  bool back_to_back(int in_flight) const { return in_flight > 1 && !ctx_.scenario.allreduce_queued_time.empty(); }
  // A row at most twice as fast as the platform's network: beyond, the platform was not calibrated from these rows.
  static constexpr double kFastestByteScale = 0.5;
  // Whether this node count was measured and `bytes` lies among its measured sizes (from the first on).
  bool among_measured_sizes(double bytes) const
  {
    for (const AllreduceTimeFit& f : ctx_.scenario.allreduce_time)
      if (f.nodes == k_)
        return !f.measured.empty() && bytes >= f.measured.front().bytes;
    return false;
  }

  // Estimated cost of one all-reduce of `bytes`, for adaFusion: the network's plus the measured software cost.
  double estimated_allreduce_s(double bytes) const { return network_allreduce_s(bytes) + measured_excess_s(bytes); }

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
      return estimated_allreduce_s(buffer + d) + wait < estimated_allreduce_s(buffer) + estimated_allreduce_s(d);
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
    const CallCost cost = call_cost(bytes, in_flight, others);
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
  double extra_latency_s_  = 0;
  double speed_ratio_      = 1;
  double route_Bps_        = 1;
  double route_latency_s_  = 0;
  double latency_factor_   = 1;
  double bandwidth_factor_ = 1;
  double ack_factor_       = 1; // 1.05 where the ring's reverse ACKs share this worker's links (kSimgridAckWeight)
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
