#include "cli/validate_command.hpp"

#include "cli/child_process.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/text_file.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
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

struct Point {
  std::string label;
  std::vector<std::string> args;
  double measured = NAN; // NAN: a scenario point that only checks use
  // Filled after the run:
  double simulated = NAN;
  std::map<std::string, double> models; // model id -> prediction of the metric
};

// A qualitative fact as a claim on the simulation: the simulated metric of point `numerator` divided by that of
// point `denominator` lies in [min, max] (e.g. "throughput saturates": 8 workers over 5 workers <= 1.1).
struct Check {
  std::string claim, numerator, denominator;
  double min = -INFINITY, max = INFINITY;
  std::string known_failure; // non-empty: the simulation is known to miss this fact, and why (it fails no run)
  double ratio = NAN;        // filled after the run
  bool holds() const { return ratio >= min && ratio <= max; }
};

struct Case {
  std::string name, dir, description, metric, uses;
  std::vector<std::string> run;
  double tol_mean = 0, tol_max = 0;
  std::vector<Point> points;
  std::vector<Check> checks;
  bool has_measurements() const
  {
    return std::any_of(points.begin(), points.end(), [](const Point& p) { return !std::isnan(p.measured); });
  }
};

const Point* find_point(const Case& c, const std::string& label)
{
  for (const Point& p : c.points)
    if (p.label == label)
      return &p;
  return nullptr;
}

// Paths in a case are relative to the repository (the folder that holds validation/).
std::string resolve(const std::string& arg, const fs::path& root)
{
  if (arg.empty() || arg[0] == '-' || fs::path(arg).is_absolute())
    return arg;
  fs::path p = root / arg;
  return fs::exists(p) ? p.lexically_normal().string() : arg;
}

Case read_case(const fs::path& dir)
{
  const std::string path = (dir / "case.json").string();
  if (!fs::exists(path))
    throw InputError(path, 0, "no case.json in this folder (README \"Validation\")");
  Json j = Json::parse(read_text_file(path), nullptr, false);
  if (j.is_discarded())
    throw InputError(path, 0, "not valid JSON");
  const fs::path root = fs::absolute(dir).lexically_normal().parent_path().parent_path().parent_path();
  Case c;
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
    if (j.contains("tolerance")) {
      c.tol_mean = j.at("tolerance").at("mean").get<double>();
      c.tol_max  = j.at("tolerance").at("max").get<double>();
    }
    for (const auto& p : j.at("points")) {
      Point pt;
      pt.label = p.at("label").get<std::string>();
      if (find_point(c, pt.label))
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
        Check ck;
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
          if (!find_point(c, *label))
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
  if (c.has_measurements() && !j.contains("tolerance"))
    throw InputError(path, 0, "field missing: tolerance {mean, max} (needed when points have measured values)");
  return c;
}

std::string pct(double x)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100 * x);
  return buf;
}
std::string num(double x)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

struct Stats {
  double sum = 0, max = 0;
  int n = 0;
  void add(double rel)
  {
    sum += std::fabs(rel);
    max = std::max(max, std::fabs(rel));
    n++;
  }
  double mean() const { return n ? sum / n : NAN; }
};
} // namespace

int validate_command(const std::vector<std::string>& args, const std::string& data_dir)
{
  std::vector<std::string> dirs;
  std::string report_dir, readme;
  int jobs = 1;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("case", po::value<std::vector<std::string>>(&dirs), "a case folder (default: every folder of validation/cases)")
    ("jobs,j", po::value<int>(&jobs)->default_value(1), "simulations at once")
    ("report-dir", po::value<std::string>(&report_dir), "write REPORT.md and report.json here (default: none)")
    ("readme", po::value<std::string>(&readme), "replace the summary table between the validation markers of FILE");
  // clang-format on
  po::positional_options_description pos;
  pos.add("case", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(d)
                  .positional(pos)
                  .run(),
              vm);
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
  if (dirs.empty()) {
    fs::path base =
        fs::exists("validation/cases") ? fs::path("validation/cases") : fs::path(data_dir) / "validation/cases";
    if (!fs::exists(base))
      throw InputError("no validation/cases folder here or in " + data_dir);
    for (const auto& e : fs::directory_iterator(base))
      if (e.is_directory())
        dirs.push_back(e.path().string());
    std::sort(dirs.begin(), dirs.end());
  }
  std::vector<Case> cases;
  for (const std::string& dir : dirs)
    cases.push_back(read_case(dir));

  // Every point is one `sgdsim run --json`, in its own process.
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
    Case* c;
    Point* p;
    std::string json, log;
  };
  std::vector<Job> all;
  std::vector<ChildJob> children;
  for (Case& c : cases)
    for (std::size_t i = 0; i < c.points.size(); i++) {
      const std::string base = (tmp / (c.name + "-" + std::to_string(i))).string();
      all.push_back({&c, &c.points[i], base + ".json", base + ".log"});
      std::vector<std::string> argv = {"run"};
      argv.insert(argv.end(), c.run.begin(), c.run.end());
      argv.insert(argv.end(), c.points[i].args.begin(), c.points[i].args.end());
      argv.insert(argv.end(), {"--json", all.back().json, "--force"});
      children.push_back({argv, all.back().log});
    }
  run_children(self_executable(), children, jobs, [&](std::size_t index, int status) {
    Job& job = all[index];
    if (status != 0 || !fs::exists(job.json))
      throw InputError(job.c->dir, 0,
                       "point '" + job.p->label + "' failed (exit " + std::to_string(status) +
                           "): " + last_nonempty_line(job.log));
    Json r           = Json::parse(read_text_file(job.json));
    const bool step  = job.c->metric == "step_time_s";
    job.p->simulated = r.at("simulated").at(step ? "step_time_mean_s" : "throughput_examples_per_s").get<double>();
    for (const auto& m : r.at("analytic")) {
      const Json& v = m.at(step ? "step_time_s" : "throughput_examples_per_s");
      if (v.is_number()) // a model without an answer for this point (e.g. CSF with no compute) writes null
        job.p->models[m.at("model").get<std::string>()] = v.get<double>();
    }
  });

  // The report: per point, per case, overall.
  std::ostringstream md;
  Json report;
  report["cases"] = Json::array();
  Stats overall_sim;
  std::map<std::string, Stats> overall_models;
  bool all_within = true;
  std::string summary =
      "| case | measured points | simulation mean / max | tolerance mean / max | best analytic model: mean / max |\n"
      "|---|---|---|---|---|\n";
  for (const Case& c : cases) {
    md << "## " << c.name << "\n\n" << c.description << "\n\nPrediction uses: " << c.uses << "\n\n";
    std::vector<std::string> model_ids;
    for (const Point& p : c.points) {
      if (std::isnan(p.measured)) // scenario points get no model columns
        continue;
      for (const auto& [m, v] : p.models)
        if (std::find(model_ids.begin(), model_ids.end(), m) == model_ids.end())
          model_ids.push_back(m);
    }
    md << "| point | measured " << c.metric << " | simulated | error |";
    for (const std::string& m : model_ids)
      md << " " << m << " | error |";
    md << "\n|---|---|---|---|";
    for (std::size_t i = 0; i < model_ids.size(); i++)
      md << "---|---|";
    md << "\n";
    Stats sim;
    std::map<std::string, Stats> models;
    Json jc = {{"name", c.name}, {"metric", c.metric}, {"points", Json::array()}};
    for (const Point& p : c.points) {
      if (std::isnan(p.measured)) { // a scenario point: only its checks use it
        md << "| " << p.label << " | (not measured) | " << num(p.simulated) << " | |";
        for (std::size_t i = 0; i < model_ids.size(); i++)
          md << " | |";
        md << "\n";
        jc["points"].push_back({{"label", p.label}, {"simulated", p.simulated}});
        continue;
      }
      const double e = (p.simulated - p.measured) / p.measured;
      sim.add(e);
      overall_sim.add(e);
      md << "| " << p.label << " | " << num(p.measured) << " | " << num(p.simulated) << " | " << pct(e) << " |";
      Json jp = {{"label", p.label}, {"measured", p.measured}, {"simulated", p.simulated}, {"simulated_error", e}};
      for (const std::string& m : model_ids) {
        auto it = p.models.find(m);
        if (it == p.models.end()) {
          md << " | |";
          continue;
        }
        const double em = (it->second - p.measured) / p.measured;
        models[m].add(em);
        overall_models[m].add(em);
        md << " " << num(it->second) << " | " << pct(em) << " |";
        jp["analytic"][m] = {{"value", it->second}, {"error", em}};
      }
      md << "\n";
      jc["points"].push_back(jp);
    }
    int checks_held = 0, checks_known = 0; // known failures miss a fact on record: they fail no run
    if (!c.checks.empty()) {
      md << "\n| check (simulation) | ratio | allowed | holds |\n|---|---|---|---|\n";
      jc["checks"] = Json::array();
      for (Check ck : c.checks) {
        ck.ratio = find_point(c, ck.numerator)->simulated / find_point(c, ck.denominator)->simulated;
        checks_held += ck.holds() ? 1 : 0;
        checks_known += !ck.holds() && !ck.known_failure.empty() ? 1 : 0;
        const std::string verdict = ck.holds() ? (ck.known_failure.empty() ? "yes" : "yes (marked a known failure)")
                                    : ck.known_failure.empty() ? "**no**"
                                                               : "no, known: " + ck.known_failure;
        md << "| " << ck.claim << ": " << ck.numerator << " / " << ck.denominator << " | " << num(ck.ratio) << " | "
           << (std::isinf(ck.min) ? std::string("") : num(ck.min)) << " .. "
           << (std::isinf(ck.max) ? std::string("") : num(ck.max)) << " | " << verdict << " |\n";
        jc["checks"].push_back({{"claim", ck.claim},
                                {"numerator", ck.numerator},
                                {"denominator", ck.denominator},
                                {"ratio", ck.ratio},
                                {"holds", ck.holds()},
                                {"known_failure", ck.known_failure}});
      }
    }
    const bool checks_ok = checks_held + checks_known == static_cast<int>(c.checks.size());
    const bool within    = (sim.n == 0 || (sim.mean() <= c.tol_mean && sim.max <= c.tol_max)) && checks_ok;
    all_within           = all_within && within;
    const std::string checks_text =
        c.checks.empty() ? ""
                         : std::to_string(checks_held) + " of " + std::to_string(c.checks.size()) + " checks hold" +
                               (checks_known ? " (" + std::to_string(checks_known) + " known failures)" : "");
    if (sim.n == 0) {
      md << "\n" << checks_text << ": " << (within ? "within" : "**failed**") << ".\n\n";
      summary += "| " + c.name + " | 0 (" + std::to_string(c.points.size()) + " simulated) | qualitative | " +
                 checks_text + " | |\n";
      jc["within_tolerance"] = within;
      report["cases"].push_back(jc);
      continue;
    }
    md << "\n| predictor | mean abs error | max abs error |\n|---|---|---|\n| simulation | " << num(100 * sim.mean())
       << "% | " << num(100 * sim.max) << "% |\n";
    // The best model answers for the most points, then has the lowest mean: a model that skips the hard points
    // (e.g. ring-only models in a case that also has PS points) must not look best for the case.
    std::string best;
    for (const auto& [m, s] : models) {
      md << "| " << m << " | " << num(100 * s.mean()) << "% | " << num(100 * s.max) << "% |\n";
      if (best.empty() || s.n > models[best].n || (s.n == models[best].n && s.mean() < models[best].mean()))
        best = m;
    }
    const std::string best_points =
        !best.empty() && models[best].n < sim.n
            ? " (" + std::to_string(models[best].n) + " of " + std::to_string(sim.n) + " points)"
            : "";
    md << "\nTolerance (simulation): mean " << num(100 * c.tol_mean) << "%, max " << num(100 * c.tol_max) << "%"
       << (checks_text.empty() ? "" : "; " + checks_text) << ": " << (within ? "within" : "**exceeded**") << ".\n\n";
    summary += "| " + c.name + " | " + std::to_string(sim.n) + " | " + num(100 * sim.mean()) + "% / " +
               num(100 * sim.max) + "% | " + num(100 * c.tol_mean) + "% / " + num(100 * c.tol_max) + "%" +
               (checks_text.empty() ? "" : "; " + checks_text) + " | " +
               (best.empty() ? "none"
                             : best + ": " + num(100 * models[best].mean()) + "% / " + num(100 * models[best].max) +
                                   "%" + best_points) +
               " |\n";
    jc["simulation"] = {{"mean_abs_error", sim.mean()}, {"max_abs_error", sim.max}};
    for (const auto& [m, s] : models)
      jc["analytic"][m] = {{"mean_abs_error", s.mean()}, {"max_abs_error", s.max}};
    jc["tolerance"]        = {{"mean", c.tol_mean}, {"max", c.tol_max}};
    jc["within_tolerance"] = within;
    report["cases"].push_back(jc);
  }
  summary += "| **all** | " + std::to_string(overall_sim.n) + " | " +
             (overall_sim.n ? num(100 * overall_sim.mean()) + "% / " + num(100 * overall_sim.max) + "%" : "none") +
             " | | |\n";
  report["overall"] = {{"points", overall_sim.n},
                       {"simulation", {{"mean_abs_error", overall_sim.mean()}, {"max_abs_error", overall_sim.max}}}};
  for (const auto& [m, s] : overall_models)
    report["overall"]["analytic"][m] = {{"points", s.n}, {"mean_abs_error", s.mean()}, {"max_abs_error", s.max}};

  const std::string full = "# Validation report\n\nMade by `sgdsim validate` (README \"Validation\"). Errors are "
                           "(predicted - measured) / measured.\n\n## Summary\n\n" +
                           summary + "\n" + md.str();
  std::cout << full;
  if (!report_dir.empty()) {
    write_file_atomically((fs::path(report_dir) / "REPORT.md").string(), full);
    write_file_atomically((fs::path(report_dir) / "report.json").string(), report.dump(2) + "\n");
  }
  if (!readme.empty()) {
    std::string text        = read_text_file(readme);
    const std::string begin = "<!-- validation-summary:begin -->\n", end = "<!-- validation-summary:end -->";
    auto b = text.find(begin), e = text.find(end);
    if (b == std::string::npos || e == std::string::npos || e < b)
      throw InputError(readme, 0, "no <!-- validation-summary:begin --> ... end --> markers");
    text = text.substr(0, b + begin.size()) + summary + text.substr(e);
    write_file_atomically(readme, text);
  }
  if (!all_within)
    std::cerr << "sgdsim validate: a case exceeded its recorded tolerance\n";
  return all_within ? 0 : 1;
}

} // namespace sgdsim
