// Benchmark (not a test): wall time of every analytic model at K = 1,024 workers on ResNet-50 (issue #3 target:
// under 10 ms in total for the coarse models). Prints one line per model: the median over repetitions.
//   build/bench/analytic_bench [workload.xml]
#include "analytic/osf.hpp"
#include "analytic/pipeline_pe.hpp"
#include "analytic/predict.hpp"
#include "analytic/ps_async_mva.hpp"
#include "analytic/ps_sync.hpp"
#include "analytic/reference_sim.hpp"
#include "analytic/ring.hpp"
#include "analytic/zeng23.hpp"
#include "workload/workload_parser.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sgdsim;

namespace {
volatile double sink = 0; // keeps the optimizer from removing the work

double median_ms(const std::function<double()>& f, int reps)
{
  std::vector<double> ms;
  for (int i = 0; i < reps; i++) {
    auto t0 = std::chrono::steady_clock::now();
    sink    = sink + f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
  const std::string path = argc > 1 ? argv[1] : SGDSIM_SOURCE_DIR "/workloads/resnet50-v100-b32.xml";
  const Workload wl      = parse_workload_file(path);
  const int k            = 1024;
  const double b         = 1.25e9; // 10 Gbps, the AWS p3.2xlarge NIC
  const double m         = wl.model_bytes();
  const int reps         = 21;

  std::vector<OsfLayer> layers;
  std::vector<PipelineLayer> pipeline;
  for (std::size_t i = 0; i < wl.layers.size(); i++) {
    const Layer& l     = wl.layers[i];
    const double bytes = wl.layer_bytes(i);
    layers.push_back({bytes, l.bwd_s});
    pipeline.push_back({l.fwd_s, l.bwd_s, bytes > 0 ? ring_allreduce_s(k, bytes, b, 25e-6) : 0});
  }
  OsfParams osf;
  osf.n_workers = k;
  osf.beta_Bps  = b;
  osf.pi_flops  = wl.reference_speed;

  struct Row {
    const char* name;
    std::function<double()> f;
  };
  MvaInputs mva{{{k, wl.fwd_s(), wl.bwd_s()}}, m / b, 0, wl.ps_update_s};
  MvaInputs mva_two{
      {{k / 2, wl.fwd_s(), wl.bwd_s()}, {k / 2, 2 * wl.fwd_s(), 2 * wl.bwd_s()}}, m / b, 0, wl.ps_update_s};
  MvaInputs mva_small{{{64, wl.fwd_s(), wl.bwd_s()}, {64, 2 * wl.fwd_s(), 2 * wl.bwd_s()}}, m / b, 0, wl.ps_update_s};
  std::vector<double> hetero(static_cast<std::size_t>(k));
  for (int i = 0; i < k; i++)
    hetero[static_cast<std::size_t>(i)] = wl.compute_s() * (1 + (i % 7) * 0.1);
  std::vector<Row> rows = {
      {"ps-sync eq. 7-10",
       [&] {
         return ps_sync_fair_step_s(k, m, b, wl.compute_s(), wl.ps_update_s) +
                ps_sync_fcfs_step_s(k, m, b, wl.compute_s(), wl.ps_update_s) +
                ps_sync_hybrid_step_s(k, m, b, wl.compute_s(), wl.ps_update_s) +
                ps_sync_hybrid_overlap_step_s(k, m, b, wl.fwd_s(), wl.bwd_s(), wl.ps_update_s);
       }},
      {"ps-async MVA, 1 type (eq. 5-6)", [&] { return ps_async_mva(mva, 0.6, true).steps_per_s; }},
      {"ps-async MVA, 2 types x 512 (Schweitzer)", [&] { return ps_async_mva(mva_two, 0.6, true).steps_per_s; }},
      {"ps-async MVA, 2 types x 64 (exact)", [&] { return ps_async_mva(mva_small, 0.6, true).steps_per_s; }},
      {"zeng23, 1024 heterogeneous workers", [&] { return zeng23_step_s(hetero, m / b, m / b); }},
      {"ring eq. 11", [&] { return ring_step_s(k, m, b, wl.compute_s(), 25e-6, 161); }},
      {"OSF eq. (24)-(29)", [&] { return osf_update_s(layers, osf); }},
      {"OSF fusion eq. (31)-(35) (64 MB, 5 ms)", [&] { return osf_fusion_update_s(layers, osf, 64e6, 5e-3); }},
      {"adaFusion eq. (36)", [&] { return osf_fusion_update_s(layers, osf, 64e6, 5e-3, true); }},
      {"PerfEstimator alpha", [&] { return pe_alpha(pipeline, 10e-6); }},
  };
  std::printf("analytic models at K = %d workers, %s (%zu layers, %zu tensors); median of %d runs\n", k,
              wl.name.c_str(), wl.layers.size(), wl.tensors.size(), reps);
  double total = 0;
  for (const Row& r : rows) {
    double ms = median_ms(r.f, reps);
    total += ms;
    std::printf("  %-40s %10.4f ms\n", r.name, ms);
  }
  std::printf("  %-40s %10.4f ms   (target: < 10 ms)\n", "total of the coarse models", total);

  // What `sgdsim run` computes beside a simulation (coarse models and, up to reference_max_workers, Algorithm 1).
  for (Arch arch : {Arch::PS_SYNC, Arch::PS_ASYNC}) {
    AnalyticInputs in;
    in.workload              = &wl;
    in.scenario.arch         = arch;
    in.scenario.workers      = k;
    in.scenario.sharing      = arch == Arch::PS_SYNC ? Sharing::HYBRID : Sharing::FAIR;
    in.net.bottleneck_Bps    = b;
    in.reference_max_workers = 0;
    double coarse            = median_ms([&] { return predict(in).front().step_time_s; }, reps);
    in.reference_max_workers = k;
    double with_ref          = median_ms([&] { return predict(in).back().step_time_s; }, 3);
    std::printf("  predict(%s): coarse models %.4f ms; with the Algorithm 1 reference simulation %.1f ms\n",
                to_string(arch), coarse, with_ref);
  }
  return 0;
}
