// --receive-overhead-per-byte (docs/models.md §10.5, "Receive thread"): each process receives on one thread, which
// every message it gets from the PS architecture's connections passes through one after the other. Closed forms on
// tiny star platforms whose NICs are fast enough (1 TB/s: 1 us per MB) that the wire hardly counts.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
// `layers` layers of one 1 MB tensor each, 1 ms forward and 2 ms backward per layer, overlap off, Sync-PS, fair; the
// deployment puts the PS ranks and the workers on the hosts given (h0, h1, ...). Returns the mean step.
double step_s(int ps, const std::vector<std::string>& ps_hosts, const std::vector<std::string>& worker_hosts,
              double receive_s_per_byte, double message_s_per_byte = 0)
{
  Scenario sc = tiny::scenario(Arch::PS_SYNC, static_cast<int>(worker_hosts.size()), Sharing::FAIR, false, 3, 1);
  sc.ps       = ps;
  sc.receive_s_per_byte = receive_s_per_byte;
  sc.message_s_per_byte = message_s_per_byte;
  SimInputs in = tiny::inputs(tiny::star_platform(3, "1TBps"), tiny::layered_workload(ps, "1MB", "1ms", "2ms"), sc);
  in.deployment_path = tiny::deployment(ps_hosts, worker_hosts);
  return simulate_isolated(in).step_time_mean_s;
}

constexpr double kSPerByte = 1e-9;  // 1 ms per 1 MB message
constexpr double kWire_s   = 20e-6; // what the 1 TB/s wire and the rounding may move the differences by
} // namespace

TEST(ReceiveThread, PsReceivesItsWorkersGradientsOneAfterTheOther)
{
  // One PS (h0), two workers (h1, h2). Downlink: each worker's own thread, 1 ms, at once: +1 ms. Uplink: both
  // gradients arrive together and the PS's one thread takes them one after the other: +2 ms. Step +3 ms, where a
  // per-connection cost of the same figure (--message-overhead-per-byte) adds 1 ms per direction: +2 ms.
  const double base = step_s(1, {"h0"}, {"h1", "h2"}, 0);
  EXPECT_NEAR(step_s(1, {"h0"}, {"h1", "h2"}, kSPerByte) - base, 3e-3, kWire_s);
  EXPECT_NEAR(step_s(1, {"h0"}, {"h1", "h2"}, 0, kSPerByte) - base, 2e-3, kWire_s);
}

TEST(ReceiveThread, WorkerReceivesEveryPsShardOneAfterTheOther)
{
  // Two PS (h0, h1), each with one of two 1 MB layers, one worker (h2). Downlink: the worker's one thread takes the
  // two shards one after the other: +2 ms. Uplink: each PS's own thread, one gradient each, at once: +1 ms.
  const double base = step_s(2, {"h0", "h1"}, {"h2"}, 0);
  EXPECT_NEAR(step_s(2, {"h0", "h1"}, {"h2"}, kSPerByte) - base, 3e-3, kWire_s);
}

TEST(ReceiveThread, PaidOnOneHostToo)
{
  // The thread is the process's, not the network's: a worker beside its PS pays it (1 ms each way), where the
  // per-connection cost between hosts is not paid at all.
  const double base = step_s(1, {"h0"}, {"h0"}, 0);
  EXPECT_NEAR(step_s(1, {"h0"}, {"h0"}, kSPerByte) - base, 2e-3, kWire_s);
  EXPECT_DOUBLE_EQ(step_s(1, {"h0"}, {"h0"}, 0, kSPerByte), base);
}
