#include "analytic/pipeline_pe.hpp"

#include <algorithm>

namespace sgdsim {

double pe_alpha(const std::vector<PipelineLayer>& layers, double negotiation_s)
{
  double t = 0; // fp_start(l1) = 0
  for (const PipelineLayer& l : layers)
    t += l.fwd_s;
  double port_free = 0;
  double last_end  = 0;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    t += it->bwd_s; // bp_end of this layer
    if (it->allreduce_s > 0) {
      const double start = std::max(t + negotiation_s, port_free);
      port_free          = start + it->allreduce_s;
      last_end           = port_free;
    }
  }
  const double bp_end_l1 = t;
  const double end       = std::max(bp_end_l1, last_end);
  return end > 0 ? bp_end_l1 / end : 1.0;
}

} // namespace sgdsim
