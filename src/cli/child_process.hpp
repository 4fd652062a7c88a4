// Child processes of the sgdsim binary itself: a sweep runs each point as `sgdsim run ...`, the very command
// line it would emit for a cluster (one SimGrid engine per process).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace sgdsim {

/** The absolute path of the running executable (/proc/self/exe). */
std::string self_executable();

/** Starts `exe args...` with stdin from /dev/null and stdout and stderr to `log_path` (truncated). Returns the
 *  child's pid; throws std::runtime_error if it cannot be started. */
pid_t spawn_logged(const std::string& exe, const std::vector<std::string>& args, const std::string& log_path);

struct ChildExit {
  pid_t pid  = -1;
  int status = 0; // exit code, or 128 + signal number if a signal ended it
};

/** Waits for any child to end. */
ChildExit wait_any_child();

/** Quotes `s` for a POSIX shell (single quotes unless it only has safe characters). */
std::string shell_quote(const std::string& s);

} // namespace sgdsim
