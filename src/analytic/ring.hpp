// Synchronous SGD with ring all-reduce, coarse model (docs/models.md §3, [LI22] §3.1.2).
#pragma once

namespace sgdsim {

/** Eq. (12), time of one ring all-reduce of `bytes` among k workers on links of `link_Bps`: 2(K-1)/K * M/B, plus
 *  2(K-1) * alpha_s for the latency-aware variant. */
double ring_allreduce_s(int k_workers, double bytes, double link_Bps, double alpha_s = 0);

/** Eq. (11) (and eq. (13)'s latency term with `calls` all-reduce calls per step):
 *  T = T_F + T_B + 2(K-1) M / (K B) + calls * 2(K-1) alpha. */
double ring_step_s(int k_workers, double model_bytes, double link_Bps, double t_c_s, double alpha_s = 0, int calls = 1);

} // namespace sgdsim
