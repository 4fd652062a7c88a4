// The descriptions of `sgdsim run`'s and `sgdsim analytic`'s options (README "Options"): what each option is, its
// default and its help text, which the command line, scenario files and `sweep` share. Parsing is options.cpp's.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <string>

namespace sgdsim {

/** The scenario's options, which a --scenario file may also set. */
boost::program_options::options_description scenario_options();

/** The options of the command itself ("run" or "analytic"): help, the scenario file, outputs. */
boost::program_options::options_description command_options(const std::string& command);

} // namespace sgdsim
