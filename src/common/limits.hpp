// The sizes sgdsim accepts (issue #21, class 9), in one place: an input that asks for more is refused before
// SimGrid starts, with the limit and its source named, instead of failing later in SimGrid's stack allocator, with
// std::bad_alloc or after hours. docs/design.md "Limits" lists them.
#pragma once

#include "common/scenario.hpp"

#include <string>

namespace sgdsim {

// Hosts of a platform and workers of a run: twice the largest cluster bench/README.md measured (16,384 nodes), of
// 8 GPUs each, with one host, or one worker, per GPU.
constexpr long kMaxPlatformHosts = 262144;
constexpr int kMaxWorkers        = 262144;

// Resident memory of one SimGrid actor with its share of the run's state: bench/README.md measured 32-41 KB per node
// of two actors (stream-mode ring at 1,024 to 16,384 nodes), rounded up to 24 KiB per actor.
constexpr double kBytesPerActor = 24 * 1024;

/** An upper bound on the SimGrid actors of a run of `sc` (its sizes): ring, each worker's actor, one per all-reduce
 *  in flight and a tree's broadcast helper (sim/ring_worker.cpp, sim/collectives.cpp); PS, each worker's actor and,
 *  at each PS, a sender and a receiver per worker with fair sharing and a relay per node
 *  (sim/parameter_server.cpp); plus a few daemons. */
double max_actors(const Scenario& sc);

/** Throws InputError if `actors` actors do not fit this machine: their memory (kBytesPerActor each) beyond its
 *  physical memory or its cgroup's limit, or their stacks (`stack_bytes` each, SimGrid's contexts/stack-size) beyond
 *  the process's address-space limit (ulimit -v). `what` starts the message: what asks for the actors. */
void check_actors_fit(double actors, double stack_bytes, const std::string& what);

} // namespace sgdsim
