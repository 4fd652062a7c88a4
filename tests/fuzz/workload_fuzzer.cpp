// libFuzzer harness: a workload file (docs/fuzzing.md). Accepted files must give finite totals: the simulation and
// the analytic models divide and sum them without further checks.
#include "fuzz_support.hpp"
#include "workload/workload_parser.hpp"

#include <cmath>

using namespace sgdsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string path = fuzz::write_scratch_file("workload.xml", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    const Workload wl = parse_workload_file(path);
    if (!std::isfinite(wl.model_bytes()) || !std::isfinite(wl.fwd_s()) || !std::isfinite(wl.bwd_s()) ||
        !std::isfinite(wl.ps_update_s))
      fuzz::finding("an accepted workload with a total that is not finite");
  });
  return 0;
}
