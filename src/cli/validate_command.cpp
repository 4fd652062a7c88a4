#include "cli/validate_command.hpp"

#include "cli/child_process.hpp"
#include "cli/option_parsing.hpp"
#include "cli/validation_case.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/text_file.hpp"
#include "report/validation_report.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
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
  run_children(run_point_command(data_dir), children, jobs, [&](std::size_t index, int status) {
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
