// What the actors write instead of printing (docs/design.md "Step accounting"): each worker's step ends and the
// split of each step into compute, exposed communication and waiting. The engine-independent interval arithmetic
// lives here too, so that it is unit-tested without SimGrid.
#pragma once

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace sgdsim {

/** How one step of one worker was spent; the three parts add up to the step time. */
struct StepSplit {
  double compute_s      = 0;
  double comm_exposed_s = 0;
  double wait_s         = 0;
};

/** Collects a worker's busy intervals and splits each step window [begin, end] into StepSplit. Intervals that
 *  reach beyond a window are kept for the next one. */
class IntervalAccount {
public:
  void add_compute(double start_s, double end_s) { compute_.emplace_back(start_s, end_s); }
  void add_comm(double start_s, double end_s) { comm_.emplace_back(start_s, end_s); }
  StepSplit close_window(double begin_s, double end_s);

private:
  std::vector<std::pair<double, double>> compute_;
  std::vector<std::pair<double, double>> comm_;
};

/** Length of the union of `intervals` clipped to [lo, hi]. */
double union_length(std::vector<std::pair<double, double>> intervals, double lo, double hi);

struct WorkerTrace {
  std::vector<double> step_end_s; // one per simulated step (warm-up included)
  std::vector<StepSplit> splits;  // one per simulated step
};

class StepRecorder {
public:
  StepRecorder(int workers, int warmup, int steps);
  /** Worker `rank` finished a step at `end_s`, spent as `split`. */
  void end_step(int rank, double end_s, const StepSplit& split);
  /** True once every worker has finished all its measured steps (async workers run on until then, so that
   *  every measured step sees the same contention as in steady state). */
  bool all_measured() const { return workers_measured_ == static_cast<int>(traces_.size()); }
  const WorkerTrace& trace(int rank) const { return traces_[static_cast<std::size_t>(rank)]; }
  int warmup() const { return warmup_; }
  /** Records operations for --timeline from now on (off by default: it costs memory). */
  void enable_timeline() { timeline_ = true; }
  bool timeline_enabled() const { return timeline_; }
  /** An operation of worker `rank` in its current step; kept only for measured steps. */
  void worker_op(int rank, const char* resource, std::string name, double start_s, double end_s);
  /** An operation of a PS; kept if it overlaps the measured window (see measured_window). */
  void ps_op(int ps, const char* resource, std::string name, double start_s, double end_s);
  /** The recorded operations, PS ones clipped to [first measured step start, last measured step end]. */
  std::vector<std::tuple<std::string, std::string, std::string, int, double, double>> timeline() const;
  int steps() const { return steps_; }
  /** Steps finished so far, warm-up included, counting no worker beyond warm-up + measured steps (for progress). */
  long steps_done() const { return steps_done_; }
  long steps_total() const { return static_cast<long>(traces_.size()) * (warmup_ + steps_); }

private:
  std::vector<WorkerTrace> traces_;
  int warmup_;
  int steps_;
  int workers_measured_ = 0;
  long steps_done_      = 0;
  bool timeline_        = false;
  // (track, resource, name, step, start, end)
  std::vector<std::tuple<std::string, std::string, std::string, int, double, double>> ops_;
};

} // namespace sgdsim
