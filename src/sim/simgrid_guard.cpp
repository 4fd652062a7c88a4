#include "sim/simgrid_guard.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace sgdsim {

namespace {
int reply_fd   = -1;
int capture_fd = -1;
// The reply of a guarded abort, ready before the signal: a handler may only call async-signal-safe functions.
char reply_buf[4096];
std::size_t reply_len       = 0;
volatile sig_atomic_t armed = 0;

void rewind_capture()
{
  if (::ftruncate(capture_fd, 0) != 0 || ::lseek(capture_fd, 0, SEEK_SET) < 0)
    capture_fd = -1; // capture lost: guards go on without it (stderr is then SimGrid's own)
}

void on_fatal_signal(int sig)
{
  if (armed && reply_fd >= 0) {
    for (std::size_t done = 0; done < reply_len;) {
      const ssize_t n = ::write(reply_fd, reply_buf + done, reply_len - done);
      if (n <= 0)
        break;
      done += static_cast<std::size_t>(n);
    }
    ::_exit(2);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
} // namespace

void arm_simgrid_guards(int reply, int capture)
{
  reply_fd            = reply;
  capture_fd          = capture;
  struct sigaction sa = {};
  sa.sa_handler       = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE})
    ::sigaction(sig, &sa, nullptr);
}

SimGridGuard::SimGridGuard(const std::string& context)
{
  set_context(context);
  if (capture_fd < 0)
    return;
  std::fflush(stderr);
  rewind_capture();
  if (capture_fd < 0)
    return;
  saved_stderr_ = ::dup(STDERR_FILENO);
  ::dup2(capture_fd, STDERR_FILENO);
  armed = 1;
}

void SimGridGuard::set_context(const std::string& context)
{
  const std::string reply = nlohmann::json{{kGuardedAbortKey, context}}.dump();
  armed                   = 0;
  reply_len               = std::min(reply.size(), sizeof reply_buf);
  std::memcpy(reply_buf, reply.data(), reply_len);
  if (saved_stderr_ >= 0)
    armed = 1;
}

std::string SimGridGuard::json_escaped(std::string_view text)
{
  const std::string quoted = nlohmann::json(std::string(text)).dump(); // "..." with nlohmann's escapes
  return quoted.substr(1, quoted.size() - 2);
}

void SimGridGuard::set_context_escaped(std::initializer_list<std::string_view> parts)
{
  static constexpr std::string_view kHead = "{\"simgrid_abort\":\"", kTail = "\"}";
  armed = 0;
  std::memcpy(reply_buf, kHead.data(), kHead.size());
  std::size_t n = kHead.size();
  for (std::string_view part : parts) { // whole parts only, so that no escape sequence is cut
    if (n + part.size() + kTail.size() > sizeof reply_buf)
      break;
    std::memcpy(reply_buf + n, part.data(), part.size());
    n += part.size();
  }
  std::memcpy(reply_buf + n, kTail.data(), kTail.size());
  reply_len = n + kTail.size();
  if (saved_stderr_ >= 0)
    armed = 1;
}

SimGridGuard::~SimGridGuard()
{
  if (saved_stderr_ < 0)
    return;
  armed = 0;
  std::fflush(stderr);
  ::dup2(saved_stderr_, STDERR_FILENO);
  ::close(saved_stderr_);
  // Replay what SimGrid said (its warnings), now that nothing went wrong.
  char buf[4096];
  ::lseek(capture_fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(capture_fd, buf, sizeof buf)) > 0;)
    if (::write(STDERR_FILENO, buf, static_cast<std::size_t>(n)) < 0)
      break;
  rewind_capture();
}

std::string simgrid_abort_message(const std::string& captured)
{
  std::size_t start = 0;
  std::string first;
  while (start < captured.size()) {
    std::size_t end = captured.find('\n', start);
    if (end == std::string::npos)
      end = captured.size();
    const std::string line = captured.substr(start, end - start);
    start                  = end + 1;
    const std::size_t mark = line.find("/CRITICAL] ");
    if (mark != std::string::npos)
      return line.substr(mark + std::strlen("/CRITICAL] "));
    if (first.empty() && line.find_first_not_of(" \t") != std::string::npos)
      first = line;
  }
  return first;
}

} // namespace sgdsim
