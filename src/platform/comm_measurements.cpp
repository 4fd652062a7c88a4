// src/platform/comm_measurements.cpp: see comm_measurements.hpp.
#include "platform/comm_measurements.hpp"

#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/text_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

namespace sgdsim {

namespace {
bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The multiplier from a column's name to bytes or seconds; 0 if the name carries no known unit.
double size_unit(const std::string& name)
{
  if (name == "bytes" || name == "size_bytes" || ends_with(name, "_B") || ends_with(name, "_bytes"))
    return 1;
  if (ends_with(name, "_KB") || ends_with(name, "_KiB"))
    return 1024;
  if (ends_with(name, "_MB") || ends_with(name, "_MiB"))
    return 1024.0 * 1024;
  return 0;
}
double time_unit(const std::string& name)
{
  if (ends_with(name, "_ms"))
    return 1e-3;
  if (ends_with(name, "_us"))
    return 1e-6;
  if (name == "time_s" || ends_with(name, "_s"))
    return 1;
  return 0;
}
} // namespace

std::vector<CommMeasurement> read_comm_measurements(const std::string& path, const std::vector<std::string>& where,
                                                    const std::string& size_column, const std::string& time_column)
{
  check_regular_input(path);                   // /dev/zero would be one endless line, a named pipe would block
  check_utf8_text(path, read_text_file(path)); // UTF-16 or binary would show as columns of no name
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, "cannot read the measurements file");
  std::string line;
  if (!std::getline(in, line))
    throw InputError(path, 1, "empty file: expected a CSV header");
  const std::vector<std::string> header = split_csv_line(line);
  // Two columns of one name: which one holds the values would be a guess.
  std::map<std::string, std::size_t> column_of;
  for (std::size_t j = 0; j < header.size(); j++)
    if (auto [it, fresh] = column_of.emplace(header[j], j); !fresh && !header[j].empty())
      throw InputError(path, 1,
                       "column '" + header[j] + "' appears twice (columns " + std::to_string(it->second + 1) + " and " +
                           std::to_string(j + 1) + "); name each column once");
  auto index_of = [&](const std::string& name) {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  auto pick = [&](const std::string& given, double (*unit)(const std::string&), const char* what) {
    if (!given.empty()) {
      if (index_of(given) < 0)
        throw InputError(path, 1, std::string("no column '") + given + "' (the " + what + " column)");
      if (unit(given) == 0)
        throw InputError(path, 1,
                         std::string("column '") + given + "': its name does not say its unit (e.g. " +
                             (what == std::string("size") ? "size_bytes, size_KB" : "time_s, time_ms") + ")");
      return index_of(given);
    }
    // Preferred: the canonical name, then a name that says what it is, then any name with a unit suffix.
    const std::string canonical = what == std::string("size") ? "size_bytes" : "time_s";
    const std::string word      = what == std::string("size") ? "size" : "time";
    if (index_of(canonical) >= 0)
      return index_of(canonical);
    for (std::size_t i = 0; i < header.size(); i++)
      if (unit(header[i]) != 0 && header[i].find(word) != std::string::npos)
        return static_cast<int>(i);
    for (std::size_t i = 0; i < header.size(); i++)
      if (unit(header[i]) != 0)
        return static_cast<int>(i);
    throw InputError(path, 1,
                     std::string("no ") + what + " column (e.g. " +
                         (what == std::string("size") ? "size_bytes or size_KB" : "time_s or time_ms") + ")");
  };
  const int size_i  = pick(size_column, size_unit, "size");
  const int time_i  = pick(time_column, time_unit, "time");
  const int nodes_i = index_of("nodes");
  // COLUMN=VALUE keeps the rows whose cell is VALUE; COLUMN=LO..HI those whose cell is a number in [LO, HI] (either
  // bound may be left out: 1048576.. keeps sizes from 1 MiB on).
  struct Filter {
    int column;
    std::string value;
    bool range = false;
    double lo = -INFINITY, hi = INFINITY;
  };
  std::vector<Filter> filters;
  for (const std::string& f : where) {
    auto eq = f.find('=');
    if (eq == std::string::npos || index_of(f.substr(0, eq)) < 0)
      throw InputError("--where '" + f + "': expected COLUMN=VALUE or COLUMN=LO..HI with a column of " + path);
    Filter filter{index_of(f.substr(0, eq)), f.substr(eq + 1)};
    if (auto dots = filter.value.find(".."); dots != std::string::npos) {
      filter.range = true;
      for (auto [text, bound] : {std::pair{filter.value.substr(0, dots), &filter.lo},
                                 std::pair{filter.value.substr(dots + 2), &filter.hi}}) {
        if (text.empty())
          continue;
        char* end = nullptr;
        *bound    = std::strtod(text.c_str(), &end);
        if (*end != '\0' || !std::isfinite(*bound))
          throw InputError("--where '" + f + "': '" + text + "' is not a number (COLUMN=LO..HI)");
      }
      if (!(filter.lo <= filter.hi))
        throw InputError("--where '" + f + "': the range is empty (LO > HI)");
    }
    filters.push_back(filter);
  }
  auto kept = [&filters](const std::vector<std::string>& cells) {
    for (const Filter& fl : filters) {
      if (static_cast<std::size_t>(fl.column) >= cells.size())
        return false;
      const std::string& cell = cells[static_cast<std::size_t>(fl.column)];
      if (!fl.range) {
        if (cell != fl.value)
          return false;
        continue;
      }
      char* end      = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      if (cell.empty() || *end != '\0' || !(v >= fl.lo && v <= fl.hi))
        return false;
    }
    return true;
  };
  std::vector<CommMeasurement> out;
  for (int n = 2; std::getline(in, line); n++) {
    if (line.empty() || line == "\r")
      continue;
    const std::vector<std::string> f = split_csv_line(line);
    // A row of more or fewer cells than the header shifts its values under other names (a thousands separator,
    // "1,000", makes two cells of one number).
    if (f.size() != header.size())
      throw InputError(path, n,
                       std::to_string(f.size()) + " cells, but the header has " + std::to_string(header.size()) +
                           " columns: '" + line + "'");
    if (!kept(f))
      continue;
    auto number = [&](int i, const char* what) {
      const std::string& s = f[static_cast<std::size_t>(i)];
      char* end            = nullptr;
      double v             = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v))
        throw InputError(path, n,
                         std::string("column '") + header[static_cast<std::size_t>(i)] + "': '" + s +
                             "' is not a positive finite number (" + what + ")");
      return v;
    };
    CommMeasurement m;
    m.bytes  = number(size_i, "size") * size_unit(header[static_cast<std::size_t>(size_i)]);
    m.time_s = number(time_i, "time") * time_unit(header[static_cast<std::size_t>(time_i)]);
    if (!std::isfinite(m.bytes)) // a finite size in KiB or MiB can overflow as bytes
      throw InputError(path, n,
                       std::string("column '") + header[static_cast<std::size_t>(size_i)] + "': '" +
                           f[static_cast<std::size_t>(size_i)] + "' is more bytes than a double holds");
    if (nodes_i >= 0) {
      const double nodes = number(nodes_i, "nodes");
      if (nodes != std::floor(nodes))
        throw InputError(
            path, n, "column 'nodes': '" + f[static_cast<std::size_t>(nodes_i)] + "' is not a whole number of nodes");
      if (nodes > kMaxWorkers)
        throw InputError(path, n,
                         "column 'nodes': '" + f[static_cast<std::size_t>(nodes_i)] + "' is more than " +
                             std::to_string(kMaxWorkers) + ", the most workers sgdsim runs");
      m.nodes = static_cast<int>(nodes);
    }
    m.line = n;
    out.push_back(m);
  }
  if (out.empty())
    throw InputError(path, 0, "no measurement left after the --where filters");
  return out;
}

} // namespace sgdsim
