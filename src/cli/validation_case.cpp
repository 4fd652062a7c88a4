#include "cli/validation_case.hpp"

#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/text_file.hpp"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace sgdsim {

namespace {
using Json = nlohmann::ordered_json;

// Paths in a case are relative to the repository: the nearest folder above the case that holds validation/.
fs::path repository_of(const fs::path& case_dir)
{
  fs::path p = fs::absolute(case_dir).lexically_normal();
  if (!p.has_filename())
    p = p.parent_path();
  for (fs::path up = p.parent_path(); !up.empty(); up = up.parent_path()) {
    if (is_directory_path(up / "validation"))
      return up;
    if (up == up.parent_path())
      break;
  }
  return p.parent_path().parent_path().parent_path();
}

std::string resolve(const std::string& arg, const fs::path& root)
{
  if (arg.empty() || arg[0] == '-' || fs::path(arg).is_absolute())
    return arg;
  fs::path p = root / arg;
  return path_exists(p) ? p.lexically_normal().string() : arg;
}

// A case's error bounds: {"mean": M, "max": X}, fractions in [0, 10].
ErrorBounds read_bounds(const Json& j, const std::string& path, const char* field)
{
  ErrorBounds b{j.at("mean").get<double>(), j.at("max").get<double>()};
  if (!(b.mean >= 0 && b.mean <= 10 && b.max >= 0 && b.max <= 10 && b.mean <= b.max))
    throw InputError(path, 0,
                     std::string(field) + ": mean " + std::to_string(b.mean) + ", max " + std::to_string(b.max) +
                         ": must be fractions in [0, 10] with mean <= max");
  return b;
}

} // namespace

ValidationCase read_validation_case(const std::string& case_dir)
{
  const fs::path dir(case_dir);
  const std::string path = (dir / "case.json").string();
  if (const PathKind kind = path_kind(dir); kind != PathKind::NONE && kind != PathKind::DIRECTORY)
    throw InputError(dir.string(), 0,
                     "not a folder: give a case's folder, which holds case.json (README \"Validation\")");
  if (!path_exists(path))
    throw InputError(path, 0, "no case.json in this folder (README \"Validation\")");
  Json j = Json::parse(read_text_file(path), nullptr, false);
  if (j.is_discarded())
    throw InputError(path, 0, "not valid JSON");
  const fs::path root = repository_of(dir);
  ValidationCase c;
  c.dir = dir.string();
  try {
    c.name        = j.at("name").get<std::string>();
    c.description = j.at("description").get<std::string>();
    c.uses        = j.at("prediction_uses").get<std::string>();
    c.metric      = j.at("metric").get<std::string>();
    if (c.metric != "step_time_s" && c.metric != "throughput_examples_per_s")
      throw InputError(path, 0, "metric '" + c.metric + "': expected step_time_s or throughput_examples_per_s");
    for (const auto& a : j.at("run"))
      c.run.push_back(resolve(a.get<std::string>(), root));
    if (j.contains("tolerance"))
      throw InputError(path, 0,
                       "field 'tolerance': renamed 'guard' (README \"Validation\": a case has a target and a "
                       "guard)");
    if (j.contains("guard"))
      c.guard = read_bounds(j.at("guard"), path, "guard");
    if (j.contains("target"))
      c.target = read_bounds(j.at("target"), path, "target");
    if (j.contains("missing"))
      c.missing = j.at("missing").get<std::string>();
    if (j.contains("seeds")) {
      c.seeds = j.at("seeds").get<int>();
      if (c.seeds < 1 || c.seeds > kMaxValidationSeeds)
        throw InputError(path, 0,
                         "seeds " + std::to_string(c.seeds) + ": must be in [1, " +
                             std::to_string(kMaxValidationSeeds) + "] (runs averaged per point)");
      for (const std::string& a : c.run)
        if (a == "--seed")
          throw InputError(path, 0, "seeds: the case's run gives --seed; seeds sets it (1 to N)");
    }
    for (const auto& p : j.at("points")) {
      ValidationPoint pt;
      pt.label = p.at("label").get<std::string>();
      if (c.find_point(pt.label))
        throw InputError(path, 0, "point '" + pt.label + "': two points with this label");
      if (p.contains("measured")) {
        pt.measured = p.at("measured").get<double>();
        if (!(pt.measured > 0))
          throw InputError(path, 0, "point '" + pt.label + "': measured must be positive");
      }
      for (const auto& a : p.at("args"))
        pt.args.push_back(resolve(a.get<std::string>(), root));
      c.points.push_back(pt);
    }
    if (j.contains("checks"))
      for (const auto& k : j.at("checks")) {
        ValidationCheck ck;
        ck.claim       = k.at("claim").get<std::string>();
        ck.numerator   = k.at("numerator").get<std::string>();
        ck.denominator = k.at("denominator").get<std::string>();
        if (k.contains("min"))
          ck.min = k.at("min").get<double>();
        if (k.contains("max"))
          ck.max = k.at("max").get<double>();
        if (k.contains("known_failure"))
          ck.known_failure = k.at("known_failure").get<std::string>();
        for (const std::string* label : {&ck.numerator, &ck.denominator})
          if (!c.find_point(*label))
            throw InputError(path, 0, "check '" + ck.claim + "': no point labelled '" + *label + "'");
        if (!(ck.min <= ck.max) || (std::isinf(ck.min) && std::isinf(ck.max)))
          throw InputError(path, 0, "check '" + ck.claim + "': needs min and/or max, with min <= max");
        c.checks.push_back(ck);
      }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("field missing or of the wrong type: ") + e.what());
  }
  if (c.points.empty())
    throw InputError(path, 0, "no points");
  if (!c.has_measurements() && c.checks.empty())
    throw InputError(path, 0, "no point has a measured value and there are no checks: nothing to compare");
  if (c.has_measurements() && !j.contains("guard"))
    throw InputError(path, 0, "field missing: guard {mean, max} (needed when points have measured values)");
  return c;
}

} // namespace sgdsim
