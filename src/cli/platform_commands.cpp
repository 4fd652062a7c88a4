#include "cli/platform_commands.hpp"

#include "common/units.hpp"

#include "cli/subcommand.hpp"

#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/text_file.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_generator.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <tuple>

namespace po = boost::program_options;

namespace sgdsim {

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
  if (!parse_subcommand(args, d,
                        "Usage: sgdsim platform --nodes N [options] -o FILE\n\nWrites a SimGrid platform (README "
                        "\"Generated platforms\").",
                        vm))
    return 0;
  s.topology = parse_topology(topology);
  s.command  = command_line(args);
  // The generator copies these into the file as written: a bad one would make a platform SimGrid cannot run.
  for (const auto& [name, text, q] : {std::tuple{"--nic", s.nic, Quantity::BANDWIDTH},
                                      {"--speed", s.speed, Quantity::SPEED},
                                      {"--intra-node", s.intra_node, Quantity::BANDWIDTH},
                                      {"--flow-cap", s.flow_cap, Quantity::BANDWIDTH},
                                      {"--latency", s.latency, Quantity::TIME},
                                      {"--intra-latency", s.intra_latency, Quantity::TIME}})
    if (!text.empty() && !(parse_quantity(q, text, name) > 0 || q == Quantity::TIME))
      throw InputError(std::string(name) + " " + text + ": must be positive");
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
  if (!parse_subcommand(args, d,
                        "Usage: sgdsim deploy --platform P --workers K [--ps M] -o FILE\n\nWrites the deployment "
                        "of sgdsim's automatic placement (README \"Deployment\"), to edit or to reuse.",
                        vm))
    return 0;
  check_output(out, vm.count("force") > 0);
  check_not_an_input("-o", out, {platform});
  check_regular_input(platform); // a folder would reach SimGrid, which exits on it
  check_platform_numbers(platform);
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

} // namespace sgdsim
