#include "cli/validate_command.hpp"

#include "cli/child_process.hpp"
#include "cli/exit_status.hpp"
#include "cli/option_parsing.hpp"
#include "cli/run_command.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/text_file.hpp"
#include "report/validation_report.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace sgdsim {

namespace {
using Json = nlohmann::ordered_json;
// The markers of the summary table that --readme replaces (README.md "Validation").
constexpr const char* kSummaryBegin = "<!-- validation-summary:begin -->"; // on a line of its own
constexpr const char* kSummaryEnd   = "<!-- validation-summary:end -->";

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

int validate_command(const std::vector<std::string>& args, const std::string& data_dir)
{
  std::vector<std::string> dirs;
  std::string report_dir, readme;
  int jobs = 1;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("case", po::value<std::vector<std::string>>(&dirs),
     "a case folder (default: every folder of validation/cases and validation/testbed/cases)")
    ("jobs,j", po::value<int>(&jobs)->default_value(1), "simulations at once")
    ("report-dir", po::value<std::string>(&report_dir), "write REPORT.md and report.json here (default: none)")
    ("readme", po::value<std::string>(&readme), "replace the summary table between the validation markers of FILE");
  // clang-format on
  po::positional_options_description pos;
  pos.add("case", -1);
  po::variables_map vm;
  try {
    po::store(parse_command_line(args, d, &pos), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("sgdsim validate: ") + e.what());
  }
  if (vm.count("help")) {
    std::cout << "Usage: sgdsim validate [CASE_DIR...] [options]\n\nRuns validation cases and compares the "
                 "simulation and the analytic models with the measurements.\n\n"
              << d;
    return 0;
  }
  if (jobs < 1 || jobs > 256)
    throw InputError("--jobs " + std::to_string(jobs) + ": must be in [1, 256]");
  if (dirs.empty()) { // the public cases, then the testbed's (README "Validation")
    const fs::path root = path_exists("validation/cases") ? fs::path(".") : fs::path(data_dir);
    if (!path_exists(root / "validation/cases"))
      throw InputError("no validation/cases folder here or in " + data_dir);
    for (const char* folder : {"validation/cases", "validation/testbed/cases"}) {
      if (!path_exists(root / folder))
        continue;
      std::vector<std::string> found;
      for (const auto& e : fs::directory_iterator(root / folder))
        if (e.is_directory())
          found.push_back((fs::path(folder) / e.path().filename()).string());
      std::sort(found.begin(), found.end());
      for (const std::string& f : found)
        dirs.push_back(root == "." ? f : (root / f).string());
    }
  }
  std::vector<ValidationCase> cases;
  for (const std::string& dir : dirs)
    cases.push_back(read_validation_case(dir));
  // The outputs are checked before any point runs: the report goes to stdout first, and an output that cannot be
  // written must not be found out after minutes of simulation (issue #21, class 1).
  if (!report_dir.empty()) {
    if (!is_directory_path(report_dir))
      throw InputError("--report-dir " + report_dir +
                       ": not an existing folder (it receives REPORT.md and report.json)");
    for (const char* name : {"REPORT.md", "report.json"})
      check_replaceable_output("--report-dir", (fs::path(report_dir) / name).string());
  }
  if (!readme.empty()) {
    const std::string text = read_text_file(readme);
    const auto b = text.find(std::string(kSummaryBegin) + "\n"), e = text.find(kSummaryEnd);
    if (b == std::string::npos || e == std::string::npos || e < b)
      throw InputError(readme, 0, std::string("no ") + kSummaryBegin + " ... " + kSummaryEnd + " markers");
    check_replaceable_output("--readme", readme);
  }

  // Every point is one `sgdsim run --json`, in a forked process of its own (cli/child_process.hpp).
  char tmpl[] = "/tmp/sgdsim-validate-XXXXXX";
  if (mkdtemp(tmpl) == nullptr)
    throw std::runtime_error("cannot create a temporary folder");
  const fs::path tmp(tmpl);
  struct RemoveOnExit {
    fs::path dir;
    ~RemoveOnExit()
    {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmp};
  struct Job {
    ValidationCase* c;
    ValidationPoint* p; // the point's seeds are consecutive jobs, seed 1 first
    std::string json, log;
    double sim = 0;                       // this run's simulated metric
    std::map<std::string, double> models; // and the analytic models'
  };
  std::vector<Job> all;
  std::vector<ChildJob> children;
  for (ValidationCase& c : cases)
    for (std::size_t i = 0; i < c.points.size(); i++)
      for (int seed = 1; seed <= c.seeds; seed++) { // "seeds": one run per seed, averaged below
        const std::string base = (tmp / (c.name + "-" + std::to_string(i) + "-" + std::to_string(seed))).string();
        all.push_back({&c, &c.points[i], base + ".json", base + ".log", 0, {}});
        std::vector<std::string> argv = {"run"};
        argv.insert(argv.end(), c.run.begin(), c.run.end());
        argv.insert(argv.end(), c.points[i].args.begin(), c.points[i].args.end());
        if (c.seeds > 1)
          argv.insert(argv.end(), {"--seed", std::to_string(seed)});
        argv.insert(argv.end(), {"--json", all.back().json, "--force"});
        children.push_back({argv, all.back().log});
      }
  const ChildMain run_point = [&](const std::vector<std::string>& argv) {
    return exit_status_of([&] { return run_command(argv, data_dir); });
  };
  run_children(run_point, children, jobs, [&](std::size_t index, int status) {
    Job& job = all[index];
    if (status != 0 || !path_exists(job.json))
      throw InputError(job.c->dir, 0,
                       "point '" + job.p->label + "' failed (exit " + std::to_string(status) +
                           "): " + last_nonempty_line(job.log));
    Json r          = Json::parse(read_text_file(job.json));
    const bool step = job.c->metric == "step_time_s";
    job.sim         = r.at("simulated").at(step ? "step_time_mean_s" : "throughput_examples_per_s").get<double>();
    for (const auto& m : r.at("analytic")) {
      const Json& v = m.at(step ? "step_time_s" : "throughput_examples_per_s");
      if (v.is_number()) // a model without an answer for this point (e.g. CSF with no compute) writes null
        job.models[m.at("model").get<std::string>()] = v.get<double>();
    }
  });
  // Each point's figures: the mean over its seeds' runs, summed in seed order (the jobs finish in any order), so
  // that the same inputs give the same report byte for byte. A model missing from one seed's run is left out.
  for (std::size_t first = 0; first < all.size(); first += static_cast<std::size_t>(all[first].c->seeds)) {
    const int seeds    = all[first].c->seeds;
    ValidationPoint& p = *all[first].p;
    p.simulated        = 0;
    for (int k = 0; k < seeds; k++)
      p.simulated += all[first + static_cast<std::size_t>(k)].sim / seeds;
    for (const auto& first_run : all[first].models) {
      const std::string& model = first_run.first;
      double sum               = 0;
      int n                    = 0;
      for (int k = 0; k < seeds; k++)
        if (const auto& ms = all[first + static_cast<std::size_t>(k)].models; ms.count(model)) {
          sum += ms.at(model) / seeds;
          n++;
        }
      if (n == seeds)
        p.models[model] = sum;
    }
  }

  const ValidationReport rep = build_validation_report(cases);
  const std::string& full    = rep.markdown;
  std::cout << full;
  if (!report_dir.empty()) {
    write_file_atomically((fs::path(report_dir) / "REPORT.md").string(), full);
    write_file_atomically((fs::path(report_dir) / "report.json").string(), rep.json.dump(2) + "\n");
  }
  if (!readme.empty()) {
    std::string text = read_text_file(readme);
    auto b = text.find(std::string(kSummaryBegin) + "\n"), e = text.find(kSummaryEnd);
    if (b == std::string::npos || e == std::string::npos || e < b) // changed while the points ran
      throw InputError(readme, 0, std::string("no ") + kSummaryBegin + " ... " + kSummaryEnd + " markers");
    text = text.substr(0, b + std::strlen(kSummaryBegin) + 1) + rep.summary + text.substr(e);
    write_file_atomically(readme, text);
  }
  if (!rep.guards_hold)
    std::cerr << "sgdsim validate: a case exceeded its guard or a check failed\n";
  return rep.guards_hold ? 0 : 1;
}

} // namespace sgdsim
