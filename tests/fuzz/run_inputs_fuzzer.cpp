// libFuzzer harness: everything `sgdsim run` (or `analytic`) reads and checks before SimGrid loads the platform,
// in-process (docs/fuzzing.md). The input is a container of sections (fuzz_support.hpp): "=== args" (one
// command-line argument per line, after the files the harness passes), "=== scenario", "=== platform",
// "=== workload", "=== deployment", "=== background"; each file section is written to the scratch folder and given
// to its option. The order is run's: options and scenario file (which check the platform's numbers and read its
// costs), the scenario's checks, the workload; then what the simulation's child process reads once SimGrid has
// loaded the platform: the deployment or the automatic placement, and the background. The child's host list comes
// from SimGrid; here it is read from the platform's <host> and <cluster> elements, which is what the placement
// code needs.
#include "cli/options.hpp"
#include "common/xml_source.hpp"
#include "fuzz_support.hpp"
#include "platform/background.hpp"
#include "platform/deployment.hpp"
#include "sim/simulation.hpp"
#include "workload/workload_parser.hpp"

#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace sgdsim;

namespace {
// Bounds of the stand-in host list, far below what the placement is ever asked for by a small input.
constexpr std::size_t kMaxHosts = 4096;
constexpr long kMaxSlots        = 64;
constexpr std::size_t kMaxArgs  = 64;

std::string role_of(const pugi::xml_node& node)
{
  for (pugi::xml_node prop : node.children("prop"))
    if (std::strcmp(prop.attribute("id").value(), "role") == 0)
      return prop.attribute("value").value();
  return "";
}

int slots_of(const pugi::xml_node& node)
{
  const long cores = std::strtol(node.attribute("core").value(), nullptr, 10);
  return static_cast<int>(std::clamp(cores, 1L, kMaxSlots));
}

// The hosts SimGrid would create for <host> and <cluster> elements (a cluster's props reach its hosts).
void collect_hosts(const pugi::xml_node& node, std::vector<HostInfo>& hosts)
{
  for (pugi::xml_node child : node.children()) {
    if (hosts.size() >= kMaxHosts)
      return;
    if (std::strcmp(child.name(), "host") == 0) {
      hosts.push_back({child.attribute("id").value(), role_of(child), slots_of(child)});
    } else if (std::strcmp(child.name(), "cluster") == 0) {
      std::stringstream parts(child.attribute("radical").value());
      for (std::string part; std::getline(parts, part, ',');) {
        const long lo   = std::strtol(part.c_str(), nullptr, 10);
        const auto dash = part.find('-');
        const long hi   = dash == std::string::npos ? lo : std::strtol(part.c_str() + dash + 1, nullptr, 10);
        for (long i = std::max(0L, lo); i <= hi && hosts.size() < kMaxHosts; i++)
          hosts.push_back(
              {std::string(child.attribute("prefix").value()) + std::to_string(i) + child.attribute("suffix").value(),
               role_of(child), slots_of(child)});
      }
    } else {
      collect_hosts(child, hosts);
    }
  }
}

// The path of the scratch file `name`, written with the section's text, or removed if the input has no such section.
std::string section_file(const std::map<std::string, std::string>& sections, const char* section,
                         const std::string& name)
{
  const auto it = sections.find(section);
  return it == sections.end() ? fuzz::remove_scratch_file(name) : fuzz::write_scratch_file(name, it->second);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::map<std::string, std::string> sections = fuzz::split_sections(fuzz::as_text(data, size));
  const std::string scenario =
      fuzz::write_scratch_file("scenario.cfg", sections.count("scenario") ? sections.at("scenario") : "");
  const std::string platform   = section_file(sections, "platform", "platform.xml");
  const std::string workload   = section_file(sections, "workload", "workload.xml");
  const std::string deployment = section_file(sections, "deployment", "deployment.xml");
  const std::string background = section_file(sections, "background", "background.xml");

  std::vector<std::string> args = {"run"};
  std::istringstream extra(sections.count("args") ? sections.at("args") : "");
  for (std::string line; std::getline(extra, line);) {
    if (args.size() > kMaxArgs)
      return 0;
    args.push_back(line);
  }
  const std::string command = args.size() > 1 && args[1] == "analytic" ? "analytic" : "run";
  if (command == "analytic")
    args.erase(args.begin() + 1);
  for (const std::string& a :
       {std::string("--scenario"), scenario, std::string("--platform"), platform, std::string("--workload"), workload})
    args.push_back(a);
  if (sections.count("deployment"))
    args.insert(args.end(), {"--deployment", deployment});
  if (sections.count("background"))
    args.insert(args.end(), {"--background", background});

  fuzz::expect_input_errors_only([&] {
    const RunOptions opts = parse_run_options(args, "", command);
    if (opts.help)
      return;
    if (opts.print_scenario) {
      (void)scenario_file_text(opts);
      return;
    }
    validate_scenario(opts.scenario);
    (void)parse_workload_file(opts.workload);
    // The rest reads files only where they are this harness's own (a scenario file may name any path).
    if ((!opts.deployment.empty() && opts.deployment != deployment) ||
        (!opts.background.empty() && opts.background != background) || !sections.count("platform"))
      return;
    const XmlSource src(platform);
    std::vector<HostInfo> hosts;
    collect_hosts(src.root("platform"), hosts);
    const Scenario& sc = opts.scenario;
    const Placement p  = opts.deployment.empty() ? auto_placement(hosts, sc.workers, sc.ps, platform)
                                                 : read_deployment_file(deployment, hosts, platform, sc.is_ps());
    if (p.worker_hosts.empty())
      fuzz::finding("an accepted placement without workers");
    if (!opts.background.empty())
      (void)read_background_file(background);
  });
  return 0;
}
