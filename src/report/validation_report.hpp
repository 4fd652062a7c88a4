// The report of `sgdsim validate` (README "Validation"): per point, per case and overall, the errors of the
// simulation and of every analytic model against the measurements; each case's target (what a user needs to trust a
// prediction) met or missed, and its guard (what CI enforces so that accuracy never gets worse unnoticed).
#pragma once

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sgdsim {

struct ValidationPoint {
  std::string label;
  std::vector<std::string> args;
  double measured = NAN; // NAN: a scenario point that only checks use
  // Filled after the run:
  double simulated = NAN;
  std::map<std::string, double> models; // model id -> prediction of the metric
};

/** A qualitative fact as a claim on the simulation: the simulated metric of point `numerator` divided by that of
 *  point `denominator` lies in [min, max] (e.g. "throughput saturates": 8 workers over 5 workers <= 1.1). */
struct ValidationCheck {
  std::string claim, numerator, denominator;
  double min = -INFINITY, max = INFINITY;
  std::string known_failure; // non-empty: the simulation is known to miss this fact, and why (it fails no run)
};

/** Bounds on the mean and the max of the simulation's absolute relative errors over a case's points. */
struct ErrorBounds {
  double mean = 0, max = 0;
};

/** What a user needs to trust a prediction (README "Validation"): the default target of every case. */
constexpr ErrorBounds kDefaultTarget{0.05, 0.15};

/** The most seeds a case may average over (case.json "seeds"). */
constexpr int kMaxValidationSeeds = 64;

struct ValidationCase {
  std::string name, dir, description, metric, uses;
  std::vector<std::string> run;
  ErrorBounds target = kDefaultTarget; // shown met or missed; never fails a run
  ErrorBounds guard;                   // CI: a case beyond its guard fails the run
  std::string missing;                 // what the simulation lacks where the target is missed (case.json "missing")
  /** case.json "seeds": each point is simulated with --seed 1..seeds and its figures are the means, the expectation
   *  of a random run (e.g. --flow-spread-in/out) rather than one draw. 1: one run, the run's own seed. */
  int seeds = 1;
  std::vector<ValidationPoint> points;
  std::vector<ValidationCheck> checks;
  bool has_measurements() const;
  const ValidationPoint* find_point(const std::string& label) const;
};

struct ValidationReport {
  std::string markdown; // the whole REPORT.md
  std::string summary;  // the summary table alone (README's copy)
  nlohmann::ordered_json json;
  bool guards_hold = true; // every case within its guard and every check holding or known to fail
};

/** Builds the report of cases whose points have been simulated. */
ValidationReport build_validation_report(const std::vector<ValidationCase>& cases);

} // namespace sgdsim
