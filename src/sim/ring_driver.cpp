// src/sim/ring_driver.cpp: see ring_driver.hpp. The step replay and EmulatedChunk are in ring_replay.cpp.
//
// How the end of a chunk is seen: SimGrid 3.32 tells no actor when a comm that nobody waits for ends, but its
// network model fires Link::on_communication_state_change for every flow that finishes, while it updates the
// flows at a new date (EngineImpl::solve). The successors must not start right there: SimGrid then finishes the
// ended comms (EngineImpl::handle_ended_actions), and each finish searches the list of every host-to-host comm in
// flight, which the successors would double (measured in session 4: 28% of the time at 256 nodes). So the callback
// only records the ended chunks, Engine::on_time_advance wakes the dispatcher actor, and the dispatcher starts the
// successors once the actors run again: after the finishes, at the same simulated date.
//
// Kept flows (docs/design.md "Kept flows in the ring"). Where nothing changes the platform during the run, each ring
// edge keeps one flow for the run instead of one per chunk: SimGrid never ends it (kKeptFlowTailBytes), the driver
// keeps, for the chunk in flight, what SimGrid would keep for a flow of that chunk alone (EmulatedChunk: its latency
// and bytes left), suspends the flow while the chunk pays its latency and after its bytes, and gives the engine the
// dates of both through its clock. What this saves is SimGrid's work per comm: a route and a max-min variable made and
// freed per chunk, and at each end a pass over every comm in flight (SimGrid fact 21).

#include "sim/ring_driver.hpp"

#include "sim/collectives.hpp"
#include "sim/engine_hooks.hpp"
#include "sim/engine_setup.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/simix.hpp>
#include <simgrid/version.h>
#include <xbt/asserts.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

XBT_LOG_EXTERNAL_CATEGORY(sgdsim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(sgdsim_ring_driver, sgdsim, "The steps-mode ring dispatcher and its step replay");

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

// The kept flows emulate the network model of 3.32 (NetworkCm02Model under network/optim:Full), as the step replay
// does (ring_replay.cpp).
static_assert(SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32,
              "ring_driver.cpp's kept flows emulate SimGrid 3.32's network model: check SimGrid's network_cm02.cpp");

namespace sgdsim {

namespace {
// SimGrid's signals are global and cannot be disconnected through s4u: they are connected once per process (one
// simulation per process: docs/design.md, SimGrid fact 1) and reach the live driver, if any, through this pointer.
RingDriver* current_driver = nullptr;

constexpr const char* kClockName = "sgdsim-ring-clock"; // the step replay's and the kept flows' dates
} // namespace

namespace {
// Returns false with `why` (where given) set to `reason`.
bool refuse(std::string* why, const char* reason)
{
  if (why != nullptr)
    *why = reason;
  return false;
}
} // namespace

bool ring_driver_applies(const Scenario& sc, std::string* why)
{
  if (sc.is_ps() || sc.ring_mode != RingMode::STEPS)
    return refuse(why, "the run has no steps-mode ring");
  if (sc.message_overhead_s != 0 || sc.reduce_s_per_byte != 0 || sc.measured_allreduce)
    return refuse(why, "each worker's actor pays a per-message, summation or measured all-reduce cost between its "
                       "chunks");
  if (sc.ring_by_worker_actors)
    return refuse(why, "the workers' actors were asked for");
  const char* optim = cfg_value(sc.simgrid_cfg, "network/optim");
  if (optim == nullptr || std::string(optim) != "Full")
    return refuse(why, "the ring dispatcher needs network/optim:Full");
  return true;
}

bool ring_replay_applies(const Scenario& sc, std::string* why)
{
  if (!ring_driver_applies(sc, why))
    return false;
  if (sc.collective != Collective::RING)
    return refuse(why, "the collective is not the flat ring");
  if (sc.unit() != AllreduceUnit::FUSION && sc.collectives_in_flight != 1)
    return refuse(why, "several all-reduces are in flight at once (--collectives-in-flight)");
  if (sc.ring_every_step_simulated)
    return refuse(why, "every step was asked to be simulated");
  // The replay's arithmetic knows the links, not a connection's rate (docs/models.md §10.11).
  if (sc.connection_rate_Bps > 0)
    return refuse(why, "a connection's rate bounds the chunks (docs/models.md §10.11)");
  return true;
}

RingDriver::RingDriver(const std::vector<sg4::Host*>& hosts, bool replay, int sockets, double connection_rate_Bps,
                       bool keep_flows)
    : sockets_(sockets), connection_rate_Bps_(connection_rate_Bps)
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
  kick_ = sg4::Semaphore::create(0);
  connect_dispatcher(current_driver);
  current_driver     = this;
  namespace cfg      = simgrid::config;
  surf_precision_    = cfg::get_value<double>("surf/precision");
  remains_precision_ = cfg::get_value<double>("maxmin/precision") * surf_precision_; // Action::update_remains
  latency_factor_    = cfg::get_value<double>("network/latency-factor");
  weight_S_          = cfg::get_value<double>("network/weight-S");
  replay_ok_         = replay && sockets_ == 1 && replay_conditions(hosts); // the replay emulates one flow per chunk
  // Kept flows where nothing is replayed: a suspended flow stays among those SimGrid passes over at every date, and a
  // replayed all-reduce has some 4K dates and no flow of its own. A kept flow carries chunks of every size: it needs
  // a network model whose factors do not depend on the size (not SMPI's), and one flow per chunk (not the parts of
  // several sockets).
  const auto model = cfg::get_value<std::string>("network/model");
  keep_flows_      = keep_flows && !replay_ok_ && sockets_ == 1 && (model == "LV08" || model == "CM02");
  network_         = network_model();
  if (replay && sockets_ > 1)
    replay_refusal_ = "each chunk between hosts is cut over " + std::to_string(sockets_) +
                      " connections (docs/models.md §10.9), and the replay emulates one flow per chunk";
  if (replay_ok_)
    ended_rates_.reserve(hosts.size());
  if (replay_ok_ || keep_flows_) {
    running_.reserve(hosts.size());
    // The driver's clock answers for the chunk that the driver replays, as the network model would for the K flows
    // it stands for, and for the kept flows' chunks as it would for flows of those chunks alone; after the
    // platform's models, and ties between models do not matter.
    add_clock_model(
        kClockName,
        [](double /*now*/) { return current_driver != nullptr ? current_driver->clock_next_event() : -1.0; },
        [](double /*now*/, double delta) {
          if (current_driver != nullptr)
            current_driver->clock_advance(delta);
        });
  }
  // The dispatcher: one simcall per date at which chunks ended, for all of them.
  start_dispatcher(hosts.front(), "ring-dispatcher", kick_, [this] { dispatch(); });
}

RingDriver::~RingDriver()
{
  current_driver = nullptr;
  if (replays_ > 0)
    XBT_VERB("step replay: %ld steps of %ld all-reduces replayed", steps_replayed_, replays_);
  if (keep_flows_)
    XBT_VERB("kept flows: %zu edges carried %ld chunks", kept_.size(), kept_chunks_);
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
  m.sending     = true;
  if (virtual_starts_) { // the first step of a replay: the replay clock stands for this chunk
    virtual_started_.push_back(self);
    return;
  }
  sg4::Host* const to = members_[static_cast<std::size_t>(m.next)].from;
  if (sockets_ > 1 && to != m.from) { // in NCCL's parts, one flow each (docs/models.md §10.9)
    const std::vector<double> parts = socket_parts(m.chunk_bytes, sockets_);
    m.parts_left                    = static_cast<int>(parts.size());
    for (double part : parts) {
      m.parts.push_back(start_flow(m.from, to, part, connection_rate_Bps_));
      in_flight_.emplace(m.parts.back()->get_impl(), self);
    }
    return; // no replay with several sockets
  }
  const auto bytes = static_cast<std::uint64_t>(m.chunk_bytes);
  m.chunk_order    = ++chunks_started_;
  m.parts_left     = 1;
  // In maestro's context as one simcall: workers' actors start their first chunks in one scheduling round, and a
  // reference into kept_ held across a simcall would not survive another actor's new edge.
  if (!keep_flows_ || !simgrid::kernel::actor::simcall_answered(
                          [this, self, to, bytes] { return start_kept_chunk(self, to, static_cast<double>(bytes)); })) {
    m.out = start_flow(m.from, to, static_cast<double>(bytes), connection_rate_Bps_);
    in_flight_.emplace(m.out->get_impl(), self);
  }
  if (!replay_ok_)
    return;
  // The step of the chunks in flight: a lockstep candidate while its chunks all start at one date with one size.
  const double now  = sg4::Engine::get_clock();
  const double cost = static_cast<double>(bytes);
  if (in_flight_.size() == 1) {
    recording_   = true;
    step_date_   = now;
    step_cost_   = cost;
    step_chunks_ = 1;
    step_deltas_.clear();
  } else {
    step_chunks_++;
    if (now != step_date_ || cost != step_cost_)
      recording_ = false;
  }
}

// The chunk of `bytes` that member `self` sends to `to`, on the kept flow of that edge (made at its first chunk), in
// maestro's context. False where the edge keeps no flow: a host to itself, or a route without links (SimGrid ends
// such a flow at once).
bool RingDriver::start_kept_chunk(int self, sg4::Host* to, double bytes)
{
  RingMember& m = members_[static_cast<std::size_t>(self)];
  if (to == m.from)
    return false;
  if (m.kept < 0 || kept_[static_cast<std::size_t>(m.kept)].to != to) {
    m.kept = -1;
    for (const int k : m.edges)
      if (kept_[static_cast<std::size_t>(k)].to == to)
        m.kept = k;
  }
  if (m.kept < 0) {
    std::vector<sg4::Link*> links;
    double latency = 0; // summed as SimGrid sums a comm's route latency (NetZoneImpl::get_global_route)
    m.from->route_to(to, links, &latency);
    if (links.empty())
      return false;
    EdgeFlow e;
    e.to        = to;
    e.member    = self;
    e.latency_s = latency * latency_factor_; // NetworkCm02Model::comm_action_set_bounds
    // The max-min penalty SimGrid gives such a flow once its latency is paid (NetworkCm02Model::communicate: the
    // route's latency plus weight-S over each link's bandwidth); a flow without latency keeps the 1 it was made with.
    e.penalty = 1.0;
    if (e.latency_s > 0) {
      e.penalty = latency;
      if (weight_S_ > 0)
        for (const sg4::Link* link : links)
          e.penalty = e.penalty + weight_S_ / link->get_bandwidth();
    }
    e.flow = start_kept_flow(m.from, to, bytes, *network_);
    if (connection_rate_Bps_ > 0) // as start_flow bounds a flow (docs/models.md §10.11)
      e.flow.action->set_bound(e.flow.action->get_bound() > 0
                                   ? std::min(e.flow.action->get_bound(), connection_rate_Bps_)
                                   : connection_rate_Bps_);
    e.flow.action->suspend(); // SimGrid does not enable it when it has paid its latency: the driver does
    m.kept = static_cast<int>(kept_.size());
    m.edges.push_back(m.kept);
    kept_.push_back(std::move(e));
  }
  EdgeFlow& e = kept_[static_cast<std::size_t>(m.kept)];
  e.chunk.start(bytes, e.latency_s);
  e.flow.action->set_remains(bytes + kKeptFlowTailBytes);
  if (e.chunk.active) // no latency: in the sharing at once, as SimGrid makes such a flow
    enable(e);
  running_.push_back(m.kept);
  kept_chunks_++;
  return true;
}

double RingDriver::clock_next_event()
{
  double next = replay_next_event();
  // Each kept chunk's next event as the network model would give it for a flow of its own: its latency left, or its
  // bytes left over the rate of the solve just made (Model::next_occurring_event_full).
  for (const int k : running_) {
    EdgeFlow& e        = kept_[static_cast<std::size_t>(k)];
    const double delay = e.chunk.solve(e.flow.action->get_rate());
    if (delay >= 0 && (next < 0 || delay < next))
      next = delay;
  }
  return next;
}

// The engine moved the clock by `delta` and the network model has updated its flows: the kept chunks are updated as
// it would update flows of their own (NetworkCm02Model::update_actions_state_full), in the order they started, which
// is the order in which it would go through them and end them.
void RingDriver::clock_advance(double delta)
{
  std::size_t still = 0;
  for (const int k : running_) {
    EdgeFlow& e           = kept_[static_cast<std::size_t>(k)];
    const bool was_active = e.chunk.active;
    const bool ended      = e.chunk.advance(delta, surf_precision_, remains_precision_);
    if (e.chunk.active && !was_active)
      enable(e); // its latency is paid: in the sharing from the next solve on
    if (!ended) {
      running_[still++] = k;
      continue;
    }
    const RingMember& m = members_[static_cast<std::size_t>(e.member)];
    update_ends_.push_back(Ended{m.chunk_order, e.member});
    e.flow.action->suspend(); // out of the sharing from the next solve on, as a flow that ended
  }
  running_.resize(still);
  collect_ends();
  replay_advance(delta);
}

// The chunks that ended in this update, the kept ones and those with comms of their own (on_flow_end), in the order
// they started: the order in which SimGrid, whose flows would all be comms of their own, would have ended them. Each
// kind arrives in start order already; the sort only interleaves them, which changes which member the dispatcher
// handles first but, as far as the tests show, no result: without it the RingKeptFlows comparisons stay identical,
// with 96 updates where the two orders differed (two ranks per host). Kept for fidelity, not pinned by a test.
void RingDriver::collect_ends()
{
  std::sort(update_ends_.begin(), update_ends_.end(), [](const Ended& a, const Ended& b) { return a.order < b.order; });
  for (const Ended& e : update_ends_) // no step is recorded: kept flows and the replay exclude each other
    ended_.push_back(e.self);
  update_ends_.clear();
}

// Puts a kept flow back in the sharing with the penalty SimGrid would give it. Not Action::resume(): it restores the
// penalty of Action's own member, which CM02's actions leave at 1 (theirs is NetworkAction's), and a ring whose
// routes differ in latency would then share its links as if they were alike.
void RingDriver::enable(EdgeFlow& e)
{
  e.flow.action->set_suspend_state(Action::SuspendStates::RUNNING);
  e.flow.action->set_sharing_penalty(e.penalty);
}

void RingDriver::advance(int self)
{
  RingMember& m = members_[static_cast<std::size_t>(self)];
  if (m.steps_left == 0 || m.sending || m.received == m.consumed)
    return; // not in an all-reduce, or its chunk is still in flight, or the previous member's has not arrived
  m.consumed++;
  if (--m.steps_left == 0)
    m.done->release();
  else
    start_chunk(self);
}

void RingDriver::on_flow_end(const Action& flow)
{
  auto it = in_flight_.find(flow.get_activity());
  if (it == in_flight_.end())
    return; // another collective's or a parameter server's comm
  const int self = it->second;
  in_flight_.erase(it);
  RingMember& m = members_[static_cast<std::size_t>(self)];
  if (--m.parts_left > 0)
    return;          // the chunk ends with its last part
  if (keep_flows_) { // ordered with the kept chunks that end in this update (collect_ends)
    update_ends_.push_back(Ended{m.chunk_order, self});
    return;
  }
  ended_.push_back(self);
  if (recording_) {
    ended_rates_.push_back(flow.get_rate());
    if (flow.get_cost() != step_cost_)
      recording_ = false;
  }
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
  // Before the ended chunks are handled: whether their step was lockstep, and whether the next steps are replayed.
  const bool replay_next = replay_ok_ && step_replayable();
  virtual_starts_        = replay_next;
  // In the order SimGrid ended them (deterministic). SimGrid has finished these comms, so dropping them is safe.
  for (const int self : ended_) {
    RingMember& m = members_[static_cast<std::size_t>(self)];
    m.out         = nullptr;
    m.parts.clear();
    m.sending = false;
    members_[static_cast<std::size_t>(m.next)].received++;
    advance(self);
    advance(m.next);
  }
  ended_.clear();
  ended_rates_.clear();
  if (replay_next)
    begin_replay();
}

} // namespace sgdsim
