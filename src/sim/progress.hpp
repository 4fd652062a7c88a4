// Progress of a long simulation on stderr (issue #24): simulated time, steps done and an estimate of the wall time
// left, at most once a second. Never in the results: stdout, the JSON and the CSV are the same with or without it.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace sgdsim {

/** One progress report, e.g. "sgdsim: fair: step 37 of 120 (31%), simulated 12.3 s, wall 8 s, about 18 s left".
 *  `label` may be empty (one simulation); the estimate is omitted until a step is done. */
std::string progress_line(const std::string& label, long steps_done, long steps_total, double simulated_s,
                          double wall_s);

class ProgressReporter {
public:
  using Clock = std::chrono::steady_clock;
  /** `overwrite`: a terminal, where each report replaces the previous one (carriage return); otherwise one line
   *  per report. */
  ProgressReporter(std::FILE* out, std::string label, bool overwrite);
  /** Called as the simulated clock advances; prints when a second of wall time has passed since the last report. */
  void update(long steps_done, long steps_total, double simulated_s);
  /** Clears the line on a terminal, so that what follows starts clean. */
  void finish();

private:
  std::FILE* out_;
  std::string label_;
  bool overwrite_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool printed_ = false;
};

} // namespace sgdsim
