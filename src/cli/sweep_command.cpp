#include "cli/sweep_command.hpp"

#include "cli/child_process.hpp"
#include "cli/option_parsing.hpp"
#include "cli/options.hpp"
#include "cli/sweep_plan.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/text_file.hpp"
#include "report/sweep_table.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace sgdsim {

namespace {
using Json  = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "Usage: sgdsim sweep [sweep options] [any `sgdsim run` option...]\n"
    "\n"
    "Runs one simulation per point of --arch x --ps x --workers, each as its own `sgdsim run` process, and writes\n"
    "in the output folder: sweep.csv (one row per point, streamed as points finish), sweep.svg (throughput vs\n"
    "workers), sweep-plan.json and points/ (each point's JSON result and output). README \"Sweeps\".\n"
    "\n";

constexpr const char* kPassThrough =
    "\n"
    "Every other option goes to each point's `sgdsim run` unchanged (see `sgdsim run --help`), except the\n"
    "outputs (--json, --timeline), --deployment and --print-scenario, which a sweep sets or cannot use.\n";

po::options_description sweep_options()
{
  po::options_description d("Sweep options");
  // clang-format off
  d.add_options()
    ("arch", po::value<std::string>()->value_name("LIST"),
     "architectures, e.g. ps-sync,ps-async,ring (default ps-sync,ps-async,ring)")
    ("workers", po::value<std::string>()->value_name("LIST"),
     "e.g. 1:32 (every integer), 1:1024:x2 (powers of two), 4:32:4, 1,2,4,8 (default 1:16)")
    ("ps", po::value<std::string>()->value_name("LIST"),
     "parameter-server counts of the ps-* architectures (default 1)")
    ("output,o", po::value<std::string>()->value_name("DIR"), "output folder (default sweep)")
    ("jobs,j", po::value<std::string>()->value_name("N"), "points run at once (default 1; 0: one per core)")
    ("resume", "keep the points already in DIR/sweep.csv and run the others")
    ("force", "start over in a folder that has a sweep")
    ("emit-jobs", po::value<std::string>()->value_name("FILE"),
     "write the point command lines to FILE (one per line, for GNU parallel or a Slurm job array) instead of "
     "running them; then `sgdsim sweep --merge --output DIR`")
    ("merge", "build sweep.csv and sweep.svg from the plan and the points' JSON files in DIR")
    ("plot-models", po::value<std::string>()->value_name("LIST"),
     "analytic model ids drawn dashed (default: each architecture's docs/models.md model)")
    ("help,h", "this help");
  // clang-format on
  return d;
}

struct SweepOptions {
  std::string arch    = "ps-sync,ps-async,ring";
  std::string workers = "1:16";
  std::string ps      = "1";
  std::string output  = "sweep";
  int jobs            = 1;
  bool resume = false, force = false, merge = false, help = false;
  std::string emit_jobs;
  std::vector<std::string> plot_models;
  std::vector<std::string> run_arguments;
};

// Sweep options are taken out; every other token passes through to `sgdsim run`, in order (their arities are
// `run`'s business, e.g. --ada-fusion takes no value). A sweep option given twice: the last one counts (the
// --plot-models lists add up).
SweepOptions parse_sweep_options(const std::vector<std::string>& args, const po::options_description& d)
{
  SweepOptions o;
  const po::parsed_options parsed       = parse_command_line(args, d, nullptr, &o.run_arguments);
  const std::set<std::string> forbidden = {"--json", "--timeline", "--deployment", "--print-scenario"};
  for (const std::string& token : o.run_arguments)
    if (const std::string name = token.substr(0, token.find('=')); forbidden.count(name))
      throw InputError(name + ": a sweep sets each point's outputs and placement itself (see sgdsim sweep --help)");
  for (const po::option& opt : parsed.options) {
    const std::string& name = opt.string_key;
    const std::string value = opt.value.empty() ? "" : opt.value.back();
    o.resume |= name == "resume";
    o.force |= name == "force";
    o.merge |= name == "merge";
    o.help |= name == "help";
    if (name == "arch")
      o.arch = value;
    else if (name == "workers")
      o.workers = value;
    else if (name == "ps")
      o.ps = value;
    else if (name == "output")
      o.output = value;
    else if (name == "emit-jobs")
      o.emit_jobs = value;
    else if (name == "plot-models") {
      std::stringstream ss(value);
      for (std::string m; std::getline(ss, m, ',');)
        o.plot_models.push_back(m);
    } else if (name == "jobs") {
      const bool short_name = !opt.original_tokens.empty() && opt.original_tokens[0].rfind("--", 0) != 0;
      char* end             = nullptr;
      long n                = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 0 || n > 4096)
        throw InputError(std::string(short_name ? "-j" : "--jobs")
                             .append(" '")
                             .append(value)
                             .append("': expected a number of processes in [0, 4096]"));
      o.jobs = n == 0 ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : static_cast<int>(n);
    }
  }
  if (o.resume && o.force)
    throw InputError("--resume and --force: give one of the two");
  if (o.merge && (o.resume || o.force || !o.emit_jobs.empty()))
    throw InputError("--merge: builds the outputs of an existing sweep; it takes only --output and --plot-models");
  if (o.output.empty())
    throw InputError("--output: needs a folder");
  return o;
}

// The options that pass through are parsed once, as `sgdsim run` parses them, before anything else happens: a
// misspelt or unknown name (or a missing or malformed value) is the sweep's command-line error, reported once
// with the closest name among the sweep's options and run's, not as every point's. Errors that depend on a
// point's architecture or size are left to check_points.
void check_run_arguments(const SweepOptions& o, const po::options_description& d)
{
  if (o.run_arguments.empty())
    return;
  const po::options_description run = run_options_description();
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(o.run_arguments).options(run).style(kFullNamesOnly).run(), vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> candidates = option_spellings(d); // the sweep's own names first, then run's
    for (const std::string& name : option_spellings(run))
      candidates.push_back(name);
    throw InputError("sgdsim sweep: unknown option '" + e.get_option_name() + "'" +
                     did_you_mean(e.get_option_name(), candidates) +
                     " (sgdsim sweep --help, and sgdsim run --help for the options it passes on)");
  } catch (const po::error& e) {
    throw InputError(std::string("sgdsim sweep: ") + e.what());
  }
}

struct Paths {
  std::string dir, csv, svg, plan, points;
  std::string json(const SweepPoint& p) const { return (fs::path(points) / (p.id + ".json")).string(); }
  std::string log(const SweepPoint& p) const { return (fs::path(points) / (p.id + ".log")).string(); }
};

Paths paths_of(const std::string& dir)
{
  fs::path d(dir);
  return Paths{dir, (d / "sweep.csv").string(), (d / "sweep.svg").string(), (d / "sweep-plan.json").string(),
               (d / "points").string()};
}

std::vector<std::string> point_command(const SweepPoint& p, const Paths& paths)
{
  std::vector<std::string> argv = {"run"};
  argv.insert(argv.end(), p.args.begin(), p.args.end());
  argv.insert(argv.end(), {"--json", paths.json(p), "--force"});
  return argv;
}

// Every point's options are checked here, with the same parser `run` uses, so that an option that does not fit a
// point (e.g. --sharing with ring) fails the sweep at once instead of in a child (misspelt names are caught before,
// by check_run_arguments); the workload is parsed and the platform probed for the largest point of each
// series (enough hosts?).
void check_points(const SweepPlan& plan, const std::string& data_dir)
{
  std::map<std::string, const SweepPoint*> largest;
  for (const SweepPoint& p : plan.points) {
    std::vector<std::string> argv = {"run"};
    argv.insert(argv.end(), p.args.begin(), p.args.end());
    RunOptions opts;
    try {
      opts = parse_run_options(argv, data_dir);
      validate_scenario(opts.scenario);
    } catch (const InputError& e) {
      throw InputError("point " + p.id + ": " + e.what());
    }
    if (opts.help)
      throw InputError("--help: give it alone (sgdsim sweep --help, or sgdsim run --help for the run options)");
    if (!opts.simgrid_files.empty())
      throw InputError(opts.simgrid_files.front().label + ": every point of a sweep would write " +
                       opts.simgrid_files.front().path + "; run the point alone with sgdsim run");
    const std::string series = p.arch + "/" + std::to_string(p.ps);
    if (!largest.count(series) || largest[series]->workers < p.workers)
      largest[series] = &p;
  }
  for (const auto& [series, p] : largest) {
    std::vector<std::string> argv = {"run"};
    argv.insert(argv.end(), p->args.begin(), p->args.end());
    RunOptions opts = parse_run_options(argv, data_dir);
    SimInputs in;
    in.platform_path    = opts.platform;
    in.workload         = parse_workload_file(opts.workload);
    in.scenario         = opts.scenario;
    in.scenario.sharing = Sharing::FAIR; // the probe loads the platform only
    try {
      probe_platform_isolated(in);
    } catch (const InputError& e) {
      throw InputError("point " + p->id + ": " + e.what());
    }
  }
}

// The point ids that have a row in an existing CSV (the first column).
std::set<std::string> ids_in_csv(const std::string& path)
{
  std::set<std::string> ids;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line))
    if (!line.empty())
      ids.insert(line.substr(0, line.find(',')));
  return ids;
}

std::string duration_text(double s)
{
  char buf[64];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", static_cast<int>(s) / 3600, static_cast<int>(s) % 3600 / 60);
  return buf;
}

// The CSV and the SVG of every point that has a result, in plan order; returns the ids without one.
std::vector<std::string> write_outputs(const SweepPlan& plan, const Paths& paths, const SweepOptions& o)
{
  std::vector<SweepResult> results;
  std::vector<std::string> missing;
  for (const SweepPoint& p : plan.points) {
    const std::string path = paths.json(p);
    if (!path_exists(path)) {
      missing.push_back(p.id);
      continue;
    }
    try {
      results.push_back(SweepResult{p.id, Json::parse(read_text_file(path))});
      sweep_csv_row(results.back(), 0); // every field the CSV needs is there
    } catch (const std::exception& e) {
      throw InputError(path, 0, std::string("not an sgdsim run result: ") + e.what());
    }
  }
  write_file_atomically(paths.csv, sweep_csv(results));
  write_file_atomically(paths.svg, sweep_svg(results, o.plot_models));
  return missing;
}

int merge(const SweepOptions& o)
{
  const Paths paths = paths_of(o.output);
  if (!path_exists(paths.plan))
    throw InputError(paths.plan, 0, "no sweep plan here (made by sgdsim sweep --emit-jobs or a sweep run)");
  SweepPlan plan = plan_from_json(Json::parse(read_text_file(paths.plan), nullptr, false), paths.plan);
  std::vector<std::string> missing = write_outputs(plan, paths, o);
  std::cout << "sweep: merged " << plan.points.size() - missing.size() << " of " << plan.points.size()
            << " points into " << paths.csv << " and " << paths.svg << "\n";
  if (missing.empty())
    return 0;
  std::cerr << "sweep: no result yet for " << missing.size() << " points:";
  for (std::size_t i = 0; i < missing.size() && i < 10; i++)
    std::cerr << " " << missing[i];
  std::cerr << (missing.size() > 10 ? " ...\n" : "\n");
  return 1;
}
} // namespace

int sweep_command(const std::vector<std::string>& args, const std::string& data_dir)
{
  const po::options_description d = sweep_options();
  SweepOptions o                  = parse_sweep_options(args, d);
  if (o.help) {
    std::cout << kUsage << d << kPassThrough;
    return 0;
  }
  check_run_arguments(o, d);
  if (o.merge)
    return merge(o);

  SweepPlan plan = make_sweep_plan(parse_arch_list(o.arch), parse_int_list("--workers", o.workers),
                                   parse_int_list("--ps", o.ps), o.run_arguments);
  check_points(plan, data_dir);
  const Paths paths = paths_of(o.output);

  // What is done already, and whether this folder may be used.
  std::set<std::string> done;
  const bool has_sweep = path_exists(paths.csv) || path_exists(paths.plan);
  if (has_sweep && !o.resume && !o.force)
    throw InputError(o.output + ": holds a sweep already (use --resume to continue it, or --force to start over)");
  if (o.resume && path_exists(paths.plan)) {
    SweepPlan old = plan_from_json(Json::parse(read_text_file(paths.plan), nullptr, false), paths.plan);
    if (old.run_arguments != plan.run_arguments)
      throw InputError("--resume: the sweep in " + o.output + " was made with other run options (" +
                       plan_json(old)["run_arguments"].dump() + "); give the same ones, or use --force");
    for (const std::string& id : ids_in_csv(paths.csv))
      for (const SweepPoint& p : plan.points)
        if (p.id == id && path_exists(paths.json(p)))
          done.insert(id);
  }
  std::error_code ec;
  fs::create_directories(paths.points, ec);
  if (ec)
    throw InputError(paths.points, 0, "cannot create the folder: " + ec.message());
  write_file_atomically(paths.plan, plan_json(plan).dump(2) + "\n");

  std::vector<const SweepPoint*> todo;
  for (const SweepPoint& p : plan.points)
    if (!done.count(p.id))
      todo.push_back(&p);

  const std::string exe = self_executable();
  if (!o.emit_jobs.empty()) {
    const std::string cwd = fs::current_path().string();
    std::string lines;
    for (const SweepPoint* p : todo) {
      // Appends only: GCC 12 warns falsely on "literal" + std::string (-Wrestrict, GCC PR105329).
      lines.append("cd ").append(shell_quote(cwd)).append(" && ").append(shell_quote(exe));
      for (const std::string& a : point_command(*p, paths))
        lines.append(" ").append(shell_quote(a));
      lines.append(" > ").append(shell_quote(paths.log(*p))).append(" 2>&1\n");
    }
    write_file_atomically(o.emit_jobs, lines);
    std::cout << "sweep: " << todo.size() << " point command lines in " << o.emit_jobs << " (" << done.size()
              << " points already done). Run them, e.g.\n"
              << "  parallel -j 8 < " << shell_quote(o.emit_jobs) << "\n"
              << "  sbatch --array=1-" << todo.size() << " --wrap 'sed -n \"${SLURM_ARRAY_TASK_ID}p\" " << o.emit_jobs
              << " | sh'\n"
              << "then build the CSV and the plot:\n"
              << "  " << shell_quote(exe) << " sweep --merge --output " << shell_quote(o.output) << "\n";
    return 0;
  }

  // The streamed CSV: rows appended as points finish (completion order); rewritten in plan order at the end.
  std::map<std::string, double> one_worker; // series -> throughput at 1 worker
  for (const SweepPoint& p : plan.points)
    if (done.count(p.id) && p.workers == 1) {
      Json run                      = Json::parse(read_text_file(paths.json(p)));
      one_worker[sweep_series(run)] = run.at("simulated").at("throughput_examples_per_s").get<double>();
    }
  std::ofstream csv;
  if (o.resume && path_exists(paths.csv)) {
    csv.open(paths.csv, std::ios::app);
  } else {
    csv.open(paths.csv, std::ios::trunc);
    csv << sweep_csv_header() << std::flush;
  }
  if (!csv)
    throw InputError(paths.csv, 0, "cannot write the file");

  const auto start     = Clock::now();
  std::size_t finished = 0, failed = 0;
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::fprintf(stderr, "sweep: %zu points (%zu done before), %d at once, output in %s\n", todo.size() + done.size(),
               done.size(), o.jobs, o.output.c_str());
  std::vector<ChildJob> jobs;
  for (const SweepPoint* p : todo) {
    fs::remove(paths.json(*p), ec); // a stale result must not pass for this run's
    jobs.push_back({point_command(*p, paths), paths.log(*p)});
  }
  run_children(run_point_command(data_dir), jobs, o.jobs, [&](std::size_t index, int status) {
    const SweepPoint* p = todo[index];
    finished++;
    bool ok = status == 0 && path_exists(paths.json(*p));
    if (ok) {
      try {
        SweepResult r{p->id, Json::parse(read_text_file(paths.json(*p)))};
        const std::string series = sweep_series(r.run);
        if (p->workers == 1)
          one_worker[series] = r.run.at("simulated").at("throughput_examples_per_s").get<double>();
        auto base = one_worker.find(series);
        csv << sweep_csv_row(r, base == one_worker.end() ? 0.0 : base->second) << std::flush;
      } catch (const std::exception& ex) {
        ok = false;
      }
    }
    if (!ok) {
      failed++;
      std::fprintf(stderr, "%ssweep: point %s failed (exit %d): %s (full output: %s)\n", tty ? "\n" : "", p->id.c_str(),
                   status, last_nonempty_line(paths.log(*p)).c_str(), paths.log(*p).c_str());
    }
    const double elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
    const double left_s    = elapsed_s / static_cast<double>(finished) * static_cast<double>(todo.size() - finished);
    std::fprintf(stderr, "%ssweep: %zu/%zu points, %zu failed, %s elapsed, about %s left%s", tty ? "\r" : "",
                 finished + done.size(), todo.size() + done.size(), failed, duration_text(elapsed_s).c_str(),
                 duration_text(left_s).c_str(), tty ? "   " : "\n");
  });
  if (tty)
    std::fprintf(stderr, "\n");
  csv.close();
  write_outputs(plan, paths, o);
  std::cout << "sweep: " << plan.points.size() - failed << " of " << plan.points.size() << " points in " << paths.csv
            << " and " << paths.svg << "\n";
  if (failed == 0)
    return 0;
  std::cerr << "sweep: " << failed << " points failed; `sgdsim sweep ... --resume` runs them again\n";
  return 1;
}

} // namespace sgdsim
