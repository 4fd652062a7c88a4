// One way to read a command line for every subcommand (issue #24): Boost.Program_options without prefix guessing
// (`--worker` is not `--workers`), and an unknown name answered with the closest one that exists.
#pragma once

#include "common/suggest.hpp"

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace sgdsim {

/** Boost's default command-line style without allow_guessing: a prefix of an option is not that option. */
constexpr int kFullNamesOnly = boost::program_options::command_line_style::default_style &
                               ~boost::program_options::command_line_style::allow_guessing;

/** The option names of `d`, each as typed on a command line ("--workers", "-j"). */
std::vector<std::string> option_spellings(const boost::program_options::options_description& d);

/** The first of Boost.Program_options' message placeholders ("%value%", "%canonical_option%", ...) in `text`, or ""
 *  if none. Boost formats an error by replacing each placeholder with the text at fault for as long as one is left:
 *  an argument or a scenario line holding its own placeholder made every error message loop forever (found by
 *  fuzz_scenario: `sgdsim run --workers %value%` hung). Such text is refused before Boost reads it. */
std::string boost_placeholder_in(const std::string& text);

/** Parses `args` (args[0] is the command: "run", "sweep", ...) against `d`. Full option names only. Any
 *  Boost error becomes an InputError "sgdsim COMMAND: ...", with the closest option's name for an unknown one; so
 *  does an argument holding a Boost placeholder (boost_placeholder_in).
 *  With `pass_through`, unknown options and their values are kept in order in `*pass_through` instead. */
boost::program_options::parsed_options
parse_command_line(const std::vector<std::string>& args, const boost::program_options::options_description& d,
                   const boost::program_options::positional_options_description* positional = nullptr,
                   std::vector<std::string>* pass_through                                   = nullptr);

/** The value of option `name` in `vm`, or `fallback` where it was not given. */
template <class T>
T get_or(const boost::program_options::variables_map& vm, const char* name, T fallback)
{
  return vm.count(name) ? vm[name].as<T>() : fallback;
}

} // namespace sgdsim
