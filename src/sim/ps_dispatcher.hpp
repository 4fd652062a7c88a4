// src/sim/ps_dispatcher.hpp: ps-sync / ps-async without an actor per worker and per connection (docs/design.md
// "PS dispatcher"). Where every connection is a stream whose messages cost nothing beyond their bytes and every
// worker's CPU runs only that worker's compute at a constant speed, what the actors of worker.cpp and
// parameter_server.cpp do reduces to dates: a worker's compute is a chain of known durations, a connection sends its
// messages back to back, the PS's updates are a FIFO queue. The dispatcher computes those dates and leaves SimGrid only
// the flows: one flow per connection and busy period (Sync-PS: one per connection, suspended between its busy
// periods: kept flows, engine_hooks.hpp), to which the messages that become ready while it runs are added (its
// remaining bytes grow), so that SimGrid re-solves its max-min sharing only when a flow starts or ends, not at each of
// the hundreds of messages of a step. A message's arrival is the date the flow's sent bytes reached its end, from the
// flow's rate between two engine steps, the arithmetic SimGrid applies to a flow's end.
#pragma once

#include "sim/ps_rules.hpp"
#include "sim/sim_context.hpp"
#include "sim/step_recorder.hpp"
#include "workload/workload.hpp"

#include "common/rng.hpp"

#include <cstdint>
#include <deque>
#include <queue>
#include <set>
#include <simgrid/s4u.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace simgrid::kernel {
namespace resource {
class Action;
class Model;
} // namespace resource
namespace activity {
class ActivityImpl;
}
} // namespace simgrid::kernel

namespace sgdsim {

struct Placement;

/** Whether the PS dispatcher runs this scenario: fair sharing, stream connections without per-message cost, one
 *  worker per host and no PS on a worker's host, no flow spreads, no speed profile (from the platform or --background)
 *  on a worker's host, PS updates computed (SimContext::ps_cpu_exclusive) or free, SimGrid's network/optim Full (the
 *  dispatcher grows a flow's remaining bytes, which Full reads at each step), and not scenario.ps_by_actors. A
 *  --background link schedule does not matter: the dispatcher ends its flows at a message's end when a link changes
 *  (on_bandwidth_change). Nor do unequal latencies between a PS and its workers: gradients are handed to the PS in
 *  arrival order (ArrivalOrder). Call once the streams are made (connections.cpp). */
bool ps_dispatcher_applies(const SimContext& ctx, const Placement& placement,
                           const std::set<std::string>& varying_speed_hosts, bool platform_has_profiles);

class PsDispatcher {
public:
  PsDispatcher(const SimContext& ctx, StepRecorder& recorder, const std::vector<simgrid::s4u::Host*>& ps_hosts);
  ~PsDispatcher();
  PsDispatcher(const PsDispatcher&)            = delete;
  PsDispatcher& operator=(const PsDispatcher&) = delete;

  // Called from SimGrid's engine (engine_hooks.hpp); public for the hooks only.
  void on_flow_end(const simgrid::kernel::resource::Action& flow);
  double next_date_delay(double now) const;
  void clock_advanced(double now, double delta);
  void on_time_advance();
  void on_bandwidth_change();

private:
  struct Msg {
    int tensor;
    double bytes;
    double ready_s;       // when the sender has it (gradients: its layer's backward ends)
    double end_bytes = 0; // once in a flow: the flow's bytes sent when its last byte is
  };
  struct Conn {
    simgrid::s4u::Host* src = nullptr;
    simgrid::s4u::Host* dst = nullptr;
    int ps                  = 0;
    int worker              = 0;
    bool up                 = false;
    simgrid::s4u::CommPtr comm; // the flow of the busy period (Sync-PS: of the run, suspended between busy periods)
    simgrid::kernel::resource::Action* action = nullptr;
    double put_bytes                          = 0; // bytes given to the flow so far
    double rate_Bps                           = 0; // a flow SimGrid ended: its rate over the last interval
    double last_s                             = 0; // the last engine date seen, and the flow's bytes sent then
    double last_done                          = 0;
    double prev_end_s                         = 0; // when the previous message's last byte was sent (a message's start)
    std::deque<Msg> in_flow;                       // given to the flow, last byte not yet sent
    std::deque<Msg> waiting;                       // not given to the flow yet (uplinks)
    bool timed  = false;                           // a timer starts the next flow
    bool listed = false;                           // in busy_
    bool cut    = false;                           // ends with its current message (a link changed): no more joins
    bool stale  = false;                           // its flow was made before a link changed
    // The busy period's bytes not sent yet, as SimGrid would have them in a flow of those bytes alone: the flow's
    // remaining bytes less its tail, without the rounding the tail brings.
    double left = 0;
  };
  struct Crossing {
    double date_s;
    double start_s;
    int conn;
    int tensor;
  };
  struct Timer {
    double date_s;
    std::uint64_t order;
    int kind; // 0: a downlink's start (a = ps, b = worker); 1: an uplink's start (a = conn); 2: PS a's next arrival
    int a;
    int b;
    bool operator>(const Timer& o) const { return date_s != o.date_s ? date_s > o.date_s : order > o.order; }
  };
  struct WorkerState {
    explicit WorkerState(Rng r) : rng(std::move(r)) {}
    Rng rng;
    IntervalAccount account;
    double step_begin_s = 0;
    int step            = 0;
    bool receiving      = false; // posted its receives for this step's parameters, not all arrived yet
    bool stepping       = false; // in a step (not finished)
    std::vector<double> fwd_s, bwd_s;
    std::vector<double> arrival_s; // per tensor, this step
    int downs_left = 0;            // downlink flows of this step not yet ended
    int ups_left   = 0;            // gradients of this step not yet arrived at their PS
  };
  struct Landing {
    int worker;
    int tensor;
  };
  struct PsState {
    double flops_per_byte = 0;
    ComputedUpdateQueue queue;
    PsGradientRules rules;
    std::vector<double> due_s;      // per worker: its parameters are due (-1: not released)
    ArrivalOrder<Landing> arriving; // gradients whose last byte was sent, handed over in arrival order
    bool one_latency;               // every worker at the same latency: each is handed over as it is sent
    double wake_s = -1;             // the date of the timer set to hand over the next of them (-1: none)
  };

  int down_conn(int ps, int worker) const { return 2 * (ps * workers_ + worker); }
  void dispatch();
  void begin_step(int w);
  void schedule_compute(int w);
  void land(int ps, int worker, int tensor, double arrival_s);
  void hand_over(int ps);
  void release(int ps, int worker, double ready_s);
  void try_start_down(int ps, int worker);
  void start_flow(int c);
  void set_timer(double date_s, int kind, int a, int b);

  const SimContext& ctx_;
  StepRecorder& recorder_;
  int workers_;
  int finished_ = 0;
  double surf_precision_;
  double bytes_precision_; // SimGrid's on a flow's remaining bytes (Action::update_remains)
  bool keep_flows_;        // a connection keeps its flow between busy periods (kept flows, engine_hooks.hpp)
  std::vector<Conn> conns_;
  std::vector<int> busy_; // conns with a flow
  std::vector<WorkerState> workers_state_;
  std::vector<PsState> ps_;
  std::unordered_map<const simgrid::kernel::activity::ActivityImpl*, int> by_flow_;
  std::vector<Crossing> crossings_; // seen at this date, dispatched in date order
  std::vector<int> ended_;          // conns whose flow ended at this date
  std::vector<Timer> due_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::uint64_t timer_order_ = 0;
  bool kicked_               = false;
  bool started_              = false; // the first round released the initial parameters
  simgrid::s4u::SemaphorePtr kick_;
  simgrid::s4u::SemaphorePtr all_done_;
  simgrid::kernel::resource::Model* network_ = nullptr;
};

} // namespace sgdsim
