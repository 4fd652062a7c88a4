// The ring dispatcher's step replay (sim/ring_driver.hpp, docs/design.md "Ring step replay", issue #23): on
// homogeneous rings it replays the middle steps of lockstep all-reduces, and every result is then the same, bit for
// bit, as with every step simulated; where a condition does not hold it simulates every step. The runs use the
// CLI's SimGrid settings (network/optim:Full, which the replay emulates).
#include "sim/ring_driver.hpp"
#include "support/ring_driver_runs.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>
#include <regex>

using namespace sgdsim;

namespace {
using tiny::cli_inputs;
using tiny::expect_identical;

Scenario steps_ring(int workers, bool overlap = true)
{
  Scenario sc  = tiny::scenario(Arch::RING, workers, Sharing::FAIR, overlap, 3, 1);
  sc.ps        = 0;
  sc.ring_mode = RingMode::STEPS;
  return sc;
}

// A generated cluster like `sgdsim platform`'s (one private full-duplex link per node), optionally with a backbone
// that every flow crosses.
std::string cluster(int nodes, const std::string& backbone = "")
{
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"node-\" radical=\"0-";
  x += std::to_string(nodes - 1);
  x += "\" suffix=\"\" speed=\"1Tf\" core=\"1\" bw=\"12.5GBps\" lat=\"5us\" sharing_policy=\"SPLITDUPLEX\"";
  if (!backbone.empty())
    x.append(" bb_bw=\"").append(backbone).append("\" bb_lat=\"1us\"");
  x += "/>\n</platform>\n";
  return tiny::write_file("cluster.xml", x);
}

// Steps the run replayed, from the driver's log line (0 when it replayed none).
long replayed_steps(const std::string& log)
{
  std::smatch m;
  static const std::regex line("step replay: ([0-9]+) steps of");
  return std::regex_search(log, m, line) ? std::stol(m[1].str()) : 0;
}

struct ReplayRun {
  SimResult result;
  long replayed = 0;
};

ReplayRun run(const SimInputs& in)
{
  testing::internal::CaptureStderr(); // the simulation's child process writes the driver's log there too
  ReplayRun r;
  r.result   = simulate_isolated(in);
  r.replayed = replayed_steps(testing::internal::GetCapturedStderr());
  return r;
}

// Runs `in` with the replay and with every step simulated; the results must be identical. Returns the steps
// replayed.
long expect_same_as_every_step_simulated(SimInputs in, const std::string& what)
{
  EXPECT_TRUE(ring_replay_applies(in.scenario)) << what;
  const ReplayRun replayed              = run(in);
  in.scenario.ring_every_step_simulated = true;
  EXPECT_FALSE(ring_replay_applies(in.scenario));
  const ReplayRun simulated = run(in);
  EXPECT_EQ(simulated.replayed, 0) << what;
  EXPECT_GT(replayed.result.step_time_mean_s, 0) << what;
  expect_identical(replayed.result, simulated.result, what);
  return replayed.replayed;
}
} // namespace

TEST(RingReplay, EmulatedChunkDoesTheNetworkModelsArithmetic)
{
  // 1,000 bytes behind 10 us of latency, at 1e9 B/s once the latency is paid.
  EmulatedChunk c;
  c.start(1000, 10e-6);
  EXPECT_FALSE(c.active);
  EXPECT_EQ(c.solve(1e9), 10e-6) << "the latency first; the disabled flow has no rate";
  EXPECT_FALSE(c.advance(4e-6, 1e-9, 1e-14)); // another model's event: 6 us of latency left
  EXPECT_EQ(c.solve(1e9), 10e-6 - 4e-6);
  EXPECT_FALSE(c.advance(10e-6 - 4e-6 - 0.5e-9, 1e-9, 1e-14)) << "within surf/precision: the latency is paid";
  EXPECT_TRUE(c.active);
  EXPECT_EQ(c.remains, 1000) << "no byte moves in the update that enables the flow";
  EXPECT_EQ(c.solve(1e9), 1000 / 1e9);
  EXPECT_FALSE(c.advance(0.25e-6, 1e-9, 1e-14));
  EXPECT_EQ(c.remains, 1000 - 1e9 * 0.25e-6);
  const double left = c.solve(1e9);
  EXPECT_EQ(left, (1000 - 1e9 * 0.25e-6) / 1e9);
  EXPECT_TRUE(c.advance(left, 1e-9, 1e-14));
  EmulatedChunk no_latency;
  no_latency.start(500, 0);
  EXPECT_TRUE(no_latency.active);
  EXPECT_EQ(no_latency.solve(1e9), 500 / 1e9);
}

TEST(RingReplay, SameResultsOnAUniformStarWithAndWithoutOverlap)
{
  const std::string star = tiny::star_platform(8, "1GBps", "5us");
  const std::string wl   = tiny::layered_workload(6, "4MB", "2ms", "4ms");
  EXPECT_GT(expect_same_as_every_step_simulated(cli_inputs(star, wl, steps_ring(8)), "overlap"), 0);
  EXPECT_GT(expect_same_as_every_step_simulated(cli_inputs(star, wl, steps_ring(8, false)), "no overlap"), 0);
}

TEST(RingReplay, SameResultsOnGeneratedClustersWithAndWithoutABackbone)
{
  // The ASTRA-sim comparison workload's shape: 1 ms of compute, then a 2 MiB all-reduce, per layer.
  const std::string wl = tiny::layered_workload(5, "2MiB", "0s", "1ms");
  EXPECT_GT(expect_same_as_every_step_simulated(cli_inputs(cluster(16), wl, steps_ring(16)), "cluster"), 0);
  EXPECT_GT(expect_same_as_every_step_simulated(cli_inputs(cluster(12, "20GBps"), wl, steps_ring(12)), "backbone"), 0);
  EXPECT_GT(expect_same_as_every_step_simulated(
                cli_inputs(cluster(10), wl, steps_ring(10), {"network/model:CM02", "network/crosstraffic:0"}), "CM02"),
            0);
}

TEST(RingReplay, SameResultsWithTensorFusionAndBuckets)
{
  Scenario fusion            = steps_ring(6);
  fusion.fusion_buffer_bytes = 6e6;
  fusion.fusion_timeout_s    = 1e-3;
  const std::string star     = tiny::star_platform(6, "1GBps", "5us");
  EXPECT_GT(expect_same_as_every_step_simulated(
                cli_inputs(star, tiny::layered_workload(8, "1MB", "1ms", "2ms"), fusion), "fusion"),
            0);
  Scenario buckets           = steps_ring(6);
  buckets.allreduce_unit     = AllreduceUnit::BUCKET;
  buckets.bucket_bytes       = 3e6;
  buckets.first_bucket_bytes = 1e6;
  EXPECT_GT(expect_same_as_every_step_simulated(
                cli_inputs(star, tiny::layered_workload(8, "1MB", "1ms", "2ms"), buckets), "buckets"),
            0);
}

TEST(RingReplay, SameResultsWithComputeJitter)
{
  // Jitter staggers the members' entries into an all-reduce, unless it waits for the previous one: those steps
  // are simulated, the others may be replayed.
  Scenario jitter          = steps_ring(6);
  jitter.compute_jitter_cv = 0.1;
  expect_same_as_every_step_simulated(
      cli_inputs(tiny::star_platform(6, "1GBps", "5us"), tiny::layered_workload(6, "4MB", "1ms", "2ms"), jitter),
      "jitter");
}

TEST(RingReplay, SimulatesEveryStepWhereTheRingIsNotHomogeneous)
{
  // One slower NIC, or one slower host: the static check of the ring's edges refuses.
  std::vector<tiny::HostSpec> nics(6, tiny::HostSpec{"1Gf", "1GBps", ""});
  nics[3].nic = "0.5GBps";
  std::vector<tiny::HostSpec> speeds(6, tiny::HostSpec{"1Gf", "1GBps", ""});
  speeds[2].speed      = "0.5Gf";
  const std::string wl = tiny::layered_workload(4, "4MB", "2ms", "4ms");
  EXPECT_EQ(
      expect_same_as_every_step_simulated(cli_inputs(tiny::star_platform(nics, "5us"), wl, steps_ring(6)), "slow NIC"),
      0);
  EXPECT_EQ(expect_same_as_every_step_simulated(cli_inputs(tiny::star_platform(speeds, "5us"), wl, steps_ring(6)),
                                                "slow host"),
            0);
}

TEST(RingReplay, SimulatesEveryStepWhereSomethingElseCouldChangeAStep)
{
  const std::string star = tiny::star_platform(6, "1GBps", "5us");
  const std::string wl   = tiny::layered_workload(4, "4MB", "2ms", "4ms");
  // A background file may change a link during any step.
  SimInputs background = cli_inputs(star, wl, steps_ring(6));
  background.background_path =
      tiny::write_file("replay-background.xml", "<background>\n  <nic host=\"h3\"><at time=\"1s\" bandwidth=\"0.5\"/>"
                                                "</nic>\n</background>\n");
  EXPECT_EQ(run(background).replayed, 0) << "background";
  // SimGrid's lazy updates: the replay emulates the Full update only.
  EXPECT_EQ(run(cli_inputs(star, wl, steps_ring(6), {"network/optim:Lazy"})).replayed, 0) << "lazy";
  // Two all-reduces in flight: two rings share the NICs.
  Scenario lanes              = steps_ring(6);
  lanes.collectives_in_flight = 2;
  EXPECT_FALSE(ring_replay_applies(lanes));
  EXPECT_EQ(run(cli_inputs(star, wl, lanes)).replayed, 0) << "lanes";
  // The leaders' ring of a hierarchical all-reduce: other messages flow beside it.
  Scenario hierarchical      = steps_ring(6);
  hierarchical.collective    = Collective::HIERARCHICAL;
  hierarchical.gpus_per_node = 2;
  EXPECT_FALSE(ring_replay_applies(hierarchical));
  EXPECT_EQ(run(cli_inputs(star, wl, hierarchical)).replayed, 0) << "hierarchical";
}
