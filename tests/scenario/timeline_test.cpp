// --timeline (issue #7): every operation of every measured step is present once, with consistent times, and the
// Chrome trace has the structure Perfetto reads.
#include "report/timeline.hpp"
#include "support/sim_helpers.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>
#include <map>

using namespace sgdsim;

namespace {
// Appends instead of `"literal" + string`, which trips GCC 12's -Wrestrict false positive (GCC PR105329).
std::string cat(const char* a, const std::string& b)
{
  std::string r = a;
  r += b;
  return r;
}
} // namespace

TEST(Timeline, EveryOperationOfEveryMeasuredStepOnce)
{
  // 4 workers, Sync-PS with overlap, 3 layers of one tensor each, 2 warm-up + 3 measured steps.
  std::string plat = tiny::star_platform(5, "1GBps", "10us");
  SimInputs in     = tiny::inputs(plat, tiny::layered_workload(3, "10MB", "5ms", "10ms", "3ms"),
                                  tiny::scenario(Arch::PS_SYNC, 4, Sharing::FAIR, true, 3, 2), false);
  in.timeline      = true;
  SimResult r      = simulate_isolated(in);
  std::map<std::tuple<std::string, std::string, std::string, int>, int> seen;
  for (const TimelineEvent& e : r.timeline) {
    EXPECT_LE(e.start_s, e.end_s) << e.track << " " << e.name;
    EXPECT_LE(e.end_s, r.simulated_time_s + 1e-12);
    seen[{e.track, e.resource, e.name, e.step}]++;
  }
  for (int w = 0; w < 4; w++)
    for (int step = 2; step < 5; step++)
      for (int l = 0; l < 3; l++) {
        const std::string track = cat("worker ", std::to_string(w));
        const std::string layer = cat("l", std::to_string(l));
        const std::string t     = cat("w", std::to_string(l));
        EXPECT_EQ((seen[{track, "compute", cat("fwd ", layer), step}]), 1) << track << " step " << step << " " << layer;
        EXPECT_EQ((seen[{track, "compute", cat("bwd ", layer), step}]), 1) << track << " step " << step << " " << layer;
        EXPECT_EQ((seen[{track, "downlink", t, step}]), 1) << track << " step " << step << " " << t;
        EXPECT_EQ((seen[{track, "uplink", t, step}]), 1) << track << " step " << step << " " << t;
      }
  // 4 workers x 3 steps x (3 fwd + 3 bwd + 3 down + 3 up), plus the PS's updates of the measured window.
  int worker_events = 0;
  for (const TimelineEvent& e : r.timeline)
    worker_events += e.track.rfind("worker", 0) == 0 ? 1 : 0;
  EXPECT_EQ(worker_events, 4 * 3 * 12);
  EXPECT_GT(r.timeline.size(), static_cast<std::size_t>(worker_events)) << "PS updates of the window";

  // Chrome trace: metadata names every process, complete events carry ts/dur in microseconds.
  nlohmann::ordered_json trace = chrome_trace(r);
  int complete = 0, processes = 0;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X") {
      complete++;
      EXPECT_GE(e.at("dur").get<double>(), 0);
    } else if (e.at("name") == "process_name") {
      processes++;
    }
  }
  EXPECT_EQ(complete, static_cast<int>(r.timeline.size()));
  EXPECT_EQ(processes, 5); // 4 workers and the PS
}

TEST(Timeline, RingRecordsComputeAndAllReduces)
{
  Scenario sc  = tiny::scenario(Arch::RING, 4, Sharing::FAIR, true, 2, 1);
  sc.ps        = 0;
  SimInputs in = tiny::inputs(tiny::star_platform(4, "1GBps"), tiny::layered_workload(3, "10MB", "5ms", "10ms"), sc);
  in.timeline  = true;
  SimResult r  = simulate_isolated(in);
  std::map<std::string, int> per_resource;
  for (const TimelineEvent& e : r.timeline)
    per_resource[e.resource]++;
  // 4 workers x 2 steps: 6 computes and 3 all-reduces (one per layer, no fusion).
  EXPECT_EQ(per_resource["compute"], 4 * 2 * 6);
  EXPECT_EQ(per_resource["allreduce"], 4 * 2 * 3);
  // Without --timeline, nothing is recorded.
  in.timeline = false;
  EXPECT_TRUE(simulate_isolated(in).timeline.empty());
}
