// `sgdsim run`: one scenario, simulated (in a child process) and shown beside the analytic models.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** Runs the command; returns the exit status. Throws InputError on bad input. */
int run_command(const std::vector<std::string>& args, const std::string& data_dir);

/** `sgdsim analytic`: the analytic models only (the platform is read, not simulated). */
int analytic_command(const std::vector<std::string>& args, const std::string& data_dir);

} // namespace sgdsim
