// Ring all-reduce with overlap and tensor fusion: the OSF model (docs/models.md §7, [OSF22]). Layers are indexed
// i = 1..n from the input side (the backward runs n -> 1); `layers[i-1]` is layer i.
#pragma once

#include <functional>
#include <vector>

namespace sgdsim {

struct OsfLayer {
  double bytes = 0; // D^(i): bytes of gradients all-reduced once the backward of layer i is done
  double bwd_s = 0; // t_b^(i)
  int calls    = 1; // all-reduce calls that carry D^(i) (several with one call per tensor), each paying delta
};

struct OsfParams {
  int n_workers          = 1;
  double beta_Bps        = 0; // link bandwidth
  double pi_flops        = 0; // peak FLOP rate of the reduction (0: reduction cost ignored)
  double bytes_per_param = 4; // s
  double delta_s         = 0; // fixed overhead per all-reduce call
  /** Optional replacement of eq. (24), e.g. the piecewise model of eq. (37) (osf_piecewise_update). */
  std::function<double(double)> custom_update;
};

/** Eq. (24): t_update(D) = 2(N-1)/(beta N) D + (N-1)/(N pi s) D + delta; 0 for D = 0 (no call is made). */
double osf_t_update_s(const OsfParams& p, double bytes);
/** Eq. (37): a1 log2(D) + b1 below d_thresh (the bandwidth-delay product), a2 D + b2 above. */
std::function<double(double)> osf_piecewise_update(double a1, double b1, double a2, double b2, double d_thresh_bytes);

/** Eq. (25)-(26), without fusion: T_update = tau^(1) + t_update(D^(1)). */
double osf_update_s(const std::vector<OsfLayer>& layers, const OsfParams& p);
/** Eq. (27): T_overlap = sum_{i=1}^{n-1} t_b^(i). */
double osf_overlap_s(const std::vector<OsfLayer>& layers);
/** Eq. (28): OSF = T_comp / (T_comp + T_update - T_overlap). */
double osf_factor(double t_comp_s, double t_update_s, double t_overlap_s);
/** Eq. (31)-(35) (Horovod fusion with buffer Q and a timeout); with `adaptive`, layer i joins the buffer only if eq.
 * (36) says fusing is faster (adaFusion). */
double osf_fusion_update_s(const std::vector<OsfLayer>& layers, const OsfParams& p, double buffer_bytes,
                           double timeout_s, bool adaptive = false);
/** Eq. (30), the C2C estimate OSF improves on: CSF = T_comp / (T_comp + t_update(sum D)). */
double csf_factor(double t_comp_s, double total_bytes, const OsfParams& p);

} // namespace sgdsim
