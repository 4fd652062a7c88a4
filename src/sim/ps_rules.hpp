// What a parameter server does with the gradients it receives, written once for the two paths that simulate it:
// the PS actor (parameter_server.cpp) and the PS dispatcher (ps_dispatcher.cpp). Their results must agree to 1e-9
// (tests/scenario/ps_dispatcher_test.cpp); one copy of the rules keeps them from drifting apart.
#pragma once

#include "workload/workload.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace sgdsim {

// Sync-PS (docs/models.md §2): a tensor is updated once all K workers' gradients of it have arrived; once every
// tensor of the shard is updated, every worker is released with the new parameters. With per-variable reads
// (§10.13) each tensor is released to every worker as soon as it is updated instead. Async-PS (§1): each gradient is
// applied as it arrives, and a worker is released once all its gradients of the step are applied. The last round of
// Sync-PS releases no shard (the run ends with the workers' last step); per-variable reads end each step, the last too.
class PsGradientRules {
public:
  PsGradientRules(bool sync, int clients, std::size_t shard_tensors, std::size_t model_tensors, int total_steps,
                  bool per_variable = false)
      : sync_(sync), per_variable_(per_variable), clients_(clients), shard_tensors_(shard_tensors),
        total_steps_(total_steps), received_(model_tensors, 0), applied_of_(static_cast<std::size_t>(clients), 0)
  {
  }

  // The gradient of `tensor` from `worker` arrived at `arrival_s`. `update(tensor, date_s)` applies a tensor's update
  // from date_s and returns when it ends; `release(worker, date_s)` sends a worker its parameters, due at date_s;
  // with per-variable reads `release_tensor(tensor, date_s)` sends every worker that tensor's, due at date_s.
  template <class Update, class Release, class ReleaseTensor>
  void land(int worker, int tensor, double arrival_s, Update&& update, Release&& release,
            ReleaseTensor&& release_tensor)
  {
    if (sync_) {
      if (++received_[static_cast<std::size_t>(tensor)] < clients_)
        return;
      received_[static_cast<std::size_t>(tensor)] = 0;
      const double updated_s                      = update(tensor, arrival_s);
      const bool last_round                       = rounds_ + 1 >= total_steps_;
      if (per_variable_) // the last step's reads too: they end it
        release_tensor(tensor, updated_s);
      if (++applied_ < shard_tensors_)
        return;
      applied_ = 0;
      ++rounds_;
      if (!per_variable_ && !last_round)
        for (int w = 0; w < clients_; w++)
          release(w, updated_s);
      return;
    }
    const double updated_s = update(tensor, arrival_s);
    std::size_t& count     = applied_of_[static_cast<std::size_t>(worker)];
    if (++count == shard_tensors_) {
      count = 0;
      release(worker, updated_s);
    }
  }

  // Without per-variable reads (the PS dispatcher's case).
  template <class Update, class Release>
  void land(int worker, int tensor, double arrival_s, Update&& update, Release&& release)
  {
    land(worker, tensor, arrival_s, update, release, [](int, double) {});
  }

  // Sync-PS rounds completed so far (for debug messages).
  int rounds() const { return rounds_; }

private:
  bool sync_;
  bool per_variable_;
  int clients_;
  std::size_t shard_tensors_;
  int total_steps_;
  std::vector<int> received_;           // sync: per tensor, gradients aggregated this step
  std::vector<std::size_t> applied_of_; // async: per worker, gradients applied this step
  std::size_t applied_ = 0;             // sync: tensors updated this step
  int rounds_          = 0;
};

// The flops of a PS update per byte of the tensor updated (docs/models.md §10.4): the whole model's update takes
// ps_update_s on the reference device, so ps_update_s x reference speed flops, and a tensor takes its share by bytes;
// a PS host of another speed then takes longer or shorter, as the workers' compute does.
inline double ps_update_flops_per_byte(const Workload& wl)
{
  return wl.ps_update_s * wl.reference_speed / wl.model_bytes();
}

// Updates run one at a time in arrival order (docs/models.md §10.4). On a CPU that runs nothing else at a constant
// speed, an update starts when it arrives or when the previous one ends and lasts its flops over the host's speed: its
// dates are computed (no SimGrid execution, bench/README.md session 6).
class ComputedUpdateQueue {
public:
  explicit ComputedUpdateQueue(double speed_flops) : speed_flops_(speed_flops) {}
  // The update of `flops` that arrives at now_s: its start and end dates.
  std::pair<double, double> push(double flops, double now_s)
  {
    const double start_s = std::max(now_s, free_s_);
    free_s_              = start_s + flops / speed_flops_;
    return {start_s, free_s_};
  }

private:
  double speed_flops_;
  double free_s_ = 0; // when the updates queued so far end
};

// Gradients handed to a PS in the order they arrive (docs/models.md §10.5). On a stream connection a gradient arrives
// its route's latency after its last byte; where a PS's connections differ in latency (a fat-tree leaf that holds the
// PS and some of its workers) one whose last byte left later over a shorter route can arrive first. A gradient whose
// last byte leaves at t arrives at t + its latency >= t + min_latency, so the earliest one held, arriving at A, is
// handed over once the clock reaches A - min_latency: none still on the wire can arrive before it. Where every
// latency is the same, that is the date its last byte left: nothing waits. Equal arrival dates go in push order.
template <class T>
class ArrivalOrder {
public:
  explicit ArrivalOrder(double min_latency_s) : min_latency_s_(min_latency_s) {}

  void push(double arrival_s, T item) { heap_.push(Held{arrival_s, pushed_++, std::move(item)}); }

  // From when the earliest gradient held can be handed over (infinity when none is held).
  double next_due_s() const
  {
    return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.top().arrival_s - min_latency_s_;
  }

  // The earliest gradient held and its arrival date, removed, if it can be handed over at now_s (within SimGrid's
  // timing precision, as a sleep ends).
  std::optional<std::pair<double, T>> pop_due(double now_s, double precision_s)
  {
    if (next_due_s() - now_s >= precision_s)
      return std::nullopt;
    std::pair<double, T> out{heap_.top().arrival_s, heap_.top().item};
    heap_.pop();
    return out;
  }

private:
  struct Held {
    double arrival_s;
    std::uint64_t order;
    T item;
    bool operator>(const Held& o) const { return arrival_s != o.arrival_s ? arrival_s > o.arrival_s : order > o.order; }
  };
  double min_latency_s_;
  std::uint64_t pushed_ = 0;
  std::priority_queue<Held, std::vector<Held>, std::greater<>> heap_;
};

} // namespace sgdsim
