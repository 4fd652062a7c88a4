// A parameter server: holds its shard of the tensors, applies gradients, serves parameters (README "The
// simulation"). One main actor (updates, barrier) plus connection actors on the same host: a receiver and a
// sender per worker with fair sharing, or one of each with FCFS sharing (one transfer at a time per direction).
#pragma once

#include "sim/sim_context.hpp"

namespace sgdsim {

/** The body of PS `rank`'s main actor; it spawns its connection actors and runs until the simulation ends. */
void run_parameter_server(const SimContext& ctx, int rank);

} // namespace sgdsim
