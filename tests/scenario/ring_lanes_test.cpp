// Several all-reduces in flight at once (--collectives-in-flight, sim/ring_worker.cpp lanes) and the units they
// carry (--allreduce-unit), against closed forms on a 2-worker star where each message costs its route latency.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

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
