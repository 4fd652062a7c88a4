// One analytic model's answer, shown beside the simulation (docs/design.md "Outputs").
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace sgdsim {

struct Prediction {
  std::string model;    // stable id, e.g. "ps-sync-hybrid" (README "Analytic model ids")
  std::string equation; // the docs/models.md reference, e.g. "models.md §2 eq. (9) [LI22]"
  double throughput_examples_per_s = 0;
  double step_time_s               = 0;
};

/** Every model id predict() can emit, in a fixed order (README "Analytic models"): the analytic columns of a
 *  sweep's CSV. A unit test checks that predict() emits no other id. */
inline constexpr std::array<std::string_view, 19> kAnalyticModelIds = {"ps-sync-fair",
                                                                       "ps-sync-fcfs",
                                                                       "ps-sync-hybrid",
                                                                       "ps-sync-hybrid-overlap",
                                                                       "zeng23-cpu",
                                                                       "zeng23-gpu",
                                                                       "ps-async-mva",
                                                                       "ps-async-mva-overlap",
                                                                       "li22-reference-ps",
                                                                       "li22-reference-fcfs",
                                                                       "li22-reference-hybrid",
                                                                       "ring-eq11",
                                                                       "halving-doubling",
                                                                       "osf",
                                                                       "osf-fusion",
                                                                       "osf-adafusion",
                                                                       "csf",
                                                                       "perfestimator",
                                                                       "li22-reference-allreduce"};

} // namespace sgdsim
