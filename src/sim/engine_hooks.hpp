// src/sim/engine_hooks.hpp: what the ring dispatchers (ring_driver.hpp, sliced_ring.hpp) hook into SimGrid's engine:
// the end of every network flow, and a clock of their own among the engine's resource models (docs/design.md,
// SimGrid fact 14).
#pragma once

#include <functional>
#include <string>

namespace simgrid::kernel::resource {
class Action;
}

namespace sgdsim {

/** Calls `on_end` with every network flow that finishes (Link::on_communication_state_change, state FINISHED), as
 *  its Action. SimGrid's signals are global and cannot be disconnected: connect once per process, and reach the run
 *  in progress through a pointer of the caller's. */
void connect_flow_end(std::function<void(const simgrid::kernel::resource::Action&)> on_end);

/** Adds to the engine, unless it has a model of that name already, a resource model without resources: at each
 *  step of the simulation the engine asks every model for the delay to its next event, takes the smallest, moves
 *  the clock by it and updates every model (EngineImpl::solve); this one answers `next_event(now)` (-1: none) and is
 *  told `advance(now, delta)`. Add it after the platform's models: it answers last. */
void add_clock_model(const std::string& name, std::function<double(double now)> next_event,
                     std::function<void(double now, double delta)> advance);

} // namespace sgdsim
