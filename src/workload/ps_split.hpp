// Which parameter server holds which tensor (README "Parameter servers"): shared by the simulation and the
// analytic models, so both see the same shards.
#pragma once

#include "common/scenario.hpp"
#include "workload/workload.hpp"

#include <vector>

namespace sgdsim {

/** Assigns tensors to `ps` servers: round-robin in forward order, or balanced (largest tensor first to the least
 *  loaded server, ties to the lowest rank). Returns the PS rank of each tensor. */
std::vector<int> split_tensors(const Workload& wl, int ps, PsSplit split);

} // namespace sgdsim
