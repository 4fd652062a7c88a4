// src/sim/ring_driver.cpp: see ring_driver.hpp.
//
// How the end of a chunk is seen: SimGrid 3.32 tells no actor when a comm that nobody waits for ends, but its
// network model fires Link::on_communication_state_change for every flow that finishes, while it updates the
// flows at a new date (EngineImpl::solve). The successors must not start right there: SimGrid then finishes the
// ended comms (EngineImpl::handle_ended_actions), and each finish searches the list of every host-to-host comm in
// flight, which the successors would double (measured in session 4: 28% of the time at 256 nodes). So the callback
// only records the ended chunks, Engine::on_time_advance wakes the dispatcher actor, and the dispatcher starts the
// successors once the actors run again: after the finishes, at the same simulated date.

#include "sim/ring_driver.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/simix.hpp>
#include <simgrid/version.h>
#include <xbt/asserts.h>

#include <cstdint>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

// SimGrid installs no header for NetworkAction, the type of the flow that Link::on_communication_state_change
// reports; in 3.32 it derives from Action alone (src/kernel/resource/NetworkModel.hpp: `class NetworkAction : public
// Action`), so its Action base is at its address. Check that layout again before building against another version.
static_assert(SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32,
              "ring_driver.cpp reads NetworkAction as its Action base: check SimGrid's NetworkModel.hpp");

namespace sgdsim {

namespace {
// SimGrid's signals are global and cannot be disconnected through s4u: they are connected once per process (one
// simulation per process: docs/design.md, SimGrid fact 1) and reach the live driver, if any, through this pointer.
RingDriver* current_driver = nullptr;
} // namespace

bool ring_driver_applies(const Scenario& sc)
{
  return !sc.is_ps() && sc.ring_mode == RingMode::STEPS && sc.message_overhead_s == 0 && sc.reduce_s_per_byte == 0 &&
         !sc.ring_by_worker_actors;
}

RingDriver::RingDriver(const std::vector<sg4::Host*>& hosts)
{
  xbt_assert(current_driver == nullptr, "one RingDriver at a time");
  xbt_assert(!hosts.empty(), "a ring needs members");
  members_.resize(hosts.size());
  for (std::size_t w = 0; w < hosts.size(); w++) {
    members_[w].from = hosts[w];
    members_[w].done = sg4::Semaphore::create(0);
  }
  in_flight_.reserve(hosts.size());
  ended_.reserve(hosts.size());
  kick_                 = sg4::Semaphore::create(0);
  static bool connected = false;
  if (!connected) {
    connected = true;
    sg4::Link::on_communication_state_change_cb(
        [](simgrid::kernel::resource::NetworkAction& flow, Action::State /*previous*/) {
          const auto& action = reinterpret_cast<const Action&>(flow); // see the static_assert above
          if (current_driver != nullptr && action.get_state() == Action::State::FINISHED)
            current_driver->on_chunk_end(action.get_activity());
        });
    sg4::Engine::on_time_advance_cb([](double) {
      if (current_driver != nullptr)
        current_driver->on_time_advance();
    });
  }
  current_driver = this;
  // The dispatcher: one simcall per date at which chunks ended, for all of them. A daemon, so that SimGrid ends the
  // run when the workers are done.
  sg4::Actor::create("ring-dispatcher", hosts.front(), [this] {
    for (;;) {
      kick_->acquire();
      simgrid::kernel::actor::simcall_answered([this] { dispatch(); });
    }
  })->daemonize();
}

RingDriver::~RingDriver()
{
  current_driver = nullptr;
}

void RingDriver::allreduce(int self, int next, int n, double bytes)
{
  RingMember& m = members_[static_cast<std::size_t>(self)];
  xbt_assert(m.steps_left == 0, "worker %d entered a ring all-reduce before its previous one ended", self);
  m.next        = next;
  m.chunk_bytes = bytes / n;
  m.steps_left  = 2 * (n - 1);
  start_chunk(self); // exchange 0 needs nothing but this member's arrival
  m.done->acquire();
}

void RingDriver::start_chunk(int self)
{
  RingMember& m = members_[static_cast<std::size_t>(self)];
  m.out         = sg4::Comm::sendto_async(m.from, members_[static_cast<std::size_t>(m.next)].from,
                                          static_cast<std::uint64_t>(m.chunk_bytes));
  in_flight_.emplace(m.out->get_impl(), self);
}

void RingDriver::advance(int self)
{
  RingMember& m = members_[static_cast<std::size_t>(self)];
  if (m.steps_left == 0 || m.out != nullptr || m.received == m.consumed)
    return; // not in an all-reduce, or its chunk is still in flight, or the previous member's has not arrived
  m.consumed++;
  if (--m.steps_left == 0)
    m.done->release();
  else
    start_chunk(self);
}

void RingDriver::on_chunk_end(const simgrid::kernel::activity::ActivityImpl* comm)
{
  auto it = in_flight_.find(comm);
  if (it == in_flight_.end())
    return; // another collective's or a parameter server's comm
  ended_.push_back(it->second);
  in_flight_.erase(it);
}

void RingDriver::on_time_advance()
{
  if (!ended_.empty() && !kicked_) {
    kicked_ = true;
    kick_->release(); // in maestro's context: wakes the dispatcher for the next scheduling round, at this date
  }
}

void RingDriver::dispatch()
{
  kicked_ = false;
  // In the order SimGrid ended them (deterministic). SimGrid has finished these comms, so dropping them is safe.
  for (const int self : ended_) {
    RingMember& m = members_[static_cast<std::size_t>(self)];
    m.out         = nullptr;
    members_[static_cast<std::size_t>(m.next)].received++;
    advance(self);
    advance(m.next);
  }
  ended_.clear();
}

} // namespace sgdsim
