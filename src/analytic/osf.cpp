#include "analytic/osf.hpp"

#include <algorithm>
#include <cmath>

namespace sgdsim {

double osf_t_update_s(const OsfParams& p, double bytes)
{
  if (bytes <= 0)
    return 0;
  if (p.custom_update)
    return p.custom_update(bytes);
  const double n = p.n_workers;
  if (p.n_workers <= 1)
    return p.delta_s;
  double t = 2 * (n - 1) / (p.beta_Bps * n) * bytes + p.delta_s; // eq. (24), communication and per-call overhead
  if (p.pi_flops > 0)
    t += (n - 1) / (n * p.pi_flops * p.bytes_per_param) * bytes; // eq. (24), the reduction's additions
  return t;
}

std::function<double(double)> osf_piecewise_update(double a1, double b1, double a2, double b2, double d_thresh_bytes)
{
  return [=](double d) { return d < d_thresh_bytes ? a1 * std::log2(d) + b1 : a2 * d + b2; }; // eq. (37)
}

namespace {
// sum_{j=i}^{n-1} t_b^(j), for 1-based i (docs/models.md §7.1: the j = i reading of [OSF22] eq. 8).
std::vector<double> backward_suffix(const std::vector<OsfLayer>& layers)
{
  const std::size_t n = layers.size();
  std::vector<double> sum(n + 2, 0.0); // sum[i] for i = 1..n; sum[n] = 0
  for (std::size_t i = n - 1; i >= 1; i--)
    sum[i] = sum[i + 1] + layers[i - 1].bwd_s;
  return sum;
}
} // namespace

double osf_update_s(const std::vector<OsfLayer>& layers, const OsfParams& p)
{
  const std::size_t n = layers.size();
  if (n == 0)
    return 0;
  const std::vector<double> bsum = backward_suffix(layers);
  double tau                     = 0; // tau^(n)
  // A layer whose gradients go in several calls (one per tensor) pays delta once per call (docs/models.md §10).
  auto layer_update_s = [&p](const OsfLayer& l) {
    return l.bytes > 0 ? osf_t_update_s(p, l.bytes) + std::max(0, l.calls - 1) * p.delta_s : 0.0;
  };
  for (std::size_t i = n - 1; i >= 1; i--)
    tau = std::max(tau + layer_update_s(layers[i]), bsum[i]); // eq. (25): tau^(i) from tau^(i+1), D^(i+1)
  return tau + layer_update_s(layers[0]);                     // eq. (26)
}

double osf_overlap_s(const std::vector<OsfLayer>& layers)
{
  double t = 0;
  for (std::size_t i = 0; i + 1 < layers.size(); i++)
    t += layers[i].bwd_s; // eq. (27): layers 1..n-1
  return t;
}

double osf_factor(double t_comp_s, double t_update_s, double t_overlap_s)
{
  return t_comp_s / (t_comp_s + t_update_s - t_overlap_s); // eq. (28)
}

double osf_fusion_update_s(const std::vector<OsfLayer>& layers, const OsfParams& p, double buffer_bytes,
                           double timeout_s, bool adaptive)
{
  const std::size_t n = layers.size();
  if (n == 0)
    return 0;
  auto d  = [&](std::size_t i) { return layers[i - 1].bytes; }; // D^(i), 1-based
  auto tb = [&](std::size_t i) { return layers[i - 1].bwd_s; };
  std::vector<double> buf(n + 2, 0.0), fused(n + 2, 0.0), wait(n + 2, 0.0);
  std::vector<char> ada_restart(n + 2, 0); // layer i started a new buffer because eq. (36) said fusing does not pay
  for (std::size_t i = n; i >= 1; i--) {
    // Eq. (31): the buffer after layer i's backward.
    bool restart = i == n || buf[i + 1] + d(i) > buffer_bytes || tb(i) >= timeout_s;
    if (!restart && adaptive) {
      // Eq. (36): fuse only if sending together beats sending apart (t_wait^(i) as in eq. (33), computed below
      // from quantities known at this point).
      double w = 0;
      if (i > 1 && tb(i - 1) > timeout_s)
        w = timeout_s;
      else if (i > 1 && buf[i + 1] + d(i) + d(i - 1) > buffer_bytes)
        w = tb(i - 1);
      restart = !(osf_t_update_s(p, buf[i + 1] + d(i)) + w < osf_t_update_s(p, buf[i + 1]) + osf_t_update_s(p, d(i)));
      ada_restart[i] = restart;
    }
    buf[i] = restart ? d(i) : buf[i + 1] + d(i);
  }
  for (std::size_t i = n; i >= 1; i--) {
    // Eq. (32): the buffer is sent after layer i (F^(i)) or kept.
    // ... and with adaFusion, when layer i-1 starts a new buffer, this one goes (else its bytes would be lost).
    bool send = i == 1 || tb(i) > timeout_s || buf[i] + d(i - 1) > buffer_bytes || ada_restart[i - 1];
    fused[i]  = send ? buf[i] : 0;
    // Eq. (33): how long the sender waits after layer i's backward.
    if (i > 1 && tb(i - 1) > timeout_s)
      wait[i] = timeout_s;
    else if (i > 1 && buf[i] + d(i - 1) > buffer_bytes)
      wait[i] = tb(i - 1);
    else
      wait[i] = 0;
  }
  const std::vector<double> bsum = backward_suffix(layers);
  double tau                     = 0;
  for (std::size_t i = n - 1; i >= 1; i--)
    tau = std::max(tau + wait[i + 1] + osf_t_update_s(p, fused[i + 1]), bsum[i]); // eq. (34)
  return tau + osf_t_update_s(p, fused[1]);                                       // eq. (35)
}

double csf_factor(double t_comp_s, double total_bytes, const OsfParams& p)
{
  return t_comp_s / (t_comp_s + osf_t_update_s(p, total_bytes));
}

} // namespace sgdsim
