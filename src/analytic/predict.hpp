// Every applicable analytic model of docs/models.md for one scenario, as Prediction rows (README "Analytic models").
#pragma once

#include "analytic/prediction.hpp"
#include "common/network_params.hpp"
#include "common/scenario.hpp"
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace sgdsim {

struct AnalyticInputs {
  const Workload* workload = nullptr;
  Scenario scenario;
  NetworkParams net;
  std::vector<double> speed_ratio; // per worker: host speed / reference speed (empty: all 1)
  /** The slowest PS host's speed / reference speed: T_S = ps_update / this (docs/models.md §9). */
  double ps_speed_ratio = 1;
  /** eq. 5 threshold rho_T: [LI22] found 0.5 on the 1 Gbps CloudLab CPU cluster and 0.6 on AWS GPU clusters. */
  double rho_t                      = 0.6;
  double tensor_overhead_s          = 0; // [LI20] c
  double tensor_overhead_s_per_byte = 0; // [LI20] a
  /** The reference simulation (§4) costs O(events log K); it is skipped above this many workers. */
  int reference_max_workers = 1024;
};

/** The predictions of every model that applies to the scenario's architecture and options, in a fixed order;
 *  none when no_prediction_reason() gives a reason. */
std::vector<Prediction> predict(const AnalyticInputs& in);

/** Why predict() has no row for this scenario and network, in words for the report ("" when it has rows): no
 *  bandwidth to read (every party on one host), or a collective that no model of docs/models.md covers. */
std::string no_prediction_reason(const Scenario& sc, const NetworkParams& net);

} // namespace sgdsim
