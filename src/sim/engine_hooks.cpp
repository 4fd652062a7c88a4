#include "sim/engine_hooks.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <simgrid/simix.hpp>
#include <simgrid/version.h>
#include <xbt/asserts.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

// SimGrid installs no header for NetworkAction, the type of the flow that Link::on_communication_state_change
// reports; in 3.32 it derives from Action alone (src/kernel/resource/NetworkModel.hpp: `class NetworkAction : public
// Action`), so its Action base is at its address. Check that layout again before building against another version.
static_assert(SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32,
              "engine_hooks.cpp reads NetworkAction as its Action base: check SimGrid's NetworkModel.hpp");

namespace sgdsim {

simgrid::kernel::resource::Model* network_model()
{
  for (simgrid::kernel::resource::Model* model : simgrid::s4u::Engine::get_instance()->get_all_models())
    if (dynamic_cast<simgrid::kernel::resource::NetworkModelIntf*>(model) != nullptr)
      return model;
  return nullptr;
}

simgrid::kernel::resource::Action* flow_of(simgrid::kernel::resource::Model& network,
                                           const simgrid::kernel::activity::ActivityImpl* impl)
{
  auto* started = network.get_started_action_set();
  for (auto it = started->rbegin(); it != started->rend(); ++it)
    if (it->get_activity() == impl)
      return &*it;
  return nullptr;
}

KeptFlow start_kept_flow(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes,
                         simgrid::kernel::resource::Model& network)
{
  KeptFlow flow;
  flow.comm = simgrid::s4u::Comm::sendto_init();
  flow.comm->set_payload_size(static_cast<std::uint64_t>(bytes + kKeptFlowTailBytes))->detach();
  flow.comm->set_source(from)->set_destination(to); // starts it
  flow.action = flow_of(network, flow.comm->get_impl());
  xbt_assert(flow.action != nullptr, "a kept flow is not among the network's started flows");
  return flow;
}

namespace {
using simgrid::kernel::resource::Action;

class CallbackClock final : public simgrid::kernel::resource::Model {
public:
  CallbackClock(const std::string& name, std::function<double(double)> next_event,
                std::function<void(double, double)> advance)
      : Model(name), next_event_(std::move(next_event)), advance_(std::move(advance))
  {
  }
  double next_occurring_event(double now) override { return next_event_(now); }
  void update_actions_state(double now, double delta) override { advance_(now, delta); }

private:
  std::function<double(double)> next_event_;
  std::function<void(double, double)> advance_;
};
} // namespace

void connect_flow_end(std::function<void(const Action&)> on_end)
{
  simgrid::s4u::Link::on_communication_state_change_cb(
      [on_end = std::move(on_end)](simgrid::kernel::resource::NetworkAction& flow, Action::State /*previous*/) {
        const auto& action = reinterpret_cast<const Action&>(flow); // see the static_assert above
        if (action.get_state() == Action::State::FINISHED)
          on_end(action);
      });
}

void connect_time_advance(std::function<void()> on_advance)
{
  simgrid::s4u::Engine::on_time_advance_cb([on_advance = std::move(on_advance)](double) { on_advance(); });
}

void add_clock_model(const std::string& name, std::function<double(double)> next_event,
                     std::function<void(double, double)> advance)
{
  simgrid::s4u::Engine* engine = simgrid::s4u::Engine::get_instance();
  const auto& models           = engine->get_all_models();
  if (std::none_of(models.begin(), models.end(),
                   [&name](const simgrid::kernel::resource::Model* m) { return m->get_name() == name; }))
    engine->add_model(std::make_shared<CallbackClock>(name, std::move(next_event), std::move(advance)));
}

void start_dispatcher(simgrid::s4u::Host* host, const std::string& name, simgrid::s4u::SemaphorePtr kick,
                      std::function<void()> dispatch)
{
  simgrid::s4u::Actor::create(name, host, [kick = std::move(kick), dispatch = std::move(dispatch)] {
    for (;;) {
      kick->acquire();
      simgrid::kernel::actor::simcall_answered(dispatch);
    }
  })->daemonize();
}

} // namespace sgdsim
