// ps-async on a homogeneous ideal star: the SimGrid simulation agrees with the §4 reference simulation (PS
// sharing) within 2% for K = 1..16 (issue #3).
#include "analytic/reference_sim.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

class PsAsyncLimit : public ::testing::TestWithParam<int> {};

TEST_P(PsAsyncLimit, MatchesTheReferenceSimulationWithPsSharing)
{
  const int k = GetParam();
  // Four 25 MB tensors (M = 100 MB), 5 + 10 ms of compute per layer; 1 GB/s NICs, latency 0. T_S = 0: the
  // SimGrid PS applies updates one at a time on its host, Algorithm 1 gives each worker its own PS resource, so
  // the two differ by design when updates cost time (README "Parameter servers").
  std::string plat = tiny::star_platform(k + 1, "1GBps", "0s");
  std::string wl   = tiny::layered_workload(4, "25MB", "5ms", "10ms", "0s");
  for (bool overlap : {false, true}) {
    SimInputs in  = tiny::inputs(plat, wl, tiny::scenario(Arch::PS_ASYNC, k, Sharing::FAIR, overlap, 6, 2));
    SimResult sim = simulate_isolated(in);
    RefSimInputs ref;
    ref.workload          = &in.workload;
    ref.speed_ratio       = std::vector<double>(static_cast<std::size_t>(k), 1.0);
    ref.sync              = false;
    ref.overlap           = overlap;
    ref.sharing           = RefSharing::PS;
    ref.bandwidth_Bps     = 1e9;
    ref.steps             = 6;
    ref.warmup            = 2;
    const double expected = reference_simulation(ref).throughput_steps_per_s * in.workload.batch;
    EXPECT_NEAR(sim.throughput_examples_per_s, expected, 0.02 * expected)
        << "K=" << k << " overlap " << overlap << ": simulated " << sim.throughput_examples_per_s << " ex/s, reference "
        << expected << " ex/s";
  }
}

INSTANTIATE_TEST_SUITE_P(Workers, PsAsyncLimit, ::testing::Values(1, 2, 3, 4, 6, 8, 12, 16));
