#include "cli/child_process.hpp"

#include "cli/exit_status.hpp"
#include "cli/run_command.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <map>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace sgdsim {

std::string self_executable()
{
  std::vector<char> buf(4096);
  ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0)
    throw std::runtime_error(std::string("cannot read /proc/self/exe: ") + std::strerror(errno));
  return std::string(buf.data(), static_cast<std::size_t>(n));
}

pid_t fork_logged(const ChildMain& command, const std::vector<std::string>& args, const std::string& log_path)
{
  // What this process has buffered would be written twice, by it and by the child.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("cannot start a child process: ") + std::strerror(errno));
  if (pid > 0)
    return pid;
  const int in  = ::open("/dev/null", O_RDONLY);
  const int out = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0)
    ::_exit(127);
  ::close(in);
  ::close(out);
  int status = 1;
  try {
    status = command(args);
  } catch (...) { // never unwind into the parent's frames (a validation's temporary folder would be removed)
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(status);
}

ChildMain run_point_command(const std::string& data_dir)
{
  return [data_dir](const std::vector<std::string>& args) {
    return exit_status_of([&] { return run_command(args, data_dir); });
  };
}

ChildExit wait_any_child()
{
  ChildExit e;
  int status = 0;
  do
    e.pid = waitpid(-1, &status, 0);
  while (e.pid < 0 && errno == EINTR);
  if (e.pid < 0)
    throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  e.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return e;
}

void run_children(const ChildMain& command, const std::vector<ChildJob>& jobs, int parallel,
                  const std::function<void(std::size_t, int)>& on_exit)
{
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  try {
    while (next < jobs.size() || !running.empty()) {
      while (next < jobs.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
        running[fork_logged(command, jobs[next].args, jobs[next].log_path)] = next;
        next++;
      }
      ChildExit e = wait_any_child();
      auto it     = running.find(e.pid);
      if (it == running.end())
        continue; // not one of ours
      const std::size_t index = it->second;
      running.erase(it);
      on_exit(index, e.status);
    }
  } catch (...) {
    for (std::size_t n = running.size(); n > 0; n--) // reap the children still running before reporting
      wait_any_child();
    throw;
  }
}

std::string shell_quote(const std::string& s)
{
  if (!s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:,+@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

} // namespace sgdsim
