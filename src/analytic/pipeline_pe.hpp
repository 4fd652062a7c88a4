// The pipeline scaling factor of PerfEstimator (docs/models.md §8, [PE]).
#pragma once

#include <vector>

namespace sgdsim {

struct PipelineLayer {
  double fwd_s       = 0;
  double bwd_s       = 0;
  double allreduce_s = 0; // cost of the all-reduce of this layer's gradients (0: no gradients)
};

/** Builds the pipeline of one iteration: forwards in order, backwards in reverse, each layer's negotiation and
 *  all-reduce after its backward, all-reduces serialized on one port. Returns eq. (38):
 *  alpha = (bp_end(l1) - fp_start(l1)) / (allreduce_end(l1) - fp_start(l1)), with l1 the first layer. */
double pe_alpha(const std::vector<PipelineLayer>& layers, double negotiation_s);

/** Eq. (39): p_n = p_1 * n * alpha. */
inline double pe_throughput(double single_throughput, int n_workers, double alpha)
{
  return single_throughput * n_workers * alpha;
}

} // namespace sgdsim
