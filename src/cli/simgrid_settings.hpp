// SimGrid's own settings as sgdsim's users give them (--cfg NAME:VALUE, --log CATEGORY.KEY:VALUE), checked before
// any engine exists, because SimGrid aborts, hangs or silently ignores what it cannot use (issue #21, class 6), and
// the files SimGrid writes under them (log appenders, the trace), which sgdsim checks as its own outputs.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** SimGrid settings sgdsim applies before the user's --cfg items (which override them); recorded in the JSON. */
std::vector<std::string> default_simgrid_cfg();

/** Checks one --cfg item NAME:VALUE: the syntax, the keys SimGrid reads only at start-up, and the numeric keys whose
 *  out-of-range values SimGrid would take and then abort, hang or compute nonsense with; throws InputError. */
void check_cfg_item(const std::string& item);

/** Checks one --log value as SimGrid 3.32's xbt_log_control_set reads it (one or more settings CATEGORY.KEY:VALUE
 *  separated by spaces; KEY a prefix of threshold, additivity, appender or fmt), before any engine exists, and
 *  throws InputError "--log 'VALUE': ..." for anything SimGrid would abort on, ignore silently or print junk for:
 *  an unknown category, threshold or additivity value, a fmt with an unknown %-directive, an appender other than
 *  file:PATH or rollfile:SIZE:PATH. Returns the settings one by one; `files` receives the appenders' paths. */
std::vector<std::string> check_log_value(const std::string& value, std::vector<std::string>* files = nullptr);

/** The file a single log setting (an item of RunOptions::log_settings) makes SimGrid write, or "". */
std::string log_setting_file(const std::string& setting);

/** `setting` with its appender's file replaced by `path` (the setting itself when it has no file). */
std::string log_setting_with_file(const std::string& setting, const std::string& path);

/** The file SimGrid's tracing writes under the --cfg items `cfg` (applied in order; tracing:yes turns it on,
 *  tracing/filename names it, simgrid.trace by default), or "" when tracing stays off. Throws InputError for an
 *  empty file name and for a tracing/comment-file that is not a readable regular file (a FIFO would hang the run). */
std::string simgrid_trace_file(const std::vector<std::string>& cfg);

} // namespace sgdsim
