// libFuzzer harness: a scenario file (`sgdsim run --scenario FILE`, docs/fuzzing.md) on a fixed small platform and
// workload, with the scenario checks of `run`. An accepted scenario must survive --print-scenario: the printed file,
// read back, is accepted and prints the same text (README "Scenario files": it reproduces the run).
#include "cli/options.hpp"
#include "fuzz_support.hpp"
#include "sim/simulation.hpp"

using namespace sgdsim;

namespace {
constexpr const char* kPlatform = R"(<?xml version="1.0"?>
<platform version="4.1">
  <cluster id="c" prefix="h" radical="0-15" suffix="" speed="15.7Tf" core="1" bw="10Gbps" lat="25us"/>
</platform>
)";
constexpr const char* kWorkload = R"(<?xml version="1.0"?>
<workload name="w" device="d" batch="32" reference_speed="15.7Tf">
  <layer name="l" fwd="1ms" bwd="2ms"><tensor name="t" size="1MB"/></layer>
</workload>
)";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::string platform = fuzz::write_scratch_file("platform.xml", kPlatform);
  static const std::string workload = fuzz::write_scratch_file("workload.xml", kWorkload);
  const std::string scenario        = fuzz::write_scratch_file("scenario.cfg", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    const RunOptions opts =
        parse_run_options({"run", "--scenario", scenario, "--platform", platform, "--workload", workload}, "");
    if (opts.help)
      return;
    validate_scenario(opts.scenario);
    const std::string printed = scenario_file_text(opts);
    const std::string again   = fuzz::write_scratch_file("printed.cfg", printed);
    std::string reprinted;
    try {
      reprinted = scenario_file_text(parse_run_options({"run", "--scenario", again}, ""));
    } catch (const InputError& e) {
      fuzz::finding(std::string("--print-scenario wrote a file that is refused: ") + e.what() + "\n" + printed);
    }
    if (reprinted != printed)
      fuzz::finding("--print-scenario's file, read back, prints another scenario:\n" + printed + "---\n" + reprinted);
  });
  return 0;
}
