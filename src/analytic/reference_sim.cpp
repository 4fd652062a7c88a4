#include "analytic/reference_sim.hpp"

#include "common/rng.hpp"
#include "workload/step_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <queue>

namespace sgdsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Events on resources that are never shared (compute, PS update, per-tensor overhead, ALL_REDUCE links).
enum class Kind { FWD, BWD, PS_UPDATE, DL_OVERHEAD, UL_OVERHEAD, UPLINK_PRIVATE };
struct Timed {
  double time;
  std::uint64_t seq; // ties broken by creation order: deterministic
  int worker;
  Kind kind;
  int index; // layer or tensor
  bool operator>(const Timed& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

// A link shared by all workers (the PS NIC, one direction). Work is in seconds at full bandwidth B.
class SharedLink {
public:
  SharedLink(RefSharing sharing, int workers, double cap_ratio)
      : sharing_(sharing), pending_(static_cast<std::size_t>(workers)), active_(static_cast<std::size_t>(workers), -1),
        cap_ratio_(cap_ratio)
  {
  }
  void push(int w, int tensor, double work) { pending_[static_cast<std::size_t>(w)].push_back({tensor, work}); }
  bool idle_for(int w) const { return active_[static_cast<std::size_t>(w)] < 0; }
  bool has_pending(int w) const { return !pending_[static_cast<std::size_t>(w)].empty(); }

  /** Starts the next queued op of worker w (the resource of w is idle). */
  void start(int w)
  {
    auto& q             = pending_[static_cast<std::size_t>(w)];
    auto [tensor, work] = q.front();
    q.pop_front();
    active_[static_cast<std::size_t>(w)] = tensor;
    if (sharing_ == RefSharing::PS) {
      heap_.push({virtual_ + work, seq_++, w});
      n_active_++;
    } else {
      remaining_[w] = work;
      if (std::find(order_.begin(), order_.end(), w) == order_.end())
        order_.push_back(w); // arrival order; a worker keeps its place while it has consecutive ops
    }
  }
  double rate() const
  {
    if (sharing_ == RefSharing::PS)
      return n_active_ > 0 ? std::min(cap_ratio_, 1.0 / n_active_) : 0;
    return std::min(cap_ratio_, 1.0);
  }
  double next_finish(double now) const
  {
    if (sharing_ == RefSharing::PS)
      return heap_.empty() ? kInf : now + (heap_.top().finish_v - virtual_) / rate();
    return order_.empty() ? kInf : now + remaining_.at(order_.front()) / rate();
  }
  void advance(double dt)
  {
    if (sharing_ == RefSharing::PS) {
      if (n_active_ > 0)
        virtual_ += rate() * dt;
    } else if (!order_.empty()) {
      remaining_[order_.front()] -= rate() * dt;
    }
  }
  /** Completes the op that finishes first; returns (worker, tensor). */
  std::pair<int, int> complete()
  {
    int w;
    if (sharing_ == RefSharing::PS) {
      w        = heap_.top().worker;
      virtual_ = std::max(virtual_, heap_.top().finish_v);
      heap_.pop();
      n_active_--;
    } else {
      w = order_.front();
      remaining_.erase(w);
      if (pending_[static_cast<std::size_t>(w)].empty())
        order_.pop_front(); // it leaves the link; the next worker in arrival order gets it
    }
    int tensor                           = active_[static_cast<std::size_t>(w)];
    active_[static_cast<std::size_t>(w)] = -1;
    return {w, tensor};
  }

private:
  struct Entry {
    double finish_v;
    std::uint64_t seq;
    int worker;
    bool operator>(const Entry& o) const { return finish_v != o.finish_v ? finish_v > o.finish_v : seq > o.seq; }
  };
  RefSharing sharing_;
  std::vector<std::deque<std::pair<int, double>>> pending_;
  std::vector<int> active_;
  double cap_ratio_;
  // PS: virtual time advancing at the common rate of all active ops.
  double virtual_    = 0;
  int n_active_      = 0;
  std::uint64_t seq_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  // FCFS: workers in arrival order, the head's remaining work.
  std::deque<int> order_;
  std::map<int, double> remaining_;
};

struct WorkerState {
  std::vector<double> fwd_s, bwd_s; // this step's compute, already scaled by the host speed
  std::vector<int> missing;         // per layer: tensors not yet downloaded
  int arrived      = 0;
  int next_fwd     = 0;
  int next_bwd     = -1;
  bool computing   = false;
  int updates_done = 0;
  int step         = 0;
  bool idle        = false; // finished and waiting (sync barrier, or done)
  std::vector<double> step_end;
};
} // namespace

RefSimResult reference_simulation(const RefSimInputs& in)
{
  const Workload& wl       = *in.workload;
  const int k              = static_cast<int>(in.speed_ratio.size());
  const int n_layers       = static_cast<int>(wl.layers.size());
  const int n_tensors      = static_cast<int>(wl.tensors.size());
  const bool all_reduce    = in.sharing == RefSharing::ALL_REDUCE;
  const int total_steps    = in.warmup + in.steps;
  const double model_bytes = wl.model_bytes();
  const double cap_ratio =
      (in.flow_cap_Bps > 0 && std::isfinite(in.flow_cap_Bps)) ? in.flow_cap_Bps / in.bandwidth_Bps : kInf;
  auto at = [](auto& v, int i) -> auto&
  {
    return v[static_cast<std::size_t>(i)];
  };

  SharedLink down(in.sharing, k, cap_ratio);
  SharedLink up(in.sharing, k, cap_ratio);
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> timed;
  std::uint64_t seq = 0;
  std::vector<WorkerState> ws(static_cast<std::size_t>(k));
  std::vector<double> ps_free(static_cast<std::size_t>(k), 0.0); // the (worker, PS) resource runs one op at a time
  std::vector<double> ul_free(static_cast<std::size_t>(k), 0.0); // ALL_REDUCE: each worker's own uplink, likewise
  std::vector<Rng> rngs;
  for (int w = 0; w < k; w++)
    rngs.emplace_back(in.seed, static_cast<std::uint64_t>(w));
  double now           = 0;
  int measured_workers = 0;
  RefSimResult result;

  auto schedule = [&](double when, int w, Kind kind, int index) { timed.push({when, seq++, w, kind, index}); };
  auto overhead = [&](int t) { return in.tensor_overhead_s + in.tensor_overhead_s_per_byte * at(wl.tensors, t).bytes; };
  auto kick_links = [&](int w) {
    if (all_reduce)
      return;
    if (down.idle_for(w) && down.has_pending(w))
      down.start(w);
    if (up.idle_for(w) && up.has_pending(w))
      up.start(w);
  };
  auto try_compute = [&](int w) {
    WorkerState& s = at(ws, w);
    if (s.computing)
      return;
    if (s.next_fwd < n_layers) {
      // Forward of layer i waits for its tensors and for layer i-1 (without overlap: for every tensor).
      if (in.overlap ? at(s.missing, s.next_fwd) == 0 : s.arrived == n_tensors) {
        s.computing = true;
        schedule(now + at(s.fwd_s, s.next_fwd), w, Kind::FWD, s.next_fwd);
      }
    } else if (s.next_bwd >= 0) {
      s.computing = true;
      schedule(now + at(s.bwd_s, s.next_bwd), w, Kind::BWD, s.next_bwd);
    }
  };
  auto queue_uplinks_of_layer = [&](int w, int l) {
    const auto& tensors = at(wl.layers, l).tensors;
    for (auto it = tensors.rbegin(); it != tensors.rend(); ++it) {
      const double work = at(wl.tensors, *it).bytes / in.bandwidth_Bps;
      if (all_reduce) { // every worker has its own link, never shared; the work is the ring's 2(K-1)/K; one at a time
        const double dur = (k > 1 ? 2.0 * (k - 1) / k : 0.0) * work / std::min(cap_ratio, 1.0);
        at(ul_free, w)   = std::max(now, at(ul_free, w)) + dur;
        schedule(at(ul_free, w), w, Kind::UPLINK_PRIVATE, *it);
      } else
        up.push(w, *it, work);
    }
  };
  auto start_step = [&](int w) {
    WorkerState& s     = at(ws, w);
    const double ratio = at(in.speed_ratio, w);
    draw_step_times(wl, at(rngs, w), in.compute_jitter_cv, s.fwd_s, s.bwd_s);
    s.missing.assign(static_cast<std::size_t>(n_layers), 0);
    for (int l = 0; l < n_layers; l++) {
      at(s.fwd_s, l) /= ratio;
      at(s.bwd_s, l) /= ratio;
      at(s.missing, l) = all_reduce ? 0 : static_cast<int>(at(wl.layers, l).tensors.size());
    }
    s.arrived      = all_reduce ? n_tensors : 0;
    s.next_fwd     = 0;
    s.next_bwd     = n_layers - 1;
    s.computing    = false;
    s.updates_done = 0;
    s.idle         = false;
    if (!all_reduce) // downlinks in forward order
      for (int t = 0; t < n_tensors; t++)
        down.push(w, t, at(wl.tensors, t).bytes / in.bandwidth_Bps);
    kick_links(w);
    try_compute(w);
  };
  auto finish_step = [&](int w) {
    WorkerState& s = at(ws, w);
    s.step_end.push_back(now);
    if (++s.step == total_steps)
      measured_workers++;
    s.idle = true;
    if (in.sync) {
      // Barrier: every worker starts the next step when all queues are empty.
      if (std::all_of(ws.begin(), ws.end(), [](const WorkerState& x) { return x.idle; }) && ws[0].step < total_steps)
        for (int v = 0; v < k; v++)
          start_step(v);
    } else if (s.step < total_steps || measured_workers < k) {
      start_step(w); // async: at once
    }
  };
  auto tensor_done = [&](int w) {
    if (++at(ws, w).updates_done == n_tensors)
      finish_step(w);
  };
  auto start_update = [&](int w, int t) {
    // The PS applies the gradient: T_S * size / M on the (worker, PS) resource, never shared.
    const double dur = model_bytes > 0 ? wl.ps_update_s / in.ps_speed_ratio * at(wl.tensors, t).bytes / model_bytes : 0;
    const double end = std::max(now, at(ps_free, w)) + dur;
    at(ps_free, w)   = end;
    schedule(end, w, Kind::PS_UPDATE, t);
  };
  auto arrive = [&](int w, int t) {
    WorkerState& s = at(ws, w);
    s.arrived++;
    at(s.missing, at(wl.tensors, t).layer)--;
    try_compute(w);
  };

  for (int w = 0; w < k; w++)
    start_step(w);
  for (;;) {
    const double t_timed = timed.empty() ? kInf : timed.top().time;
    const double t_down  = all_reduce ? kInf : down.next_finish(now);
    const double t_up    = all_reduce ? kInf : up.next_finish(now);
    const double t       = std::min({t_timed, t_down, t_up});
    if (t == kInf)
      break;
    down.advance(t - now);
    up.advance(t - now);
    now = t;
    result.events++;
    if (t_down <= t_up && t_down <= t_timed) {
      auto [w, tensor] = down.complete();
      if (overhead(tensor) > 0)
        schedule(now + overhead(tensor), w, Kind::DL_OVERHEAD, tensor); // [LI20] deserialization and copies
      else
        arrive(w, tensor);
      kick_links(w);
    } else if (t_up <= t_timed) {
      auto [w, tensor] = up.complete();
      if (overhead(tensor) > 0)
        schedule(now + overhead(tensor), w, Kind::UL_OVERHEAD, tensor);
      else
        start_update(w, tensor);
      kick_links(w);
    } else {
      const Timed e = timed.top();
      timed.pop();
      WorkerState& s = at(ws, e.worker);
      switch (e.kind) {
      case Kind::FWD:
        s.computing = false;
        s.next_fwd++;
        try_compute(e.worker);
        break;
      case Kind::BWD:
        s.computing = false;
        s.next_bwd--;
        if (in.overlap) {
          queue_uplinks_of_layer(e.worker, e.index);
        } else if (s.next_bwd < 0) {
          for (int l = n_layers - 1; l >= 0; l--)
            queue_uplinks_of_layer(e.worker, l);
        }
        kick_links(e.worker);
        try_compute(e.worker);
        break;
      case Kind::DL_OVERHEAD:
        arrive(e.worker, e.index);
        break;
      case Kind::UL_OVERHEAD:
        start_update(e.worker, e.index);
        break;
      case Kind::UPLINK_PRIVATE:
      case Kind::PS_UPDATE:
        tensor_done(e.worker);
        break;
      }
    }
  }

  for (const WorkerState& s : ws) {
    double sum = 0;
    for (int st = in.warmup; st < total_steps; st++)
      sum += at(s.step_end, st) - (st == 0 ? 0.0 : at(s.step_end, st - 1));
    const double mean = sum / in.steps;
    result.worker_step_s.push_back(mean);
    result.throughput_steps_per_s += mean > 0 ? 1.0 / mean : 0;
    result.step_time_mean_s += mean / k;
  }
  return result;
}

} // namespace sgdsim
