// Decentralized Sync-SGD with ring all-reduce (docs/models.md §3 and §7): each worker is a compute actor plus a
// collective actor on the same host, which all-reduces the gradients with its ring neighbours by real messages.
#pragma once

#include "sim/sim_context.hpp"
#include "sim/step_recorder.hpp"

namespace sgdsim {

/** The body of worker `rank`'s compute actor; it spawns its collective actor. Workers of a ring must all be
 *  started: each all-reduce needs every worker. */
void run_ring_worker(const SimContext& ctx, StepRecorder& recorder, int rank);

} // namespace sgdsim
