// SimGrid checks some platform errors with assertions that abort the process after a backtrace (a host of 0 cores,
// a missing profile file, a pair of hosts with no route: some of these even crash with SIGSEGV in release builds).
// Every simulation runs in a forked child (isolated_run.hpp), so such an abort is survivable: while a guard is
// alive, the child's stderr goes to a capture file and a fatal signal makes the child send the guard's context
// instead of dying silently; the parent reads SimGrid's message from the capture and reports an input error
// (issue #21: bad input never crashes). Outside a child, guards only capture and replay stderr.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace sgdsim {

/** Called in the child once after fork: where the reply goes and where stderr is captured. */
void arm_simgrid_guards(int reply_fd, int capture_fd);

class SimGridGuard {
public:
  /** `context`: what was being done, for the message ("FILE: SimGrid cannot load the platform"). */
  explicit SimGridGuard(const std::string& context);
  /** Restores stderr and replays what was captured (SimGrid's warnings stay visible). */
  ~SimGridGuard();
  SimGridGuard(const SimGridGuard&)            = delete;
  SimGridGuard& operator=(const SimGridGuard&) = delete;
  /** Changes the context of the live guard (cheap: no system call). */
  void set_context(const std::string& context);
  /** The same with the context given in pieces already escaped for JSON (json_escaped), copied straight into the
   *  reply: for loops that change the context once per item (check_routes: once per pair of hosts). */
  void set_context_escaped(std::initializer_list<std::string_view> parts);
  /** `text` as the inside of a JSON string: quotes, backslashes and control characters escaped. */
  static std::string json_escaped(std::string_view text);

private:
  int saved_stderr_ = -1;
};

/** The reply key a guarded abort sends, with the context as value. */
constexpr const char* kGuardedAbortKey = "simgrid_abort";

/** The first CRITICAL message SimGrid wrote in `captured` (its log line without the "[time] file:line: [cat/CRITICAL]"
 *  prefix), or the first non-empty line, or "". */
std::string simgrid_abort_message(const std::string& captured);

} // namespace sgdsim
