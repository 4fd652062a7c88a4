#include "sim/ack_coupling.hpp"

#include "sim/engine_hooks.hpp"

#include <algorithm>
#include <cmath>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/simix.hpp>

namespace sgdsim {

using simgrid::kernel::resource::Action;

double ack_coupling_divisor(double g, int n_reverse, int n_own, double exponent)
{
  // Exponent 1 skips pow: the lone-flow form's bound, bit for bit, and no pow per update on the default path.
  const double own = exponent == 1 ? 1 : std::pow(static_cast<double>(std::max(n_own, 1)), 1 - exponent);
  return g * n_reverse * own;
}

namespace {
// The rate alone divided by the coupling's divisor, never above the rate alone.
double bound_by(double alone, double divisor)
{
  return divisor > 1 ? alone / divisor : alone;
}
} // namespace

double ack_coupled_bound(double alone, double g, int n_reverse, int n_own, double exponent)
{
  return bound_by(alone, ack_coupling_divisor(g, n_reverse, n_own, exponent));
}

double AckCoupling::offered_load(const Pace& pace, double now_s)
{
  if (pace.rate_Bps <= 0) // never given anything
    return 0;
  const double elapsed_s = now_s - pace.episode_start_s;
  if (elapsed_s <= 0) // no pace seen yet: taken as backlogged
    return 1;
  // The bytes given at this very date are not yet a pace (a message and the next one posted at once count as one).
  const double before_bytes =
      now_s > pace.last_post_s ? pace.episode_bytes : pace.episode_bytes - pace.bytes_at_last_post;
  return before_bytes / (pace.rate_Bps * elapsed_s);
}

double AckCoupling::load_scaled_divisor(double law, double load)
{
  if (law <= 1)
    return law;
  const double u = std::clamp(load, 0.0, 1.0);
  return 1 / (1 - u * u * (1 - 1 / law));
}

AckCoupling*& current_ack_coupling()
{
  static AckCoupling* current = nullptr;
  return current;
}

AckCoupling::AckCoupling(int n_ps, double g_in, double g_out, double e_in, double e_out)
    : laws_{{{g_out, e_out}, {g_out, e_out}, {g_out, e_out}}, {{g_in, e_in}, {g_in, e_in}, {g_in, e_in}}},
      conns_in_(static_cast<std::size_t>(n_ps)), network_(network_model()), in_(static_cast<std::size_t>(n_ps)),
      out_(static_cast<std::size_t>(n_ps))
{
  xbt_assert(network_ != nullptr, "AckCoupling: the engine has no network model yet (create it after the platform)");
  current_ack_coupling() = this;
  connect_dispatcher(current_ack_coupling()); // once per process: the signals reach whichever coupling is live
}

AckCoupling::~AckCoupling()
{
  current_ack_coupling() = nullptr;
}

void AckCoupling::set_law(bool into_ps, StartOrder order, double g, double exponent)
{
  laws_[into_ps ? 1 : 0][static_cast<int>(order)] = {g, exponent};
}

bool AckCoupling::starts_late(int ps, bool into_ps, double now_s) const
{
  // An episode the other way that started at this very date started together with this one (incast-duplex).
  const auto& other = (into_ps ? out_ : in_)[static_cast<std::size_t>(ps)];
  return std::any_of(other.begin(), other.end(),
                     [&](const Action* f) { return flows_.at(f).conn->pace.episode_start_s < now_s; });
}

void AckCoupling::track(const simgrid::s4u::CommPtr& comm, int ps, bool into_ps)
{
  simgrid::kernel::actor::simcall_answered([this, &comm, ps, into_ps] {
    Action* flow = flow_of(*network_, comm->get_impl());
    // Not started yet (the other end will find it), seen already, unbounded (no link), or between a PS and a worker
    // on its host (it crosses no NIC).
    if (flow == nullptr || flows_.count(flow) > 0 || flow->get_bound() <= 0 ||
        comm->get_source() == comm->get_destination())
      return;
    const double now_s = simgrid::s4u::Engine::get_clock();
    Connection& conn   = connections_[{comm->get_source(), comm->get_destination()}];
    // Queued: posted beside a message of its connection still running, or as the one before it ended (the same
    // date: a sender posts its next message from the completion of the last).
    const bool queued = conn.active > 0 || now_s == conn.last_end_s;
    if (!conn.live(now_s)) { // a new episode: its start order, and its pace from here
      conn.late = starts_late(ps, into_ps, now_s);
      conn.pace = Pace{now_s, 0, -1, 0, flow->get_bound()};
    }
    if (now_s > conn.pace.last_post_s) {
      conn.pace.last_post_s        = now_s;
      conn.pace.bytes_at_last_post = 0;
    }
    conn.pace.bytes_at_last_post += flow->get_cost();
    conn.pace.episode_bytes += flow->get_cost();
    if (into_ps && offered_load_ && !conn.counted) {
      conn.counted = true;
      conns_in_[static_cast<std::size_t>(ps)].push_back(&conn);
    }
    conn.back_to_back = queued;
    conn.active++;
    // The connection the other way, for the late-out gate (offered load only: no map lookup otherwise).
    const Connection* reverse = offered_load_ ? &connections_[{comm->get_destination(), comm->get_source()}] : nullptr;
    flows_.emplace(flow, Flow{ps, into_ps, flow->get_bound(), &conn, reverse});
    (into_ps ? in_ : out_)[static_cast<std::size_t>(ps)].push_back(flow);
    apply(ps);
  });
}

void AckCoupling::on_flow_end(const Action& flow)
{
  auto it = flows_.find(&flow);
  if (it == flows_.end())
    return;
  const Flow f = it->second;
  flows_.erase(it);
  f.conn->active--;
  f.conn->last_end_s = simgrid::s4u::Engine::get_clock();
  auto& list         = (f.into_ps ? in_ : out_)[static_cast<std::size_t>(f.ps)];
  list.erase(std::find(list.begin(), list.end(), &flow));
  apply(f.ps);
}

void AckCoupling::on_time_advance()
{
  for (std::size_t ps = 0; ps < in_.size(); ps++)
    apply(static_cast<int>(ps));
}

double AckCoupling::offered_in(int ps, double now_s) const
{
  double load = 0;
  for (const Connection* conn : conns_in_[static_cast<std::size_t>(ps)])
    if (conn->live(now_s))
      load += offered_load(conn->pace, now_s);
  return std::min(load, 1.0);
}

void AckCoupling::apply(int ps)
{
  const auto p    = static_cast<std::size_t>(ps);
  const auto n_in = static_cast<int>(in_[p].size()), n_out = static_cast<int>(out_[p].size());
  // The latest episode start the other way tells an established flow; one divisor per start order (it depends on
  // the counts only), applied to every flow's rate alone.
  auto latest_start = [this](const std::vector<Action*>& direction) {
    double latest = -1;
    for (const Action* flow : direction)
      latest = std::max(latest, flows_.at(flow).conn->pace.episode_start_s);
    return latest;
  };
  const double now_s = simgrid::s4u::Engine::get_clock();
  auto rebound       = [this, ps, now_s](const std::vector<Action*>& direction, bool into_ps, int n_own, int n_reverse,
                                   double reverse_latest_s) {
    const Law(&laws)[3] = laws_[into_ps ? 1 : 0];
    double divisors[3];
    for (int order = 0; order < 3; order++) // a law left as the together one shares its divisor (and pow)
      divisors[order] = order > 0 && laws[order].g == laws[0].g && laws[order].exponent == laws[0].exponent
                                  ? divisors[0]
                                  : ack_coupling_divisor(laws[order].g, n_reverse, n_own, laws[order].exponent);
    const bool scaled = offered_load_ && !into_ps && !direction.empty();
    if (scaled) // established flows out lose their law's share times the flows in's load squared
      divisors[static_cast<int>(StartOrder::ESTABLISHED)] =
          load_scaled_divisor(divisors[static_cast<int>(StartOrder::ESTABLISHED)], offered_in(ps, now_s));
    for (Action* flow : direction) {
      const Flow& f = flows_.at(flow);
      auto order    = f.conn->late                                      ? StartOrder::LATE
                            : reverse_latest_s > f.conn->pace.episode_start_s ? StartOrder::ESTABLISHED
                                                                              : StartOrder::TOGETHER;
      // A late flow out takes its law while its own connection's flows in are backlogged only.
      if (scaled && order == StartOrder::LATE && !f.reverse->backlogged(now_s))
        order = StartOrder::TOGETHER;
      const double bound = bound_by(f.alone, divisors[static_cast<int>(order)]);
      if (flow->get_bound() != bound)
        flow->set_bound(bound);
    }
  };
  rebound(in_[p], true, n_in, n_out, latest_start(out_[p]));
  rebound(out_[p], false, n_out, n_in, latest_start(in_[p]));
}

} // namespace sgdsim
