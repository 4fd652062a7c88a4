#include "analytic/predict.hpp"

#include "analytic/ps_async_mva.hpp"
#include "analytic/ps_sync.hpp"
#include "analytic/reference_sim.hpp"
#include "analytic/zeng23.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace sgdsim {

namespace {
std::vector<double> ratios_of(const AnalyticInputs& in)
{
  std::vector<double> r = in.speed_ratio;
  r.resize(static_cast<std::size_t>(in.scenario.workers), 1.0);
  return r;
}

// With several PS, the PS holding the most bytes is the bottleneck: the coarse models use its shard as M
// (an extension of [LI22], whose models have one PS). Tensors go to PS as in the simulation.
double bottleneck_shard_bytes(const Workload& wl, const Scenario& sc)
{
  if (sc.ps <= 1)
    return wl.model_bytes();
  std::vector<double> load(static_cast<std::size_t>(sc.ps), 0.0);
  if (sc.ps_split == PsSplit::ROUND_ROBIN) {
    for (std::size_t t = 0; t < wl.tensors.size(); t++)
      load[t % load.size()] += wl.tensors[t].bytes;
  } else {
    std::vector<double> sizes;
    for (const Tensor& t : wl.tensors)
      sizes.push_back(t.bytes);
    std::stable_sort(sizes.begin(), sizes.end(), std::greater<>());
    for (double b : sizes)
      *std::min_element(load.begin(), load.end()) += b;
  }
  return *std::max_element(load.begin(), load.end());
}

Prediction sync_row(const char* model, const char* equation, int k, int batch, double step_s)
{
  return Prediction{model, equation, k * batch / step_s, step_s};
}
} // namespace

std::vector<Prediction> predict(const AnalyticInputs& in)
{
  const Workload& wl              = *in.workload;
  const Scenario& sc              = in.scenario;
  const int k                     = sc.workers;
  const std::vector<double> ratio = ratios_of(in);
  const double m                  = bottleneck_shard_bytes(wl, sc);
  const double b                  = in.net.bottleneck_Bps;
  const double cap                = in.net.flow_cap_Bps > 0 ? in.net.flow_cap_Bps : b;
  // A transfer of the whole shard by K workers at once takes K*M/B, but never less than M/cap for one flow
  // (the per-flow cap of [LI22] §4); the closed forms are evaluated with this effective bandwidth.
  const double b_k     = std::min(b, k * cap);
  const double b_1     = std::min(b, cap);
  const double slowest = *std::min_element(ratio.begin(), ratio.end());
  const double t_f     = wl.fwd_s() / slowest;
  const double t_b     = wl.bwd_s() / slowest;
  const double t_s     = wl.ps_update_s;
  std::vector<Prediction> out;

  if (sc.arch == Arch::PS_SYNC) {
    // eq. 7-10 with the effective bandwidths: K*M/B_k is the all-workers transfer, M/B_1 a single one.
    const double all = k * m / b_k;
    const double one = m / b_1;
    if (!sc.overlap) {
      out.push_back(sync_row("ps-sync-fair", "MODELS.md §2 eq. 7 [LI22]", k, wl.batch, all + t_f + t_b + all + t_s));
      out.push_back(sync_row("ps-sync-fcfs", "MODELS.md §2 eq. 8 [LI22]", k, wl.batch, all + t_f + t_b + one + t_s));
      out.push_back(sync_row("ps-sync-hybrid", "MODELS.md §2 eq. 9 [LI22]", k, wl.batch,
                             all + t_f + t_b + (all + one) / 2 + t_s));
    } else {
      out.push_back(sync_row("ps-sync-hybrid-overlap", "MODELS.md §2 eq. 10 [LI22]", k, wl.batch,
                             std::max(all, t_f) + std::max((all + one) / 2, t_b) + t_s));
    }
    // [ZENG23]: per-worker compute before the first push; pushes and pulls of the whole shard at B.
    std::vector<double> tc;
    for (double r : ratio)
      tc.push_back(sc.overlap
                       ? zeng23_gpu_compute_s(wl.fwd_s() / r, wl.bwd_s() / r, static_cast<int>(wl.tensors.size()))
                       : (wl.fwd_s() + wl.bwd_s()) / r);
    double zeng = zeng23_step_s(tc, one, one) + t_s;
    if (sc.overlap) // the rest of the backward after the first push overlaps the pushes; it bounds the step
      zeng = std::max(zeng, t_f + t_b + one + t_s);
    out.push_back(sync_row(sc.overlap ? "zeng23-gpu" : "zeng23-cpu", "MODELS.md §6 [ZENG23]", k, wl.batch, zeng));
  } else {
    // Async: MVA with workers grouped by speed (eq. 1-6).
    std::map<double, int> groups;
    for (double r : ratio)
      groups[r]++;
    MvaInputs mva;
    for (const auto& [r, count] : groups)
      mva.types.push_back(MvaWorkerType{count, wl.fwd_s() / r, wl.bwd_s() / r});
    mva.transfer_s     = m / b;
    mva.min_transfer_s = m / b_1;
    mva.update_s       = t_s;
    AsyncMvaResult res = ps_async_mva(mva, in.rho_t, sc.overlap);
    const double x     = res.steps_per_s;
    out.push_back(Prediction{sc.overlap ? "ps-async-mva-overlap" : "ps-async-mva",
                             sc.overlap ? "MODELS.md §1 eq. 5-6 [LI22]" : "MODELS.md §1 eq. 5 [LI22]", x * wl.batch,
                             x > 0 ? k / x : 0});
  }

  // §4: Algorithm 1, with the sharing of the simulation (hybrid: PS and FCFS averaged). One PS only.
  if (sc.ps == 1 && k <= in.reference_max_workers) {
    RefSimInputs ref;
    ref.workload                   = &wl;
    ref.speed_ratio                = ratio;
    ref.sync                       = sc.arch == Arch::PS_SYNC;
    ref.overlap                    = sc.overlap;
    ref.bandwidth_Bps              = b;
    ref.flow_cap_Bps               = in.net.flow_cap_Bps;
    ref.tensor_overhead_s          = in.tensor_overhead_s;
    ref.tensor_overhead_s_per_byte = in.tensor_overhead_s_per_byte;
    ref.steps                      = sc.steps;
    ref.warmup                     = sc.warmup;
    ref.seed                       = sc.seed;
    ref.compute_jitter_cv          = sc.compute_jitter_cv;
    double x                       = 0;
    int runs                       = 0;
    for (RefSharing s : {RefSharing::PS, RefSharing::FCFS}) {
      const bool wanted = sc.sharing == Sharing::HYBRID || (s == RefSharing::PS) == (sc.sharing == Sharing::FAIR);
      if (!wanted)
        continue;
      ref.sharing = s;
      x += reference_simulation(ref).throughput_steps_per_s;
      runs++;
    }
    x /= runs;
    const char* id = sc.sharing == Sharing::HYBRID ? "li22-reference-hybrid"
                     : sc.sharing == Sharing::FAIR ? "li22-reference-ps"
                                                   : "li22-reference-fcfs";
    out.push_back(Prediction{id, "MODELS.md §4 Algorithm 1 [LI22]", x * wl.batch, x > 0 ? k / x : 0});
  }
  return out;
}

} // namespace sgdsim
