// libFuzzer harness: a background file (docs/fuzzing.md), read and turned into SimGrid's trace text as the
// simulation does.
#include "fuzz_support.hpp"
#include "platform/background.hpp"

#include <cmath>

using namespace sgdsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string path = fuzz::write_scratch_file("background.xml", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    for (const AvailabilityProfile& p : read_background_file(path)) {
      if (p.steps.empty())
        fuzz::finding("an accepted profile without steps");
      for (const AvailabilityStep& s : p.steps)
        if (!std::isfinite(s.time_s) || !(s.fraction > 0) || !std::isfinite(s.fraction))
          fuzz::finding("an accepted step whose time or fraction is not finite and positive");
      (void)p.simgrid_trace();
    }
  });
  return 0;
}
