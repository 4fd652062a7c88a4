// libFuzzer harness: the checks sgdsim makes on a platform file before SimGrid reads it (docs/fuzzing.md): its
// numbers (platform_check) and its sgdsim.* properties (platform_costs), in the order `sgdsim run` makes them.
#include "fuzz_support.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_costs.hpp"

#include <cmath>

using namespace sgdsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string path = fuzz::write_scratch_file("platform.xml", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    check_platform_numbers(path);
    const PlatformCosts costs = read_platform_costs(path);
    for (const std::optional<double>& s : {costs.allreduce_overhead_s, costs.message_overhead_s})
      if (s && !(std::isfinite(*s) && *s >= 0))
        fuzz::finding("an accepted software cost that is not finite and non-negative");
    (void)format_allreduce_time(costs.allreduce_time);
  });
  return 0;
}
