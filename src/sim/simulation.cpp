#include "sim/simulation.hpp"

#include "platform/background.hpp"
#include "sim/ack_coupling.hpp"
#include "sim/connections.hpp"
#include "sim/engine_setup.hpp"
#include "sim/parameter_server.hpp"
#include "sim/progress.hpp"
#include "sim/ps_dispatcher.hpp"
#include "sim/ring_cost.hpp"
#include "sim/ring_driver.hpp"
#include "sim/ring_worker.hpp"
#include "sim/run_summary.hpp"
#include "sim/sim_context.hpp"
#include "sim/sliced_ring.hpp"
#include "sim/step_recorder.hpp"
#include "sim/worker.hpp"

#include <cstdio>
#include <iostream>
#include <optional>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(sgdsim, "sgdsim: simulation of data-parallel DNN training");

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
// Engine::on_time_advance feeds the progress reporter. SimGrid's signals outlive the engine, so the callback is
// connected once per process and reads the reporter of the run in progress, if any (one engine per process).
ProgressReporter* current_progress       = nullptr;
const StepRecorder* current_step_counter = nullptr;

struct ProgressHook {
  ProgressHook(ProgressReporter* reporter, const StepRecorder& recorder)
  {
    static bool connected = false;
    if (reporter && !connected) {
      sg4::Engine::on_time_advance_cb([](double) {
        if (current_progress)
          current_progress->update(current_step_counter->steps_done(), current_step_counter->steps_total(),
                                   sg4::Engine::get_clock());
      });
      connected = true;
    }
    current_progress     = reporter;
    current_step_counter = &recorder;
  }
  ~ProgressHook() { current_progress = nullptr; }
  ProgressHook(const ProgressHook&)            = delete;
  ProgressHook& operator=(const ProgressHook&) = delete;
};
} // namespace

std::string downlink_mailbox(int ps, int worker)
{
  return "dl/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string uplink_mailbox(int ps, int worker)
{
  return "ul/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string uplink_mailbox_fcfs(int ps)
{
  return "ul/ps" + std::to_string(ps);
}
std::string relay_down_mailbox(int ps, int worker)
{
  return "relay-dl/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}
std::string relay_up_mailbox(int ps, int worker)
{
  return "relay-ul/ps" + std::to_string(ps) + "/w" + std::to_string(worker);
}

PlatformProbe probe_platform(const SimInputs& in)
{
  Prepared prep = prepare(in, false);
  PlatformProbe probe;
  probe.network      = network_of(network_route(*prep.engine, prep.placement));
  probe.workers      = prep.scenario.workers;
  probe.ps           = prep.scenario.ps;
  probe.worker_hosts = prep.placement.worker_hosts;
  probe.ps_hosts     = prep.placement.ps_hosts;
  for (const std::string& h : prep.placement.worker_hosts)
    probe.speed_ratio.push_back(prep.engine->host_by_name(h)->get_speed() / in.workload.reference_speed);
  for (const std::string& h : prep.placement.ps_hosts)
    probe.ps_speed_ratio.push_back(prep.engine->host_by_name(h)->get_speed() / in.workload.reference_speed);
  return probe;
}

SimResult simulate(const SimInputs& in)
{
  xbt_assert(in.scenario.sharing != Sharing::HYBRID, "simulate(): hybrid sharing is two simulations");
  Prepared prep = prepare(in, in.warnings);
  check_step_takes_time(in.workload, prep.scenario);
  sg4::Engine& engine        = *prep.engine;
  const Placement& placement = prep.placement;
  const Scenario& scenario   = prep.scenario;

  SimContext ctx{in.workload, scenario, {}, {}, {}, {}, {}, {}, 0, {}, {}, {},     {},
                 {},          nullptr,  {}, {}, {}, {}, {}, {}, 1, {}, {}, nullptr};
  ctx.worker_hosts = placement.worker_hosts;
  ctx.recv_sink.assign(static_cast<std::size_t>(scenario.workers), nullptr);
  for (const std::string& h : placement.worker_hosts)
    ctx.worker_host_ptrs.push_back(engine.host_by_name(h));
  if (scenario.is_ps() && scenario.weighs_flows())
    find_weight_links(engine, placement, ctx, in.platform_path); // before any actor: an input error exits cleanly
  // Steps-mode rings run through the ring dispatcher where it applies (ring_driver.hpp), otherwise the workers'
  // actors exchange the chunks through their inboxes; a sliced run (docs/models.md §10.10) through the sliced ring's
  // dispatcher (sliced_ring.hpp), or with ring_by_worker_actors the workers' slices through mailboxes. Each lane
  // (all-reduces in flight at once) is a ring of its own: members lane * workers + rank.
  std::optional<RingDriver> ring_driver;
  std::optional<SlicedRing> sliced_ring;
  bool sliced = false;
  if (!scenario.is_ps()) {
    ctx.ring_sockets                    = effective_ring_sockets(ctx);
    const double scheduled_fusion_bytes = scenario.fusion_at_run_time() ? 0 : scenario.fusion_buffer_bytes;
    ctx.grad_units = plan_grad_units(in.workload, scenario.unit(), scenario.bucket_bytes, scenario.first_bucket_bytes,
                                     scheduled_fusion_bytes);
    sliced         = ring_sliced_run(in.workload, scenario, ctx.grad_units);
    if (scenario.measured_sizes) {
      ctx.allreduce_line_time        = lines_only(scenario.allreduce_time);
      ctx.allreduce_queued_line_time = lines_only(scenario.allreduce_queued_time);
    }
    std::vector<sg4::Host*> lane_hosts;
    for (int lane = 0; lane < ctx.lanes(); lane++)
      lane_hosts.insert(lane_hosts.end(), ctx.worker_host_ptrs.begin(), ctx.worker_host_ptrs.end());
    // Step replay (docs/design.md "Ring step replay") and kept flows need a platform that nothing changes during the
    // run (a kept flow keeps the bound SimGrid gave it when it was made, SimGrid fact 17).
    const bool platform_changes = !in.background_path.empty() || platform_declares_profiles(in.platform_path);
    if (ring_driver_applies(scenario) && !sliced) {
      const bool replay = ring_replay_applies(scenario) && !platform_changes;
      ctx.ring_driver   = &ring_driver.emplace(lane_hosts, replay, ctx.ring_sockets, scenario.connection_rate_Bps,
                                               !platform_changes && !scenario.ring_fresh_flows);
    } else if (sliced && !scenario.ring_by_worker_actors) {
      ctx.sliced_ring = &sliced_ring.emplace(ctx, lane_hosts);
    } else if (scenario.ring_mode == RingMode::STEPS && !sliced) // sliced: mailboxes
      for (std::size_t m = 0; m < lane_hosts.size(); m++)
        ctx.ring_inbox.push_back(RingInbox{{}, false, sg4::Semaphore::create(0)});
    const int members = scenario.workers / scenario.ring_stride();
    if (scenario.ring_mode == RingMode::STREAM && members > 1)
      for (int lane = 0; lane < ctx.lanes(); lane++)
        ctx.stream_end.push_back(sg4::Barrier::create(static_cast<unsigned>(members)));
    // A run of that many chunks takes hours: said before it starts, with why nothing is replayed.
    const double messages =
        in.warnings ? ring_steps_messages(in.workload, scenario, ctx.grad_units, ctx.ring_sockets, sliced) : 0;
    if (messages > in.ring_messages_warning && !(ring_driver && ring_driver->replays())) {
      std::string why = ring_replay_refusal(scenario, sliced, platform_changes);
      if (why.empty() && ring_driver)
        why = ring_driver->replay_refusal();
      std::cerr << "sgdsim: warning: " << ring_cost_warning(messages, members, why) << "\n";
    }
  }
  if (!scenario.is_ps() && scenario.fusion_at_run_time()) { // rank 0 decides the buffers, the others follow
    ctx.fusion_plan.pending.resize(static_cast<std::size_t>(scenario.workers));
    for (int w = 0; w < scenario.workers; w++)
      ctx.fusion_plan.posted.push_back(sg4::Semaphore::create(0));
  }
  if (!scenario.is_ps() && ctx.lanes() > 1) { // lanes() is 1 with fusion
    ctx.lane_plan.pending.assign(static_cast<std::size_t>(scenario.workers),
                                 std::vector<std::deque<long>>(static_cast<std::size_t>(ctx.lanes())));
    ctx.lane_plan.posted.resize(static_cast<std::size_t>(scenario.workers));
    for (auto& per_lane : ctx.lane_plan.posted)
      for (int lane = 0; lane < ctx.lanes(); lane++)
        per_lane.push_back(sg4::Semaphore::create(0));
  }
  for (std::size_t l = 0; l < in.workload.layers.size(); l++)
    ctx.layer_bytes.push_back(in.workload.layer_bytes(l));
  if (scenario.is_ps()) {
    ctx.tensor_ps = split_tensors(in.workload, scenario.ps, scenario.ps_split);
    ctx.ps_tensors.resize(static_cast<std::size_t>(scenario.ps));
    for (std::size_t t = 0; t < ctx.tensor_ps.size(); t++)
      ctx.ps_tensors[static_cast<std::size_t>(ctx.tensor_ps[t])].push_back(static_cast<int>(t));
    ctx.node_steps.assign(static_cast<std::size_t>(ctx.ps_clients()), -1);
    ctx.ps_cpu_exclusive = ps_cpu_exclusive(prep.placement, prep.varying_speed_hosts,
                                            platform_declares_profiles(in.platform_path), ctx.ps_tensors);
    if (scenario.ps_updates_as_executions)
      ctx.ps_cpu_exclusive.assign(ctx.ps_cpu_exclusive.size(), 0);
    if (scenario.message_s_per_byte > 0) // between hosts only (SimContext::message_s_per_byte)
      ctx.message_s_per_byte = per_ps_client(engine, placement, ctx, [&scenario](sg4::Host* ps, sg4::Host* client) {
        return client == ps ? 0.0 : scenario.message_s_per_byte;
      });
    if (scenario.receive_s_per_byte > 0) { // one receive thread per process (docs/models.md §10.5)
      for (int r = 0; r < scenario.ps; r++)
        ctx.ps_receive_thread.push_back(sg4::Mutex::create());
      for (int c = 0; c < ctx.ps_clients(); c++)
        ctx.client_receive_thread.push_back(sg4::Mutex::create());
    }
    ctx.messages.resize(static_cast<std::size_t>(scenario.workers));
    for (int w = 0; w < scenario.workers; w++)
      for (int t = 0; t < static_cast<int>(in.workload.tensors.size()); t++)
        ctx.messages[static_cast<std::size_t>(w)].push_back(TensorMsg{w, t});
  }

  StepRecorder recorder(scenario.workers, scenario.warmup, scenario.steps);
  if (in.timeline)
    recorder.enable_timeline();
  const NominalNetwork nominal = nominal_network(engine, placement);
  if (scenario.is_ps() && scenario.stream)
    make_streams(engine, placement, ctx);  // after the nominal figures, which report the links' latencies
  std::optional<AckCoupling> ack_coupling; // --ack-coupling-in/out: the PS flows' bounds (ack_coupling.hpp)
  if (scenario.is_ps() && scenario.ack_coupled()) {
    ack_coupling.emplace(scenario.ps, scenario.ack_coupling_in, scenario.ack_coupling_out,
                         scenario.ack_coupling_exponent_in, scenario.ack_coupling_exponent_out);
    for (const StartOrderOption& option : kStartOrderOptions) // exponent 1 (docs/models.md §10.6)
      if (const std::optional<double>& g = scenario.*option.field)
        ack_coupling->set_law(
            option.into_ps, option.late ? AckCoupling::StartOrder::LATE : AckCoupling::StartOrder::ESTABLISHED, *g, 1);
    ack_coupling->scale_by_offered_load(scenario.ack_coupling_offered_load);
  }
  // PS architectures run through the PS dispatcher where it applies (ps_dispatcher.hpp), otherwise through the
  // actors of the PS, its connections and the workers.
  std::optional<PsDispatcher> ps_dispatcher;
  if (scenario.is_ps() &&
      ps_dispatcher_applies(ctx, placement, prep.varying_speed_hosts, platform_declares_profiles(in.platform_path))) {
    std::vector<sg4::Host*> ps_hosts;
    for (const std::string& h : placement.ps_hosts)
      ps_hosts.push_back(engine.host_by_name(h));
    ps_dispatcher.emplace(ctx, recorder, ps_hosts);
  } else {
    for (int p = 0; p < scenario.ps; p++)
      sg4::Actor::create("ps" + std::to_string(p), engine.host_by_name(placement.ps_hosts[static_cast<std::size_t>(p)]),
                         [&ctx, &recorder, p] { run_parameter_server(ctx, recorder, p); });
    if (ctx.hierarchical_ps()) // one relay per node and PS, on the node's first GPU host
      for (int n = 0; n < ctx.ps_clients(); n++)
        for (int p = 0; p < scenario.ps; p++)
          sg4::Actor::create(
              "relay" + std::to_string(n) + "-ps" + std::to_string(p),
              engine.host_by_name(placement.worker_hosts[static_cast<std::size_t>(n * scenario.gpus_per_node)]),
              [&ctx, n, p] { run_node_relay(ctx, n, p); });
    for (int w = 0; w < scenario.workers; w++) {
      sg4::Host* host = ctx.worker_host_ptrs[static_cast<std::size_t>(w)];
      if (scenario.is_ps())
        sg4::Actor::create("worker" + std::to_string(w), host, [&ctx, &recorder, w] { PsWorker(ctx, recorder, w)(); });
      else
        sg4::Actor::create("worker" + std::to_string(w), host,
                           [&ctx, &recorder, w] { run_ring_worker(ctx, recorder, w); });
    }
  }
  if (sliced)
    make_ring_streams(engine, ctx); // after the nominal figures too
  if (!prep.link_schedules.empty())
    sg4::Actor::create("background", engine.get_all_hosts().front(), [schedules = prep.link_schedules] {
      run_link_schedules(schedules);
    })->daemonize();
  std::optional<ProgressReporter> progress;
  if (in.progress)
    progress.emplace(stderr, in.progress_label, ::isatty(STDERR_FILENO) == 1);
  {
    const ProgressHook hook(progress ? &*progress : nullptr, recorder);
    engine.run();
  }
  if (progress)
    progress->finish();
  // SimGrid ends the run when every actor is blocked (it logs "Deadlock detected"); results from an unfinished run
  // would be garbage (negative throughputs were seen), so it is an internal error, never a result.
  if (!recorder.all_measured())
    throw std::runtime_error("the simulation deadlocked at t = " + std::to_string(sg4::Engine::get_clock()) +
                             " s before every worker finished its steps (a bug in sgdsim: please report it with "
                             "the command line)");
  // When the run ends is known only now: a background change planned after it changed nothing, which the user
  // should hear of (issue #21, class 8).
  if (!in.background_path.empty()) {
    int last_line = 0;
    for (const AvailabilityProfile& p : read_background_file(in.background_path))
      if (p.line != last_line && p.steps.front().time_s > sg4::Engine::get_clock()) {
        last_line = p.line; // a <nic direction="both"> is two profiles of one line
        std::fprintf(stderr,
                     "sgdsim: warning: %s:%d: the first change of '%s', at %.6g s, comes after the run ended at %.6g "
                     "s: it changed nothing\n",
                     in.background_path.c_str(), p.line, p.name.c_str(), p.steps.front().time_s,
                     sg4::Engine::get_clock());
      }
  }
  SimResult result                  = summarize(ctx, recorder, placement, nominal);
  result.cluster_price_per_hour_usd = prep.price_per_hour_usd;
  result.ps_dispatcher              = ps_dispatcher.has_value();
  for (auto& [track, resource, name, step, start, end] : recorder.timeline())
    result.timeline.push_back(TimelineEvent{track, resource, name, step, start, end});
  return result;
}

} // namespace sgdsim
