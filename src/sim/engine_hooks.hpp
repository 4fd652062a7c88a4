// src/sim/engine_hooks.hpp: what the ring dispatchers (ring_driver.hpp, sliced_ring.hpp) hook into SimGrid's engine:
// the end of every network flow, and a clock of their own among the engine's resource models (docs/design.md,
// SimGrid fact 14).
#pragma once

#include <functional>
#include <simgrid/forward.h>
#include <simgrid/s4u/Comm.hpp>
#include <string>

namespace simgrid::kernel::resource {
class Action;
class Model;
} // namespace simgrid::kernel::resource

namespace sgdsim {

/** The engine's network model (null before the platform is loaded). */
simgrid::kernel::resource::Model* network_model();

/** The flow of a comm both of whose ends are posted: the newest started network action of that activity (SimGrid
 *  3.32 keeps it private to the CommImpl; the started set holds it). Null when the other end is not posted yet. */
simgrid::kernel::resource::Action* flow_of(simgrid::kernel::resource::Model& network,
                                           const simgrid::kernel::activity::ActivityImpl* impl);

/** Bytes a kept flow holds beyond those it sends, so that SimGrid never ends it: its dispatcher keeps the bytes left
 *  itself, gives the engine the date they end (its clock), suspends the flow then and resumes it with the next
 *  message's bytes, because SimGrid 3.32 takes each ended flow off a list of every flow in flight, one pass over the
 *  list per end (docs/design.md, SimGrid fact 21). One byte: far above SimGrid's precision on remaining bytes
 *  (1e-14), far below a message. */
constexpr double kKeptFlowTailBytes = 1.0;

/** A kept flow: the comm (hold it: detached on the s4u side too, it never completes) and its network action. */
struct KeptFlow {
  simgrid::s4u::CommPtr comm;
  simgrid::kernel::resource::Action* action = nullptr;
};

/** Starts a kept flow of `bytes` (plus kKeptFlowTailBytes) from `from` to `to`, in maestro's context. */
KeptFlow start_kept_flow(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes,
                         simgrid::kernel::resource::Model& network);

/** Calls `on_end` with every network flow that finishes (Link::on_communication_state_change, state FINISHED), as
 *  its Action. SimGrid's signals are global and cannot be disconnected: connect once per process, and reach the run
 *  in progress through a pointer of the caller's. */
void connect_flow_end(std::function<void(const simgrid::kernel::resource::Action&)> on_end);

/** Calls `on_advance` each time the engine's clock has advanced and every model has been updated
 *  (Engine::on_time_advance). Signals cannot be disconnected: connect once per process. */
void connect_time_advance(std::function<void()> on_advance);

/** Connects, once per process and dispatcher type D, SimGrid's end of every network flow and its time advance to
 *  `current->on_flow_end(flow)` and `current->on_time_advance()`, for whichever D `current` points to when they
 *  fire (none when null): the dispatchers (ring_driver.hpp, sliced_ring.hpp, ps_dispatcher.hpp) each set their
 *  pointer while they live. */
template <class D>
void connect_dispatcher(D* const& current)
{
  static bool connected = false;
  if (connected)
    return;
  connected = true;
  connect_flow_end([&current](const simgrid::kernel::resource::Action& flow) {
    if (current != nullptr)
      current->on_flow_end(flow);
  });
  connect_time_advance([&current] {
    if (current != nullptr)
      current->on_time_advance();
  });
}

/** add_clock_model for a dispatcher type D whose live instance `current` points to (none when null): its
 *  next_date_delay(now) and clock_advanced(now, delta), delta the engine's increment (sliced_ring.hpp,
 *  ps_dispatcher.hpp). */
template <class D>
void add_dispatcher_clock(const std::string& name, D* const& current);

/** Adds to the engine, unless it has a model of that name already, a resource model without resources: at each
 *  step of the simulation the engine asks every model for the delay to its next event, takes the smallest, moves
 *  the clock by it and updates every model (EngineImpl::solve); this one answers `next_event(now)` (-1: none) and is
 *  told `advance(now, delta)`. Add it after the platform's models: it answers last. */
void add_clock_model(const std::string& name, std::function<double(double now)> next_event,
                     std::function<void(double now, double delta)> advance);

/** Starts a dispatcher on `host`: a daemon actor (SimGrid ends the run when the workers are done) that waits for
 *  `kick` and then runs `dispatch` in one simcall, once per release: a ring dispatcher releases it from maestro at a
 *  date where flows ended or dates came, and `dispatch` starts the successors there, after SimGrid has finished the
 *  ended comms (ring_driver.cpp). */
void start_dispatcher(simgrid::s4u::Host* host, const std::string& name, simgrid::s4u::SemaphorePtr kick,
                      std::function<void()> dispatch);

template <class D>
void add_dispatcher_clock(const std::string& name, D* const& current)
{
  add_clock_model(
      name, [&current](double now) { return current != nullptr ? current->next_date_delay(now) : -1.0; },
      [&current](double now, double delta) {
        if (current != nullptr)
          current->clock_advanced(now, delta);
      });
}

} // namespace sgdsim
