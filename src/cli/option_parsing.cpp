#include "cli/option_parsing.hpp"

#include "common/input_error.hpp"
#include "common/suggest.hpp"

#include <algorithm>

namespace po = boost::program_options;

namespace sgdsim {

std::vector<std::string> option_spellings(const po::options_description& d)
{
  std::vector<std::string> out;
  for (const auto& opt : d.options()) {
    out.push_back("--" + opt->long_name());
    const std::string shortened = opt->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (shortened.size() == 2 && shortened[0] == '-')
      out.push_back(shortened);
  }
  return out;
}

std::string boost_placeholder_in(const std::string& text)
{
  // The names Boost 1.74 substitutes (libs/program_options/src/errors.cpp, value_semantic.cpp, config_file.cpp).
  for (const char* p : {"%canonical_option%", "%invalid_line%", "%option%", "%original_token%", "%prefix%", "%value%"})
    if (text.find(p) != std::string::npos)
      return p;
  return "";
}

po::parsed_options parse_command_line(const std::vector<std::string>& args, const po::options_description& d,
                                      const po::positional_options_description* positional,
                                      std::vector<std::string>* pass_through)
{
  const std::string command = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  for (const std::string& arg : rest)
    if (const std::string p = boost_placeholder_in(arg); !p.empty())
      throw InputError("sgdsim " + command + ": argument '" + arg + "': '" + p +
                       "' cannot be part of an option or a value (the option parser's error messages never end on it)");
  try {
    po::command_line_parser parser(rest);
    parser.options(d).style(kFullNamesOnly);
    if (positional)
      parser.positional(*positional);
    if (pass_through)
      parser.allow_unregistered();
    po::parsed_options parsed = parser.run();
    if (pass_through) {
      *pass_through = po::collect_unrecognized(parsed.options, po::include_positional);
      auto& kept    = parsed.options;
      kept.erase(std::remove_if(kept.begin(), kept.end(),
                                [](const po::option& o) { return o.unregistered || o.position_key >= 0; }),
                 kept.end());
    }
    return parsed;
  } catch (const po::unknown_option& e) {
    throw InputError("sgdsim " + command + ": unknown option '" + e.get_option_name() + "'" +
                     did_you_mean(e.get_option_name(), option_spellings(d)) + " (sgdsim " + command + " --help)");
  } catch (const po::error& e) {
    throw InputError("sgdsim " + command + ": " + e.what());
  }
}

} // namespace sgdsim
