#include "workload/workload.hpp"

namespace sgdsim {

double Workload::model_bytes() const
{
  double sum = 0;
  for (const Tensor& t : tensors)
    sum += t.bytes;
  return sum;
}

double Workload::layer_bytes(std::size_t layer) const
{
  double sum = 0;
  for (int t : layers[layer].tensors)
    sum += tensors[static_cast<std::size_t>(t)].bytes;
  return sum;
}

double Workload::fwd_s() const
{
  double sum = 0;
  for (const Layer& l : layers)
    sum += l.fwd_s;
  return sum;
}

double Workload::bwd_s() const
{
  double sum = 0;
  for (const Layer& l : layers)
    sum += l.bwd_s;
  return sum;
}

} // namespace sgdsim
