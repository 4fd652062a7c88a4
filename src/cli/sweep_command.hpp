// `sgdsim sweep`: one `sgdsim run` per point of architectures x PS counts x workers, in parallel child processes,
// with a streamed CSV, an SVG plot and a progress line (README "Sweeps").
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** Runs the command; returns the exit status (0: every point done; 1: some point failed or, with --merge, has
 *  no result). Throws InputError on bad input, before any point runs. */
int sweep_command(const std::vector<std::string>& args, const std::string& data_dir);

} // namespace sgdsim
