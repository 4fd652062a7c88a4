#include "common/limits.hpp"

#include "common/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace sgdsim {

namespace {
// The memory this process may use: the machine's physical memory, or less where a cgroup (v2 memory.max, v1
// memory.limit_in_bytes) limits it; infinite if neither can be read.
double usable_memory_bytes()
{
  double bytes    = INFINITY;
  const long page = ::sysconf(_SC_PAGESIZE), pages = ::sysconf(_SC_PHYS_PAGES);
  if (page > 0 && pages > 0)
    bytes = static_cast<double>(page) * static_cast<double>(pages);
  for (const char* limit : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(limit);
    double v = 0;
    if (in >> v && v > 0) // "max" (no limit) reads as no number
      bytes = std::min(bytes, v);
  }
  return bytes;
}

std::string gib(double bytes)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}
} // namespace

double max_actors(const Scenario& sc)
{
  const double workers = std::max(0, sc.workers), ps = std::max(0, sc.ps);
  constexpr double kDaemons = 16; // the ring dispatcher, the background schedule, margin
  if (!sc.is_ps())
    return workers * (2.0 + std::max(1, sc.collectives_in_flight)) + kDaemons;
  return workers * (1.0 + 3.0 * ps) + ps + kDaemons;
}

void check_actors_fit(double actors, double stack_bytes, const std::string& what)
{
  const double memory = usable_memory_bytes();
  if (actors * kBytesPerActor > memory)
    throw InputError(what + ": up to " + std::to_string(static_cast<long long>(actors)) +
                     " SimGrid actors need about " + gib(actors * kBytesPerActor) +
                     " of memory (24 KiB each, bench/README.md), more than the " + gib(memory) +
                     " this machine (or its cgroup) has");
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
      actors * stack_bytes > static_cast<double>(as.rlim_cur))
    throw InputError(what + ": up to " + std::to_string(static_cast<long long>(actors)) + " SimGrid actors reserve " +
                     gib(actors * stack_bytes) + " of address space for their stacks (" +
                     std::to_string(static_cast<long long>(stack_bytes / 1024)) +
                     " KiB each, SimGrid's contexts/stack-size), more than this process's limit of " +
                     gib(static_cast<double>(as.rlim_cur)) +
                     " (ulimit -v); raise the limit or give --cfg contexts/stack-size:64");
}

} // namespace sgdsim
