// A parameter server: holds its shard of the tensors, applies gradients, serves parameters (README "The
// simulation"). One main actor (updates, barrier) plus connection actors on the same host: a receiver and a
// sender per worker with fair sharing, or one of each with FCFS sharing (one transfer at a time per direction).
#pragma once

#include "platform/deployment.hpp"
#include "sim/sim_context.hpp"
#include "sim/step_recorder.hpp"

#include <set>
#include <string>
#include <vector>

namespace sgdsim {

/** Per PS rank: 1 if its host's CPU runs nothing but that PS's updates at a constant speed, so that their dates can
 *  be computed (SimContext::ps_cpu_exclusive): no worker on the host, no other PS holding tensors on it, and no
 *  speed profile (`varying_speed_hosts`, or any profile in the platform file). */
std::vector<char> ps_cpu_exclusive(const Placement& placement, const std::set<std::string>& varying_speed_hosts,
                                   bool platform_has_profiles, const std::vector<std::vector<int>>& ps_tensors);

/** When parameters ready at `now_s` are released: the first multiple of `quantum_s` (--release-quantum) at or after
 *  `now_s`, or now_s itself when quantum_s is 0. */
double release_date(double now_s, double quantum_s);

/** The body of PS `rank`'s main actor; it spawns its connection actors and runs until the simulation ends. */
void run_parameter_server(const SimContext& ctx, StepRecorder& recorder, int rank);

/** Hierarchical PS ([LI22] §4.4 with a PS across nodes): the relay of node `node` for PS `ps` is that PS's client
 *  for the node. It forwards each tensor it downloads to every GPU of the node, and uploads each gradient once it has
 *  it from every GPU (summed, at no cost). Runs on the node's first GPU host until the simulation ends. */
void run_node_relay(const SimContext& ctx, int node, int ps);

} // namespace sgdsim
