// The §4 reference simulation against the closed forms in the cases where they are exact.
#include "analytic/ps_sync.hpp"
#include "analytic/reference_sim.hpp"
#include "analytic/ring.hpp"
#include "support/tiny.hpp"
#include "workload/workload_parser.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
RefSimInputs base(const Workload& wl, int k, bool sync, RefSharing sharing)
{
  RefSimInputs in;
  in.workload      = &wl;
  in.speed_ratio   = std::vector<double>(static_cast<std::size_t>(k), 1.0);
  in.sync          = sync;
  in.overlap       = false;
  in.sharing       = sharing;
  in.bandwidth_Bps = 1e9;
  in.steps         = 3;
  in.warmup        = 1;
  return in;
}
} // namespace

TEST(ReferenceSim, SyncMatchesEquations7And8)
{
  // One 100 MB tensor, T_F = T_B = 0.05 s, T_S = 0.01 s, B = 1 GB/s.
  Workload wl = parse_workload_file(tiny::one_tensor_workload("100MB", "50ms", "50ms", "10ms"));
  for (int k : {1, 2, 5, 16}) {
    double ps   = 1 / reference_simulation(base(wl, k, true, RefSharing::PS)).throughput_steps_per_s * k;
    double fcfs = 1 / reference_simulation(base(wl, k, true, RefSharing::FCFS)).throughput_steps_per_s * k;
    EXPECT_NEAR(ps, ps_sync_fair_step_s(k, 100e6, 1e9, 0.1, 0.01), 1e-9) << "K=" << k;
    EXPECT_NEAR(fcfs, ps_sync_fcfs_step_s(k, 100e6, 1e9, 0.1, 0.01), 1e-9) << "K=" << k;
  }
}

TEST(ReferenceSim, AllReduceMatchesEquation11)
{
  Workload wl    = parse_workload_file(tiny::one_tensor_workload("100MB", "50ms", "50ms"));
  RefSimResult r = reference_simulation(base(wl, 4, true, RefSharing::ALL_REDUCE));
  EXPECT_NEAR(r.step_time_mean_s, ring_step_s(4, 100e6, 1e9, 0.1), 1e-9); // 0.25 s
}

TEST(ReferenceSim, AsyncSingleWorkerAndFlowCap)
{
  Workload wl = parse_workload_file(tiny::one_tensor_workload("100MB", "50ms", "50ms", "10ms"));
  // One worker: 0.1 (down) + 0.1 (compute) + 0.1 (up) + 0.01 (update) = 0.31 s.
  EXPECT_NEAR(reference_simulation(base(wl, 1, false, RefSharing::PS)).step_time_mean_s, 0.31, 1e-9);
  // A 0.5 GB/s per-flow cap doubles each transfer: 0.2 + 0.1 + 0.2 + 0.01 = 0.51 s.
  RefSimInputs capped = base(wl, 1, false, RefSharing::PS);
  capped.flow_cap_Bps = 0.5e9;
  EXPECT_NEAR(reference_simulation(capped).step_time_mean_s, 0.51, 1e-9);
  // [LI20] overhead 5 ms + 1 ns/B after each reception: 0.31 + 2 * (0.005 + 1e-9 * 100e6) = 0.52 s.
  RefSimInputs slow               = base(wl, 1, false, RefSharing::PS);
  slow.tensor_overhead_s          = 0.005;
  slow.tensor_overhead_s_per_byte = 1e-9;
  EXPECT_NEAR(reference_simulation(slow).step_time_mean_s, 0.52, 1e-9);
}

TEST(ReferenceSim, OverlapHidesCommunication)
{
  // 8 layers of 10 MB, 5 ms + 10 ms each: with overlap, downlinks of later layers hide behind forwards.
  Workload wl     = parse_workload_file(tiny::layered_workload(8, "10MB", "5ms", "10ms"));
  RefSimInputs in = base(wl, 2, true, RefSharing::PS);
  double off      = reference_simulation(in).step_time_mean_s;
  in.overlap      = true;
  double on       = reference_simulation(in).step_time_mean_s;
  EXPECT_LT(on, off) << "overlap " << on << " s, no overlap " << off << " s";
}
