// Heterogeneous workers under a bottleneck PS link, BSP (docs/models.md §6, [ZENG23]).
#pragma once

#include <vector>

namespace sgdsim {

/** Eq. (20), the iteration time of [ZENG23]: compute times sorted ascending; T = Tc_1 + T_push; for i = 2..n: T +=
 * T_push if T >= Tc_i else T = Tc_i + T_push; finally T += n * T_pull. `compute_s` is each worker's compute before its
 *  first push (CPU: the whole compute; GPU: forward plus the first chunk of backward, see zeng23_gpu_compute_s). */
double zeng23_step_s(std::vector<double> compute_s, double t_push_s, double t_pull_s);

/** Eq. (22) ([ZENG23] eq. 32), when communication dominates every worker: T = n*T_pull + Tc_min + n*T_push. */
double zeng23_comm_bound_step_s(int n_workers, double tc_min_s, double t_push_s, double t_pull_s);

/** Eq. (21), GPU variant: the compute before the first push is T_F + T_B / pushes. */
double zeng23_gpu_compute_s(double t_f_s, double t_b_s, int pushes);

} // namespace sgdsim
