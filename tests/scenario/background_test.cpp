// Background load (--background): a straggler slows Sync-PS and ring, and only itself in Async-PS; background
// traffic on a NIC takes its share of the bandwidth.
#include "common/input_error.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;
using tiny::inputs;
using tiny::scenario;

namespace {
// Host h4 (worker 3 under automatic placement with one PS; worker... see each test) computes at half speed.
std::string straggler_file()
{
  return tiny::write_file("straggler.xml", "<background>\n"
                                           "  <host name=\"h4\"><at time=\"0s\" speed=\"0.5\"/></host>\n"
                                           "</background>\n");
}

SimResult run(Arch arch, const std::string& background)
{
  // 1 PS (h0) and 4 workers (h1..h4) on 1 GB/s NICs; one 1 MB tensor (2 ms of transfer at most), 50 ms forward
  // and 50 ms backward: compute dominates, so a half-speed worker needs 0.2 s instead of 0.1 s.
  Scenario sc = scenario(arch, 4, Sharing::FAIR, false, 4, 1);
  if (arch == Arch::RING)
    sc.ps = 0;
  SimInputs in       = inputs(tiny::star_platform(5, "1GBps"), tiny::one_tensor_workload("1MB", "50ms", "50ms"), sc);
  in.background_path = background;
  return simulate_isolated(in);
}
} // namespace

TEST(Background, AStragglerSetsTheSyncStepButOnlyItsOwnInAsync)
{
  // Ring: workers h0..h3, so the straggler file's h4 is unused there; ring gets its own case below.
  for (Arch arch : {Arch::PS_SYNC, Arch::PS_ASYNC}) {
    SimResult base = run(arch, "");
    SimResult slow = run(arch, straggler_file());
    ASSERT_EQ(slow.per_worker[3].host, "h4");
    EXPECT_NEAR(base.per_worker[3].step_time_mean_s, 0.1, 0.01) << to_string(arch);
    EXPECT_GT(slow.per_worker[3].step_time_mean_s, 0.199) << to_string(arch) << ": the straggler itself";
    for (int w = 0; w < 3; w++) {
      double t = slow.per_worker[static_cast<std::size_t>(w)].step_time_mean_s;
      if (arch == Arch::PS_SYNC)
        EXPECT_GT(t, 0.199) << "sync worker " << w << " waits for the straggler at the barrier";
      else
        EXPECT_NEAR(t, base.per_worker[static_cast<std::size_t>(w)].step_time_mean_s, 0.005)
            << "async worker " << w << " keeps its pace";
    }
  }
}

TEST(Background, AStragglerSlowsTheWholeRing)
{
  // Ring workers are h0..h3; h3 at half speed: every worker's step is at least its 0.2 s of compute.
  const std::string file =
      tiny::write_file("ring-straggler.xml", "<background>\n"
                                             "  <host name=\"h3\"><at time=\"0s\" speed=\"0.5\"/></host>\n"
                                             "</background>\n");
  SimResult base = run(Arch::RING, "");
  SimResult slow = run(Arch::RING, file);
  for (const WorkerStats& w : base.per_worker)
    EXPECT_LT(w.step_time_mean_s, 0.11) << w.host;
  for (const WorkerStats& w : slow.per_worker)
    EXPECT_GT(w.step_time_mean_s, 0.199) << w.host;
}

TEST(Background, NicTrafficTakesItsShareOfTheBandwidth)
{
  // One worker, one 100 MB tensor, no compute: step = 2 x 0.1 s on 1 GB/s. With 50% of the PS's NIC available
  // (both directions) from t = 0: 0.4 s. With it available only from 0.3 s on, repeating every second... kept
  // simple: a constant 50%.
  const std::string file = tiny::write_file("nic.xml", "<background>\n"
                                                       "  <nic host=\"h0\"><at time=\"0s\" bandwidth=\"0.5\"/></nic>\n"
                                                       "</background>\n");
  SimInputs in           = inputs(tiny::star_platform(2, "1GBps"), tiny::one_tensor_workload("100MB", "0s", "0s"),
                                  scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false));
  EXPECT_NEAR(simulate_isolated(in).step_time_mean_s, 0.2, 0.2 * 1e-6);
  in.background_path = file;
  EXPECT_NEAR(simulate_isolated(in).step_time_mean_s, 0.4, 0.4 * 1e-6);
}

TEST(Background, AvailabilityChangesAtItsTime)
{
  // The PS's NIC drops to 50% at 0.1 s: the 100 MB downlink (0.1 s at 1 GB/s) is done by then, the uplink runs at
  // 0.5 GB/s: one step of 0.1 + 0.2 = 0.3 s.
  const std::string file = tiny::write_file("nic-late.xml", "<background>\n"
                                                            "  <nic host=\"h0\"><at time=\"0s\" bandwidth=\"1\"/>"
                                                            "<at time=\"100ms\" bandwidth=\"0.5\"/></nic>\n"
                                                            "</background>\n");
  SimInputs in           = inputs(tiny::star_platform(2, "1GBps"), tiny::one_tensor_workload("100MB", "0s", "0s"),
                                  scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false, 1, 0));
  in.background_path     = file;
  EXPECT_NEAR(simulate_isolated(in).step_time_mean_s, 0.3, 0.3 * 1e-6);
}

TEST(Background, UnknownHostNamesFileAndLine)
{
  const std::string file =
      tiny::write_file("bad-bg.xml", "<background>\n"
                                     "  <host name=\"nowhere\"><at time=\"0s\" speed=\"0.5\"/></host>\n"
                                     "</background>\n");
  SimInputs in       = inputs(tiny::star_platform(2, "1GBps"), tiny::one_tensor_workload("1MB", "0s", "0s"),
                              scenario(Arch::PS_SYNC, 1, Sharing::FAIR, false));
  in.background_path = file;
  try {
    simulate_isolated(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), file + ":2: host 'nowhere': not in the platform");
  }
}
