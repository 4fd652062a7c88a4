// What a sweep runs (README "Sweeps"): its points, each a complete `sgdsim run` command line, and the plan file
// that lets a sweep be resumed or merged from a cluster's outputs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sgdsim {

/** "1:32" (every integer), "1:64:x2" (times 2), "4:32:4" (step 4), "1,2,4,8", or commas of these; sorted,
 *  without duplicates. Throws InputError naming `option` on anything else or on a value below 1. */
std::vector<int> parse_int_list(const std::string& option, const std::string& text);

/** "ps-sync,ring": each must be an architecture (parse_arch); duplicates are errors. */
std::vector<std::string> parse_arch_list(const std::string& text);

struct SweepPoint {
  std::string id; // e.g. "ps-sync_ps1_w8", "ring_w16": a file name and the CSV's key
  std::string arch;
  int workers = 0;
  int ps      = 0;               // 0 for ring
  std::vector<std::string> args; // `sgdsim run` arguments, without "run" and without the output options
};

struct SweepPlan {
  std::vector<std::string> run_arguments; // the options passed through to every point, as given
  std::vector<SweepPoint> points;         // architecture, then PS count, then workers
};

/** A point's id, "ARCH_psM_wK" (or "ring_wK": ps 0), as in the CSV's first column and the points/ file names. */
std::string point_id(const std::string& arch, int ps, int workers);

/** The points of arch x ps (PS architectures only) x workers. */
SweepPlan make_sweep_plan(const std::vector<std::string>& archs, const std::vector<int>& workers,
                          const std::vector<int>& ps_counts, const std::vector<std::string>& run_arguments);

nlohmann::ordered_json plan_json(const SweepPlan& plan);
/** Throws InputError naming `path` if the document is not a plan. */
SweepPlan plan_from_json(const nlohmann::ordered_json& j, const std::string& path);

} // namespace sgdsim
