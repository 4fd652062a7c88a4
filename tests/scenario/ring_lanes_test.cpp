// Several all-reduces in flight at once (--collectives-in-flight, sim/ring_worker.cpp lanes) and the units they
// carry (--allreduce-unit), against closed forms on a 2-worker star where each message costs its route latency.
#include "common/allreduce_time.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace sgdsim;

namespace {
// 2 workers, 8 layers of one 1 kB tensor, no compute, no overlap: a step is 8 all-reduces. A 2-worker ring
// all-reduce is 2 exchanges of half the buffer; each costs the route latency (2 NIC links of 50 us) plus 500 B over
// 1 GB/s, which two lanes at once share.
Scenario latency_bound_ring(int lanes, bool by_actors, RingMode mode)
{
  Scenario sc              = tiny::scenario(Arch::RING, 2, Sharing::FAIR, false, 3, 1);
  sc.ps                    = 0;
  sc.allreduce_unit        = AllreduceUnit::TENSOR;
  sc.collectives_in_flight = lanes;
  sc.ring_by_worker_actors = by_actors;
  sc.ring_mode             = mode;
  return sc;
}

double step_s(int lanes, bool by_actors, RingMode mode = RingMode::STEPS)
{
  return simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps", "50us"),
                                        tiny::layered_workload(8, "1kB", "0s", "0s"),
                                        latency_bound_ring(lanes, by_actors, mode)))
      .step_time_mean_s;
}
} // namespace

TEST(RingLanes, OneAtATimePaysEveryLatency)
{
  // 8 all-reduces x 2 exchanges x (100 us + 500 B / 1 GB/s) = 1,608 us.
  EXPECT_NEAR(step_s(1, false), 8 * 2 * (100e-6 + 0.5e-6), 1e-9);
  EXPECT_NEAR(step_s(1, true), 8 * 2 * (100e-6 + 0.5e-6), 1e-9);
}

TEST(RingLanes, TwoInFlightOverlapTheirLatencies)
{
  // Each lane runs 4 all-reduces; the two lanes' 500 B chunks share the 1 GB/s NICs: 4 x 2 x (100 + 1) us = 808 us.
  EXPECT_NEAR(step_s(2, false), 4 * 2 * (100e-6 + 1e-6), 1e-9) << "ring dispatcher";
  EXPECT_NEAR(step_s(2, true), 4 * 2 * (100e-6 + 1e-6), 1e-9) << "workers' actors";
}

TEST(RingLanes, StreamModeLanesDoNotMixTheirMessages)
{
  // Stream mode: one flow of 2(n-1)/n = 1 buffer per edge plus the (2(n-1) - 1) = 1 unsimulated step's latency.
  // One lane: 8 x (100 + 1 + 100) us; two lanes: 4 x (100 + 2 + 100) us, two 1 kB flows sharing the NIC.
  EXPECT_NEAR(step_s(1, false, RingMode::STREAM), 8 * (201e-6), 1e-9);
  EXPECT_NEAR(step_s(2, false, RingMode::STREAM), 4 * (202e-6), 1e-9);
}

TEST(RingLanes, AFreeLaneTakesTheNextUnit)
{
  // Per layer, 2 lanes, all ready at once: the backward's first unit is 1 MB (2 exchanges of 500 kB: 2 x (100 + 500)
  // us alone), the next three 1 kB (202 us each). The free lane runs the three small ones one after the other while
  // the other runs the large one, so the step lasts the large all-reduce, give or take the small ones' 3 kB on the
  // shared NICs (< 3 us). Lanes taken in turn (unit u on lane u mod 2) would queue the third unit behind the large
  // one: 1,402 us.
  Scenario sc                = latency_bound_ring(2, false, RingMode::STEPS);
  sc.allreduce_unit          = AllreduceUnit::LAYER;
  const std::string workload = tiny::write_file(
      "big_then_small.xml", "<workload name=\"big_then_small\" batch=\"32\" device=\"test\" reference_speed=\"1Gf\">\n"
                            "  <layer name=\"l0\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"w0\" size=\"1kB\"/></layer>\n"
                            "  <layer name=\"l1\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"w1\" size=\"1kB\"/></layer>\n"
                            "  <layer name=\"l2\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"w2\" size=\"1kB\"/></layer>\n"
                            "  <layer name=\"l3\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"w3\" size=\"1MB\"/></layer>\n"
                            "</workload>\n");
  for (const bool by_actors : {false, true}) {
    sc.ring_by_worker_actors = by_actors;
    const double step =
        simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps", "50us"), workload, sc)).step_time_mean_s;
    EXPECT_GT(step, 2 * (100e-6 + 500e-6)) << "by workers' actors: " << by_actors;
    EXPECT_LT(step, 2 * (100e-6 + 500e-6) + 3e-6) << "by workers' actors: " << by_actors;
  }
}

namespace {
constexpr double kB   = 1e9;
constexpr double kTau = 1024.0 * 1024 / kB; // 1 MiB over 1 GB/s

// Two lanes, K = 2, 1 GB/s, no latency, Gloo's 1 MiB segments, one tensor a unit, all ready at once. The platform's
// calls alone take the network's time and back to back twice it, so each call in flight adds its own bytes' time
// tau(D) = D / B to the others' (--in-flight-cost each, docs/models.md §10.8), paid before each of the 2 ring steps.
// `layers`: the workload's layers, in file order (the backward runs them last to first). Worker 0's all-reduces of
// the measured step by size ("4194304 B"): start and end, s.
std::map<std::string, std::pair<double, double>> measured_lanes_calls_s(const std::string& name,
                                                                        const std::string& layers)
{
  Scenario sc                = latency_bound_ring(2, false, RingMode::STEPS);
  sc.ring_slice_bytes        = 1024.0 * 1024;
  sc.ring_slices_in_flight   = 2;
  sc.measured_allreduce      = true;
  sc.measured_node_window    = 1;
  sc.in_flight_cost          = InFlightCost::EACH;
  sc.allreduce_time          = {AllreduceTimeFit{2, {0, 0, 1, 1 / kB, 0}, 0, 0, 0, {}}}; // the network's bytes / B
  sc.allreduce_queued_time   = {AllreduceTimeFit{2, {0, 0, 1, 2 / kB, 0}, 0, 0, 0, {}}}; // twice that
  const std::string workload = tiny::write_file(
      name + ".xml", "<workload name=\"" + name + "\" batch=\"1\" device=\"test\" reference_speed=\"1Gf\">\n" + layers +
                         "</workload>\n");
  return tiny::worker0_allreduce_calls_s(tiny::inputs(tiny::star_platform(2, "1GBps", "0s"), workload, sc));
}

std::string layer(const std::string& name, const std::string& size)
{
  return "  <layer name=\"" + name + "\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"" + name + "\" size=\"" + size +
         "\"/></layer>\n";
}
} // namespace

TEST(RingLanes, ACallStartedAfterAnEarlierPartnerEndedPaysForTheCallStillInFlight)
{
  // The backward's order 2 MiB (A), 1 KiB (B), 1 MiB (C), each one segment a step. A and B start together: A pays
  // its 2 tau and B's ~0 (1 tau before each step, 4 tau in all with its bytes), B pays A's 2 tau and ends at 2 tau,
  // while A still runs. C then starts on B's lane beside A: it pays its own 1 tau and A's 2 tau, 1.5 tau before each
  // of its steps, plus its 2 x 512 KiB: at least 4 tau. Were it taken as beside B, which has ended (the window of
  // calls in flight counted from the number finished, before 2026-12-06), it would pay 1 tau of waits and last
  // about 2.
  const auto calls =
      measured_lanes_calls_s("partner_ended", layer("c", "1MiB") + layer("b", "1KiB") + layer("a", "2MiB"));
  ASSERT_EQ(calls.size(), 3U);
  const double a_end           = calls.at("2097152 B").second;
  const auto& [b_start, b_end] = calls.at("1024 B");
  const auto& [c_start, c_end] = calls.at("1048576 B");
  EXPECT_NEAR(b_end - b_start, 2 * kTau, 0.01 * kTau);
  EXPECT_NEAR(c_start, b_end, 1e-9);
  EXPECT_GT(a_end, c_start); // C starts while A runs
  EXPECT_GE(c_end - c_start, 4 * kTau - 1e-9);
  EXPECT_LE(c_end - c_start, 5 * kTau); // plus at most A's last 1 MiB shared: 1 tau
}

TEST(RingLanes, ASmallCallBesideOneOfMoreSegmentsAStepPaysItsShare)
{
  // 8 MiB (A) and 1 KiB (B) start together. A's chunks of 4 MiB are 4 segments a step, of which at most 2 (the
  // slices in flight) are ahead of each of B's messages on the connection: B pays 2 / 4 of A's 8 tau (docs/models.md
  // §10.8 "A small call beside a much larger one"), 2 tau before each of its two steps, and lasts 4 tau (its 512 B
  // messages pass beside A's segments); the whole 8 tau would hold it 8 tau. A pays its own 8 tau and all of B's ~0
  // (B sends fewer segments a step), 4 tau before each step, and its 8 x 1 MiB: 16 tau.
  const auto calls = measured_lanes_calls_s("much_larger", layer("b", "1KiB") + layer("a", "8MiB"));
  ASSERT_EQ(calls.size(), 2U);
  const auto& [a_start, a_end] = calls.at("8388608 B");
  const auto& [b_start, b_end] = calls.at("1024 B");
  EXPECT_NEAR(b_start, a_start, 1e-9);
  EXPECT_NEAR(b_end - b_start, 4 * kTau, 0.01 * kTau);
  EXPECT_NEAR(a_end - a_start, 16 * kTau, 0.05 * kTau);
}

TEST(RingLanes, ASmallCallBesideOneOfTwoSegmentsAStepPaysItAll)
{
  // 4 MiB (A, chunks of 2 MiB: 2 segments a step, both in flight at once) and 1 KiB (B) start together: B waits
  // behind all of A's segments a step and pays all of A's 4 tau, 2 tau before each step: 4 tau.
  const auto calls = measured_lanes_calls_s("two_segments", layer("b", "1KiB") + layer("a", "4MiB"));
  ASSERT_EQ(calls.size(), 2U);
  const auto& [b_start, b_end] = calls.at("1024 B");
  EXPECT_NEAR(b_end - b_start, 4 * kTau, 0.01 * kTau);
}
