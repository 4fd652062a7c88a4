// sgdsim: the command line, one subcommand a call; exit_status_of (cli/exit_status.hpp) prints its errors and
// chooses its exit code (docs/design.md "Errors").

#include "cli/exit_status.hpp"
#include "cli/platform_commands.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/validate_command.hpp"

#include <iostream>
#include <string>
#include <vector>

// simgrid/version.h uses SG_BEGIN_DECL and XBT_PUBLIC without including their header.
#include <xbt/base.h>

#include <simgrid/version.h>

namespace {
constexpr const char* kUsage = "Usage: sgdsim COMMAND [options]\n"
                               "\n"
                               "Predicts the throughput of data-parallel DNN training on a cluster (SimGrid).\n"
                               "\n"
                               "Commands:\n"
                               "  run       simulate one scenario and show the analytic models beside it\n"
                               "  analytic  the analytic models only, in milliseconds (no simulation)\n"
                               "  sweep     one run per point of architectures x PS x workers: CSV, SVG plot\n"
                               "  platform  write a SimGrid platform of N nodes (star, ring, fat-tree, multi-gpu)\n"
                               "  deploy    write the deployment file of the automatic placement\n"
                               "  calibrate fit bandwidth, latency and overheads to measured transfer times\n"
                               "  validate  run the validation cases: errors against real measurements\n"
                               "  help      print this help (sgdsim COMMAND --help for a command's options)\n"
                               "  version   print the versions of sgdsim and SimGrid\n";
} // namespace

int main(int argc, char** argv)
{
  const std::vector<std::string> args(argv + 1, argv + argc);
  return sgdsim::exit_status_of([&]() -> int {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
      std::cout << kUsage;
      return args.empty() ? 2 : 0;
    }
    if (args[0] == "version" || args[0] == "--version") {
      int major = 0, minor = 0, patch = 0;
      sg_version_get(&major, &minor, &patch); // the library linked at run time, not the headers built against
      std::cout << "sgdsim " << SGDSIM_VERSION << "\nSimGrid " << major << "." << minor;
      if (patch > 0)
        std::cout << "." << patch;
      std::cout << "\n";
      return 0;
    }
    if (args[0] == "run")
      return sgdsim::run_command(args, SGDSIM_DATA_DIR);
    if (args[0] == "analytic")
      return sgdsim::analytic_command(args, SGDSIM_DATA_DIR);
    if (args[0] == "sweep")
      return sgdsim::sweep_command(args, SGDSIM_DATA_DIR);
    if (args[0] == "platform")
      return sgdsim::platform_command(args);
    if (args[0] == "deploy")
      return sgdsim::deploy_command(args);
    if (args[0] == "calibrate")
      return sgdsim::calibrate_command(args);
    if (args[0] == "validate")
      return sgdsim::validate_command(args, SGDSIM_DATA_DIR);
    std::cerr << "sgdsim: error: unknown command '" << args[0]
              << "' (valid: run, analytic, sweep, platform, deploy, calibrate, validate, help, version)\n";
    return 2;
  });
}
