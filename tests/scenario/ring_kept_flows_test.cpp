// Kept flows in the steps-mode ring (sim/ring_driver.hpp, docs/design.md "Kept flows in the ring"): where nothing
// changes the platform during the run, each ring edge keeps one flow for the run, suspended between its chunks, and
// the driver keeps each chunk's latency and bytes left as SimGrid would for a flow of its own. The results must be
// the same, bit for bit, as with a comm per chunk, on every kind of ring the driver runs; and the flows are kept
// exactly where they may be. The runs use the CLI's SimGrid settings (network/optim:Full, which the driver needs).
#include "sim/ring_driver.hpp"
#include "support/ring_driver_runs.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>
#include <regex>

using namespace sgdsim;

namespace {
using tiny::cli_inputs;
using tiny::expect_identical;
using tiny::steps_ring;

struct KeptRun {
  SimResult result;
  long kept_edges  = -1; // from the driver's log line (-1: it kept no flow)
  long kept_chunks = -1;
};

KeptRun run(const SimInputs& in)
{
  testing::internal::CaptureStderr(); // the simulation's child process writes the driver's log there too
  KeptRun r;
  r.result              = simulate_isolated(in);
  const std::string log = testing::internal::GetCapturedStderr();
  static const std::regex line("kept flows: ([0-9]+) edges carried ([0-9]+) chunks");
  if (std::smatch m; std::regex_search(log, m, line)) {
    r.kept_edges  = std::stol(m[1].str());
    r.kept_chunks = std::stol(m[2].str());
  }
  return r;
}

// Runs `in` with kept flows and with a comm per chunk: the results must be identical. Returns the kept run.
KeptRun expect_same_as_fresh_flows(SimInputs in, const std::string& what)
{
  const KeptRun kept           = run(in);
  in.scenario.ring_fresh_flows = true;
  const KeptRun fresh          = run(in);
  EXPECT_EQ(fresh.kept_edges, -1) << what;
  EXPECT_GT(kept.result.step_time_mean_s, 0) << what;
  expect_identical(kept.result, fresh.result, what);
  return kept;
}
} // namespace

TEST(RingKeptFlows, SameResultsOnAUniformStarWhereNothingIsReplayed)
{
  // 8 workers, 6 layers of 4 MB, 5 us per link, every step simulated: each member keeps one flow, to its next member.
  const std::string star          = tiny::star_platform(8, "1GBps", "5us");
  const std::string wl            = tiny::layered_workload(6, "4MB", "2ms", "4ms");
  Scenario every                  = steps_ring(8);
  every.ring_every_step_simulated = true;
  const KeptRun simulated         = expect_same_as_fresh_flows(cli_inputs(star, wl, every), "every step simulated");
  EXPECT_EQ(simulated.kept_edges, 8);
  // 6 all-reduces per step, 4 steps (1 warm-up), 2(K - 1) chunks per member each: all on the kept flows.
  EXPECT_EQ(simulated.kept_chunks, 6L * 4 * 2 * 7 * 8);
  // Where steps are replayed the chunks keep comms of their own: suspended flows would stay among those SimGrid
  // passes over at each of the replay's dates.
  EXPECT_EQ(run(cli_inputs(star, wl, steps_ring(8))).kept_edges, -1) << "replayed";
}

TEST(RingKeptFlows, SameResultsOnAFatTreeWhoseEdgesDiffer)
{
  // 12 hosts in leaves of 4: the edges between leaves cross the spine and pay more latency, so members fall out of
  // lockstep and chunks of different steps share links (nothing is replayed).
  const std::string tree = tiny::fat_tree_platform(12, 4);
  const std::string wl   = tiny::layered_workload(5, "3MB", "1ms", "3ms");
  EXPECT_EQ(expect_same_as_fresh_flows(cli_inputs(tree, wl, steps_ring(12)), "fat-tree").kept_edges, 12);
  EXPECT_EQ(expect_same_as_fresh_flows(cli_inputs(tree, wl, steps_ring(12), {"network/model:CM02"}), "CM02").kept_edges,
            12);
}

TEST(RingKeptFlows, SameResultsOnUnevenHostsWithJitterAndWithoutLatency)
{
  // Uneven NICs and speeds, compute jitter: chunks start and end at every date; and the same without latency, where
  // a chunk joins the sharing as it starts (with the penalty 1 that SimGrid gives such a flow).
  Scenario jitter          = steps_ring(6);
  jitter.compute_jitter_cv = 0.2;
  const std::string wl     = tiny::layered_workload(5, "2MB", "3ms", "5ms");
  expect_same_as_fresh_flows(cli_inputs(tiny::star_platform(tiny::uneven_hosts(6), "10us"), wl, jitter), "uneven");
  const KeptRun no_latency = expect_same_as_fresh_flows(
      cli_inputs(tiny::star_platform(tiny::uneven_hosts(6), "0us"), wl, jitter), "no latency");
  EXPECT_EQ(no_latency.kept_edges, 6);
}

TEST(RingKeptFlows, SameResultsWhereSomeNeighboursShareAHost)
{
  // Two workers per host on a 4-node fat-tree: the edges 0 -> 1 and 2 -> 3 stay within a host and keep a comm per
  // chunk (SimGrid routes a node to itself through its NIC here); their ends are merged, in start order, with the
  // kept flows' of the edges between hosts.
  SimInputs in =
      cli_inputs(tiny::fat_tree_platform(4, 2), tiny::layered_workload(4, "2MB", "1ms", "2ms"), steps_ring(4));
  in.deployment_path = tiny::deployment({}, {"node-0", "node-0", "node-1", "node-1"});
  EXPECT_EQ(expect_same_as_fresh_flows(in, "two per host").kept_edges, 2);
}

TEST(RingKeptFlows, SameResultsWithLanesHierarchyAndAConnectionRate)
{
  const std::string star = tiny::star_platform(8, "1GBps", "5us");
  const std::string wl   = tiny::layered_workload(6, "4MB", "2ms", "4ms");
  // Two all-reduces in flight: each lane's members keep their own flows, over the same links.
  Scenario lanes              = steps_ring(8);
  lanes.collectives_in_flight = 2;
  EXPECT_EQ(expect_same_as_fresh_flows(cli_inputs(star, wl, lanes), "lanes").kept_edges, 16);
  // The leaders' ring of a hierarchical all-reduce, beside the node-local messages of the workers' actors.
  Scenario hierarchical      = steps_ring(8);
  hierarchical.collective    = Collective::HIERARCHICAL;
  hierarchical.gpus_per_node = 2;
  EXPECT_EQ(expect_same_as_fresh_flows(cli_inputs(star, wl, hierarchical), "hierarchical").kept_edges, 4);
  // A connection's rate bounds each kept flow as it bounds each chunk's comm (docs/models.md §10.11).
  Scenario capped            = steps_ring(8);
  capped.connection_rate_Bps = 0.3e9;
  expect_same_as_fresh_flows(cli_inputs(star, wl, capped), "connection rate");
}

TEST(RingKeptFlows, NoneWhereThePlatformChangesOrAChunkIsCut)
{
  const std::string star = tiny::star_platform(6, "1GBps", "5us");
  const std::string wl   = tiny::layered_workload(4, "4MB", "2ms", "4ms");
  // A background file changes a NIC during the run: a kept flow would keep the bound it was made with.
  SimInputs background = cli_inputs(star, wl, steps_ring(6));
  background.background_path =
      tiny::write_file("kept-background.xml", "<background>\n  <nic host=\"h3\"><at time=\"0.1s\" bandwidth=\"0.5\"/>"
                                              "</nic>\n</background>\n");
  EXPECT_EQ(run(background).kept_edges, -1) << "background";
  // Several sockets per peer cut each chunk in parts, a flow each.
  Scenario sockets         = steps_ring(6);
  sockets.sockets_per_peer = 4;
  EXPECT_EQ(run(cli_inputs(star, wl, sockets)).kept_edges, -1) << "sockets";
  // The workers' actors exchange the chunks themselves.
  Scenario actors              = steps_ring(6);
  actors.ring_by_worker_actors = true;
  EXPECT_EQ(run(cli_inputs(star, wl, actors)).kept_edges, -1) << "actors";
}
