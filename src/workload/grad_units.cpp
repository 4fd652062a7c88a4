#include "workload/grad_units.hpp"

namespace sgdsim {

std::vector<GradUnit> plan_grad_units(const Workload& wl, AllreduceUnit unit, double bucket_bytes,
                                      double first_bucket_bytes, double scheduled_fusion_bytes)
{
  std::vector<GradUnit> out;
  if (unit == AllreduceUnit::FUSION && scheduled_fusion_bytes <= 0)
    return out;
  if (unit == AllreduceUnit::LAYER) {
    for (auto l = static_cast<int>(wl.layers.size()) - 1; l >= 0; l--)
      if (const double bytes = wl.layer_bytes(static_cast<std::size_t>(l)); bytes > 0)
        out.push_back(GradUnit{bytes, l});
    return out;
  }
  GradUnit bucket;
  double limit = first_bucket_bytes;
  for (auto l = static_cast<int>(wl.layers.size()) - 1; l >= 0; l--) {
    const auto& tensors = wl.layers[static_cast<std::size_t>(l)].tensors;
    for (auto t = tensors.rbegin(); t != tensors.rend(); ++t) {
      const double bytes = wl.tensors[static_cast<std::size_t>(*t)].bytes;
      if (unit == AllreduceUnit::TENSOR) {
        out.push_back(GradUnit{bytes, l});
        continue;
      }
      if (unit == AllreduceUnit::FUSION) { // Horovod: the tensor that would pass Q starts the next buffer
        if (bucket.bytes > 0 && bucket.bytes + bytes > scheduled_fusion_bytes) {
          out.push_back(bucket);
          bucket = GradUnit{};
        }
        bucket.bytes += bytes;
        bucket.ready_layer = l;
        continue;
      }
      // DDP: the tensor joins the bucket, and the bucket closes once it reaches its limit (it may pass it).
      bucket.bytes += bytes;
      bucket.ready_layer = l;
      if (bucket.bytes >= limit) {
        out.push_back(bucket);
        bucket = GradUnit{};
        limit  = bucket_bytes;
      }
    }
  }
  if (bucket.bytes > 0)
    out.push_back(bucket);
  return out;
}

} // namespace sgdsim
