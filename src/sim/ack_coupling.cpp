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

AckCoupling*& current_ack_coupling()
{
  static AckCoupling* current = nullptr;
  return current;
}

AckCoupling::AckCoupling(int n_ps, double g_in, double g_out, double e_in, double e_out)
    : g_in_(g_in), g_out_(g_out), e_in_(e_in), e_out_(e_out), network_(network_model()),
      in_(static_cast<std::size_t>(n_ps)), out_(static_cast<std::size_t>(n_ps))
{
  xbt_assert(network_ != nullptr, "AckCoupling: the engine has no network model yet (create it after the platform)");
  current_ack_coupling() = this;
  connect_dispatcher(current_ack_coupling()); // once per process: the signals reach whichever coupling is live
}

AckCoupling::~AckCoupling()
{
  current_ack_coupling() = nullptr;
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
    flows_.emplace(flow, Flow{ps, into_ps, flow->get_bound()});
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
  auto& list = (f.into_ps ? in_ : out_)[static_cast<std::size_t>(f.ps)];
  list.erase(std::find(list.begin(), list.end(), &flow));
  apply(f.ps);
}

void AckCoupling::on_time_advance()
{
  for (std::size_t ps = 0; ps < in_.size(); ps++)
    apply(static_cast<int>(ps));
}

void AckCoupling::apply(int ps)
{
  const auto p    = static_cast<std::size_t>(ps);
  const auto n_in = static_cast<int>(in_[p].size()), n_out = static_cast<int>(out_[p].size());
  // One divisor per direction (it depends on the counts only), applied to every flow's rate alone.
  auto rebound = [this](const std::vector<Action*>& direction, double divisor) {
    for (Action* flow : direction) {
      const double bound = bound_by(flows_.at(flow).alone, divisor);
      if (flow->get_bound() != bound)
        flow->set_bound(bound);
    }
  };
  rebound(in_[p], ack_coupling_divisor(g_in_, n_out, n_in, e_in_));
  rebound(out_[p], ack_coupling_divisor(g_out_, n_in, n_out, e_out_));
}

} // namespace sgdsim
