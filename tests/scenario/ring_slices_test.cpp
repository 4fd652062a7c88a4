// Ring chunks in slices (--ring-slice, --ring-slices-in-flight; the NCCL profiles' 1 MiB and 4; docs/models.md
// §10.10): each ring connection is a stream of slices, each forwarded once it has arrived, the route latency paid by
// each slice while the next ones are already on their way. Closed forms on a 4-host star, 1 GB/s per NIC, ideal
// network (no bandwidth factor, no ACK traffic): one 16 MiB all-reduce, chunks of 4 MiB, slices of 1 MiB (tau =
// 1.048576 ms on a link), 6 steps.
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include "common/allreduce_time.hpp"
#include "sim/collectives.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
constexpr double kB     = 1e9;
constexpr double kChunk = 4.0 * 1024 * 1024;
constexpr double kTau   = 1024.0 * 1024 / kB;

double step_s(const std::string& link_latency, double slice_bytes, int in_flight, const std::string& tensor = "16MiB",
              Collective collective = Collective::RING, int workers = 4, int min_per_step = 1)
{
  Scenario sc                 = tiny::scenario(Arch::RING, workers, Sharing::FAIR, false, 2, 1);
  sc.ps                       = 0;
  sc.collective               = collective;
  sc.ring_slice_bytes         = slice_bytes;
  sc.ring_slices_in_flight    = in_flight;
  sc.ring_min_slices_per_step = min_per_step;
  if (collective == Collective::HIERARCHICAL)
    sc.gpus_per_node = 2;
  return simulate_isolated(tiny::inputs(tiny::star_platform(workers, "1GBps", link_latency),
                                        tiny::one_tensor_workload(tensor, "0s", "0s"), sc))
      .step_time_mean_s;
}
} // namespace

TEST(RingSlices, WholeChunksPayTheLatencyAtEachStep)
{
  // Store and forward: 6 x (lambda + chunk / B), lambda = 2 x 0.25 ms.
  EXPECT_NEAR(step_s("0.25ms", 0, 1), 6 * (0.5e-3 + kChunk / kB), 1e-9);
}

TEST(RingSlices, SlicesPayTheLatencyOnce)
{
  // Slice j of a step leaves once slice j of the step before has arrived: 3 slices later on the connection (3 tau =
  // 3.1 ms >= lambda = 0.5 ms), and 4 in flight cover the credits' round trip (3 tau >= 2 lambda): the connection
  // never idles. 6 chunks back to back, then the last slice's latency.
  EXPECT_NEAR(step_s("0.25ms", 1024.0 * 1024, 4), 6 * kChunk / kB + 0.5e-3, 1e-9);
  EXPECT_LT(step_s("0.25ms", 1024.0 * 1024, 4), step_s("0.25ms", 0, 1));
}

TEST(RingSlices, AFullWindowWaitsForCredits)
{
  // lambda = 10 ms: 4 slices in flight, then slice m waits for slice m - 4's credit, one round trip after it
  // ended: each group of 4 slices starts tau + 2 lambda after the one before. 24 slices: the last starts at
  // 3 tau + 5 (tau + 2 lambda), ends tau later, arrives lambda after: 9 tau + 11 lambda. Slower than whole chunks
  // here (4 MiB per round trip of 20 ms: NCCL's buffers bound its rate over long routes).
  EXPECT_NEAR(step_s("5ms", 1024.0 * 1024, 4), 9 * kTau + 11 * 10e-3, 1e-9);
  // Whole chunks: SimGrid's own window bound (network/TCP-gamma, 4 MiB, over twice the route's latency: 210 MB/s)
  // caps each chunk's flow; a sliced ring's links carry no latency, the slices' credits bound it instead.
  const double gamma_rate = 4.0 * 1024 * 1024 / (2 * 10e-3);
  EXPECT_NEAR(step_s("5ms", 0, 1), 6 * (10e-3 + kChunk / gamma_rate), 1e-9);
}

TEST(RingSlices, ALargeWindowWaitsForTheStepBefore)
{
  // 64 in flight: only the data decides: slice m leaves lambda after slice m - 4 ended (the same slice of the step
  // before, arrived): groups of 4 start tau + lambda apart; the last arrives at 9 tau + 6 lambda.
  EXPECT_NEAR(step_s("5ms", 1024.0 * 1024, 64), 9 * kTau + 6 * 10e-3, 1e-9);
}

TEST(RingSlices, ChunksOfOneSliceAreWholeChunks)
{
  // 2 MiB over 4: chunks of 512 KiB, one slice each: forwarded once arrived, as without slices.
  const double chunk = 512.0 * 1024;
  EXPECT_NEAR(step_s("0.25ms", 1024.0 * 1024, 4, "2MiB"), 6 * (0.5e-3 + chunk / kB), 1e-9);
  EXPECT_NEAR(step_s("0.25ms", 0, 1, "2MiB"), 6 * (0.5e-3 + chunk / kB), 1e-9);
}

TEST(RingSlices, TwoSlicesPerChunkWaitACreditRoundTripAtEachStep)
{
  // Gloo's cut (--ring-min-slices 2): 2 MiB over 4, chunks of 512 KiB in two slices of 256 KiB (x = 0.262 ms), two in
  // flight, lambda = 0.5 ms. A step's first slice waits for the credit of the step before's first, issued when it
  // arrived: steps start x + 2 lambda apart; the last step's second slice ends 2x after its start and arrives lambda
  // later: 5 (x + 2 lambda) + 2x + lambda = 7x + 11 lambda, where one slice per step pays 6 (2x + lambda).
  const double x = 256.0 * 1024 / kB, lambda = 0.5e-3;
  EXPECT_NEAR(step_s("0.25ms", 1024.0 * 1024, 2, "2MiB", Collective::RING, 4, 2), 7 * x + 11 * lambda, 1e-9);
  EXPECT_NEAR(step_s("0.25ms", 1024.0 * 1024, 2, "2MiB", Collective::RING, 4, 1), 6 * (2 * x + lambda), 1e-9);
}

TEST(RingSlices, TheAloneRecurrenceIsWhatTheSimulationGives)
{
  // sliced_ring_alone_s, which the measured all-reduce's network time uses, against the simulated call alone: chunks
  // of one slice and of several, credits that bind (a window of 1, long routes, two slices per chunk) and that do not.
  // (A ring whose chunks all fit in one slice, with one per step, is not sliced: it pays whole chunks' latencies.)
  struct Case {
    const char* latency;
    double lambda_s;
    const char* tensor;
    double bytes;
    int window, min_per_step;
  };
  const Case cases[] = {
      {"0.25ms", 0.5e-3, "16MiB", 16.0 * 1024 * 1024, 4, 1}, {"5ms", 10e-3, "16MiB", 16.0 * 1024 * 1024, 4, 1},
      {"5ms", 10e-3, "16MiB", 16.0 * 1024 * 1024, 1, 1},     {"0.25ms", 0.5e-3, "16MiB", 16.0 * 1024 * 1024, 1, 1},
      {"0.25ms", 0.5e-3, "2MiB", 2.0 * 1024 * 1024, 2, 2},   {"0.25ms", 0.5e-3, "64KiB", 64.0 * 1024, 2, 3},
      {"5ms", 10e-3, "6MiB", 6.0 * 1024 * 1024, 3, 1}};
  for (const Case& c : cases) {
    const RingSlicing cut(c.bytes, 4, 1024.0 * 1024, c.min_per_step);
    EXPECT_NEAR(step_s(c.latency, 1024.0 * 1024, c.window, c.tensor, Collective::RING, 4, c.min_per_step),
                sliced_ring_alone_s(cut, c.window, cut.slice_bytes / kB, c.lambda_s, 0), 1e-8)
        << c.tensor << " window " << c.window << " at least " << c.min_per_step << " per step, lambda " << c.latency;
  }
}

TEST(RingSlices, WithoutLatencySlicesChangeNothing)
{
  EXPECT_NEAR(step_s("0s", 1024.0 * 1024, 4), 6 * kChunk / kB, 1e-9);
  EXPECT_NEAR(step_s("0s", 1024.0 * 1024, 4), step_s("0s", 0, 1), 1e-9);
}

TEST(RingSlices, TheHierarchicalLeadersRingIsSliced)
{
  // 8 workers, 2 per node: the 4 leaders' ring runs in slices and ends sooner than with whole chunks over 10 ms
  // routes (the phases inside a node lose their link latency too in a sliced run, docs/models.md §10.10).
  const double sliced = step_s("5ms", 1024.0 * 1024, 64, "16MiB", Collective::HIERARCHICAL, 8);
  const double whole  = step_s("5ms", 0, 1, "16MiB", Collective::HIERARCHICAL, 8);
  EXPECT_LT(sliced, whole);
}

TEST(RingSlices, AMeasuredAllreduceLastsItsMeasuredTime)
{
  // A measured all-reduce (docs/models.md §10.7) pays what the microbenchmark measured beyond the network's own time;
  // alone, a call then lasts its measured time whatever the network model. In a sliced run the network's time is
  // (43) for a chunk of several slices (16 MiB: 6 x 4 MiB / B + lambda) and 6 (lambda + chunk / B) for a chunk of
  // one (2 MiB): measured at 50 ms each, one step of the two all-reduces (no compute, one at a time) takes 100 ms.
  const std::string model =
      tiny::write_file("two-sizes.xml", R"(<workload name="two" batch="1" device="none" reference_speed="1Gf">
  <layer name="a" fwd="0" bwd="0"><tensor name="a" size="16MiB"/></layer>
  <layer name="b" fwd="0" bwd="0"><tensor name="b" size="2MiB"/></layer>
</workload>
)");
  Scenario sc              = tiny::scenario(Arch::RING, 4, Sharing::FAIR, false, 2, 1);
  sc.ps                    = 0;
  sc.allreduce_unit        = AllreduceUnit::TENSOR;
  sc.ring_slice_bytes      = 1024.0 * 1024;
  sc.ring_slices_in_flight = 4;
  const AllreduceTimeFit at_50ms_2{2, {0, 0, 1, 0, 0.05}, 0, 0, 0, {}}, at_50ms_6{6, {0, 0, 1, 0, 0.05}, 0, 0, 0, {}};
  sc.measured_allreduce   = true;
  sc.measured_node_window = 1; // each node count's own fits (the default pools three: measured_node_counts_test)
  sc.allreduce_time       = {at_50ms_2, at_50ms_6};
  EXPECT_NEAR(simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps", "0.25ms"), model, sc)).step_time_mean_s,
              0.1, 1e-9);
  // Where the credits bind (one slice in flight; Gloo's two slices per chunk) the network's time is the sliced steps'
  // as they run alone (sliced_ring_alone_s), credits' round trips included: still 100 ms, not more.
  for (const auto& [window, min_per_step] : {std::pair{1, 1}, std::pair{2, 2}}) {
    sc.ring_slices_in_flight    = window;
    sc.ring_min_slices_per_step = min_per_step;
    EXPECT_NEAR(simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps", "0.25ms"), model, sc)).step_time_mean_s,
                0.1, 1e-9)
        << "window " << window << ", at least " << min_per_step << " per step";
  }
  // With measured sizes (docs/models.md §10.7 "The large sizes as measured") a call from the first of them on lasts
  // the rows' time, not the line's: 16 MiB measured at 80 ms, 2 MiB interpolated between 1 MiB's 50 ms and it,
  // 50 + 30 / 15 = 52 ms; one step 132 ms.
  sc.ring_slices_in_flight         = 4;
  sc.ring_min_slices_per_step      = 1;
  const std::vector<SizeTime> rows = {{1024.0 * 1024, 0.05}, {16 * 1024.0 * 1024, 0.08}};
  sc.allreduce_time                = {AllreduceTimeFit{2, {0, 0, 1, 0, 0.05}, 0, 0, 0, rows},
                                      AllreduceTimeFit{6, {0, 0, 1, 0, 0.05}, 0, 0, 0, rows}};
  EXPECT_NEAR(simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps", "0.25ms"), model, sc)).step_time_mean_s,
              0.132, 1e-9);
  // As `run` takes them (--measured-sizes on): the 2 ms the rows add above the line are paid as a slower rate of the
  // call's bytes, not before its steps; the call alone lasts the same (to 1e-8: a flow carries whole bytes, so each
  // scaled slice loses under one, 1 ns at 1 GB/s).
  sc.measured_sizes = true;
  EXPECT_NEAR(simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps", "0.25ms"), model, sc)).step_time_mean_s,
              0.132, 1e-8);
  // Rows of this node count below the network's own time (the NIC fitted on every node count is slower than this
  // one's calls ran): the bytes move at the rows' rate and the call lasts the rows' time, 16 MiB measured at 22 ms
  // where the network alone takes more than 6 x 4 MiB / B + lambda = 25.4 ms.
  const std::string one =
      tiny::write_file("one-size.xml", R"(<workload name="one" batch="1" device="none" reference_speed="1Gf">
  <layer name="a" fwd="0" bwd="0"><tensor name="a" size="16MiB"/></layer>
</workload>
)");
  const std::vector<SizeTime> fast = {{1024.0 * 1024, 0.002}, {16 * 1024.0 * 1024, 0.022}};
  sc.allreduce_time                = {AllreduceTimeFit{4, {0, 0, 1, 0, 0.01}, 0, 0, 0, fast}};
  EXPECT_NEAR(simulate_isolated(tiny::inputs(tiny::star_platform(4, "1GBps", "0.25ms"), one, sc)).step_time_mean_s,
              0.022, 1e-8);
}
