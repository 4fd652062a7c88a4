#include "analytic/ring.hpp"

namespace sgdsim {

double ring_allreduce_s(int k_workers, double bytes, double link_Bps, double alpha_s)
{
  if (k_workers <= 1)
    return 0; // nothing to exchange
  const double steps = 2.0 * (k_workers - 1);
  return steps / k_workers * bytes / link_Bps + steps * alpha_s;
}

double ring_step_s(int k_workers, double model_bytes, double link_Bps, double t_c_s, double alpha_s, int calls)
{
  if (k_workers <= 1)
    return t_c_s;
  return t_c_s + ring_allreduce_s(k_workers, model_bytes, link_Bps) + calls * 2.0 * (k_workers - 1) * alpha_s;
}

} // namespace sgdsim
