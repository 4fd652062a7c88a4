// A sweep's results (one `sgdsim run --json` document per point) as the CSV and the SVG plot of README
// "Sweeps". Pure functions of the JSON documents: a sweep run on this machine and one merged from a cluster's
// job outputs give the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sgdsim {

struct SweepResult {
  std::string point_id;       // e.g. "ps-sync_ps1_w8"
  nlohmann::ordered_json run; // the point's --json document (schema_version 1)
};

/** The CSV's column names, in order (documented in README "Sweep CSV"). */
std::vector<std::string> sweep_csv_columns();
/** The header line, newline-terminated. */
std::string sweep_csv_header();
/** The series a point belongs to: its architecture with the PS count, or the collective (e.g. "ps-sync, 2 PS"). */
std::string sweep_series(const nlohmann::ordered_json& run);
/** One newline-terminated row. `one_worker_throughput` is the series' throughput at 1 worker (NaN if the sweep
 *  has none: the scaling efficiency is then left empty). Throws std::out_of_range if a field is missing. */
std::string sweep_csv_row(const SweepResult& r, double one_worker_throughput);
/** Header and rows in the given order, scaling efficiencies filled from the 1-worker point of each series. */
std::string sweep_csv(const std::vector<SweepResult>& results);

/** The model each series is drawn with by default: the docs/models.md model of its architecture and options. */
std::string primary_model(const nlohmann::ordered_json& run);
/** Throughput vs workers: one solid curve per series (simulated) and a dashed one per analytic model drawn
 *  (`models`: ids to draw for every series where they apply; empty: each series' primary_model). */
std::string sweep_svg(const std::vector<SweepResult>& results, const std::vector<std::string>& models);

} // namespace sgdsim
