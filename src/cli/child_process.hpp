// Child processes of the sgdsim binary itself: a sweep runs each point as `sgdsim run ...`, the very command
// line it would emit for a cluster (one SimGrid engine per process).
#pragma once

#include <functional>
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

struct ChildJob {
  std::vector<std::string> args; // arguments after the executable
  std::string log_path;          // its stdout and stderr
};

/** Runs `exe` once per job, at most `parallel` at once, in job order; calls `on_exit(job index, exit status)` in
 *  this process as each ends (in completion order). If `on_exit` throws, no further job starts; the running ones
 *  are waited for and the exception is rethrown. */
void run_children(const std::string& exe, const std::vector<ChildJob>& jobs, int parallel,
                  const std::function<void(std::size_t, int)>& on_exit);

/** Quotes `s` for a POSIX shell (single quotes unless it only has safe characters). */
std::string shell_quote(const std::string& s);

} // namespace sgdsim
