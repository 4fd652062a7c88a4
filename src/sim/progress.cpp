#include "sim/progress.hpp"

#include <algorithm>
#include <cmath>

namespace sgdsim {

namespace {
// A report a second: often enough to see a run move, rare enough to cost nothing next to the simulation.
constexpr double kReportInterval_s = 1.0;
} // namespace

std::string progress_line(const std::string& label, long steps_done, long steps_total, double simulated_s,
                          double wall_s)
{
  char buf[256];
  const double fraction = steps_total > 0 ? static_cast<double>(steps_done) / static_cast<double>(steps_total) : 0;
  int n = std::snprintf(buf, sizeof buf, "sgdsim: %s%sstep %ld of %ld (%.0f%%), simulated %.3g s, wall %.0f s",
                        label.c_str(), label.empty() ? "" : ": ", steps_done, steps_total, 100 * fraction, simulated_s,
                        wall_s);
  std::string line(buf, static_cast<std::size_t>(std::max(0, std::min(n, static_cast<int>(sizeof buf) - 1))));
  if (steps_done > 0 && steps_done < steps_total) {
    // The steps done so far predict the rest: a steady-state rate (warm-up steps are not slower in simulation).
    const double left_s = wall_s * (1 - fraction) / fraction;
    std::snprintf(buf, sizeof buf, ", about %.0f s left", std::ceil(left_s));
    line += buf;
  }
  return line;
}

ProgressReporter::ProgressReporter(std::FILE* out, std::string label, bool overwrite)
    : out_(out), label_(std::move(label)), overwrite_(overwrite), start_(Clock::now()), last_(start_)
{
}

void ProgressReporter::update(long steps_done, long steps_total, double simulated_s)
{
  const Clock::time_point now = Clock::now();
  if (std::chrono::duration<double>(now - last_).count() < kReportInterval_s)
    return;
  last_                = now;
  const double wall_s  = std::chrono::duration<double>(now - start_).count();
  const std::string ln = progress_line(label_, steps_done, steps_total, simulated_s, wall_s);
  // "\r\033[K": back to the line's start and clear it (ECMA-48 EL), so that a shorter report leaves no tail.
  std::fprintf(out_, overwrite_ ? "\r\033[K%s" : "%s\n", ln.c_str());
  std::fflush(out_);
  printed_ = true;
}

void ProgressReporter::finish()
{
  if (printed_ && overwrite_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
}

} // namespace sgdsim
