// The model of one DNN training step at one batch size on one device (docs/design.md "Workload"): layers in forward
// order, their compute times and their parameter tensors. Plain data: no SimGrid, no behaviour beyond sums.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** A parameter tensor: downloaded before the forward of its layer, its gradient uploaded after the backward. */
struct Tensor {
  std::string name;
  double bytes = 0; // > 0
  int layer    = 0; // index into Workload::layers
};

/** One profiled (forward, backward) pair of a layer, on the reference device. */
struct LayerSample {
  double fwd_s = 0;
  double bwd_s = 0;
};

struct Layer {
  std::string name;
  /** At least one. With several, each simulated step draws one uniformly with the seeded RNG. */
  std::vector<LayerSample> samples;
  double fwd_s = 0;         // mean over samples
  double bwd_s = 0;         // mean over samples
  std::vector<int> tensors; // indices into Workload::tensors, in file order
};

struct Workload {
  std::string name;
  std::string source_file;
  int batch = 1;              // examples per worker per step
  std::string device;         // the reference device the times were measured or derived on
  double reference_speed = 0; // flop/s that a platform host of that device declares (see README, "Compute")
  double ps_update_s     = 0; // time for a PS to apply the update of the whole model once
  std::vector<Layer> layers;
  std::vector<Tensor> tensors; // in forward order (layer by layer)

  /** D^(i): bytes of the parameter tensors (and gradients) of layer `layer`; 0 for a layer without parameters. */
  double layer_bytes(std::size_t layer) const;
  /** M: bytes of all parameter tensors. */
  double model_bytes() const;
  /** T_F and T_B: mean forward and backward time of one step on the reference device. */
  double fwd_s() const;
  double bwd_s() const;
  double compute_s() const { return fwd_s() + bwd_s(); }
};

} // namespace sgdsim
