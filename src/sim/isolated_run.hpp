// SimGrid allows one engine per process (simgrid/simgrid#185, docs/design.md, SimGrid fact 1): every simulation
// runs in a forked child, which sends its result back as JSON through a pipe. Hybrid sharing runs its two
// simulations (fair and fcfs) in two children at once.
#pragma once

#include "sim/simulation.hpp"

#include <functional>

namespace sgdsim {

/** Runs simulate(inputs) in a child process (two for hybrid sharing) and returns its result. Rethrows the
 *  child's InputError as an InputError with the same message; other failures as std::runtime_error. */
SimResult simulate_isolated(const SimInputs& inputs);

/** The same, and runs `meanwhile` in this process while the children simulate (on another core, where there is
 *  one). An exception from `meanwhile` is swallowed: the caller notices what `meanwhile` did not set. */
SimResult simulate_isolated(const SimInputs& inputs, const std::function<void()>& meanwhile);

/** Runs probe_platform(inputs) in a child process. */
PlatformProbe probe_platform_isolated(const SimInputs& inputs);

} // namespace sgdsim
