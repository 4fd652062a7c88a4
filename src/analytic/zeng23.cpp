#include "analytic/zeng23.hpp"

#include <algorithm>

namespace sgdsim {

double zeng23_step_s(std::vector<double> compute_s, double t_push_s, double t_pull_s)
{
  if (compute_s.empty())
    return 0;
  std::sort(compute_s.begin(), compute_s.end());
  double t = compute_s[0] + t_push_s;
  for (std::size_t i = 1; i < compute_s.size(); i++) {
    if (t >= compute_s[i])
      t += t_push_s; // worker i is ready and waits for the link
    else
      t = compute_s[i] + t_push_s; // the link idles until worker i is ready
  }
  return t + static_cast<double>(compute_s.size()) * t_pull_s;
}

double zeng23_comm_bound_step_s(int n_workers, double tc_min_s, double t_push_s, double t_pull_s)
{
  return n_workers * t_pull_s + tc_min_s + n_workers * t_push_s;
}

double zeng23_gpu_compute_s(double t_f_s, double t_b_s, int pushes)
{
  return t_f_s + t_b_s / std::max(1, pushes);
}

} // namespace sgdsim
