// Synchronous SGD with one parameter server, coarse model (docs/models.md §2, [LI22] §3.1.1). Pure functions.
#pragma once

namespace sgdsim {

/** Eq. 7, equal sharing of the PS link: T = K*M/B + T_C + K*M/B + T_S (seconds). */
double ps_sync_fair_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s);
/** Eq. 8, FCFS transfers offset by the downlink: T = K*M/B + T_C + M/B + T_S. */
double ps_sync_fcfs_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s);
/** Eq. 9, the average of eq. 7 and 8: T = K*M/B + T_C + (K+1)*M/(2B) + T_S. */
double ps_sync_hybrid_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s);
/** Eq. 10, hybrid with overlap: T = max(K*M/B, T_F) + max((K+1)*M/(2B), T_B) + T_S. */
double ps_sync_hybrid_overlap_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_f_s,
                                     double t_b_s, double t_s_s);

} // namespace sgdsim
