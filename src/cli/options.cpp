// Parses the options of `sgdsim run` and `sgdsim analytic` (declared in option_descriptions.cpp) from the command
// line and a scenario file, and checks every one of them before anything runs (README "Options").
#include "cli/options.hpp"

#include "cli/communication_options.hpp"
#include "cli/option_descriptions.hpp"
#include "cli/option_parsing.hpp"

#include "common/atomic_file.hpp"
#include "common/frameworks.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/text_file.hpp"
#include "common/units.hpp"
#include "workload/step_sampler.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace po = boost::program_options;

namespace sgdsim {

namespace {
constexpr const char* kDefaultPlatform = "platforms/aws-p3.2xlarge.xml";
constexpr const char* kDefaultWorkload = "workloads/resnet50-v100-b32.xml";

std::string resolve_default(const std::string& relative, const std::string& data_dir)
{
  if (path_exists(relative) || data_dir.empty())
    return relative;
  return (std::filesystem::path(data_dir) / relative).string();
}

// The first line of a scenario file that sets `name` ("name = value"), or 0; Boost's parser does not say.
int line_of_name(const std::string& path, const std::string& name)
{
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    n++;
    const std::size_t begin = line.find_first_not_of(" \t");
    if (begin != std::string::npos && line.compare(begin, name.size(), name) == 0 &&
        line.find_first_not_of(" \t", begin + name.size()) == line.find('=', begin))
      return n;
  }
  return 0;
}

// Boost reads "-1" as 2^64 - 1 for an unsigned option: a seed is parsed here, whole and non-negative.
std::uint64_t parse_seed(const std::string& text)
{
  std::uint64_t seed   = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw InputError("--seed '" + text + "': expected a whole number in [0, 18446744073709551615]");
  return seed;
}

// Every file a run writes: sgdsim's outputs (--json, --timeline, --csv) and SimGrid's (--log appenders, the trace).
// None may be an input of the run or another output; each must be a regular file or a new one in a writable folder;
// an existing one is replaced only with --force (--csv appends a row, so it may exist).
void check_output_files(const RunOptions& opts, const std::string& scenario_path)
{
  namespace fs         = std::filesystem;
  const auto same_path = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal())
      return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec) && !ec;
  };
  struct Output {
    std::string label, path;
    bool appends; // --csv: a row is appended to an existing file
    bool simgrid; // the label is a setting ("--log 'root.app:file:a.log'"): the path is named after it
  };
  std::vector<Output> outputs = {{"--json", opts.json_path, false, false},
                                 {"--timeline", opts.timeline_path, false, false},
                                 {"--csv", opts.csv_path, true, false}};
  for (const SimGridOutput& f : opts.simgrid_files)
    outputs.push_back({f.label, f.path, false, true});
  for (std::size_t i = 0; i < outputs.size(); i++) {
    const Output& out = outputs[i];
    if (out.path.empty())
      continue;
    const std::string head = out.label + (out.simgrid ? ": " : " ") + out.path;
    for (const std::string& in : {opts.platform, opts.workload, opts.deployment, opts.background, scenario_path})
      if (!in.empty() && same_path(in, out.path))
        throw InputError(head + ": is an input file of this run; choose another output file");
    for (std::size_t j = 0; j < i; j++)
      if (!outputs[j].path.empty() && same_path(outputs[j].path, out.path))
        throw InputError(head + ": is also the file of " + outputs[j].label + "; choose another file");
    check_replaceable_output(out.simgrid ? out.label + ":" : out.label, out.path);
    if (!out.appends && path_exists(out.path) && !opts.force)
      throw InputError(head + ": the file exists (use --force to overwrite it)");
  }
}
} // namespace

RunOptions parse_run_options(const std::vector<std::string>& args, const std::string& data_dir,
                             const std::string& command)
{
  const po::options_description scenario = scenario_options(); // built once: the command line and the file share it
  po::options_description all;
  all.add(command_options(command)).add(scenario);
  RunOptions opts;
  po::variables_map vm;
  std::vector<std::string> named = args;
  named[0]                       = command;
  try {
    po::store(parse_command_line(named, all), vm);
  } catch (const po::error& e) {
    throw InputError("sgdsim " + command + ": " + e.what());
  }
  if (vm.count("help")) {
    // Formatted only when asked: laying out the table of every option was a sixth of a parse's time.
    std::ostringstream help;
    help << "Usage: sgdsim " << command << " [options]\n\n"
         << (command == "run" ? "Simulates data-parallel training of a workload on a platform and prints the result "
                                "beside the analytic models."
                              : "Prints the analytic models' predictions for a scenario, without simulating.")
         << "\nQuantities take SimGrid units (1.5ms, 25MB, 10Gbps).\n\n"
         << all;
    opts.help_text = help.str();
    opts.help      = true;
    return opts;
  }
  if (vm.count("scenario")) {
    const std::string path = vm["scenario"].as<std::string>();
    const std::string text = read_text_file(path); // refuses folders, devices and pipes (check_regular_input)
    check_utf8_text(path, text);                   // Boost would quote UTF-16 or binary bytes into the message
    // A line holding one of Boost's placeholders would hang the parser's error message (boost_placeholder_in).
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); n++)
      if (const std::string p = boost_placeholder_in(line); !p.empty())
        throw InputError(path, n,
                         "'" + p +
                             "' cannot be part of a scenario file (the option parser's error messages never end "
                             "on it)");
    try {
      std::istringstream in(text); // parsed from what was read and checked, not read a second time
      po::store(po::parse_config_file(in, scenario), vm);
    } catch (const po::unknown_option& e) {
      std::vector<std::string> names;
      for (const std::string& spelling : option_spellings(scenario))
        names.push_back(spelling.substr(2)); // the file's names have no dashes
      throw InputError(path, line_of_name(path, e.get_option_name()),
                       "unknown option '" + e.get_option_name() + "'" + did_you_mean(e.get_option_name(), names));
    } catch (const po::error& e) {
      throw InputError(path, 0, e.what());
    }
  }
  po::notify(vm);

  // The analytic models read the platform's nominal figures: a background schedule would change nothing they print.
  if (command == "analytic" && vm.count("background"))
    throw InputError(
        "--background " + vm["background"].as<std::string>() +
        ": the analytic models use the platform's nominal figures; sgdsim run simulates a background load");
  opts.platform = vm.count("platform") ? vm["platform"].as<std::string>() : resolve_default(kDefaultPlatform, data_dir);
  opts.workload = vm.count("workload") ? vm["workload"].as<std::string>() : resolve_default(kDefaultWorkload, data_dir);
  opts.deployment = get_or<std::string>(vm, "deployment", "");
  opts.background = get_or<std::string>(vm, "background", "");
  for (const auto& [option, path] : {std::pair{"--platform", &opts.platform},
                                     {"--workload", &opts.workload},
                                     {"--deployment", &opts.deployment},
                                     {"--background", &opts.background}})
    if (const PathKind kind = path->empty() ? PathKind::NONE : path_kind(*path);
        kind != PathKind::NONE && kind != PathKind::REGULAR)
      throw InputError(std::string(option) + " " + *path + ": not a regular file (a folder, a device or a pipe)");
  opts.json_path      = get_or<std::string>(vm, "json", "");
  opts.timeline_path  = get_or<std::string>(vm, "timeline", "");
  opts.csv_path       = get_or<std::string>(vm, "csv", "");
  opts.force          = vm.count("force") > 0;
  opts.print_scenario = vm.count("print-scenario") > 0;
  opts.quiet          = vm.count("quiet") > 0;
  if (vm.count("progress")) {
    const std::string p = vm["progress"].as<std::string>();
    if (p != "auto" && p != "on" && p != "off")
      throw InputError("--progress '" + p + "': expected auto, on or off");
    if (opts.quiet && p == "on")
      throw InputError("--progress on: contradicts --quiet; give one of the two");
    opts.progress = opts.quiet ? "off" : p;
  }
  opts.workers_given = vm.count("workers") > 0;
  opts.ps_given      = vm.count("ps") > 0;

  Scenario& sc = opts.scenario;
  sc.arch      = parse_arch(vm["arch"].as<std::string>(), "--arch");
  sc.workers   = get_or<int>(vm, "workers", 8);
  sc.ps        = get_or<int>(vm, "ps", sc.arch == Arch::RING ? 0 : 1);
  sc.overlap   = parse_on_off(vm["overlap"].as<std::string>(), "--overlap");
  // PS: the framework's sharing (README "Link sharing at the PS"), unless --sharing says otherwise.
  if (sc.is_ps())
    apply_framework(find_framework(get_or<std::string>(vm, "framework", "none"), false, "--framework"), sc);
  if (vm.count("sharing"))
    sc.sharing = parse_sharing(vm["sharing"].as<std::string>(), "--sharing");
  // Options of one family of architectures are errors with the other, never silently ignored.
  for (const char* ps_only :
       {"sharing", "ps-split", "release-quantum", "stream", "ps-reads", "message-overhead-per-byte",
        "receive-overhead-per-byte", "flow-spread-in", "flow-spread-out", "first-pull-weight", "ack-coupling-in",
        "ack-coupling-out", "ack-coupling-exponent-in", "ack-coupling-exponent-out", "ack-coupling-late-in",
        "ack-coupling-late-out", "ack-coupling-established-in", "ack-coupling-established-out",
        "ack-coupling-offered-load"})
    if (!sc.is_ps() && vm.count(ps_only) && !vm[ps_only].defaulted())
      throw InputError(std::string("--") + ps_only + ": applies to ps-sync and ps-async, not to --arch " +
                       to_string(sc.arch));
  static constexpr const char* kRingOnly[] = {"collective",
                                              "pipeline-chunks",
                                              "ring-mode",
                                              "fusion-buffer",
                                              "fusion-timeout",
                                              "fusion-cycle",
                                              "ada-fusion",
                                              "allreduce-overhead",
                                              "measured-allreduce",
                                              "reduce-cost-per-byte",
                                              "allreduce-unit",
                                              "bucket-size",
                                              "first-bucket-size",
                                              "collectives-in-flight",
                                              "sockets-per-peer",
                                              "ring-slice",
                                              "ring-slices-in-flight",
                                              "ring-min-slices",
                                              "fusion-batches",
                                              "connection-rate",
                                              "egress-fifo",
                                              "fifo-wait",
                                              "measured-sizes",
                                              "measured-node-window",
                                              "in-flight-cost",
                                              "uncovered-gain"};
  for (const char* ring_only : kRingOnly)
    if (sc.is_ps() && vm.count(ring_only))
      throw InputError(std::string("--") + ring_only + ": applies to --arch ring, not to --arch " + to_string(sc.arch));
  if (!sc.is_ps())
    sc.sharing = Sharing::FAIR; // every worker has its own links; SimGrid's flow model shares them
  if (vm.count("ring-mode"))
    sc.ring_mode = parse_ring_mode(vm["ring-mode"].as<std::string>(), "--ring-mode");
  if (vm.count("collective"))
    sc.collective = parse_collective(vm["collective"].as<std::string>(), "--collective");
  if (vm.count("gpus-per-node"))
    sc.gpus_per_node = vm["gpus-per-node"].as<int>();
  if (vm.count("pipeline-chunks"))
    sc.pipeline_chunks = vm["pipeline-chunks"].as<int>();
  if (vm.count("gpus-per-node") && !sc.is_ps() && sc.collective != Collective::HIERARCHICAL)
    throw InputError("--gpus-per-node: applies to --collective hierarchical or to a PS architecture (hierarchical PS), "
                     "not to --collective " +
                     std::string(to_string(sc.collective)));
  if (vm.count("pipeline-chunks") && sc.collective != Collective::TREE)
    throw InputError("--pipeline-chunks: applies to --collective tree, not to " +
                     std::string(to_string(sc.collective)));
  if (vm.count("ring-mode") && (sc.collective == Collective::TREE || sc.collective == Collective::HALVING_DOUBLING))
    throw InputError("--ring-mode: applies to the ring and hierarchical collectives, not to " +
                     std::string(to_string(sc.collective)));
  if (!sc.is_ps())
    parse_gradient_sync(vm, sc);
  sc.ada_fusion = vm.count("ada-fusion") > 0;
  if (sc.ada_fusion && sc.fusion_buffer_bytes <= 0)
    throw InputError("--ada-fusion: needs a fusion buffer (--fusion-buffer SIZE)");
  parse_fusion_batches_option(vm, sc);
  parse_software_costs(vm, sc);
  sc.ps_split          = parse_ps_split(vm["ps-split"].as<std::string>(), "--ps-split");
  sc.steps             = vm["steps"].as<int>();
  sc.warmup            = vm["warmup"].as<int>();
  sc.seed              = parse_seed(vm["seed"].as<std::string>());
  sc.compute_jitter_cv = vm["compute-jitter"].as<double>();
  if (!(sc.compute_jitter_cv >= 0 && sc.compute_jitter_cv <= kMaxJitterCv))
    throw InputError("--compute-jitter " + std::to_string(sc.compute_jitter_cv) +
                     ": must be in [0, 0.577] (a "
                     "larger coefficient of variation would make uniform factors negative)");
  opts.user_cfg = get_or<std::vector<std::string>>(vm, "cfg", {});
  for (const std::string& item : opts.user_cfg)
    check_cfg_item(item);
  // sgdsim's own defaults come first, so that the user's --cfg items override them (SimGrid applies them in order).
  sc.simgrid_cfg = default_simgrid_cfg();
  sc.simgrid_cfg.insert(sc.simgrid_cfg.end(), opts.user_cfg.begin(), opts.user_cfg.end());
  for (const std::string& value : get_or<std::vector<std::string>>(vm, "log", {})) {
    std::vector<std::string> files;
    for (const std::string& setting : check_log_value(value, &files))
      opts.log_settings.push_back(setting);
    for (const std::string& file : files)
      opts.simgrid_files.push_back({"--log '" + value + "'", file});
  }
  if (const std::string trace = simgrid_trace_file(sc.simgrid_cfg); !trace.empty())
    opts.simgrid_files.push_back({"--cfg tracing/filename", trace});
  opts.rho_t = vm["rho-t"].as<double>();
  if (!(opts.rho_t >= 0 && opts.rho_t <= 1))
    throw InputError("--rho-t " + std::to_string(opts.rho_t) + ": must be in [0, 1]");
  opts.tensor_overhead_s = parse_quantity(Quantity::TIME, vm["tensor-overhead"].as<std::string>(), "--tensor-overhead");
  opts.tensor_overhead_s_per_byte =
      parse_quantity(Quantity::TIME, vm["tensor-overhead-per-byte"].as<std::string>(), "--tensor-overhead-per-byte");

  apply_platform_costs(vm, opts);
  parse_ring_transport(vm, opts);
  check_output_files(opts, vm.count("scenario") ? vm["scenario"].as<std::string>() : "");
  return opts;
}

} // namespace sgdsim
