// The result of `sgdsim run`: its inputs, the simulated result and the analytic predictions, rendered as the
// human table on stdout and as the JSON document of --json (fields documented in README "JSON output").
#pragma once

#include "analytic/prediction.hpp"
#include "common/network_params.hpp"
#include "common/scenario.hpp"
#include "sim/sim_result.hpp"
#include "workload/workload.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sgdsim {

struct RunReport {
  std::string platform_path;
  std::string deployment_path; // empty: automatic placement
  std::string background_path; // empty: none
  const Workload* workload = nullptr;
  Scenario scenario;
  std::vector<std::string> log_settings;
  bool has_simulation = true; // false for `sgdsim analytic`
  SimResult simulated;
  NetworkParams network; // the platform's figures on the route the analytic models read (README "Parameters ...")
  double nic_factor = 1; // the platform's sgdsim.nic_factor: the models read network.bottleneck_Bps / nic_factor
  std::vector<Prediction> analytic;
};

/** Version of the JSON schema; bumped on any incompatible change of a field's name or meaning. */
constexpr int kJsonSchemaVersion = 1;

/** (analytic - simulated) / simulated, on throughputs. */
double relative_difference(double analytic, double simulated);

/** The human table (fixed number formats: identical inputs give identical text). */
std::string format_table(const RunReport& report);
/** The table of `sgdsim analytic`: the scenario, the platform's numbers and every applicable model. */
std::string format_analytic_table(const RunReport& report);
/** The --json document. */
nlohmann::ordered_json report_json(const RunReport& report);

} // namespace sgdsim
