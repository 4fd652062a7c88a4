// --ps-reads (docs/models.md §10.13): when a Sync-PS worker reads its parameters. Closed forms on a tiny star whose
// NICs are fast enough (1 TB/s: 1 us per MB) that the wire hardly counts; a per-connection cost of 1 ns per byte makes
// every 1 MB message between the PS and its client cost 1 ms, which the PS's sender pays before each parameter and
// its receiver after each gradient.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
// 3 layers of one 1 MB tensor each, 0.1 ms forward and 3 ms backward per layer, overlap on, Sync-PS, fair; the PS on
// h0, the workers (GPUs with gpus_per_node > 1) on h1, h2, ... Returns the mean step.
double step_s(bool per_variable, int workers, int gpus_per_node)
{
  Scenario sc              = tiny::scenario(Arch::PS_SYNC, workers, Sharing::FAIR, true, 4, 2);
  sc.message_s_per_byte    = 1e-9;
  sc.ps_reads_per_variable = per_variable;
  sc.gpus_per_node         = gpus_per_node;
  SimInputs in =
      tiny::inputs(tiny::star_platform(workers + 1, "1TBps"), tiny::layered_workload(3, "1MB", "0.1ms", "3ms"), sc);
  std::vector<std::string> worker_hosts;
  for (int w = 1; w <= workers; w++) {
    std::string host = "h"; // not "h" + to_string: GCC 12's -Wrestrict false positive
    host += std::to_string(w);
    worker_hosts.push_back(host);
  }
  in.deployment_path = tiny::deployment({"h0"}, worker_hosts);
  return simulate_isolated(in).step_time_mean_s;
}

constexpr double kWire_s = 20e-6; // what the 1 TB/s wire and the rounding may move the closed forms by
} // namespace

TEST(PsReads, ShardWaitsForTheWholeUpdate)
{
  // The step ends with the last gradient's bytes (0). The PS takes it (1 ms), then sends layer 1, 2, 3 (1 ms each,
  // arriving at 2, 3, 4 ms); each forward follows its tensor (the last ends at 4.1), then 9 ms of backward: 13.1 ms.
  EXPECT_NEAR(step_s(false, 1, 1), 13.1e-3, kWire_s);
}

TEST(PsReads, PerVariableReadsEachTensorDuringTheBackward)
{
  // The step starts with every parameter there: 0.3 ms of forward, then the backward of layer 3 ends at 3.3, 2 at
  // 6.3, 1 at 9.3. Each gradient is taken 1 ms after it leaves and its parameter sent back 1 ms later: layer 1's
  // arrives at 11.3 ms, which ends the step; layers 3 and 2 came back during the backward.
  EXPECT_NEAR(step_s(true, 1, 1), 11.3e-3, kWire_s);
}

TEST(PsReads, PerVariableThroughANodeRelay)
{
  // Two GPUs of one node (h1, h2) behind the relay on h1, which alone pays the costs of the PS's connection. The GPU
  // on h1 talks to the relay through the host's loopback (SimGrid's default, 10 GB/s: 0.1 ms per MB): layer 1's
  // gradient reaches the relay 0.1 ms later and its parameter the GPU 0.1 ms later. Per-variable reads pass each
  // tensor on as it arrives: 11.3 + 0.2 ms; shard reads: 13.1 + 0.2 ms (the last tensor's hop, the last gradient's).
  EXPECT_NEAR(step_s(true, 2, 2), 11.5e-3, kWire_s);
  EXPECT_NEAR(step_s(false, 2, 2), 13.3e-3, kWire_s);
}
