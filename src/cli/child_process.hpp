// Child processes of the sgdsim binary itself: a sweep or a validation runs each point as `sgdsim run ...` (the very
// command line a sweep emits for a cluster) in a child of its own, one SimGrid engine per process. The child is
// forked, not executed anew: it starts with the libraries already loaded and relocated (SimGrid's, ns-3's among
// them), which an exec redoes (62 ms of CPU for `sgdsim version` alone; validate has 4,660 runs).
#pragma once

#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sgdsim {

/** The absolute path of the running executable (/proc/self/exe). */
std::string self_executable();

/** A command run in a child: its arguments (the subcommand first, as main() gets them) to its exit status. */
using ChildMain = std::function<int(const std::vector<std::string>&)>;

/** The command of validate's and sweep's points: `sgdsim run ARGS...` (args without the executable, "run" first),
 *  its error line and exit status as main() gives them (cli/exit_status.hpp). */
ChildMain run_point_command(const std::string& data_dir);

/** Forks a child that runs `command(args)` with stdin from /dev/null and stdout and stderr to `log_path`
 *  (truncated), and ends with its status (1 if it throws, 127 if the log cannot be opened) without unwinding this
 *  process's stack or running its exit handlers. Returns the child's pid; throws std::runtime_error if the fork
 *  fails. Call it from a process with one thread (the child gets only the calling thread). */
pid_t fork_logged(const ChildMain& command, const std::vector<std::string>& args, const std::string& log_path);

struct ChildExit {
  pid_t pid  = -1;
  int status = 0; // exit code, or 128 + signal number if a signal ended it
};

/** Waits for any child to end. */
ChildExit wait_any_child();

struct ChildJob {
  std::vector<std::string> args; // the command's arguments, the subcommand first
  std::string log_path;          // its stdout and stderr
};

/** Runs `command` once per job in a forked child (fork_logged), at most `parallel` at once, in job order; calls
 *  `on_exit(job index, exit status)` in this process as each ends (in completion order). If `on_exit` throws, no
 *  further job starts; the running ones are waited for and the exception is rethrown. */
void run_children(const ChildMain& command, const std::vector<ChildJob>& jobs, int parallel,
                  const std::function<void(std::size_t, int)>& on_exit);

/** Quotes `s` for a POSIX shell (single quotes unless it only has safe characters). */
std::string shell_quote(const std::string& s);

} // namespace sgdsim
