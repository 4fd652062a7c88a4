// libFuzzer harness: a measurements CSV of `sgdsim calibrate` (docs/fuzzing.md), read and fitted as both kinds. The
// input's first lines may be the harness's own options, as calibrate's command line gives them: "%where COLUMN=VALUE"
// (repeatable), "%size COLUMN", "%time COLUMN", "%bandwidth-from BYTES". A fit that calibrate accepts is written into a
// platform (-o), which the platform reader (`sgdsim run`) must read back as it was written.
// The rows are also fitted as a node series (calibrate --node-series), whose cost per step must be finite.
#include "common/input_error.hpp"
#include "fuzz_support.hpp"
#include "platform/calibration.hpp"
#include "platform/platform_costs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

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
  // What `calibrate -o` writes from by_nodes, sgdsim.allreduce_time, must read back (`sgdsim run`) as it was: the
  // platform reader's own grammar, the printed precision (sizes exact, the rest to 9 digits) included.
  if (f.by_nodes.empty())
    return;
  for (const AllreduceTimeFit& a : f.by_nodes)
    if (!std::isfinite(a.eq.a1_s) || !std::isfinite(a.eq.b1_s) || !std::isfinite(a.eq.b2_s) ||
        !finite_non_negative(a.eq.a2_s_per_byte) || !finite_non_negative(a.smallest_bytes))
      fuzz::finding("an accepted all-reduce fit with a number that is not finite (or negative where it may not be)");
  const std::string path = fuzz::write_scratch_file(
      "calibrated.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"n\" "
                        "radical=\"0-1\" suffix=\"\" speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\">\n    "
                        "<prop id=\"sgdsim.allreduce_time\" value=\"" +
                            format_allreduce_time(f.by_nodes) + "\"/>\n  </cluster>\n</platform>\n");
  std::vector<AllreduceTimeFit> back;
  try {
    back = read_platform_costs(path).allreduce_time;
  } catch (const InputError& e) {
    fuzz::finding(
        std::string("an accepted all-reduce fit that `sgdsim run` refuses in the platform calibrate writes: ") +
        e.what());
  }
  const auto near = [](double x, double y) { return std::abs(x - y) <= 1e-8 * std::max(std::abs(x), std::abs(y)); };
  if (back.size() != f.by_nodes.size())
    fuzz::finding("an all-reduce fit that reads back with another number of node counts");
  for (std::size_t k = 0; k < back.size(); k++) {
    const AllreduceTimeFit &w = f.by_nodes[k], &r = back[k];
    bool same = r.nodes == w.nodes && near(r.eq.a1_s, w.eq.a1_s) && near(r.eq.b1_s, w.eq.b1_s) &&
                r.eq.threshold_bytes == w.eq.threshold_bytes && near(r.eq.a2_s_per_byte, w.eq.a2_s_per_byte) &&
                near(r.eq.b2_s, w.eq.b2_s) && near(r.smallest_bytes, w.smallest_bytes) &&
                r.measured.size() == w.measured.size();
    for (std::size_t i = 0; same && i < r.measured.size(); i++)
      same = r.measured[i].bytes == w.measured[i].bytes && near(r.measured[i].time_s, w.measured[i].time_s);
    if (!same)
      fuzz::finding("an all-reduce fit that reads back other than calibrate wrote it");
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
