// SimGrid allows one engine per process (simgrid/simgrid#185, docs/design.md, SimGrid fact 1): every simulation
// runs in a forked child, which sends its result back as JSON through a pipe. Hybrid sharing runs its two
// simulations (fair and fcfs) in two children at once.
#pragma once

#include "sim/simulation.hpp"

namespace sgdsim {

/** Runs simulate(inputs) in a child process (two for hybrid sharing) and returns its result. Rethrows the
 *  child's InputError as an InputError with the same message; other failures as std::runtime_error. */
SimResult simulate_isolated(const SimInputs& inputs);

/** Runs probe_platform(inputs) in a child process. */
PlatformProbe probe_platform_isolated(const SimInputs& inputs);

} // namespace sgdsim
