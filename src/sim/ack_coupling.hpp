// src/sim/ack_coupling.hpp: --ack-coupling-in/out, the coupling of a PS NIC's two directions as the incast
// microbenchmarks measure it (docs/models.md §10.6 "The two directions, measured"). SimGrid's own coupling (every
// flow loads its reverse route with 5% of its rate, network/crosstraffic) holds a flow to the level of the link its
// ACKs cross, and that level counts the flow's sharing weight: with --flow-spread-in/out a pull whose weight is below a
// push's runs at a fraction of its link however idle that link is. With the options, SimGrid's ACK traffic is off and
// each flow between a worker and a PS runs at most at its rate alone / (G x n), n the flows the other way through
// that PS's NIC at the moment and G the direction's coupling (tools/measure/fit_incast.py); with an exponent E below
// 1, divided further by m^(1 - E), m the flows its own way (several flows lose more together, incast-duplex).
// Which direction loses depends on which started first (duplex-late-in/out, §10.6 "Start order, measured and
// modelled"): a flow started while the other direction carried an older flow (late), or one the other direction
// joined later (established), can take a law of its own (unset by default; under BBR they did not hold on training
// traffic; under CUBIC the Sync-PS cases take the late flows in's, §10.6 "Start order under CUBIC").
// With the offered load (§10.6 "The offered load of the flows in"), the laws of the flows out hold for flows in that
// are backlogged, and pushes paced below the link cost less.
#pragma once

#include <simgrid/s4u/Comm.hpp>

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace simgrid::kernel::resource {
class Action;
class Model;
} // namespace simgrid::kernel::resource

namespace sgdsim {

/** The bound of a flow whose rate alone is `alone`, one of `n_own` flows its way beside `n_reverse` the other way
 *  through the PS's NIC: alone / (g x n_reverse x n_own^(1 - exponent)), never above alone, so that n_own equal
 *  flows are slowed max(1, g n_reverse / n_own^exponent) against their share alone (docs/models.md §10.6).
 *  Exponent 1: alone / (g x n_reverse), the lone-flow form. */
double ack_coupled_bound(double alone, double g, int n_reverse, int n_own = 1, double exponent = 1);
/** What ack_coupled_bound divides the rate alone by where it exceeds 1: g x n_reverse x n_own^(1 - exponent). */
double ack_coupling_divisor(double g, int n_reverse, int n_own, double exponent);

/** The flows between workers and PS, per PS and direction, and their bounds. One per run; the engine's signals reach
 *  it through a pointer (engine_hooks.hpp). */
class AckCoupling {
public:
  /** g_in: the coupling of flows into a PS (measured by outcast-mixed), g_out: out of it (incast-mixed); e_in,
   *  e_out: their exponents (incast-duplex; 1: the lone-flow form). */
  AckCoupling(int n_ps, double g_in, double g_out, double e_in = 1, double e_out = 1);

  /** A connection's start against the other direction's through the same NIC, per episode (the connection busy,
   *  with pauses shorter than kEpisodeIdleS): TOGETHER (nothing older the other way, nothing the other way started
   *  after it; incast-duplex), LATE (it started while the other direction carried an older episode), ESTABLISHED
   *  (not late, and an episode the other way started after it). Its flows (one per message) take its order. */
  enum class StartOrder { TOGETHER, LATE, ESTABLISHED };
  /** The law (G, exponent) of one direction's flows of one start order; until set, the law of flows started
   *  together (the constructor's). */
  void set_law(bool into_ps, StartOrder order, double g, double exponent);
  /** --ack-coupling-offered-load: the flows out's late and established laws scaled by what the flows in offer
   *  (docs/models.md §10.6 "The offered load of the flows in"). An established flow out loses the share of its rate
   *  its law takes times u^2, u the PS's flows in's offered load together (at most 1); a late flow out takes its law
   *  only while its own connection's flows in are backlogged (their latest message queued behind the one before it,
   *  or u >= 1), else the law of flows started together. */
  void scale_by_offered_load(bool on) { offered_load_ = on; }
  /** A connection's offered load at `now_s`: the bytes it was given in its episode before now over what its rate
   *  alone moves in the episode's time; 1 (backlogged) where no time has passed. */
  struct Pace {
    double episode_start_s, episode_bytes, last_post_s, bytes_at_last_post, rate_Bps; // rate_Bps: its rate alone
  };
  static double offered_load(const Pace& pace, double now_s);
  /** The divisor of a law whose divisor is `law` (at most the rate alone is kept: <= 1 is none) with the share of the
   *  rate it takes scaled by load^2, load at most 1: 1 / (1 - load^2 (1 - 1 / law)). */
  static double load_scaled_divisor(double law, double load);
  /** A connection idle this long starts a new episode: one minimum retransmission timeout, after which TCP restarts
   *  from its initial window (RFC 5681 §4.1; Linux's TCP_RTO_MIN, 200 ms). Shorter pauses (a message's software
   *  cost, a stream's next message) leave the connection in its state. */
  static constexpr double kEpisodeIdleS = 0.2;
  ~AckCoupling();
  AckCoupling(const AckCoupling&)            = delete;
  AckCoupling& operator=(const AckCoupling&) = delete;

  /** Called by both ends of every message between a worker and PS `ps` once it is posted: the second end finds its
   *  flow (SimGrid starts it when both ends are there), which joins the count of its direction; the PS's flows get
   *  their bounds at once, before the engine shares the links again. */
  void track(const simgrid::s4u::CommPtr& comm, int ps, bool into_ps);

  void on_flow_end(const simgrid::kernel::resource::Action& flow);
  /** SimGrid sets a flow's bound again when a link of its route changes latency (the flow weights do): reapplied. */
  void on_time_advance();

private:
  struct Connection {
    bool late         = false; // its episode started while the other direction carried an older one
    int active        = 0;     // its flows running
    double last_end_s = -kEpisodeIdleS - 1;
    Pace pace{0, 0, -1, 0, 0}; // what its episode was given, for its offered load
    bool counted      = false; // in conns_in_
    bool back_to_back = false; // its latest message was queued behind the one before it
    bool live(double now_s) const { return active > 0 || now_s - last_end_s < kEpisodeIdleS; }
    /** Its sender has more than the link takes: its latest message queued, or the episode offering the link. */
    bool backlogged(double now_s) const { return live(now_s) && (back_to_back || offered_load(pace, now_s) >= 1); }
  };
  struct Flow {
    int ps;
    bool into_ps;
    double alone;              // the bound SimGrid gave the flow (its route's bandwidth; variable units)
    Connection* conn;          // the source and destination hosts' connection (node of connections_: stable)
    const Connection* reverse; // the same hosts' connection the other way (offered load only, else null)
  };
  struct Law {
    double g, exponent;
  };
  bool starts_late(int ps, bool into_ps, double now_s) const;
  void apply(int ps);

  double offered_in(int ps, double now_s) const;

  Law laws_[2][3]; // [into_ps][StartOrder]
  bool offered_load_ = false;
  std::vector<std::vector<const Connection*>> conns_in_; // per PS, the connections into it (offered_load_ only)
  simgrid::kernel::resource::Model* network_; // the engine's network model, whose started flows track() searches
  std::vector<std::vector<simgrid::kernel::resource::Action*>> in_, out_; // per PS, in the order they started
  std::unordered_map<const simgrid::kernel::resource::Action*, Flow> flows_;
  std::map<std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>, Connection> connections_;
};

/** The run's coupling, or null (set by simulate() while the engine runs). */
AckCoupling*& current_ack_coupling();

/** ack_coupling->track(comm, ps, into_ps) when the run has one. */
inline void track_ack_coupling(const simgrid::s4u::CommPtr& comm, int ps, bool into_ps)
{
  if (AckCoupling* c = current_ack_coupling(); c != nullptr)
    c->track(comm, ps, into_ps);
}

} // namespace sgdsim
