#include "cli/platform_commands.hpp"

#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "platform/calibration.hpp"
#include "platform/platform_generator.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace sgdsim {

namespace {
// Parses `args` (args[0] is the command); returns false when --help was asked (the help is printed).
bool parse(const std::vector<std::string>& args, const po::options_description& d, const std::string& usage,
           po::variables_map& vm)
{
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end())).options(d).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n" << d;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError("sgdsim " + args[0] + ": " + e.what());
  }
  return true;
}

void check_output(const std::string& path, bool force)
{
  if (std::filesystem::exists(path) && !force)
    throw InputError("-o " + path + ": the file exists (use --force to overwrite it)");
}

std::string command_line(const std::vector<std::string>& args)
{
  std::string s = "sgdsim";
  for (const std::string& a : args)
    s += " " + a;
  return s;
}

std::string fmt(const char* f, double a)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}
} // namespace

int platform_command(const std::vector<std::string>& args)
{
  PlatformSpec s;
  std::string topology, out;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("nodes", po::value<int>(&s.nodes)->required(), "number of nodes (hosts; multi-gpu: nodes of --gpus-per-node GPUs)")
    ("topology", po::value<std::string>(&topology)->default_value("star"), "star, ring, fat-tree or multi-gpu")
    ("nic", po::value<std::string>(&s.nic)->default_value("10Gbps"), "each node's full-duplex link")
    ("flow-cap", po::value<std::string>(&s.flow_cap), "per-flow cap, e.g. 10Gbps (star, multi-gpu)")
    ("latency", po::value<std::string>(&s.latency)->default_value("25us"), "latency of each link")
    ("speed", po::value<std::string>(&s.speed)->default_value("15.7Tf"), "node (or GPU) speed: the device's FP32 peak")
    ("gpus-per-node", po::value<int>(&s.gpus_per_node)->default_value(1), "multi-gpu: GPUs per node")
    ("intra-node", po::value<std::string>(&s.intra_node)->default_value("150GBps"), "multi-gpu: GPU-to-GPU bandwidth")
    ("intra-latency", po::value<std::string>(&s.intra_latency)->default_value("1us"), "multi-gpu: GPU-to-GPU latency")
    ("leaf-size", po::value<int>(&s.leaf_size)->default_value(16), "fat-tree: nodes per leaf switch")
    ("oversubscription", po::value<int>(&s.oversubscription)->default_value(1), "fat-tree: down-links per up-link")
    ("price", po::value<std::string>(&s.price_per_hour_usd), "price per node and hour in USD (for cost per example)")
    ("prefix", po::value<std::string>(&s.prefix)->default_value("node-"), "host names: PREFIX0, PREFIX1, ...")
    ("output,o", po::value<std::string>(&out)->required(), "the platform file to write (atomically)")
    ("force", "overwrite the output file");
  // clang-format on
  po::variables_map vm;
  if (!parse(args, d,
             "Usage: sgdsim platform --nodes N [options] -o FILE\n\nWrites a SimGrid platform (README "
             "\"Generated platforms\").",
             vm))
    return 0;
  s.topology = parse_topology(topology);
  s.command  = command_line(args);
  check_output(out, vm.count("force") > 0);
  write_file_atomically(out, generate_platform_xml(s));
  std::cerr << "sgdsim: wrote " << out << " (" << s.nodes << " nodes, " << to_string(s.topology) << ")\n";
  return 0;
}

int deploy_command(const std::vector<std::string>& args)
{
  std::string platform, out;
  int workers = 0, ps = 0;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("platform", po::value<std::string>(&platform)->required(), "SimGrid platform")
    ("workers", po::value<int>(&workers)->required(), "number of workers")
    ("ps", po::value<int>(&ps)->default_value(1), "number of parameter servers (0 for ring all-reduce)")
    ("output,o", po::value<std::string>(&out)->required(), "the deployment file to write (atomically)")
    ("force", "overwrite the output file");
  // clang-format on
  po::variables_map vm;
  if (!parse(args, d,
             "Usage: sgdsim deploy --platform P --workers K [--ps M] -o FILE\n\nWrites the deployment "
             "of sgdsim's automatic placement (README \"Deployment\"), to edit or to reuse.",
             vm))
    return 0;
  check_output(out, vm.count("force") > 0);
  SimInputs in;
  in.platform_path    = platform;
  in.scenario.arch    = ps > 0 ? Arch::PS_SYNC : Arch::RING;
  in.scenario.workers = workers;
  in.scenario.ps      = ps;
  in.scenario.sharing = Sharing::FAIR;
  // The placement does not depend on the workload; a one-layer stand-in satisfies the probe's checks.
  in.workload.name            = "placement";
  in.workload.reference_speed = 1;
  PlatformProbe probe         = probe_platform_isolated(in);
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<!-- Generated by: " +
                  command_line(args) + " -->\n<platform version=\"4.1\">\n";
  for (std::size_t i = 0; i < probe.ps_hosts.size(); i++)
    x += "  <actor host=\"" + probe.ps_hosts[i] + "\" function=\"ps\"><argument value=\"" + std::to_string(i) +
         "\"/></actor>\n";
  for (std::size_t i = 0; i < probe.worker_hosts.size(); i++)
    x += "  <actor host=\"" + probe.worker_hosts[i] + "\" function=\"worker\"><argument value=\"" + std::to_string(i) +
         "\"/></actor>\n";
  x += "</platform>\n";
  write_file_atomically(out, x);
  std::cerr << "sgdsim: wrote " << out << " (" << probe.ps_hosts.size() << " PS, " << probe.worker_hosts.size()
            << " workers)\n";
  return 0;
}

int calibrate_command(const std::vector<std::string>& args)
{
  std::string measurements, kind_word, out, size_column, time_column, nodes_text;
  std::vector<std::string> where;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("measurements", po::value<std::string>(&measurements)->required(), "CSV of measured times (README \"Calibration\")")
    ("kind", po::value<std::string>(&kind_word)->default_value("p2p"), "p2p (one transfer) or allreduce (ring)")
    ("where", po::value<std::vector<std::string>>(&where)->composing(), "COLUMN=VALUE: use only these rows (repeatable)")
    ("size-column", po::value<std::string>(&size_column), "the size column (default: found by its unit suffix)")
    ("time-column", po::value<std::string>(&time_column), "the time column (default: found by its unit suffix)")
    ("nodes", po::value<std::string>(&nodes_text), "-o: nodes of the platform (default: the most measured)")
    ("output,o", po::value<std::string>(&out), "also write a star platform with the fitted NIC and latency")
    ("force", "overwrite the output file");
  // clang-format on
  po::variables_map vm;
  if (!parse(args, d, "Usage: sgdsim calibrate --measurements FILE.csv [--kind p2p|allreduce] [-o platform.xml]", vm))
    return 0;
  if (kind_word != "p2p" && kind_word != "allreduce")
    throw InputError("--kind '" + kind_word + "': unknown kind (valid: p2p, allreduce)");
  const CommKind kind = kind_word == "p2p" ? CommKind::P2P : CommKind::ALLREDUCE;
  if (!out.empty())
    check_output(out, vm.count("force") > 0);
  std::vector<CommMeasurement> m = read_comm_measurements(measurements, where, size_column, time_column);
  CalibrationFit f               = calibrate(kind, m);

  std::ostringstream o;
  o << "calibration of " << measurements << " (" << kind_word << ", " << m.size() << " measurements)\n";
  o << "  model      "
    << (kind == CommKind::P2P
            ? "T = bytes / B + c"
            : (f.alpha_separable ? "T = 2(K-1)/K bytes / B + 2(K-1) alpha + c (docs/models.md eq. (41))"
                                 : "T = 2(K-1)/K bytes / B + c (one node count: c holds the "
                                   "per-message latencies too)"))
    << "\n";
  o << "  B          " << fmt("%.4g", f.bandwidth_Bps * 8 / 1e9) << " Gbps (" << fmt("%.4g", f.bandwidth_Bps / 1e6)
    << " MB/s)\n";
  if (f.alpha_separable)
    o << "  alpha      " << fmt("%.4g", f.alpha_s * 1e6) << " us per message\n";
  o << "  c          " << fmt("%.4g", f.call_s * 1e6) << " us per " << (kind == CommKind::P2P ? "transfer" : "call")
    << "\n";
  for (const std::string& z : f.fixed_at_zero)
    o << "  (" << z << " fixed at 0: the unconstrained fit made it negative, which no network does)\n";
  if (f.has_piecewise)
    o << "  eq. (37)   " << fmt("%.4g", f.a1) << " log2(D) + " << fmt("%.4g", f.b1) << " s below "
      << fmt("%.4g", f.threshold_bytes) << " bytes, " << fmt("%.4g", f.a2) << " D + " << fmt("%.4g", f.b2)
      << " s from there on\n";
  o << "\n  line  nodes          bytes   measured s     linear s    error"
    << (f.has_piecewise ? "   eq. (37) s    error" : "") << "\n";
  double sum = 0, worst = 0, sum_pw = 0, worst_pw = 0;
  for (std::size_t i = 0; i < m.size(); i++) {
    double e = (f.linear_s[i] - m[i].time_s) / m[i].time_s;
    sum += std::fabs(e);
    worst = std::max(worst, std::fabs(e));
    char row[160];
    std::snprintf(row, sizeof row, "  %4d %6d %14.0f %12.6g %12.6g %+7.2f%%", m[i].line, m[i].nodes, m[i].bytes,
                  m[i].time_s, f.linear_s[i], 100 * e);
    o << row;
    if (f.has_piecewise) {
      double ep = (f.piecewise_s[i] - m[i].time_s) / m[i].time_s;
      sum_pw += std::fabs(ep);
      worst_pw = std::max(worst_pw, std::fabs(ep));
      std::snprintf(row, sizeof row, " %12.6g %+7.2f%%", f.piecewise_s[i], 100 * ep);
      o << row;
    }
    o << "\n";
  }
  o << "\n  linear: mean |error| " << fmt("%.2f", 100 * sum / m.size()) << "%, max " << fmt("%.2f", 100 * worst)
    << "%\n";
  if (f.has_piecewise)
    o << "  eq. (37): mean |error| " << fmt("%.2f", 100 * sum_pw / m.size()) << "%, max " << fmt("%.2f", 100 * worst_pw)
      << "%\n";
  std::cout << o.str();

  if (!out.empty()) {
    // The platform that reproduces the fit in sgdsim's default network model: LV08 multiplies bandwidths by 0.97
    // (docs/design.md, SimGrid fact 9), so the NIC is B / 0.97; a route crosses two NIC links, so each has half the
    // per-message latency (p2p: half of c; allreduce: half of alpha, the per-call rest being --allreduce-overhead).
    constexpr double kLv08BandwidthFactor = 0.97;
    int nodes                             = 2;
    for (const CommMeasurement& x : m)
      nodes = std::max(nodes, x.nodes);
    if (!nodes_text.empty())
      nodes = std::stoi(nodes_text);
    PlatformSpec s;
    s.nodes = nodes;
    s.nic   = fmt("%.6g", f.bandwidth_Bps / kLv08BandwidthFactor) + "Bps";
    const double per_link_s =
        std::max(0.0, (kind == CommKind::P2P ? f.call_s : (f.alpha_separable ? f.alpha_s : 0.0)) / 2);
    s.latency = fmt("%.6g", per_link_s * 1e6) + "us";
    s.command = command_line(args);
    write_file_atomically(out, generate_platform_xml(s));
    std::cout << "\nwrote " << out << ": " << nodes << " nodes, NIC " << s.nic << " (B / 0.97, LV08's factor), latency "
              << s.latency << " per link";
    if (kind == CommKind::ALLREDUCE)
      std::cout << "; per call, run with --allreduce-overhead " << fmt("%.6g", f.call_s * 1e6) << "us";
    std::cout << "\n";
  }
  return 0;
}

} // namespace sgdsim
