#include "sim/step_recorder.hpp"

#include "platform/deployment.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

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
  if (static_cast<int>(t.step_end_s.size()) <= warmup_ + steps_)
    steps_done_++;
  if (static_cast<int>(t.step_end_s.size()) == warmup_ + steps_)
    workers_measured_++;
}

} // namespace sgdsim

namespace sgdsim {

void StepRecorder::worker_op(int rank, const char* resource, std::string name, double start_s, double end_s)
{
  if (!timeline_)
    return;
  const auto step = static_cast<int>(traces_[static_cast<std::size_t>(rank)].step_end_s.size());
  if (step < warmup_ || step >= warmup_ + steps_)
    return;
  ops_.emplace_back("worker " + std::to_string(rank), resource, std::move(name), step, start_s, end_s);
}

void StepRecorder::ps_op(int ps, const char* resource, std::string name, double start_s, double end_s)
{
  if (timeline_)
    ops_.emplace_back("ps " + std::to_string(ps), resource, std::move(name), -1, start_s, end_s);
}

std::vector<std::tuple<std::string, std::string, std::string, int, double, double>> StepRecorder::timeline() const
{
  // The measured window: from the earliest start of a measured step to the latest end of one.
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0;
  for (const WorkerTrace& t : traces_) {
    if (t.step_end_s.size() < static_cast<std::size_t>(warmup_ + steps_))
      continue;
    lo = std::min(lo, warmup_ == 0 ? 0.0 : t.step_end_s[static_cast<std::size_t>(warmup_ - 1)]);
    hi = std::max(hi, t.step_end_s[static_cast<std::size_t>(warmup_ + steps_ - 1)]);
  }
  std::vector<std::tuple<std::string, std::string, std::string, int, double, double>> out;
  for (const auto& op : ops_)
    if (std::get<3>(op) >= 0 || (std::get<5>(op) > lo && std::get<4>(op) < hi))
      out.push_back(op);
  // Track by track ("ps 0", ..., "worker 0", "worker 1", ..., "worker 10": numbers in numeric order), each in time
  // order: the order in which the simulation recorded them depends on how it ran (actors or a dispatcher).
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (std::get<0>(a) != std::get<0>(b))
      return natural_less(std::get<0>(a), std::get<0>(b));
    return std::tie(std::get<4>(a), std::get<5>(a), std::get<1>(a), std::get<2>(a)) <
           std::tie(std::get<4>(b), std::get<5>(b), std::get<1>(b), std::get<2>(b));
  });
  return out;
}

} // namespace sgdsim
