#include "analytic/predict.hpp"

#include "analytic/osf.hpp"
#include "analytic/pipeline_pe.hpp"
#include "analytic/ps_async_mva.hpp"
#include "analytic/ps_sync.hpp"
#include "analytic/reference_sim.hpp"
#include "analytic/ring.hpp"
#include "analytic/zeng23.hpp"
#include "workload/grad_units.hpp"
#include "workload/ps_split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace sgdsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

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
  const std::vector<int> owner = split_tensors(wl, sc.ps, sc.ps_split);
  for (std::size_t t = 0; t < owner.size(); t++)
    load[static_cast<std::size_t>(owner[t])] += wl.tensors[t].bytes;
  return *std::max_element(load.begin(), load.end());
}

Prediction sync_row(const char* model, const char* equation, int k, int batch, double step_s)
{
  return Prediction{model, equation, k * batch / step_s, step_s};
}

// What one connection between hosts reaches: the route's per-flow cap and the collective library's connection rate
// (docs/models.md §10.9, §10.11), the lower of those given (> 0); 0 where neither is.
double connection_cap_Bps(double flow_cap_Bps, double connection_rate_Bps)
{
  if (flow_cap_Bps > 0 && connection_rate_Bps > 0)
    return std::min(flow_cap_Bps, connection_rate_Bps);
  return flow_cap_Bps > 0 ? flow_cap_Bps : connection_rate_Bps;
}

// Ring all-reduce (docs/models.md §3, §7, §8 and §4's ALL_REDUCE sharing). B is a worker's NIC (the route from worker 0
// to worker 1); the per-message latency alpha is that route's latency; the slowest worker sets the pace.
std::vector<Prediction> predict_ring(const AnalyticInputs& in, const std::vector<double>& ratio)
{
  const Workload& wl = *in.workload;
  const Scenario& sc = in.scenario;
  const int k        = sc.workers;
  // Each message between hosts travels over sc.sockets_per_peer connections, each under the per-flow cap (§10.9)
  // and the collective library's connection rate (§10.11).
  const double cap     = connection_cap_Bps(in.net.flow_cap_Bps, sc.connection_rate_Bps);
  const double b       = std::min(in.net.bottleneck_Bps, cap > 0 ? cap * sc.sockets_per_peer : kInf);
  const double alpha   = in.net.latency_s + sc.message_overhead_s; // per-message cost: route latency + software
  const double slowest = *std::min_element(ratio.begin(), ratio.end());
  const double t_f     = wl.fwd_s() / slowest;
  const double t_b     = wl.bwd_s() / slowest;
  const double t_upd   = wl.ps_update_s / slowest; // each worker applies the update on its own device
  const double t_comp  = t_f + t_b + t_upd;
  // The all-reduces the simulation makes (--allreduce-unit, docs/models.md §10): each unit's bytes and call are
  // charged to the layer whose backward makes it ready, so that the per-layer models see the same calls.
  std::vector<OsfLayer> layers;
  for (const Layer& l : wl.layers)
    layers.push_back({0, l.bwd_s / slowest, 0});
  // Fusion decides its buffers at run time: its recursion (eq. 31-35) starts from the layers' own bytes.
  const AllreduceUnit unit = sc.unit() == AllreduceUnit::FUSION ? AllreduceUnit::LAYER : sc.unit();
  for (const GradUnit& u : plan_grad_units(wl, unit, sc.bucket_bytes, sc.first_bucket_bytes)) {
    layers[static_cast<std::size_t>(u.ready_layer)].bytes += u.bytes;
    layers[static_cast<std::size_t>(u.ready_layer)].calls++;
  }
  std::vector<PipelineLayer> pipeline;
  int calls = 0;
  for (std::size_t i = 0; i < wl.layers.size(); i++) {
    const OsfLayer& l = layers[i];
    calls += l.calls;
    pipeline.push_back({wl.layers[i].fwd_s / slowest, l.bwd_s,
                        l.bytes > 0 ? ring_allreduce_s(k, l.bytes, b) +
                                          l.calls * (ring_allreduce_s(k, 0, b, alpha) + sc.allreduce_overhead_s)
                                    : 0});
  }
  const double m = wl.model_bytes();
  if (sc.unit() == AllreduceUnit::FUSION) // fused buffers: at least M/Q calls
    calls = std::max(1, static_cast<int>(std::ceil(m / sc.fusion_buffer_bytes)));
  // Several all-reduces in flight overlap their latencies (not their bytes: they share the links).
  const int latency_calls = (calls + sc.collectives_in_flight - 1) / sc.collectives_in_flight;
  std::vector<Prediction> out;
  if (sc.collective == Collective::HALVING_DOUBLING) {
    // Rabenseifner: the same bytes as the ring (2(K-1)/K M per worker and direction) in 2 log2(K) messages per call.
    const double hd = t_f + t_b + ring_allreduce_s(k, m, b) + latency_calls * 2.0 * std::log2(k) * alpha +
                      latency_calls * sc.allreduce_overhead_s + t_upd;
    out.push_back(sync_row("halving-doubling", "models.md §3 eq. (14)", k, wl.batch, hd));
    return out;
  }
  if (sc.collective != Collective::RING)
    return out; // tree and hierarchical: no analytic model (no_prediction_reason)
  // Eq. (13): eq. (11) with its latency-aware term for `calls` all-reduce calls, without overlap.
  const double eq11 =
      ring_step_s(k, m, b, t_f + t_b, alpha, latency_calls) + latency_calls * sc.allreduce_overhead_s + t_upd;
  out.push_back(sync_row("ring-eq11", "models.md §3 eq. (11), (13) [LI22]", k, wl.batch, eq11));
  if (sc.overlap) {
    OsfParams p;
    p.n_workers              = k;
    p.beta_Bps               = b;
    p.delta_s                = sc.allreduce_overhead_s + (k > 1 ? 2.0 * (k - 1) * alpha : 0.0);
    const double single_step = t_comp; // one worker, no communication
    const double t_update    = sc.fusion_buffer_bytes > 0 ? osf_fusion_update_s(layers, p, sc.fusion_buffer_bytes,
                                                                                sc.fusion_timeout_s, sc.ada_fusion)
                                                          : osf_update_s(layers, p);
    // The OSF's step: T_comp + T_update - T_overlap (eq. (28)-(29)), so that throughput = N * OSF * b / T_comp.
    const double osf_step = t_comp + t_update - osf_overlap_s(layers);
    out.push_back(sync_row(sc.fusion_buffer_bytes <= 0 ? "osf"
                           : sc.ada_fusion             ? "osf-adafusion"
                                                       : "osf-fusion",
                           sc.fusion_buffer_bytes <= 0 ? "models.md §7 eq. (24)-(29) [OSF22]"
                           : sc.ada_fusion             ? "models.md §7 eq. (28), (31)-(36) [OSF22]"
                                                       : "models.md §7 eq. (28), (31)-(35) [OSF22]",
                           k, wl.batch, osf_step));
    // CSF and [PE] scale the compute time by a factor (eq. (30), (38)): without compute (a bare all-reduce) they have
    // no answer, and print none rather than 0/0. [PE] pipelines one all-reduce per gradient: no fusion.
    if (t_comp > 0) {
      const double csf_step = single_step / csf_factor(t_comp, m, p);
      out.push_back(sync_row("csf", "models.md §7 eq. (30) [OSF22]", k, wl.batch, csf_step));
    }
    if (sc.fusion_buffer_bytes <= 0 && t_comp > 0) {
      const double alpha_pe = pe_alpha(pipeline, 0);
      out.push_back(sync_row("perfestimator", "models.md §8 eq. (38)-(39) [PE]", k, wl.batch, single_step / alpha_pe));
    }
  }
  if (k <= in.reference_max_workers) { // Algorithm 1 with ALL_REDUCE sharing: per-tensor all-reduces, no latency
    RefSimInputs ref;
    ref.workload      = &wl;
    ref.speed_ratio   = ratio;
    ref.sync          = true;
    ref.overlap       = sc.overlap;
    ref.sharing       = RefSharing::ALL_REDUCE;
    ref.bandwidth_Bps = in.net.bottleneck_Bps;
    ref.flow_cap_Bps  = connection_cap_Bps(in.net.flow_cap_Bps, sc.connection_rate_Bps) *
                       sc.sockets_per_peer; // a message's connections (§10.9, §10.11)
    ref.steps             = sc.steps;
    ref.warmup            = sc.warmup;
    ref.seed              = sc.seed;
    ref.compute_jitter_cv = sc.compute_jitter_cv;
    const double x        = reference_simulation(ref).throughput_steps_per_s;
    out.push_back(
        Prediction{"li22-reference-allreduce", "models.md §4 Algorithm 1 [LI22]", x * wl.batch, x > 0 ? k / x : 0});
  }
  return out;
}
} // namespace

std::string no_prediction_reason(const Scenario& sc, const NetworkParams& net)
{
  // No network between the parties (every worker on the host the route starts from: the simulation leaves B at 0,
  // README "Parameters from the platform"), or a route of FATPIPE links only: the models have no B to use.
  std::string why;
  if (net.bottleneck_Bps == 0) {
    why = sc.is_ps() ? "PS 0 and all " : "all ";
    why += std::to_string(sc.workers);
    why += " workers share one host: the models of docs/models.md need the bandwidth B of a route between hosts, "
           "§9.3";
  } else if (!(net.bottleneck_Bps > 0) || !std::isfinite(net.bottleneck_Bps)) {
    why = "the route between hosts has FATPIPE links only: the models of docs/models.md need the bandwidth B of a "
          "shared link, §9.3";
  } else if (sc.arch == Arch::RING && sc.collective != Collective::RING &&
             sc.collective != Collective::HALVING_DOUBLING) {
    why = "no analytic model covers the ";
    why += to_string(sc.collective);
    why += " all-reduce: simulated only, docs/models.md §3.3";
  }
  return why;
}

std::vector<Prediction> predict(const AnalyticInputs& in)
{
  if (!no_prediction_reason(in.scenario, in.net).empty())
    return {};
  const Workload& wl              = *in.workload;
  const Scenario& sc              = in.scenario;
  const int k                     = sc.workers;
  const std::vector<double> ratio = ratios_of(in);
  const double m                  = bottleneck_shard_bytes(wl, sc);
  const double b                  = in.net.bottleneck_Bps;
  const double cap                = in.net.flow_cap_Bps > 0 ? in.net.flow_cap_Bps : b;
  // A transfer of the whole shard by K workers at once takes K*M/B, but never less than M/cap for one flow
  // (the per-flow cap of [LI22] §4); the closed forms are evaluated with this effective bandwidth.
  // Hierarchical PS: the PS's clients are the nodes (their intra-node transfers are left out of the coarse models).
  const int g          = std::max(1, sc.gpus_per_node);
  const int clients    = k / g;
  const double b_k     = std::min(b, clients * cap);
  const double b_1     = std::min(b, cap);
  const double slowest = *std::min_element(ratio.begin(), ratio.end());
  const double t_f     = wl.fwd_s() / slowest;
  const double t_b     = wl.bwd_s() / slowest;
  const double t_s     = wl.ps_update_s / in.ps_speed_ratio; // a time on the reference device, like compute
  std::vector<Prediction> out;

  if (sc.arch == Arch::RING)
    return predict_ring(in, ratio);
  if (sc.arch == Arch::PS_SYNC) {
    // eq. 7-10 with the effective bandwidths: K*M/B_k is the all-workers transfer, M/B_1 a single one.
    const double all = clients * m / b_k;
    const double one = m / b_1;
    if (!sc.overlap) {
      out.push_back(sync_row("ps-sync-fair", "models.md §2 eq. (7) [LI22]", k, wl.batch, all + t_f + t_b + all + t_s));
      out.push_back(sync_row("ps-sync-fcfs", "models.md §2 eq. (8) [LI22]", k, wl.batch, all + t_f + t_b + one + t_s));
      out.push_back(sync_row("ps-sync-hybrid", "models.md §2 eq. (9) [LI22]", k, wl.batch,
                             all + t_f + t_b + (all + one) / 2 + t_s));
    } else {
      out.push_back(sync_row("ps-sync-hybrid-overlap", "models.md §2 eq. (10) [LI22]", k, wl.batch,
                             std::max(all, t_f) + std::max((all + one) / 2, t_b) + t_s));
    }
    // [ZENG23]: per-worker compute before the first push; pushes and pulls of the whole shard at B.
    std::vector<double> tc;
    for (std::size_t i = 0; i < ratio.size(); i += static_cast<std::size_t>(g)) { // one pusher per PS client
      const double r = ratio[i];
      tc.push_back(sc.overlap
                       ? zeng23_gpu_compute_s(wl.fwd_s() / r, wl.bwd_s() / r, static_cast<int>(wl.tensors.size()))
                       : (wl.fwd_s() + wl.bwd_s()) / r);
    }
    double zeng = zeng23_step_s(tc, one, one) + t_s;
    if (sc.overlap) // the rest of the backward after the first push overlaps the pushes; it bounds the step
      zeng = std::max(zeng, t_f + t_b + one + t_s);
    out.push_back(
        sync_row(sc.overlap ? "zeng23-gpu" : "zeng23-cpu", "models.md §6 eq. (20)-(23) [ZENG23]", k, wl.batch, zeng));
  } else {
    // Async: MVA with workers grouped by speed (eq. 1-6).
    std::map<double, int> groups;
    for (double r : ratio)
      groups[r]++;
    MvaInputs mva;
    for (const auto& [r, count] : groups) // with hierarchical PS, the clients are nodes of g GPUs
      mva.types.push_back(MvaWorkerType{std::max(1, count / g), wl.fwd_s() / r, wl.bwd_s() / r});
    mva.transfer_s     = m / b;
    mva.min_transfer_s = m / b_1;
    mva.update_s       = t_s;
    AsyncMvaResult res = ps_async_mva(mva, in.rho_t, sc.overlap);
    const double x     = res.steps_per_s * g; // a node's step is a step of each of its g GPUs
    out.push_back(Prediction{sc.overlap ? "ps-async-mva-overlap" : "ps-async-mva",
                             sc.overlap ? "models.md §1 eq. (1)-(6) [LI22]" : "models.md §1 eq. (1)-(5) [LI22]",
                             x * wl.batch, x > 0 ? k / x : 0});
  }

  // §4: Algorithm 1, with the sharing of the simulation (hybrid: PS and FCFS averaged). One PS only.
  if (sc.is_ps() && sc.ps == 1 && g == 1 && k <= in.reference_max_workers) {
    RefSimInputs ref;
    ref.workload      = &wl;
    ref.speed_ratio   = ratio;
    ref.sync          = sc.arch == Arch::PS_SYNC;
    ref.overlap       = sc.overlap;
    ref.bandwidth_Bps = b;
    ref.flow_cap_Bps  = in.net.flow_cap_Bps;
    // The simulated PS pays --message-overhead after receiving each gradient ([LI20]'s c) and before sending each
    // tensor; the replay charges it after each reception, on both links.
    ref.tensor_overhead_s          = in.tensor_overhead_s + sc.message_overhead_s;
    ref.tensor_overhead_s_per_byte = in.tensor_overhead_s_per_byte + sc.message_s_per_byte;
    ref.steps                      = sc.steps;
    ref.warmup                     = sc.warmup;
    ref.seed                       = sc.seed;
    ref.compute_jitter_cv          = sc.compute_jitter_cv;
    ref.ps_speed_ratio             = in.ps_speed_ratio;
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
    out.push_back(Prediction{id, "models.md §4 Algorithm 1 [LI22]", x * wl.batch, x > 0 ? k / x : 0});
  }
  return out;
}

} // namespace sgdsim
