#include "cli/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sgdsim {

std::string self_executable()
{
  std::vector<char> buf(4096);
  ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0)
    throw std::runtime_error(std::string("cannot read /proc/self/exe: ") + std::strerror(errno));
  return std::string(buf.data(), static_cast<std::size_t>(n));
}

pid_t spawn_logged(const std::string& exe, const std::vector<std::string>& args, const std::string& log_path)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<std::string> storage = args;
  storage.insert(storage.begin(), exe);
  std::vector<char*> argv;
  for (std::string& a : storage)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int err   = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw std::runtime_error("cannot start " + exe + ": " + std::strerror(err));
  return pid;
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

void run_children(const std::string& exe, const std::vector<ChildJob>& jobs, int parallel,
                  const std::function<void(std::size_t, int)>& on_exit)
{
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  try {
    while (next < jobs.size() || !running.empty()) {
      while (next < jobs.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
        running[spawn_logged(exe, jobs[next].args, jobs[next].log_path)] = next;
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
