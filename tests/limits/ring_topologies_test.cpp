// The ring all-reduce on a physical ring (1-D torus) and on a two-level fat-tree: with neighbours one link apart
// (torus) or full bisection (fat-tree), every ring edge gets a full link, so eq. 11 holds (issue #4).
#include "analytic/ring.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
double ring_step(const std::string& platform, RingMode mode, int k = 16)
{
  Scenario sc  = tiny::scenario(Arch::RING, k, Sharing::FAIR, false, 3, 1);
  sc.ps        = 0;
  sc.ring_mode = mode;
  return simulate_isolated(tiny::inputs(platform, tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(RingTopologies, PhysicalRingAndFatTreeMatchEquation11)
{
  // Expectation: 0.1 + 2 * 15/16 * 100 MB / 1 GB/s = 0.2875 s, in both modes.
  const double expected = ring_step_s(16, 100e6, 1e9, 0.1);
  for (const char* plat : {"torus16.xml", "fattree16.xml"})
    for (RingMode mode : {RingMode::STEPS, RingMode::STREAM}) {
      double got = ring_step(std::string(SGDSIM_TEST_DATA "/") + plat, mode);
      EXPECT_NEAR(got, expected, 0.01 * expected) << plat << " " << to_string(mode) << ": " << got << " s";
    }
}

TEST(RingTopologies, OneSlowLinkSlowsTheWholeRing)
{
  // 4 workers on a star, worker 2's NIC at 0.5 GB/s: every exchange waits for the chunk that crosses it, so the
  // all-reduce runs at the slow link's rate: 0.1 + 2 * 3/4 * 100 MB / 0.5 GB/s = 0.4 s (instead of 0.25 s).
  std::string plat = tiny::star_platform({{"1Gf", "1GBps"}, {"1Gf", "1GBps"}, {"1Gf", "0.5GBps"}, {"1Gf", "1GBps"}});
  EXPECT_NEAR(ring_step(plat, RingMode::STEPS, 4), 0.4, 0.4 * 1e-6);
  // Stream mode too: every member ends the all-reduce when the slow edge's flows allow, though workers 0 and 3's
  // own flows (0 -> 1, 3 -> 0) could end at 0.1 + 0.15 s.
  Scenario sc       = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 3, 1);
  sc.ps             = 0;
  sc.ring_mode      = RingMode::STREAM;
  const SimResult r = simulate_isolated(tiny::inputs(plat, tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc));
  EXPECT_NEAR(r.step_time_mean_s, 0.4, 0.4 * 1e-6);
  EXPECT_NEAR(r.step_time_min_s, 0.4, 0.4 * 1e-6);
}

TEST(RingTopologies, StreamModePaysTheSlowestEdgesLatencyOnEveryMember)
{
  // A generated fat-tree of 8 nodes, 4 per leaf, 5 us per link: node-3 -> node-4 and node-7 -> node-0 cross the
  // spine (4 links, 20 us), the other edges their leaf (10 us). One small all-reduce (8 kB, no compute): its 14
  // steps are paced by the slow edges, 14 x 20 us and the bytes; steps mode shows it, and stream mode, which pays
  // each member's own edge for the 13 steps it does not simulate, now ends every member with the slowest.
  const std::string plat = tiny::fat_tree_platform(8, 4);
  const auto step        = [&plat](RingMode mode) {
    Scenario sc  = tiny::scenario(Arch::RING, 8, Sharing::FAIR, false, 3, 1);
    sc.ps        = 0;
    sc.ring_mode = mode;
    return simulate_isolated(tiny::inputs(plat, tiny::one_tensor_workload("8kB", "0s", "0s"), sc));
  };
  const SimResult steps = step(RingMode::STEPS), stream = step(RingMode::STREAM);
  EXPECT_GT(steps.step_time_mean_s, 14 * 20e-6);
  EXPECT_NEAR(stream.step_time_mean_s, steps.step_time_mean_s, 0.02 * steps.step_time_mean_s);
  EXPECT_EQ(stream.step_time_min_s, stream.step_time_max_s);
}

TEST(RingTopologies, ReductionCostAndPerCallOverhead)
{
  // 4 workers, one 100 MB tensor, no overlap: 0.25 s (eq. 11). A summation cost of 1 ns per byte applies to the
  // K-1 = 3 reduce-scatter chunks of 25 MB: + 0.075 s; a 10 ms overhead per all-reduce call: + 0.01 s.
  Scenario sc             = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 3, 1);
  sc.ps                   = 0;
  sc.reduce_s_per_byte    = 1e-9;
  sc.allreduce_overhead_s = 0.01;
  double got              = simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps"),
                                                           tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc))
                   .step_time_mean_s;
  EXPECT_NEAR(got, 0.335, 0.335 * 1e-6);
}

namespace {
double fused_step(double fusion_bytes, bool ada, double overhead_s)
{
  Scenario sc             = tiny::scenario(Arch::RING, 4, Sharing::FAIR, true, 3, 1);
  sc.ps                   = 0;
  sc.fusion_buffer_bytes  = fusion_bytes;
  sc.fusion_timeout_s     = 50e-3;
  sc.ada_fusion           = ada;
  sc.allreduce_overhead_s = overhead_s;
  return simulate_isolated(
             tiny::inputs(tiny::star_platform(4, "1GBps"), tiny::layered_workload(8, "1MB", "1ms", "1ms"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(RingTopologies, AdaFusionFusesOnlyWhenEquation17SaysItPays)
{
  // A 20 ms overhead per call dwarfs the 1 ms wait for the next layer: eq. (36) always fuses, as plain fusion does.
  EXPECT_NEAR(fused_step(1e9, true, 20e-3), fused_step(1e9, false, 20e-3), 1e-9);
  EXPECT_LT(fused_step(1e9, true, 20e-3), fused_step(0, false, 20e-3)) << "fusing must beat 8 calls of 20 ms";
  // No overhead, no latency: the cost is linear in bytes, so fusing only adds the wait: adaFusion never fuses.
  EXPECT_NEAR(fused_step(1e9, true, 0), fused_step(0, false, 0), 1e-9);
}

TEST(RingTopologies, PerMessageOverheadIsPaidAtEveryRingStep)
{
  // 4 workers, one 100 MB tensor, no overlap: 0.25 s, plus 1 ms per message at each of the 2(K-1) = 6 steps.
  Scenario sc           = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 3, 1);
  sc.ps                 = 0;
  sc.message_overhead_s = 1e-3;
  double got            = simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps"),
                                                         tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc))
                   .step_time_mean_s;
  EXPECT_NEAR(got, 0.256, 0.256 * 1e-6);
  sc.ring_mode = RingMode::STREAM; // one simulated message pays its own; the other 5 are added
  got          = simulate_isolated(
                     tiny::inputs(tiny::star_platform(4, "1GBps"), tiny::one_tensor_workload("100MB", "50ms", "50ms"), sc))
            .step_time_mean_s;
  EXPECT_NEAR(got, 0.256, 0.256 * 1e-6);
}

namespace {
// Eq. (37) per node count with only the linear branch (threshold 1 byte) and a constant time: a2 = 0, b2 = t.
AllreduceTimeFit constant_fit(int nodes, double t_s)
{
  return AllreduceTimeFit{nodes, {0, 0, 1, 0, t_s}, 0, 0, 0, {}};
}

double measured_step(int k, std::vector<AllreduceTimeFit> fits, int tensors = 1,
                     std::vector<AllreduceTimeFit> queued = {}, int lanes = 2, RingMode mode = RingMode::STEPS)
{
  Scenario sc              = tiny::scenario(Arch::RING, k, Sharing::FAIR, false, 3, 1);
  sc.ps                    = 0;
  sc.ring_mode             = mode;
  sc.measured_allreduce    = !fits.empty();
  sc.measured_node_window  = 1; // each node count's own fits; the default pools three (measured_node_counts_test)
  sc.allreduce_time        = std::move(fits);
  sc.allreduce_queued_time = std::move(queued);
  sc.collectives_in_flight = lanes;
  sc.allreduce_unit        = AllreduceUnit::TENSOR;
  const std::string model  = tensors == 1 ? tiny::one_tensor_workload("100MB", "50ms", "50ms")
                                          : tiny::layered_workload(tensors, "100MB", "25ms", "25ms");
  return simulate_isolated(tiny::inputs(tiny::star_platform(k, "1GBps"), model, sc)).step_time_mean_s;
}
} // namespace

TEST(RingTopologies, MeasuredAllreduceAddsItsSoftwareCostToTheNetwork)
{
  // 100 MB tensors, 0.1 s of compute, no overlap. One all-reduce takes 2(K-1)/K x 0.1 s on the network alone
  // (0.15 s at K = 4, 0.175 s at K = 8). Measured all-reduces: 0.05 s at 2 nodes, 0.45 s at 6 (docs/models.md
  // §10.7); what they exceed the network by is a software cost of the call, spread over its steps.
  const std::vector<AllreduceTimeFit> fits = {constant_fit(2, 0.05), constant_fit(6, 0.45)};
  // (One tensor and two lanes: the second lane has no unit and must still follow the steps; it once spun at time 0.)
  EXPECT_NEAR(measured_step(4, {}), 0.25, 0.25 * 1e-6);
  // K = 4 lies halfway between the node counts measured: 0.25 s, so 0.1 s beyond the network's 0.15 s.
  EXPECT_NEAR(measured_step(4, fits), 0.35, 0.35 * 1e-6);
  // K = 8 lies beyond the largest node count measured: the excess at 6 nodes (0.45 - 0.1667 s) plus, for each of its
  // 4 steps more, the software cost per step the node counts show (0 at 2 nodes, 0.2833 s at 6: 0.2833 s over 8
  // steps): 0.2833 + 4 x 0.2833 / 8 = 0.425 s, beside 0.175 s of network and 0.1 s of compute.
  EXPECT_NEAR(measured_step(8, fits), 0.7, 0.7 * 1e-6);
  // The excess is paid before each of the 2(K - 1) steps' messages; stream mode, which has no steps, pays them all
  // first: a call alone lasts its measured time either way.
  EXPECT_NEAR(measured_step(4, fits, 1, {}, 2, RingMode::STREAM), 0.35, 0.35 * 1e-6);
  // A measured time below the network's changes nothing: no negative cost.
  EXPECT_NEAR(measured_step(4, {constant_fit(2, 0.01), constant_fit(6, 0.01)}), 0.25, 0.25 * 1e-6);
  // Two all-reduces in flight share the links (0.3 s for both) and each pays its 0.1 s of software cost at once:
  // 0.1 + 0.1 + 0.3 s. A floor (max of network and measured) would give 0.1 + 0.3 s: contention would hide the cost.
  EXPECT_NEAR(measured_step(4, fits, 2), 0.5, 0.5 * 1e-6);
}

TEST(RingTopologies, BeyondTheNodeCountsMeasuredEachStepMorePaysTheSoftwareCostPerStep)
{
  // Measured at 2, 4 and 6 nodes with an excess over the network of 10 ms per ring step (2(K-1) steps) and 20 ms per
  // call: T = network + 0.02 + 0.01 x 2(K-1). At K = 4 that is what the fit gives; at K = 8 and K = 16, beyond the
  // node counts measured, the same line (docs/models.md §10.7): a calibration on a few nodes predicts a larger ring.
  const auto fit = [](int k) { return constant_fit(k, 2.0 * (k - 1) / k * 0.1 + 0.02 + 0.01 * 2 * (k - 1)); };
  const std::vector<AllreduceTimeFit> fits = {fit(2), fit(4), fit(6)};
  for (const int k : {4, 8, 16}) {
    const double expected = 0.1 + 2.0 * (k - 1) / k * 0.1 + 0.02 + 0.01 * 2 * (k - 1);
    EXPECT_NEAR(measured_step(k, fits), expected, expected * 1e-6) << k << " workers";
  }
  // An excess that falls with K (noise of a few node counts) is no negative cost per step: K = 8 keeps 6 nodes' excess.
  const std::vector<AllreduceTimeFit> falling = {constant_fit(2, 0.3), constant_fit(6, 0.25)};
  EXPECT_NEAR(measured_step(8, falling), 0.1 + 0.175 + (0.25 - 2.0 * 5 / 6 * 0.1), 0.35 * 1e-6);
  // Two calls back to back beyond the range (docs/models.md §10.8): the pair's excess at 6 nodes, 2 T_q - 2 x the
  // bytes' 0.1667 s (no latency here), plus, for each call, 4 steps more at the per-step cost the back-to-back table
  // shows per call (T_q beyond the network: 0.1 s at 2 nodes, 0.2333 s at 6, 0.01667 s per step); then both calls
  // share the links for 2 x 0.175 s.
  const std::vector<AllreduceTimeFit> queued = {constant_fit(2, 0.2), constant_fit(6, 0.4)};
  const double excess_6                      = 2 * 0.4 - 2 * 2.0 * 5 / 6 * 0.1;
  const double slope                         = ((0.4 - 2.0 * 5 / 6 * 0.1) - (0.2 - 0.1)) / 8;
  const double expected                      = 0.1 + excess_6 + 2 * 4 * slope + 2 * 0.175;
  EXPECT_NEAR(measured_step(8, fits, 2, queued), expected, expected * 1e-6);
}

TEST(RingTopologies, QueuedMeasurementSetsTheTimeOfCallsRunTogether)
{
  // As above, K = 4: alone a call is measured at 0.25 s (0.1 s beyond the network's 0.15 s). Back to back, two at
  // a time, the microbenchmark gives T_q per call, so two calls started together last 2 T_q each; the network, which
  // they share, takes 2 x 0.15 s of it (docs/models.md §10.8).
  const std::vector<AllreduceTimeFit> alone = {constant_fit(2, 0.05), constant_fit(6, 0.45)};
  // T_q = 0.25 s: each call pays 2 x 0.25 - 0.3 = 0.2 s, then both share the links for 0.3 s: 0.1 + 0.2 + 0.3 s.
  const std::vector<AllreduceTimeFit> slow = {constant_fit(2, 0.25), constant_fit(6, 0.25)};
  EXPECT_NEAR(measured_step(4, alone, 2, slow), 0.6, 0.6 * 1e-6);
  // T_q = 0.1 s, below what the shared network takes per call: no software cost at all (0.1 + 0.3 s), where the
  // single-call measurement alone would add 0.1 s to each.
  const std::vector<AllreduceTimeFit> fast = {constant_fit(2, 0.1), constant_fit(6, 0.1)};
  EXPECT_NEAR(measured_step(4, alone, 2, fast), 0.4, 0.4 * 1e-6);
  EXPECT_NEAR(measured_step(4, alone, 2), 0.5, 0.5 * 1e-6);
  // A call with no other under way pays the single-call measurement: one tensor, or one lane.
  EXPECT_NEAR(measured_step(4, alone, 1, slow), 0.35, 0.35 * 1e-6);
  EXPECT_NEAR(measured_step(4, alone, 2, slow, 1), 0.1 + 2 * 0.25, 0.6 * 1e-6);
}

// K = 4, two tensors of different sizes whose gradients exist at once (no overlap), two lanes: 100 MB (0.15 s of
// bytes on the network) and 1 MB (0.0015 s). Measured back to back: T_q = 0.05 s + 3 ns per byte per call, so the
// 100 MB call's T_q is 0.35 s, 0.2 s beyond its bytes, and the 1 MB call's 0.053 s, 0.0515 s beyond its bytes; each
// call alone at `alone_s`. Returns the step's time under the rule `cost`.
namespace {
double two_sizes_step(InFlightCost cost, double alone_s)
{
  const std::string plat = tiny::star_platform(4, "1GBps");
  const std::string two  = tiny::write_file(
       "two_sizes.xml", "<workload name=\"two\" batch=\"32\" device=\"test\" reference_speed=\"1Gf\" ps_update=\"0s\">\n"
                         "  <layer name=\"small\" fwd=\"25ms\" bwd=\"25ms\"><tensor name=\"s\" size=\"1MB\"/></layer>\n"
                         "  <layer name=\"big\" fwd=\"25ms\" bwd=\"25ms\"><tensor name=\"b\" size=\"100MB\"/></layer>\n"
                         "</workload>\n");
  const auto linear        = [](int nodes) { return AllreduceTimeFit{nodes, {0, 0, 1, 3e-9, 0.05}, 0, 0, 0, {}}; };
  Scenario sc              = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 3, 1);
  sc.ps                    = 0;
  sc.measured_allreduce    = true;
  sc.measured_node_window  = 1;
  sc.allreduce_time        = {constant_fit(2, alone_s), constant_fit(6, alone_s)};
  sc.allreduce_queued_time = {linear(2), linear(6)};
  sc.collectives_in_flight = 2;
  sc.allreduce_unit        = AllreduceUnit::TENSOR;
  sc.in_flight_cost        = cost;
  return simulate_isolated(tiny::inputs(plat, two, sc)).step_time_mean_s;
}
} // namespace

TEST(RingTopologies, ACallBesideOneOfAnotherSizePaysEachOnesBackToBackTime)
{
  // two_sizes_step, the calls alone at 0.25 s. --in-flight-cost each (docs/models.md §10.8 "Calls of different
  // sizes"): each call pays its own and the other's, 0.2515 s, so the 100 MB call ends at 0.1 + 0.2515 + 0.15 s (plus
  // at most half the 1 MB call's bytes, where they share the links). --in-flight-cost same (every call in flight
  // taken as the size of this one): the 100 MB call pays 2 x 0.2 s and ends at 0.1 + 0.4 + 0.15 s. (With T_q the
  // same at every size the two rules agree.) paired: alone is below the 100 MB call's T_q, no gain to keep, as each.
  const double each = 0.1 + (0.35 - 0.15) + (0.053 - 0.0015) + 0.15;
  EXPECT_NEAR(two_sizes_step(InFlightCost::EACH, 0.25), each + 0.00075, 0.00075 + 1e-6);
  const double same = 0.1 + 2 * (0.35 - 0.15) + 0.15;
  EXPECT_NEAR(two_sizes_step(InFlightCost::SAME, 0.25), same + 0.00075, 0.00075 + 1e-6);
  EXPECT_NEAR(two_sizes_step(InFlightCost::PAIRED, 0.25), each + 0.00075, 0.00075 + 1e-6);
}

TEST(RingTopologies, ACallBesideAShorterOneKeepsTheGainItsPartnerDoesNotCover)
{
  // two_sizes_step with the calls alone at 0.6 s: the 100 MB call gains 0.6 - 0.35 = 0.25 s back to back over alone.
  // --in-flight-cost paired (docs/models.md §10.8 "A call beside shorter ones"): the 1 MB call beside it lasts
  // T_q(1 MB) / T_q(100 MB) = 0.053 / 0.35 of its time back to back, so the 100 MB call keeps (1 - 0.053 / 0.35) x
  // 0.25 s of its time alone on top of what each charges; the 1 MB call, beside a longer one, pays as with each.
  // The step is the 100 MB call's end.
  const double each   = 0.1 + (0.35 - 0.15) + (0.053 - 0.0015) + 0.15;
  const double kept_s = (1 - 0.053 / 0.35) * (0.6 - 0.35);
  EXPECT_NEAR(two_sizes_step(InFlightCost::EACH, 0.6), each + 0.00075, 0.00075 + 1e-6);
  EXPECT_NEAR(two_sizes_step(InFlightCost::PAIRED, 0.6), each + kept_s + 0.00075, 0.00075 + 1e-6);
}
