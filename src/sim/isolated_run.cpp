#include "sim/isolated_run.hpp"

#include "common/input_error.hpp"
#include "sim/simgrid_guard.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <simgrid/Exception.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace sgdsim {

namespace {
struct Child {
  pid_t pid = -1;
  int fd    = -1;
  std::shared_ptr<std::FILE> capture; // the child's stderr while a SimGridGuard is alive
};

void write_all(int fd, const std::string& data)
{
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<std::size_t>(n);
  }
}

Child start_child(const std::function<nlohmann::ordered_json()>& body)
{
  int fds[2];
  if (::pipe(fds) != 0)
    throw std::runtime_error(std::string("pipe() failed: ") + std::strerror(errno));
  std::shared_ptr<std::FILE> capture(std::tmpfile(), [](std::FILE* f) {
    if (f)
      std::fclose(f);
  });
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork() failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    if (capture)
      arm_simgrid_guards(fds[1], ::fileno(capture.get()));
    nlohmann::ordered_json reply;
    int code = 0;
    try {
      reply["result"] = body();
    } catch (const InputError& e) {
      reply["input_error"] = e.what();
      code                 = 2;
    } catch (const simgrid::ParseError& e) {
      reply["input_error"] = e.what();
      code                 = 2;
    } catch (const std::exception& e) {
      reply["error"] = e.what();
      code           = 1;
    }
    write_all(fds[1], reply.dump());
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(code);
  }
  ::close(fds[1]);
  return Child{pid, fds[0], capture};
}

nlohmann::ordered_json finish_child_json(const Child& child)
{
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(child.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw std::runtime_error("the simulation process died with signal " + std::to_string(WTERMSIG(status)) + " (" +
                             strsignal(WTERMSIG(status)) + "); see the messages above");
  if (data.empty())
    throw std::runtime_error("the simulation process exited with status " + std::to_string(WEXITSTATUS(status)) +
                             " without a result; see the messages above");
  auto reply = nlohmann::ordered_json::parse(data);
  if (reply.contains(kGuardedAbortKey)) { // SimGrid aborted on the input: its message is in the capture
    std::string captured;
    if (child.capture) {
      std::rewind(child.capture.get());
      char buf[4096];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, child.capture.get())) > 0;)
        captured.append(buf, n);
    }
    const std::string why = simgrid_abort_message(captured);
    throw InputError(reply[kGuardedAbortKey].get<std::string>() + (why.empty() ? "" : ": " + why));
  }
  if (reply.contains("input_error"))
    throw InputError(reply["input_error"].get<std::string>());
  if (reply.contains("error"))
    throw std::runtime_error(reply["error"].get<std::string>());
  return reply.at("result");
}

SimResult finish_child(const Child& child)
{
  return sim_result_from_json(finish_child_json(child));
}

Child start_simulation(const SimInputs& inputs)
{
  return start_child([&inputs] { return to_json(simulate(inputs)); });
}
} // namespace

SimResult simulate_isolated(const SimInputs& inputs)
{
  return simulate_isolated(inputs, [] {});
}

SimResult simulate_isolated(const SimInputs& inputs, const std::function<void()>& meanwhile)
{
  auto run_meanwhile = [&meanwhile] {
    try {
      meanwhile();
    } catch (...) { // the caller finds its result unset and does without it
    }
  };
  if (inputs.scenario.sharing != Sharing::HYBRID) {
    const Child child = start_simulation(inputs);
    run_meanwhile();
    return finish_child(child);
  }
  SimInputs fair        = inputs;
  fair.scenario.sharing = Sharing::FAIR;
  fair.progress_label   = "fair";
  SimInputs fcfs        = inputs;
  fcfs.scenario.sharing = Sharing::FCFS;
  fcfs.progress_label   = "fcfs";
  fcfs.warnings         = false; // the fair half says them
  Child a               = start_simulation(fair);
  Child b               = start_simulation(fcfs);
  run_meanwhile();
  SimResult ra;
  try {
    ra = finish_child(a);
  } catch (...) {
    try {
      finish_child(b); // reap the other child before reporting the first failure
    } catch (...) {
    }
    throw;
  }
  return combine_hybrid(ra, finish_child(b));
}

} // namespace sgdsim

namespace sgdsim {

PlatformProbe probe_platform_isolated(const SimInputs& inputs)
{
  nlohmann::ordered_json j = finish_child_json(start_child([&inputs] {
    PlatformProbe p = probe_platform(inputs);
    nlohmann::ordered_json out;
    out["bottleneck_Bps"] = p.network.bottleneck_Bps;
    out["flow_cap_Bps"]   = std::isfinite(p.network.flow_cap_Bps) ? nlohmann::ordered_json(p.network.flow_cap_Bps)
                                                                  : nlohmann::ordered_json();
    out["latency_s"]      = p.network.latency_s;
    out["speed_ratio"]    = p.speed_ratio;
    out["ps_speed_ratio"] = p.ps_speed_ratio;
    out["workers"]        = p.workers;
    out["ps"]             = p.ps;
    out["worker_hosts"]   = p.worker_hosts;
    out["ps_hosts"]       = p.ps_hosts;
    return out;
  }));
  PlatformProbe p;
  p.network.bottleneck_Bps = j.at("bottleneck_Bps").get<double>();
  p.network.flow_cap_Bps =
      j.at("flow_cap_Bps").is_null() ? std::numeric_limits<double>::infinity() : j.at("flow_cap_Bps").get<double>();
  p.network.latency_s = j.at("latency_s").get<double>();
  p.speed_ratio       = j.at("speed_ratio").get<std::vector<double>>();
  p.ps_speed_ratio    = j.at("ps_speed_ratio").get<std::vector<double>>();
  p.workers           = j.at("workers").get<int>();
  p.ps                = j.at("ps").get<int>();
  p.worker_hosts      = j.at("worker_hosts").get<std::vector<std::string>>();
  p.ps_hosts          = j.at("ps_hosts").get<std::vector<std::string>>();
  return p;
}

} // namespace sgdsim
