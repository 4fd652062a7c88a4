// What one all-reduce of decentralized Sync-SGD carries (README "Gradient units", docs/models.md §10): one tensor,
// one layer, a PyTorch DDP bucket, or a Horovod buffer formed from launched tensors. Horovod's fusion from computed
// gradients ([OSF22]'s rule) decides its buffers at run time and is not planned here (sim/ring_worker.cpp). Shared by
// the simulation and the analytic models, so both all-reduce the same units.
#pragma once

#include "common/scenario.hpp"
#include "workload/workload.hpp"

#include <vector>

namespace sgdsim {

/** One all-reduce of a step: `bytes` of gradients, which exist once the backward of layer `ready_layer` is done
 *  (backward runs from the last layer to layer 0, so a unit spanning several layers waits for its lowest one). */
struct GradUnit {
  double bytes    = 0;
  int ready_layer = 0;
};

/** The all-reduces of one step in the order they are launched (backward order). TENSOR: one per tensor, each
 *  layer's tensors in reverse file order (as autograd produces them). LAYER: one per layer with parameters.
 *  BUCKET: PyTorch DDP's buckets as rebuilt after its first iteration (torch 1.13 reducer.cpp
 *  rebuild_buckets / compute_bucket_assignment_by_size): tensors in the order their gradients become ready join
 *  the current bucket, which closes once it holds at least its limit; the first bucket's limit is
 *  `first_bucket_bytes` (DDP: 1 MiB, torch.distributed._DEFAULT_FIRST_BUCKET_BYTES), every later one
 *  `bucket_bytes` (DDP: bucket_cap_mb = 25, i.e. 25 MiB). FUSION with `scheduled_fusion_bytes` Q > 0: Horovod's
 *  buffers formed from tensors launched ahead of their computation (docs/models.md §10.1): in backward order, a
 *  tensor joins the buffer if the buffer stays within Q, else it starts the next one (a tensor above Q goes alone);
 *  Horovod's coordinator, horovod/tensorflow/mpi_ops.cc of 2017-09 (the rule is unchanged since). FUSION without:
 *  planned at run time, returns an empty list. */
std::vector<GradUnit> plan_grad_units(const Workload& wl, AllreduceUnit unit, double bucket_bytes,
                                      double first_bucket_bytes, double scheduled_fusion_bytes = 0);

} // namespace sgdsim
