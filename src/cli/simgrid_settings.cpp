#include "cli/simgrid_settings.hpp"

#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/paths.hpp"
#include "common/suggest.hpp"
#include "common/text_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace sgdsim {

namespace {
// The numeric SimGrid settings whose out-of-range values SimGrid takes without a word and then aborts mid-run,
// deadlocks, crashes or computes nonsense (issue #21, class 6); SimGrid 3.32's keys and defaults ("Configuring
// SimGrid"). A value outside [lo, hi] is refused with `why`.
struct CfgRange {
  const char* key;
  double lo, hi;
  const char* why;
};
constexpr CfgRange kCfgRanges[] = {
    {"network/bandwidth-factor", 1e-6, 1e6, "a factor on every bandwidth; 0 leaves none and SimGrid aborts"},
    {"network/latency-factor", 0, 1e6, "a factor on every latency, at least 0"},
    {"network/TCP-gamma", 0, 1e15, "the largest TCP window in bytes; 0 lifts the bound"},
    {"network/weight-S", 0, 1e15, "a cost per route in bytes, at least 0"},
    {"network/loopback-bw", 125, 1e15, "the loopback's bandwidth in bytes per second, at least 1 kbit/s"},
    {"network/loopback-lat", 0, 1e6, "the loopback's latency in seconds, at least 0"},
    {"maxmin/precision", 1e-15, 1e-2, "the solver's rounding: above 1% it would show in the results"},
    {"surf/precision", 1e-15, 1e-2, "the time rounding: above 1% it would show in the results"},
    {"bmf/precision", 1e-15, 1e-2, "the solver's rounding: above 1% it would show in the results"},
    {"bmf/max-iterations", 1, 1e9, "at least one iteration"},
    {"maxmin/concurrency-limit", -1, 1e9, "-1 (no limit) or the flows a resource serves at once, at least 1"},
    {"contexts/stack-size", 64, 1 << 20,
     "an actor's stack in KiB: below 64 KiB sgdsim's actors overflow it (bench/README.md ran at 64)"},
    {"contexts/guard-size", 0, 1 << 20, "guard pages per stack, at least 0"},
    {"contexts/nthreads", 1, 1, "sgdsim's actors share memory: they must run one at a time"},
    {"cmonkey/host", -1, -1, "the chaos monkey turns hosts off, and sgdsim's actors do not survive a failure"},
    {"cmonkey/link", -1, -1, "the chaos monkey turns links off, and sgdsim's actors do not survive a failure"},
    {"cmonkey/time", -1, -1, "the chaos monkey turns resources off, and sgdsim's actors do not survive a failure"},
    {"debug/breakpoint", -1, -1, "a breakpoint stops the process with SIGTRAP: for a debugger, not for runs"},
};

// sgdsim's own log categories (XBT_LOG_NEW_* in src/sim); tests/unit/simgrid_settings_test.cpp checks the list
// against the sources.
const std::vector<std::string> kSgdsimLogCategories = {"sgdsim", "sgdsim_ps", "sgdsim_ring", "sgdsim_ring_driver",
                                                       "sgdsim_worker"};

// SimGrid files a setting for a category it does not know yet and applies it when the category first logs: a
// misspelt name is ignored in silence. Every SimGrid category is a global of libsimgrid named
// _simgrid_log_category__NAME (xbt/log.h, _XBT_LOGV), visible to dlsym.
bool log_category_exists(const std::string& name)
{
  if (std::find(kSgdsimLogCategories.begin(), kSgdsimLogCategories.end(), name) != kSgdsimLogCategories.end())
    return true;
  const bool identifier =
      std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
  if (!identifier || name.empty() || name.find("__") != std::string::npos) // __constructor__: a function's symbol
    return false;
  return ::dlsym(RTLD_DEFAULT, ("_simgrid_log_category__" + name).c_str()) != nullptr;
}

// What is wrong with a log layout (SimGrid's xbt_log_layout_format_doit, which aborts on it at the first message
// logged, mid-run), or "".
std::string log_format_problem(const std::string& fmt)
{
  constexpr long kMaxWidth = 9999;
  for (std::size_t i = 0; i < fmt.size(); i++) {
    if (fmt[i] != '%')
      continue;
    const std::size_t start = i++;
    while (true) {
      if (i >= fmt.size())
        return "the layout ends with a lone '%' (%% writes a percent sign)";
      const char c = fmt[i];
      if (c == '.' || std::isdigit(static_cast<unsigned char>(c))) { // a width, or a precision after '.'
        std::size_t j = c == '.' ? i + 1 : i;
        long n        = 0;
        for (; j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j])); j++)
          n = std::min(10 * n + (fmt[j] - '0'), kMaxWidth + 1);
        if (n > kMaxWidth)
          return "the width or precision in '" + fmt.substr(start, j - start) + "' is above " +
                 std::to_string(kMaxWidth);
        i = j;
        continue;
      }
      if (std::string_view("%necpthPiFlLMdrm").find(c) == std::string_view::npos)
        return "unknown directive '%" + std::string(1, c) +
               "' in the layout (known: %m message, %c category, %p priority, %h host, %P or %t actor, %i PID, "
               "%F file, %L line, %l location, %M function, %d or %r date, %n new line, %e space, %% percent)";
      break;
    }
  }
  return "";
}

// The parts of one setting CATEGORY.KEY:VALUE, as SimGrid's _xbt_log_parse_setting cuts it.
struct LogSetting {
  std::string category, key, value;
};

LogSetting split_log_setting(const std::string& setting)
{
  const std::size_t dot   = std::min(setting.find_first_of(".:="), setting.size());
  const std::size_t colon = std::min(setting.find_first_of(":=", dot), setting.size());
  LogSetting s;
  s.category = setting.substr(0, dot);
  if (dot < setting.size() && setting[dot] == '.' && colon < setting.size()) {
    s.key   = setting.substr(dot + 1, colon - dot - 1);
    s.value = setting.substr(colon + 1);
  }
  return s;
}

// SimGrid compares KEY with strncmp over KEY's length: any prefix of a keyword names it, in this order.
std::string log_keyword(const std::string& key)
{
  if (key.empty())
    return "";
  for (const char* k : {"threshold", "additivity", "appender", "fmt"})
    if (std::string_view(k).substr(0, key.size()) == key)
      return k;
  return "";
}

// The file an appender value writes ("file:PATH", "rollfile:SIZE:PATH"), or "" for another value.
std::string appender_file(const std::string& value)
{
  if (value.rfind("file:", 0) == 0)
    return value.substr(5);
  if (value.rfind("rollfile:", 0) == 0 && value.find(':', 9) != std::string::npos)
    return value.substr(value.find(':', 9) + 1);
  return "";
}
} // namespace

void check_cfg_item(const std::string& item)
{
  const std::size_t colon = item.find(':');
  if (colon == std::string::npos || colon == 0)
    throw InputError("--cfg '" + item + "': expected NAME:VALUE (e.g. network/model:CM02)");
  const std::string key = item.substr(0, colon), value = item.substr(colon + 1);
  if (key == "contexts/factory")
    throw InputError("--cfg '" + item +
                     "': SimGrid chooses its context factory when it starts, before --cfg is read; sgdsim uses raw "
                     "(the fastest, docs/design.md SimGrid fact 11)");
  for (const CfgRange& r : kCfgRanges) {
    if (key != r.key)
      continue;
    char* end      = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0')
      return; // not a number: SimGrid's own parser says so
    // A concurrency limit of 0 lets no flow through: every transfer would wait forever.
    if (!(v >= r.lo && v <= r.hi) || (key == "maxmin/concurrency-limit" && v == 0))
      throw InputError("--cfg '" + item + "': " + r.why);
  }
}

std::vector<std::string> default_simgrid_cfg()
{
  // SimGrid's default model (LV08) multiplies every message's latency by 13.01, a calibration on fresh TCP
  // transfers that emulates slow start. sgdsim sends one message per tensor over persistent connections, which do
  // not restart slow start: with the factor, a ResNet-50 step pays 161 such penalties per connection, and FCFS
  // sharing (which serializes them) came out slower than fair sharing, the opposite of [LI22] eq. 7-8. The
  // bandwidth factor (0.97) and the ACK cross-traffic of LV08 are kept. README "The network".
  // network/optim:Full re-solves the whole max-min system at each event instead of maintaining SimGrid's lazy
  // update heap. Both compute the same sharing; they differ by floating-point rounding only (at most 1e-5
  // relative on a step time across the tests and validation cases). Full was as fast or faster on every benchmark:
  // 37% faster for Async-PS at 128 workers, 7% for the step-by-step ring, the same for the stream-mode ring
  // (bench/README.md).
  return {"network/latency-factor:1", "network/optim:Full"};
}

std::vector<std::string> check_log_value(const std::string& value, std::vector<std::string>* files)
{
  const auto fail = [&value](const std::string& why) { return InputError("--log '" + value + "': " + why); };
  // SimGrid splits a value at spaces, with quotes and backslashes as in a shell: sgdsim takes no quotes, so that
  // what it checks is what SimGrid reads (a layout writes a space with %e).
  if (value.find_first_of("'\"\\") != std::string::npos)
    throw fail("quotes and backslashes are not allowed (give each setting its own --log; %e writes a space in a fmt)");
  std::vector<std::string> settings;
  std::istringstream words(value);
  for (std::string setting; words >> setting;)
    settings.push_back(setting);
  if (settings.empty())
    throw fail("no setting (expected CATEGORY.KEY:VALUE, e.g. sgdsim_worker.thresh:debug)");
  for (const std::string& setting : settings) {
    if (setting == "no_loc" && settings.size() == 1)
      continue; // SimGrid's special value: no file:line in the messages
    const LogSetting s      = split_log_setting(setting);
    const std::string where = settings.size() > 1 ? "'" + setting + "': " : "";
    if (s.key.empty() && s.value.empty())
      throw fail(where + "expected CATEGORY.KEY:VALUE (KEY: threshold, additivity, appender or fmt; e.g. "
                         "sgdsim_worker.thresh:debug)");
    if (s.category.empty())
      throw fail(where + "no category before '.' (e.g. root, sgdsim, sgdsim_worker)");
    if (!log_category_exists(s.category))
      throw fail(where + "unknown log category '" + s.category + "'" + did_you_mean(s.category, kSgdsimLogCategories) +
                 " (sgdsim's: sgdsim and its children sgdsim_ps, sgdsim_ring, sgdsim_ring_driver, sgdsim_worker; "
                 "SimGrid's are listed in its documentation)");
    const std::string keyword = log_keyword(s.key);
    if (keyword.empty())
      throw fail(where + "unknown key '" + s.key + "' (expected threshold, additivity, appender or fmt, or a prefix)");
    if (s.value.empty())
      throw fail(where + "no value after '" + s.key + ":'");
    if (keyword == "threshold") {
      std::string lower = s.value;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      const std::vector<std::string> levels = {"trace", "debug", "verbose", "info", "warning", "error", "critical"};
      if (std::find(levels.begin(), levels.end(), lower) == levels.end())
        throw fail(where + "unknown threshold '" + s.value + "'" + did_you_mean(lower, levels) +
                   " (expected trace, debug, verbose, info, warning, error or critical)");
    } else if (keyword == "additivity") {
      std::string lower = s.value;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (lower != "on" && lower != "yes" && lower != "1" && lower != "off" && lower != "no" && lower != "0")
        throw fail(where + "additivity '" + s.value + "': expected on, off, yes, no, 1 or 0");
    } else if (keyword == "fmt") {
      if (const std::string why = log_format_problem(s.value); !why.empty())
        throw fail(where + why);
    } else { // appender
      if (s.value.rfind("splitfile:", 0) == 0)
        throw fail(where + "splitfile writes a series of files whose names sgdsim cannot check before the run; use "
                           "file:PATH or rollfile:SIZE:PATH");
      if (s.value.rfind("file:", 0) != 0 && s.value.rfind("rollfile:", 0) != 0)
        throw fail(where + "unknown appender '" + s.value + "' (expected file:PATH or rollfile:SIZE:PATH)");
      if (s.value.rfind("rollfile:", 0) == 0) {
        const std::size_t colon = s.value.find(':', 9);
        const std::string size  = s.value.substr(9, colon == std::string::npos ? std::string::npos : colon - 9);
        long long bytes         = 0;
        const auto [end, ec]    = std::from_chars(size.data(), size.data() + size.size(), bytes);
        if (colon == std::string::npos || size.empty() || ec != std::errc() || end != size.data() + size.size() ||
            bytes < 1 || bytes > (1LL << 40))
          throw fail(where + "expected rollfile:SIZE:PATH with SIZE a number of bytes in [1, 2^40]");
      }
      const std::string path = appender_file(s.value);
      if (path.empty())
        throw fail(where + "the appender names no file");
      if (files)
        files->push_back(path);
    }
  }
  return settings;
}

std::string log_setting_file(const std::string& setting)
{
  const LogSetting s = split_log_setting(setting);
  return log_keyword(s.key) == "appender" ? appender_file(s.value) : "";
}

std::string log_setting_with_file(const std::string& setting, const std::string& path)
{
  const std::string old = log_setting_file(setting);
  if (old.empty())
    return setting;
  return setting.substr(0, setting.size() - old.size()) + path;
}

std::string simgrid_trace_file(const std::vector<std::string>& cfg)
{
  bool on          = false;
  std::string file = "simgrid.trace"; // SimGrid's default, in the working directory
  for (const std::string& item : cfg) {
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos)
      continue;
    const std::string key = item.substr(0, colon), value = item.substr(colon + 1);
    std::string lower = value;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (key == "tracing")
      on = lower == "yes" || lower == "on" || lower == "true" || lower == "1";
    else if (key == "tracing/filename" && value.empty())
      throw InputError("--cfg '" + item + "': needs a file name");
    else if (key == "tracing/filename")
      file = value;
    else if (key == "tracing/comment-file") {
      // SimGrid copies the file into the trace: a FIFO hangs the run, a missing file crashes it.
      try {
        check_regular_input(value);
      } catch (const InputError& e) {
        throw InputError("--cfg '" + item + "': " + e.what());
      }
      if (value.empty() || !is_regular_path(value) || ::access(value.c_str(), R_OK) != 0)
        throw InputError("--cfg '" + item + "': " + value + ": " +
                         (path_exists(value) ? "cannot be read" : "no such file"));
    }
  }
  return on ? file : "";
}

} // namespace sgdsim
