// Gloo's credits behind a FIFO egress (--egress-fifo, docs/models.md §10.12): a receiver tells its sender that a
// slice's buffer is free by a message of its own, which a FIFO egress (tc shaping) sends after the slices the
// receiver has queued for its own next member. Closed forms on a 2-host star, 1 GB/s per NIC, ideal network: one
// 4 MiB all-reduce, chunks of 2 MiB in 2 slices of 1 MiB (tau = 1.048576 ms on a link), 2 in flight, 2 steps: each
// member sends slices s0, s1 (reduce-scatter) and s2, s3 (all-gather; s2 needs the peer's s0, s3 its s1).
#include "common/allreduce_time.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace sgdsim;

namespace {
constexpr double kB   = 1e9;
constexpr double kTau = 1024.0 * 1024 / kB;

double step_s(const std::string& link_latency, bool egress_fifo, bool credit_messages = true)
{
  Scenario sc              = tiny::scenario(Arch::RING, 2, Sharing::FAIR, false, 2, 1);
  sc.ps                    = 0;
  sc.ring_slice_bytes      = 1024.0 * 1024;
  sc.ring_slices_in_flight = 2;
  sc.ring_credit_messages  = credit_messages;
  sc.egress_fifo           = egress_fifo;
  return simulate_isolated(tiny::inputs(tiny::star_platform(2, "1GBps", link_latency),
                                        tiny::one_tensor_workload("4MiB", "0s", "0s"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(EgressFifo, ACreditWaitsForTheSliceItsReceiverIsSending)
{
  // lambda = 0.2 ms < tau / 2. Credits at once: s0, s1 leave back to back; s0's credit is back at tau + 2 lambda,
  // before s1 has left, so s2, s3 follow at once: the last slice arrives at 4 tau + lambda.
  const double lambda = 0.2e-3;
  EXPECT_NEAR(step_s("0.1ms", false), 4 * kTau + lambda, 1e-9);
  // FIFO: s0 arrives at tau + lambda while its receiver sends its own s1 (until 2 tau): the credit leaves then and is
  // back at 2 tau + lambda; s1's credit leaves at once (the receiver waits for its own credit, nothing is queued)
  // and is back at 2 tau + 2 lambda, before s2 has left. s2 from 2 tau + lambda, s3 after it: 4 tau + 2 lambda.
  EXPECT_NEAR(step_s("0.1ms", true), 4 * kTau + 2 * lambda, 1e-9);
}

TEST(EgressFifo, NoChangeWhereTheCreditsRoundTripBindsAlready)
{
  // lambda = 5 ms > tau: each member has sent s0 and s1 (2 tau) before a credit is issued, and its egress is idle
  // when it issues the peer's: s2 at tau + 2 lambda, s3 at 2 tau + 2 lambda, the last arrival 3 tau + 3 lambda either
  // way.
  const double lambda = 5e-3;
  EXPECT_NEAR(step_s("2.5ms", false), 3 * kTau + 3 * lambda, 1e-9);
  EXPECT_NEAR(step_s("2.5ms", true), 3 * kTau + 3 * lambda, 1e-9);
}

TEST(EgressFifo, OnlyCreditsSentAsMessagesWait)
{
  // NCCL's socket transport sends no credit message: a FIFO egress changes nothing for it.
  EXPECT_NEAR(step_s("0.1ms", true, false), step_s("0.1ms", false, false), 1e-12);
}

namespace {
// A ring of K = 2 with two lanes (Gloo's two threads), Gloo's 1 MiB slices, two in flight, one tensor a unit.
Scenario two_lanes(bool egress_fifo, FifoWait wait)
{
  Scenario sc              = tiny::scenario(Arch::RING, 2, Sharing::FAIR, true, 1, 0);
  sc.ps                    = 0;
  sc.allreduce_unit        = AllreduceUnit::TENSOR;
  sc.collectives_in_flight = 2;
  sc.ring_slice_bytes      = 1024.0 * 1024;
  sc.ring_slices_in_flight = 2;
  sc.egress_fifo           = egress_fifo;
  sc.fifo_wait             = wait;
  return sc;
}
// Worker 0's all-reduce durations of the run, by name, on a 2-host star of 1 GB/s NICs.
std::map<std::string, double> worker0_allreduces_s(const std::string& workload, const Scenario& sc)
{
  std::map<std::string, double> out;
  for (const auto& [name, call] :
       tiny::worker0_allreduce_calls_s(tiny::inputs(tiny::star_platform(2, "1GBps", "0s"), workload, sc)))
    out[name] = call.second - call.first;
  return out;
}
// Two lanes (Gloo's two threads): the backward's first unit, 4 MiB, goes to one and a 1 KiB unit to the other
// `small_bwd` later; the worker 0's all-reduce events of the measured step, by tensor name. `measured`: the platform
// has a measured all-reduce that takes twice the network's time at every size (docs/models.md §10.7); with
// `measured_sizes`, eq. (37)'s line is the network's time and the sizes measured from 1 MiB on take twice it
// (§10.7 "The large sizes as measured"). `wait`: how a slice behind the other lane's waits (§10.12): until they have
// left (EXACT, the default here), for its queue's average (AVERAGE, "The queue's average"), or PHASE; `big`: the
// first unit's size.
std::map<std::string, double> call_durations_s(bool egress_fifo, const std::string& small_bwd = "0s",
                                               bool measured = false, bool measured_sizes = false,
                                               FifoWait wait = FifoWait::EXACT, const std::string& big = "4MiB")
{
  Scenario sc = two_lanes(egress_fifo, wait);
  if (measured) { // 2 x 2(K - 1)/K bytes / B at K = 2: a2 = 2 / B, b2 = 0 above 1 B
    const AllreduceTimeFit twice{2, {0, 0, 1, 2 / kB, 0}, 0, 0, 0, {}};
    sc.measured_allreduce = true;
    sc.allreduce_time     = {twice};
  }
  if (measured_sizes) { // at K = 2 the network takes bytes / B: the line's a2 = 1 / B; the rows twice that
    const double mib      = 1024.0 * 1024;
    sc.measured_allreduce = true;
    sc.measured_sizes     = true;
    sc.allreduce_time     = {
            AllreduceTimeFit{2, {0, 0, 1, 1 / kB, 0}, 0, 0, 0, {{mib, 2 * mib / kB}, {4 * mib, 8 * mib / kB}}}};
  }
  const std::string workload = tiny::write_file(
      "fifo_beside.xml", "<workload name=\"fifo_beside\" batch=\"1\" device=\"test\" reference_speed=\"1Gf\">\n"
                         "  <layer name=\"small\" fwd=\"0s\" bwd=\"" +
                             small_bwd +
                             "\"><tensor name=\"s\" size=\"1KiB\"/></layer>\n"
                             "  <layer name=\"big\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"b\" size=\"" +
                             big +
                             "\"/></layer>\n"
                             "</workload>\n");
  return worker0_allreduces_s(workload, sc);
}
} // namespace

TEST(EgressFifo, ASmallCallWaitsForAnotherCallsSlicesAhead)
{
  // "Another call's segments ahead" (docs/models.md §10.12): the 4 MiB all-reduce sends chunks of 2 MiB in two
  // slices of 1 MiB (tau each at 1 GB/s), two in flight: s0 and s1 back to back, then s2 and s3. Fair sharing lets
  // the 1 KiB all-reduce's two 512 B messages through at once (a few microseconds). Behind a FIFO egress each of its
  // messages leaves after the slices the large call has handed to TCP: at least two of them (2 tau) once, at most
  // all four (4 tau); the large call itself loses no more than the small one's bytes.
  const std::map<std::string, double> fair = call_durations_s(false);
  const std::map<std::string, double> fifo = call_durations_s(true);
  ASSERT_EQ(fair.size(), 2U);
  ASSERT_EQ(fifo.size(), 2U);
  EXPECT_LT(fair.at("1024 B"), 10e-6);
  EXPECT_GE(fifo.at("1024 B"), 2 * kTau);
  EXPECT_LE(fifo.at("1024 B"), 4 * kTau + 10e-6);
  EXPECT_NEAR(fair.at("4194304 B"), 4 * kTau, 10e-6);
  EXPECT_NEAR(fifo.at("4194304 B"), 4 * kTau, 10e-6);
}

TEST(EgressFifo, AMeasuredCallsSoftwareCostIsPaidBeforeEachStepsMessage)
{
  // The measured excess of the 4 MiB call (4 tau: twice the network's 4 tau) is paid 2 tau before each of its two
  // steps' messages (docs/models.md §10.7): s0 from 2 tau, s1 after it until 4 tau; s2 from 4 tau + 2 tau, s3 after
  // it: the call lasts its measured 8 tau. The 1 KiB call starts at 2.5 tau (its layer's backward) and its first
  // message queues behind s0 and s1 until 4 tau, before s2 is queued: 1.5 tau. Were the excess paid before the call,
  // no slice of the large call would be queued at 2.5 tau and the small call would pass at once.
  const double start_s                     = 2.5 * kTau;
  const std::string at                     = std::to_string(start_s * 1e3) + "ms";
  const std::map<std::string, double> fifo = call_durations_s(true, at, true);
  const std::map<std::string, double> fair = call_durations_s(false, at, true);
  ASSERT_EQ(fifo.size(), 2U);
  ASSERT_EQ(fair.size(), 2U);
  EXPECT_NEAR(fifo.at("4194304 B"), 8 * kTau, 10e-6);
  EXPECT_NEAR(fifo.at("1024 B"), 4 * kTau - start_s, 10e-6);
  EXPECT_NEAR(fair.at("4194304 B"), 8 * kTau, 10e-6);
  EXPECT_LT(fair.at("1024 B"), 10e-6); // fair sharing: its 512 B share the NIC with s0
}

TEST(EgressFifo, WhatTheMeasuredSizesAddHoldsTheEgress)
{
  // The 4 MiB call's rows take twice its line (the network's 4 tau): the 4 tau they add are a bandwidth its bytes
  // lack, paid as a slower rate of them (docs/models.md §10.7 "The large sizes as measured"), not as waits before its
  // steps: each 1 MiB slice takes 2 tau, s0 and s1 back to back, then s2 and s3, and the call still lasts 8 tau. The
  // 1 KiB call starting at 2.5 tau finds s1 in flight and s2 queued (its step's input arrived with s0, its credit
  // back): its first message leaves when s2 has, at 6 tau, and its second behind s3, at 8 tau: 5.5 tau, where the same
  // 4 tau paid before each step let it through in 1.5 tau (AMeasuredCallsSoftwareCostIsPaidBeforeEachStepsMessage).
  const double start_s                     = 2.5 * kTau;
  const std::string at                     = std::to_string(start_s * 1e3) + "ms";
  const std::map<std::string, double> fifo = call_durations_s(true, at, false, true);
  ASSERT_EQ(fifo.size(), 2U);
  EXPECT_NEAR(fifo.at("4194304 B"), 8 * kTau, 10e-6);
  EXPECT_NEAR(fifo.at("1024 B"), 8 * kTau - start_s, 10e-6);
}

TEST(EgressFifo, AtTheQueuesAverageASliceWaitsHalfASliceLessThanTheQueueHeld)
{
  // As WhatTheMeasuredSizesAddHoldsTheEgress, each of the 4 MiB call's slices taking 2 tau, waited for at their queue's
  // average: at 2.5 tau s0 has left (it took 2 tau) and the large call holds s1 (in flight) and s2 (queued): its queue
  // averages 1.5 slices, 3 tau, and the 1 KiB call's first message leaves at 5.5 tau. Its second (its input arrived
  // with its peer's first, a microsecond later) finds s2 in flight and s3 queued: 3 tau more, at 8.5 tau: 6 tau in all,
  // where the exact wait took 5.5 tau (s1 half sent at 2.5 tau, s2 mid-way at 6 tau).
  const double start_s                        = 2.5 * kTau;
  const std::string at                        = std::to_string(start_s * 1e3) + "ms";
  const std::map<std::string, double> average = call_durations_s(true, at, false, true, FifoWait::AVERAGE);
  ASSERT_EQ(average.size(), 2U);
  EXPECT_NEAR(average.at("4194304 B"), 8 * kTau, 10e-6);
  EXPECT_NEAR(average.at("1024 B"), 6 * kTau, 10e-6);
}

TEST(EgressFifo, AtTheQueuesAverageACallWithNoSliceLeftIsWaitedForExactly)
{
  // As AMeasuredCallsSoftwareCostIsPaidBeforeEachStepsMessage: at 2.5 tau none of the large call's slices has left
  // (s0 from 2 tau to 3 tau), so how long one takes is not known: the small call waits until s0 and s1 have left,
  // 1.5 tau, either way.
  const double start_s = 2.5 * kTau;
  const std::string at = std::to_string(start_s * 1e3) + "ms";
  EXPECT_NEAR(call_durations_s(true, at, true, false, FifoWait::AVERAGE).at("1024 B"), 4 * kTau - start_s, 10e-6);
  // Starting at once (ASmallCallWaitsForAnotherCallsSlicesAhead, slices of tau): its first message waits until s0 and
  // s1 have left (2 tau) either way; its second finds s2 in flight and s3 queued, s1 having taken tau: until both have
  // left (4 tau in all), or their average, 1.5 tau (3.5 tau in all).
  EXPECT_NEAR(call_durations_s(true, "0s", false, false, FifoWait::EXACT).at("1024 B"), 4 * kTau, 10e-6);
  EXPECT_NEAR(call_durations_s(true, "0s", false, false, FifoWait::AVERAGE).at("1024 B"), 3.5 * kTau, 10e-6);
}

TEST(EgressFifo, InPhaseACallOfOneSliceAStepIsWaitedForExactly)
{
  // docs/models.md §10.12 "In phase with a call of one slice a step". A 1 MiB call at K = 2 moves one slice of 512 KiB
  // a ring step (tau / 2 each): s0 from 0 to tau / 2, s1 (its second step, once its peer's s0 has arrived) to tau. The
  // 1 KiB call starts at 0.6 tau, s1 in flight: with phase it waits until s1 has left, as exact does (its call then
  // ends at tau, 0.4 tau in all). The average lets its first message go after (1 - 1/2) x tau / 2, at 0.85 tau, and
  // its second, s1 still in flight, a quarter tau later: 0.5 tau in all, the lockstep's phase lost.
  const double start_s = 0.6 * kTau;
  const std::string at = std::to_string(start_s * 1e3) + "ms";
  const double phase   = call_durations_s(true, at, false, false, FifoWait::PHASE, "1MiB").at("1024 B");
  const double exact   = call_durations_s(true, at, false, false, FifoWait::EXACT, "1MiB").at("1024 B");
  const double average = call_durations_s(true, at, false, false, FifoWait::AVERAGE, "1MiB").at("1024 B");
  EXPECT_NEAR(phase, exact, 1e-9);
  EXPECT_NEAR(phase, kTau - start_s, 10e-6);
  EXPECT_NEAR(average, 0.5 * kTau, 10e-6);
  // Behind a call of two slices a step (AtTheQueuesAverageASliceWaitsHalfASliceLessThanTheQueueHeld's 4 MiB call),
  // phase waits for the queue's average: 6 tau there, where the exact wait took 5.5 tau.
  const std::string later = std::to_string(2.5 * kTau * 1e3) + "ms";
  EXPECT_NEAR(call_durations_s(true, later, false, true, FifoWait::PHASE).at("1024 B"), 6 * kTau, 10e-6);
  // The default since 2026-12-04 (README's option table).
  EXPECT_EQ(Scenario{}.fifo_wait, FifoWait::PHASE);
}

namespace {
// --in-flight-cost paired's uncovered gain (docs/models.md §10.8 "The uncovered gain holds the connection"): a 1 KiB
// call starts at 0 on one lane and the 4 MiB call right after it on the other, so that the large call pays paired's
// rule beside it. The platform's single calls take twice the network's time and its calls back to back the network's
// own, so the 4 MiB call keeps its gain over the call alone, 4 tau, less the share the 1 KiB call's back-to-back time
// covers (a few microseconds). Worker 0's all-reduce durations by name.
std::map<std::string, double> beside_a_kept_gain_s(UncoveredGain gain)
{
  Scenario sc              = two_lanes(true, FifoWait::EXACT);
  sc.measured_allreduce    = true;
  sc.measured_node_window  = 1;
  sc.allreduce_time        = {AllreduceTimeFit{2, {0, 0, 1, 2 / kB, 0}, 0, 0, 0, {}}}; // twice bytes / B at K = 2
  sc.allreduce_queued_time = {AllreduceTimeFit{2, {0, 0, 1, 1 / kB, 0}, 0, 0, 0, {}}}; // bytes / B: the network's
  sc.in_flight_cost        = InFlightCost::PAIRED;
  sc.uncovered_gain        = gain;
  // The backward runs the layers last to first: the 1 KiB call, then the 4 MiB one at the same instant.
  const std::string workload = tiny::write_file(
      "fifo_uncovered.xml", "<workload name=\"fifo_uncovered\" batch=\"1\" device=\"test\" reference_speed=\"1Gf\">\n"
                            "  <layer name=\"big\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"b\" size=\"4MiB\"/></layer>\n"
                            "  <layer name=\"small\" fwd=\"0s\" bwd=\"0s\"><tensor name=\"s\" size=\"1KiB\"/></layer>\n"
                            "</workload>\n");
  return worker0_allreduces_s(workload, sc);
}
} // namespace

TEST(EgressFifo, TheUncoveredGainAsARateHoldsTheConnection)
{
  // The 4 MiB call keeps about 4 tau of gain and lasts about 8 tau either way. As waits before its two steps
  // (--uncovered-gain waits), about 2 tau before each step's slices (AMeasuredCallsSoftwareCostIsPaidBeforeEachSteps-
  // Message): the 1 KiB call's two messages leave while it waits, in microseconds. As a slower rate of its bytes (rate,
  // the default), s0 and s1 are handed at once and take about 2 tau each (WhatTheMeasuredSizesAddHoldsTheEgress): the
  // 1 KiB call's first message leaves behind them at 4 tau, its second behind s2 and s3 at 8 tau, in lockstep with
  // the large call's steps.
  const std::map<std::string, double> waits = beside_a_kept_gain_s(UncoveredGain::WAITS);
  const std::map<std::string, double> rate  = beside_a_kept_gain_s(UncoveredGain::RATE);
  ASSERT_EQ(waits.size(), 2U);
  ASSERT_EQ(rate.size(), 2U);
  EXPECT_NEAR(waits.at("4194304 B"), 8 * kTau, 0.01 * kTau);
  EXPECT_NEAR(rate.at("4194304 B"), 8 * kTau, 0.01 * kTau);
  EXPECT_LT(waits.at("1024 B"), 0.01 * kTau);
  EXPECT_NEAR(rate.at("1024 B"), 8 * kTau, 0.01 * kTau);
  EXPECT_EQ(Scenario{}.uncovered_gain, UncoveredGain::RATE); // the default since 2026-12-04g
}
