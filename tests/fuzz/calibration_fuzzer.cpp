// libFuzzer harness: a measurements CSV of `sgdsim calibrate` (docs/fuzzing.md), read and fitted as both kinds. The
// input's first lines may be the harness's own options, as calibrate's command line gives them: "%where COLUMN=VALUE"
// (repeatable), "%size COLUMN", "%time COLUMN", "%bandwidth-from BYTES". A fit that calibrate accepts is written into a
// platform (-o), which `sgdsim run` reads back: its numbers must be finite and within the platform reader's grammar.
// The rows are also fitted as a node series (calibrate --node-series), whose cost per step must be finite.
#include "fuzz_support.hpp"
#include "platform/calibration.hpp"

#include <cmath>
#include <cstdlib>

using namespace sgdsim;

namespace {
bool finite_non_negative(double x)
{
  return std::isfinite(x) && x >= 0;
}

void check_fit(const CalibrationFit& f, std::size_t rows)
{
  if (!(std::isfinite(f.bandwidth_Bps) && f.bandwidth_Bps > 0) || !finite_non_negative(f.alpha_s) ||
      !finite_non_negative(f.call_s))
    fuzz::finding("an accepted fit whose bandwidth is not finite and positive, or alpha or c not finite and >= 0");
  if (f.linear_s.size() != rows)
    fuzz::finding("an accepted fit without one fitted time per measurement");
  // What platform_costs.cpp requires of sgdsim.allreduce_time, which `calibrate -o` writes from by_nodes.
  for (const AllreduceTimeFit& a : f.by_nodes) {
    const PiecewiseTime& e = a.eq;
    if (a.nodes < 2 || !std::isfinite(e.a1_s) || !std::isfinite(e.b1_s) || !(std::isfinite(e.threshold_bytes)) ||
        !(e.threshold_bytes > 0) || !finite_non_negative(e.a2_s_per_byte) || !std::isfinite(e.b2_s) ||
        !finite_non_negative(a.smallest_bytes))
      fuzz::finding("an accepted all-reduce fit that `sgdsim run` would refuse in the platform calibrate writes");
    for (std::size_t i = 0; i < a.measured.size(); i++) {
      const SizeTime& x = a.measured[i];
      if (!std::isfinite(x.bytes) || x.bytes < e.threshold_bytes || !finite_non_negative(x.time_s) ||
          (i > 0 && (x.bytes <= a.measured[i - 1].bytes || x.time_s < a.measured[i - 1].time_s)))
        fuzz::finding("an accepted all-reduce fit whose measured sizes `sgdsim run` would refuse (sizes from the "
                      "threshold on, increasing, times >= 0 and not decreasing)");
    }
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  std::string_view text = fuzz::as_text(data, size);
  std::vector<std::string> where;
  std::string size_column, time_column;
  double bandwidth_from_bytes = 0;
  while (!text.empty() && text[0] == '%') {
    const std::size_t end       = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (line.substr(0, 7) == "%where ")
      where.emplace_back(line.substr(7));
    else if (line.substr(0, 6) == "%size ")
      size_column = line.substr(6);
    else if (line.substr(0, 6) == "%time ")
      time_column = line.substr(6);
    else if (line.substr(0, 16) == "%bandwidth-from ")
      bandwidth_from_bytes = std::strtod(std::string(line.substr(16)).c_str(), nullptr);
  }
  const std::string path = fuzz::write_scratch_file("measurements.csv", text);
  fuzz::expect_input_errors_only([&] {
    const std::vector<CommMeasurement> m = read_comm_measurements(path, where, size_column, time_column);
    for (CommKind kind : {CommKind::P2P, CommKind::ALLREDUCE})
      fuzz::expect_input_errors_only([&] { check_fit(calibrate(kind, m, path, bandwidth_from_bytes), m.size()); });
    // The same rows as calibrate --node-series reads them: the slope it writes from must be a number.
    fuzz::expect_input_errors_only([&] {
      const StepCostFit s = fit_step_cost(m, path);
      if (!std::isfinite(s.step_s) || s.fitted_s.size() != m.size())
        fuzz::finding("an accepted node series whose cost per step is not finite, or without a fitted time per row");
    });
  });
  return 0;
}
