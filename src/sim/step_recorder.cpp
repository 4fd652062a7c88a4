#include "sim/step_recorder.hpp"

#include <algorithm>

namespace sgdsim {

double union_length(std::vector<std::pair<double, double>> intervals, double lo, double hi)
{
  std::sort(intervals.begin(), intervals.end());
  double total  = 0;
  double cur_lo = 0;
  double cur_hi = 0;
  bool open     = false;
  for (auto [a, b] : intervals) {
    a = std::max(a, lo);
    b = std::min(b, hi);
    if (b <= a)
      continue;
    if (open && a <= cur_hi) {
      cur_hi = std::max(cur_hi, b);
    } else {
      if (open)
        total += cur_hi - cur_lo;
      cur_lo = a;
      cur_hi = b;
      open   = true;
    }
  }
  if (open)
    total += cur_hi - cur_lo;
  return total;
}

StepSplit IntervalAccount::close_window(double begin_s, double end_s)
{
  StepSplit split;
  split.compute_s                             = union_length(compute_, begin_s, end_s);
  std::vector<std::pair<double, double>> busy = compute_;
  busy.insert(busy.end(), comm_.begin(), comm_.end());
  double busy_s        = union_length(std::move(busy), begin_s, end_s);
  split.comm_exposed_s = busy_s - split.compute_s;
  split.wait_s         = std::max(0.0, (end_s - begin_s) - busy_s);
  auto keep_later      = [end_s](std::vector<std::pair<double, double>>& v) {
    std::erase_if(v, [end_s](const auto& iv) { return iv.second <= end_s; });
  };
  keep_later(compute_);
  keep_later(comm_);
  return split;
}

StepRecorder::StepRecorder(int workers, int warmup, int steps)
    : traces_(static_cast<std::size_t>(workers)), warmup_(warmup), steps_(steps)
{
}

void StepRecorder::end_step(int rank, double end_s, const StepSplit& split)
{
  WorkerTrace& t = traces_[static_cast<std::size_t>(rank)];
  t.step_end_s.push_back(end_s);
  t.splits.push_back(split);
  if (static_cast<int>(t.step_end_s.size()) == warmup_ + steps_)
    workers_measured_++;
}

} // namespace sgdsim
