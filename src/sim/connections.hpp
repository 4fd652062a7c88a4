// src/sim/connections.hpp: how a run's connections are set up on the loaded platform before the actors start: PS
// connections as streams (docs/models.md §10.5), their sharing weights' links (§10.6), the ring's sockets per peer
// (§10.9) and its slices' streams (§10.10).
#pragma once

#include "common/scenario.hpp"
#include "platform/deployment.hpp"
#include "sim/sim_context.hpp"
#include "workload/grad_units.hpp"
#include "workload/workload.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <string>
#include <vector>

namespace sgdsim {

// A figure per PS rank and client (a worker, or with hierarchical PS a node's relay), from the two hosts.
template <class Figure>
std::vector<std::vector<double>> per_ps_client(simgrid::s4u::Engine& engine, const Placement& placement,
                                               const SimContext& ctx, Figure figure)
{
  const int gpus = ctx.hierarchical_ps() ? ctx.scenario.gpus_per_node : 1;
  std::vector<std::vector<double>> table;
  for (const std::string& h : placement.ps_hosts) {
    simgrid::s4u::Host* ps = engine.host_by_name(h);
    std::vector<double> row;
    for (int c = 0; c < ctx.ps_clients(); c++)
      row.push_back(figure(ps, ctx.worker_host_ptrs[static_cast<std::size_t>(c * gpus)]));
    table.push_back(std::move(row));
  }
  return table;
}

/** PS connections as TCP streams (docs/models.md §10.5): route latencies move from the links to the PS's actors. */
void make_streams(simgrid::s4u::Engine& engine, const Placement& placement, SimContext& ctx);

/** --flow-spread-in/out (docs/models.md §10.6): each worker's links of its own that carry its connections' weights. */
void find_weight_links(simgrid::s4u::Engine& engine, const Placement& placement, SimContext& ctx,
                       const std::string& platform);

/** The latency of a worker's weight links at weight 1 (sim/worker.cpp draw_flow_weights: the weight is this over the
 *  link's latency). 1 us is small beside any transfer and far above SimGrid's 1 ns precision. */
inline constexpr double kWeightLatencyS = 1e-6;

/** The latency that carries the sharing weight of worker `w`'s connections out of its PS (docs/models.md §10.6): the
 *  step's drawn one, divided by --first-pull-weight while a PS sends the worker a first pull. */
void set_pull_weight(const SimContext& ctx, int w);

/** The connections a ring message between two hosts is cut over (docs/models.md §10.9). */
int effective_ring_sockets(const SimContext& ctx);

/** Whether the run's ring is sliced (docs/models.md §10.10). */
bool ring_sliced_run(const Workload& wl, const Scenario& sc, const std::vector<GradUnit>& units);

/** A sliced steps-mode ring's streams: route latencies move from the links to ctx.ring_latency_s. */
void make_ring_streams(simgrid::s4u::Engine& engine, SimContext& ctx);

} // namespace sgdsim
