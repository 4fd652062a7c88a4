// src/sim/ring_replay.cpp: the RingDriver's step replay, and EmulatedChunk, the one flow of SimGrid's network model
// that the replay and the kept flows (ring_driver.cpp) reproduce: see ring_driver.hpp.
//
// Step replay (docs/design.md "Ring step replay"). In a lockstep step every member's chunk starts at one date, on
// routes alike, and all end in one update of the engine: SimGrid computes K identical flows. The driver checks that
// on the simulated steps (step_replayable), then replays the middle steps of the all-reduce with one EmulatedChunk
// that does SimGrid's own arithmetic on the engine's own clock updates. The engine learns of the replayed chunk
// through a resource model of the driver's (its replay clock, add_clock_model), which it asks for its next event and
// updates like the network model, so the dates come out as they would with the K flows. The last step of the all-reduce
// is simulated again, so that the members finish in SimGrid's order.

#include "sim/ring_driver.hpp"

#include "common/units.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/version.h>
#include <xbt/asserts.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <string>
#include <vector>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(sgdsim_ring_driver);

namespace sg4 = simgrid::s4u;

// EmulatedChunk and the step replay emulate the network model of 3.32 (NetworkCm02Model under network/optim:Full).
static_assert(SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32,
              "ring_replay.cpp emulates SimGrid 3.32's network model: check SimGrid's network_cm02.cpp");

namespace sgdsim {

// SimGrid 3.32, NetworkCm02Model::comm_action_set_variable: a flow with a latency starts with a disabled variable,
// enabled once the latency is paid; one without is enabled at once.
void EmulatedChunk::start(double cost, double latency_s)
{
  latency = latency_s;
  remains = cost;
  rate    = 0;
  active  = !(latency_s > 0);
}

// Model::next_occurring_event_full then NetworkModel::next_occurring_event_full, for one flow: the max-min solve
// gives an enabled variable its rate, then the delay is the time to send what remains at that rate, or the latency
// left if smaller.
double EmulatedChunk::solve(double rate_Bps)
{
  if (active)
    rate = rate_Bps;
  double min = -1;
  if (rate > 0)
    min = remains > 0 ? remains / rate : 0.0;
  if (latency > 0)
    min = min < 0 ? latency : std::min(min, latency);
  return min;
}

// NetworkCm02Model::update_actions_state_full for one flow (double_update: subtract, then a value below the
// precision is 0). The bytes move at the rate of the previous solve, which is 0 in the update that enables the
// variable. Built without floating-point contraction (ISO C++ mode: GCC's -ffp-contract=off), as SimGrid is.
bool EmulatedChunk::advance(double delta, double surf_precision, double remains_precision)
{
  if (latency > 0) {
    if (latency > delta) {
      latency -= delta;
      if (latency < surf_precision)
        latency = 0;
    } else {
      latency = 0;
    }
    if (latency <= 0)
      active = true;
  }
  remains -= rate * delta;
  if (remains < remains_precision)
    remains = 0;
  return remains <= 0 && active;
}

// The static conditions of the step replay (docs/design.md "Ring step replay"), besides ring_replay_applies() and
// a platform that does not change during the run: the network model whose updates EmulatedChunk reproduces, and a
// ring whose edges are alike: each links two hosts of one speed by a route of the same latency over links of the
// same bandwidths and sharing policies.
bool RingDriver::replay_conditions(const std::vector<sg4::Host*>& hosts)
{
  namespace cfg     = simgrid::config;
  const auto model  = cfg::get_value<std::string>("network/model");
  const bool full   = cfg::get_value<std::string>("network/optim") == "Full";
  const auto n_host = hosts.size();
  if (!full || (model != "LV08" && model != "CM02")) {
    replay_refusal_ = "the network model is not LV08 or CM02 under network/optim:Full";
    return false;
  }
  if (n_host < 3) {
    replay_refusal_ = "the ring has fewer than 3 members";
    return false;
  }
  std::vector<sg4::Link*> first;
  std::vector<sg4::Link*> links;
  double first_latency = 0;
  const auto edge      = [&hosts, n_host](std::size_t w) {
    return std::string(hosts[w]->get_cname()) + " -> " + hosts[(w + 1) % n_host]->get_cname();
  };
  for (std::size_t w = 0; w < n_host; w++) {
    sg4::Host* const from = hosts[w];
    sg4::Host* const to   = hosts[(w + 1) % n_host];
    if (from == to) {
      replay_refusal_ = "ring edge " + edge(w) + " joins a host to itself";
      return false;
    }
    if (from->get_speed() != hosts.front()->get_speed()) {
      replay_refusal_ = std::string("the ring's hosts differ in speed (") + hosts.front()->get_cname() + " and " +
                        from->get_cname() + ")";
      return false;
    }
    links.clear();
    double latency = 0; // summed as SimGrid sums a comm's route latency (NetZoneImpl::get_global_route)
    from->route_to(to, links, &latency);
    if (w == 0) {
      first         = links;
      first_latency = latency;
      continue;
    }
    if (latency != first_latency || links.size() != first.size()) {
      replay_refusal_ = "ring edge " + edge(w) + " crosses " + std::to_string(links.size()) + " links with " +
                        format_us(latency) + " of latency, " + edge(0) + " " + std::to_string(first.size()) + " with " +
                        format_us(first_latency);
      return false;
    }
    for (std::size_t l = 0; l < links.size(); l++)
      if (links[l]->get_bandwidth() != first[l]->get_bandwidth() ||
          links[l]->get_sharing_policy() != first[l]->get_sharing_policy()) {
        replay_refusal_ = "ring edge " + edge(w) + " crosses link " + links[l]->get_cname() + ", unlike " +
                          first[l]->get_cname() + " of " + edge(0) + " in bandwidth or sharing policy";
        return false;
      }
  }
  // NetworkCm02Model::comm_action_set_bounds: the flow's latency_ is the route's times the latency factor.
  latency_s_ = first_latency * latency_factor_;
  return true;
}

// Whether the step whose chunks just ended (ended_) was lockstep, and the emulation exact on it: every member's
// chunk started at one date with one size (start_chunk) and ended in one update of the engine (this batch), at one
// rate, with no other chunk in flight; their start order, which SimGrid's Full update keeps as their end order, is a
// rotation of the ring; and an EmulatedChunk at that rate, updated by the engine's own clock updates since the
// start, ends in that same update, its last delay being the one the engine took. After two such steps at the same
// rate, with at least one step to replay before the all-reduce's last one, the next steps are replayed.
bool RingDriver::step_replayable()
{
  const bool was_recording = recording_;
  recording_               = false;
  const std::size_t n      = members_.size();
  bool lockstep = !replaying_ && was_recording && in_flight_.empty() && ended_.size() == n && step_chunks_ == n &&
                  ended_rates_.size() == n && ended_rates_.front() > 0;
  // Exchanges left to every member, the one that completes now included.
  const int steps_left = lockstep ? members_[static_cast<std::size_t>(ended_.front())].steps_left : 0;
  for (std::size_t i = 0; lockstep && i < n; i++) {
    const RingMember& m = members_[static_cast<std::size_t>(ended_[i])];
    lockstep            = m.next == ended_[(i + 1) % n] && m.sending && m.steps_left == steps_left &&
               ended_rates_[i] == ended_rates_.front();
  }
  if (lockstep) {
    const double rate = ended_rates_.front();
    EmulatedChunk chunk;
    chunk.start(step_cost_, latency_s_);
    bool ended = false;
    for (std::size_t i = 0; lockstep && i < step_deltas_.size(); i++) {
      const double next = chunk.solve(rate);
      ended             = chunk.advance(step_deltas_[i], surf_precision_, remains_precision_);
      // Never past the flow's next event; ending exactly at it, and only in the last update.
      lockstep =
          step_deltas_[i] <= next && ended == (i + 1 == step_deltas_.size()) && (!ended || step_deltas_[i] == next);
    }
    lockstep = lockstep && ended;
  }
  if (!lockstep) {
    verified_ = 0;
    return false;
  }
  const double rate = ended_rates_.front();
  verified_         = verified_ > 0 && rate == verified_rate_ ? verified_ + 1 : 1;
  verified_rate_    = rate;
  // The exchange that completes now, then at least one to replay, then the last one, simulated.
  if (verified_ < 2 || steps_left < 3)
    return false;
  replay_total_ = steps_left - 2;
  head_         = members_[static_cast<std::size_t>(ended_.front())].next;
  return true;
}

// dispatch() has just started the first replayed step with virtual_starts_: every member's chunk is marked in flight
// without a comm, in the order the ended ones imply, which for a rotation of the ring is the next rotation.
void RingDriver::begin_replay()
{
  virtual_starts_     = false;
  const std::size_t n = members_.size();
  bool rotation       = virtual_started_.size() == n;
  for (std::size_t i = 0; rotation && i < n; i++) {
    const int expected = i == 0 ? head_ : members_[static_cast<std::size_t>(virtual_started_[i - 1])].next;
    rotation           = virtual_started_[i] == expected;
  }
  xbt_assert(rotation, "ring step replay: the chunks of a lockstep step did not start in ring order");
  virtual_started_.clear();
  replaying_   = true;
  replay_left_ = replay_total_;
  chunk_.start(step_cost_, latency_s_);
  replays_++;
  XBT_DEBUG("step replay: %d steps of %zu members, %.0f bytes per chunk at %.17g B/s", replay_total_, n, step_cost_,
            verified_rate_);
}

double RingDriver::replay_next_event()
{
  return replaying_ ? chunk_.solve(verified_rate_) : -1.0;
}

void RingDriver::replay_advance(double delta)
{
  if (!replaying_) {
    if (recording_)
      step_deltas_.push_back(delta);
    return;
  }
  if (!chunk_.advance(delta, surf_precision_, remains_precision_))
    return;
  steps_replayed_++;
  if (--replay_left_ > 0) { // the members' next chunks start at once, as the dispatcher would start them
    head_ = members_[static_cast<std::size_t>(head_)].next;
    chunk_.start(step_cost_, latency_s_);
    return;
  }
  end_replay();
}

// The last replayed step ended: every member is where the simulated steps would have left it, its chunk of the
// second-to-last step in flight, and the chunks "end" in their start order (a rotation of the ring from head_), as
// SimGrid's would; Engine::on_time_advance then wakes the dispatcher, which starts the last step, simulated.
void RingDriver::end_replay()
{
  replaying_           = false;
  verified_            = 0;
  const long completed = replay_total_ - 1; // exchanges completed between the replayed steps
  for (RingMember& m : members_) {
    m.received += completed;
    m.consumed += completed;
    m.steps_left -= static_cast<int>(completed);
  }
  int member = head_;
  for (std::size_t i = 0; i < members_.size(); i++) {
    ended_.push_back(member);
    member = members_[static_cast<std::size_t>(member)].next;
  }
}

} // namespace sgdsim
