// Small helpers shared by the subcommands that parse their own options (platform, deploy, calibrate).
#pragma once

#include "cli/option_parsing.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace sgdsim {

/** Parses `args` (args[0] is the command); returns false when --help was asked (the help is printed). */
inline bool parse_subcommand(const std::vector<std::string>& args, const boost::program_options::options_description& d,
                             const std::string& usage, boost::program_options::variables_map& vm)
{
  namespace po = boost::program_options;
  try {
    po::store(parse_command_line(args, d), vm);
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

/** An existing output file is an error unless --force. */
inline void check_output(const std::string& path, bool force)
{
  check_replaceable_output("-o", path);
  if (path_exists(path) && !force)
    throw InputError("-o " + path + ": the file exists (use --force to overwrite it)");
}

/** The command as typed, for the comment of a generated file. */
inline std::string command_line(const std::vector<std::string>& args)
{
  std::string s = "sgdsim";
  for (const std::string& a : args)
    s += " " + a;
  return s;
}

/** One number through a printf format. */
inline std::string fmt(const char* f, double a)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

} // namespace sgdsim
