// One analytic model's answer, shown beside the simulation (DESIGN.md "Outputs").
#pragma once

#include <string>

namespace sgdsim {

struct Prediction {
  std::string model;    // stable id, e.g. "ps-sync-hybrid" (README "Analytic model ids")
  std::string equation; // the MODELS.md reference, e.g. "MODELS.md §2 eq. 9 [LI22]"
  double throughput_examples_per_s = 0;
  double step_time_s               = 0;
};

} // namespace sgdsim
