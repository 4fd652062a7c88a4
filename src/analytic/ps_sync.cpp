#include "analytic/ps_sync.hpp"

#include <algorithm>

namespace sgdsim {

double ps_sync_fair_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s)
{
  const double km_b = k_workers * model_bytes / bottleneck_Bps;
  return km_b + t_c_s + km_b + t_s_s; // eq. 7
}

double ps_sync_fcfs_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s)
{
  return k_workers * model_bytes / bottleneck_Bps + t_c_s + model_bytes / bottleneck_Bps + t_s_s; // eq. 8
}

double ps_sync_hybrid_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_c_s, double t_s_s)
{
  return k_workers * model_bytes / bottleneck_Bps + t_c_s + (k_workers + 1) * model_bytes / (2 * bottleneck_Bps) +
         t_s_s; // eq. 9
}

double ps_sync_hybrid_overlap_step_s(int k_workers, double model_bytes, double bottleneck_Bps, double t_f_s,
                                     double t_b_s, double t_s_s)
{
  return std::max(k_workers * model_bytes / bottleneck_Bps, t_f_s) +
         std::max((k_workers + 1) * model_bytes / (2 * bottleneck_Bps), t_b_s) + t_s_s; // eq. 10
}

} // namespace sgdsim
