// sgdsim: the command line. The only place that prints errors and chooses exit codes (docs/design.md "Errors"):
// 0 success, 2 bad input (InputError, SimGrid's ParseError), 1 internal failure.

#include "cli/platform_commands.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/validate_command.hpp"
#include "common/input_error.hpp"

#include <cctype>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

// simgrid/version.h uses SG_BEGIN_DECL and XBT_PUBLIC without including their header.
#include <xbt/base.h>

#include <simgrid/version.h>

namespace {
// An error is one line (docs/design.md "Errors"): SimGrid's messages may hold line breaks (a ParseError lists the
// existing netpoints on a line of its own), which become spaces, and other control characters, which become '?'; a
// message beyond kMaxErrorChars is cut, so that a list of a quarter million hosts does not flood the terminal.
std::string one_line(const std::string& message)
{
  constexpr std::size_t kMaxErrorChars = 2000;
  std::string out;
  for (std::size_t i = 0; i < message.size(); i++) {
    if (message[i] != '\n' && message[i] != '\r') {
      // Other control characters (a NUL or an escape quoted from a binary file) would garble the terminal.
      out += std::iscntrl(static_cast<unsigned char>(message[i])) && message[i] != '\t' ? '?' : message[i];
      continue;
    }
    while (i + 1 < message.size() && std::isspace(static_cast<unsigned char>(message[i + 1])))
      i++;
    if (i + 1 < message.size() && !out.empty() && out.back() != ' ')
      out += ' ';
  }
  if (out.size() > kMaxErrorChars)
    out = out.substr(0, kMaxErrorChars)
              .append(" ... (")
              .append(std::to_string(out.size() - kMaxErrorChars))
              .append(" more characters)");
  return out;
}

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
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
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
  } catch (const sgdsim::InputError& e) {
    std::cerr << "sgdsim: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sgdsim: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
}
