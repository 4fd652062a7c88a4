#include "sim/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
// The first worker host other than `from`, or `from` itself when every worker runs there.
const sg4::Host* first_worker_elsewhere(const sg4::Engine& engine, const Placement& placement, const sg4::Host* from)
{
  for (const std::string& h : placement.worker_hosts)
    if (const sg4::Host* host = engine.host_by_name(h); host != from)
      return host;
  return from;
}

// The route from `from` to the first worker on another host; within `from` when every worker runs there.
RouteInfo route_to_workers(const sg4::Engine& engine, const Placement& placement, const sg4::Host* from)
{
  return route_info(from, first_worker_elsewhere(engine, placement, from));
}

double mean_of(const std::vector<double>& v)
{
  double s = 0;
  for (double x : v)
    s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v)
{
  if (v.size() < 2)
    return 0;
  double m  = mean_of(v);
  double ss = 0;
  for (double x : v)
    ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

} // namespace

// The route the analytic models read (README "Parameters from the platform"). PS architectures: from PS 0 to the
// first worker on another host (with parameter servers beside workers, as tf_cnn_benchmarks ran them, worker 0 may
// share PS 0's host: that route is the loopback, not the network); ring: from worker 0 to the first worker on
// another host (its right neighbour, unless multi-GPU hosts hold several ranks: then the network between nodes).
RouteInfo network_route(const sg4::Engine& engine, const Placement& placement)
{
  return route_to_workers(
      engine, placement,
      engine.host_by_name(placement.ps_hosts.empty() ? placement.worker_hosts[0] : placement.ps_hosts[0]));
}

// The models' figures of `route`; all 0 for a route within one host (no network between the parties).
NetworkParams network_of(const RouteInfo& route)
{
  NetworkParams net;
  if (route.from_host != route.to_host) {
    net.bottleneck_Bps = route.bottleneck_Bps;
    net.flow_cap_Bps   = route.flow_cap_Bps;
    net.latency_s      = route.latency_s;
  }
  return net;
}

NominalNetwork nominal_network(const sg4::Engine& engine, const Placement& placement)
{
  NominalNetwork n;
  n.route   = network_route(engine, placement);
  n.network = network_of(n.route);
  for (const std::string& h : placement.ps_hosts)
    n.ps_routes.push_back(route_to_workers(engine, placement, engine.host_by_name(h)));
  return n;
}

SimResult summarize(const SimContext& ctx, const StepRecorder& rec, const Placement& placement,
                    const NominalNetwork& nominal)
{
  const Scenario& sc = ctx.scenario;
  const auto* engine = sg4::Engine::get_instance();
  SimResult r;
  r.sharing        = to_string(sc.sharing);
  r.steps_measured = sc.steps;
  std::vector<double> all_steps;
  for (int w = 0; w < sc.workers; w++) {
    const WorkerTrace& tr = rec.trace(w);
    WorkerStats ws;
    ws.rank        = w;
    ws.host        = placement.worker_hosts[static_cast<std::size_t>(w)];
    ws.speed_ratio = engine->host_by_name(ws.host)->get_speed() / ctx.workload.reference_speed;
    std::vector<double> steps;
    for (int s = sc.warmup; s < sc.warmup + sc.steps; s++) {
      double begin = s == 0 ? 0.0 : tr.step_end_s[static_cast<std::size_t>(s - 1)];
      steps.push_back(tr.step_end_s[static_cast<std::size_t>(s)] - begin);
      const StepSplit& split = tr.splits[static_cast<std::size_t>(s)];
      ws.compute_s += split.compute_s / sc.steps;
      ws.comm_exposed_s += split.comm_exposed_s / sc.steps;
      ws.wait_s += split.wait_s / sc.steps;
    }
    ws.step_time_mean_s = mean_of(steps);
    ws.step_time_std_s  = std_of(steps);
    ws.step_times_s     = steps;
    all_steps.insert(all_steps.end(), steps.begin(), steps.end());
    r.throughput_examples_per_s += ctx.workload.batch / ws.step_time_mean_s;
    r.step_time_mean_s += ws.step_time_mean_s / sc.workers;
    r.compute_s += ws.compute_s / sc.workers;
    r.comm_exposed_s += ws.comm_exposed_s / sc.workers;
    r.wait_s += ws.wait_s / sc.workers;
    r.per_worker.push_back(ws);
  }
  r.step_time_std_s  = std_of(all_steps);
  r.step_time_min_s  = *std::min_element(all_steps.begin(), all_steps.end());
  r.step_time_max_s  = *std::max_element(all_steps.begin(), all_steps.end());
  r.simulated_time_s = sg4::Engine::get_clock();

  r.network   = nominal.network;
  r.route     = nominal.route;
  r.ps_routes = nominal.ps_routes;
  for (std::size_t p = 0; p < placement.ps_hosts.size(); p++) {
    PsStats ps;
    ps.rank        = static_cast<int>(p);
    ps.host        = placement.ps_hosts[p];
    ps.speed_ratio = sg4::Engine::get_instance()->host_by_name(ps.host)->get_speed() / ctx.workload.reference_speed;
    // The first link of its route to a worker on another host; 0 when every worker runs on its host.
    const RouteInfo& route = nominal.ps_routes[p];
    ps.nic_Bps             = route.from_host == route.to_host ? 0 : route.first_link_Bps;
    ps.tensors             = static_cast<int>(ctx.ps_tensors[p].size());
    for (int t : ctx.ps_tensors[p])
      ps.bytes += ctx.workload.tensors[static_cast<std::size_t>(t)].bytes;
    // Steady state: every worker moves the shard down and up once per step.
    double bytes_per_s = 0;
    for (const WorkerStats& ws : r.per_worker) // with hierarchical PS, a node's GPUs share one transfer
      bytes_per_s += ps.bytes / ws.step_time_mean_s / ctx.scenario.gpus_per_node;
    ps.downlink_utilization = ps.nic_Bps > 0 ? bytes_per_s / ps.nic_Bps : 0;
    ps.uplink_utilization   = ps.downlink_utilization;
    r.per_ps.push_back(ps);
  }
  return r;
}

} // namespace sgdsim
