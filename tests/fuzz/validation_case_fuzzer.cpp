// libFuzzer harness: the JSON documents sgdsim reads back (docs/fuzzing.md). The input is written as
// CASE/case.json of a scratch repository (with a validation/ folder, so that the case's paths resolve there) and
// read as `sgdsim validate CASE` reads it; the same text is then read as a sweep's plan (sweep-plan.json, read by
// `sgdsim sweep --resume` and `--merge`). An accepted plan must survive a round trip: written back with
// plan_json and read again, it gives the same document.
#include "cli/sweep_plan.hpp"
#include "cli/validation_case.hpp"
#include "fuzz_support.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

using namespace sgdsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::string case_dir = [] {
    std::filesystem::create_directories(fuzz::scratch_dir() + "/validation/cases/c");
    return fuzz::scratch_dir() + "/validation/cases/c";
  }();
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::write_scratch_file("validation/cases/c/case.json", text);
  fuzz::expect_input_errors_only([&] { read_validation_case(case_dir); });
  fuzz::expect_input_errors_only([&] {
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (j.is_discarded())
      return;
    const SweepPlan plan            = plan_from_json(j, "sweep-plan.json");
    const nlohmann::ordered_json js = plan_json(plan);
    if (plan_json(plan_from_json(js, "sweep-plan.json")) != js)
      fuzz::finding("a plan read back from plan_json differs:\n" + js.dump(2));
  });
  return 0;
}
