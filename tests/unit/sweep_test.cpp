// The sweep's pieces that need no simulation: worker lists, the plan, and the CSV built from run documents.
#include "cli/sweep_plan.hpp"
#include "common/input_error.hpp"
#include "common/text_file.hpp"
#include "report/sweep_table.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
std::string list_error(const std::string& text)
{
  try {
    parse_int_list("--workers", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The fields of a `sgdsim run --json` document that the CSV reads.
nlohmann::ordered_json run_doc(const std::string& arch, int workers, double throughput)
{
  nlohmann::ordered_json j;
  j["inputs"]    = {{"platform", "platforms/p.xml"},
                    {"arch", arch},
                    {"workers", workers},
                    {"ps", arch == "ring" ? 0 : 1},
                    {"overlap", true},
                    {"sharing", "fair"},
                    {"collective", "ring"},
                    {"fusion_buffer_bytes", 0.0},
                    {"ada_fusion", false}};
  j["workload"]  = {{"name", "w"}, {"batch", 32}};
  j["simulated"] = {{"sharing", "fair"},
                    {"throughput_examples_per_s", throughput},
                    {"step_time_mean_s", 1.0},
                    {"step_time_std_s", 0.0},
                    {"compute_s", 0.5},
                    {"comm_exposed_s", 0.25},
                    {"wait_s", 0.25},
                    {"cluster_price_per_hour_usd", 3.6 * (workers + 1)},
                    {"cost_usd_per_million_examples", nullptr}};
  j["analytic"]  = nlohmann::ordered_json::array();
  j["analytic"].push_back({{"model", "ps-async-mva-overlap"}, {"throughput_examples_per_s", 2 * throughput}});
  return j;
}

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    out.push_back(text.substr(start, end - start));
  return out;
}

} // namespace

TEST(SweepPlan, WorkerLists)
{
  EXPECT_EQ(parse_int_list("--workers", "1:4"), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_int_list("--workers", "1:64:x4"), (std::vector<int>{1, 4, 16, 64}));
  EXPECT_EQ(parse_int_list("--workers", "4:13:4"), (std::vector<int>{4, 8, 12}));
  EXPECT_EQ(parse_int_list("--workers", "8,1,2:3,8"), (std::vector<int>{1, 2, 3, 8}));
  EXPECT_EQ(list_error("1:x"),
            "--workers '1:x': 'x' is not an integer (expected e.g. 1:32, 1:64:x2, 4:32:4 or 1,2,4,8)");
  EXPECT_EQ(list_error("0:4"), "--workers '0:4': 0 must be in [1, 262144]");
  EXPECT_EQ(list_error("8:4"), "--workers '8:4': '8:4' ends before it starts");
  EXPECT_EQ(list_error("1:8:x1"), "--workers '1:8:x1': '1:8:x1': a factor must be at least x2");
  EXPECT_EQ(list_error("1:2:3:4"), "--workers '1:2:3:4': '1:2:3:4' has more than three parts (FIRST:LAST[:STEP])");
}

TEST(SweepPlan, PointsAndTheirCommandLines)
{
  SweepPlan plan = make_sweep_plan({"ps-sync", "ring"}, {1, 2}, {1, 2}, {"--overlap", "off"});
  ASSERT_EQ(plan.points.size(), 6u); // ps-sync x {1, 2} PS x {1, 2} workers, ring x {1, 2} workers
  EXPECT_EQ(plan.points[0].id, "ps-sync_ps1_w1");
  EXPECT_EQ(plan.points[3].id, "ps-sync_ps2_w2");
  EXPECT_EQ(plan.points[5].id, "ring_w2");
  EXPECT_EQ(plan.points[3].args,
            (std::vector<std::string>{"--overlap", "off", "--arch", "ps-sync", "--workers", "2", "--ps", "2"}));
  EXPECT_EQ(plan.points[5].args, (std::vector<std::string>{"--overlap", "off", "--arch", "ring", "--workers", "2"}));
  SweepPlan back = plan_from_json(plan_json(plan), "plan.json");
  ASSERT_EQ(back.points.size(), plan.points.size());
  EXPECT_EQ(back.points[3].args, plan.points[3].args);
  EXPECT_THROW(parse_arch_list("ps-sync,ps-sync"), InputError);
  EXPECT_THROW(parse_arch_list("ps-sync,allreduce"), InputError);
  EXPECT_THROW(plan_from_json(nlohmann::ordered_json::object(), "plan.json"), InputError);
}

TEST(SweepTable, RowsEfficiencyCostAndAnalyticColumns)
{
  // ps-async at 1 and 4 workers: 100 and 300 examples/s: efficiency 300 / (4 x 100) = 0.75. Ring at 2 workers
  // only: no 1-worker point, so no efficiency.
  std::vector<SweepResult> results = {
      {"a1", run_doc("ps-async", 1, 100)}, {"a4", run_doc("ps-async", 4, 300)}, {"r2", run_doc("ring", 2, 500)}};
  std::vector<std::string> rows = lines(sweep_csv(results));
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> columns = sweep_csv_columns();
  auto col                               = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  std::vector<std::string> a1 = split_csv_line(rows[1]), a4 = split_csv_line(rows[2]), r2 = split_csv_line(rows[3]);
  ASSERT_EQ(a4.size(), columns.size());
  EXPECT_EQ(a4[col("series")], "ps-async, 1 PS");
  EXPECT_EQ(a1[col("scaling_efficiency")], "1");
  EXPECT_EQ(a4[col("scaling_efficiency")], "0.75");
  EXPECT_EQ(r2[col("scaling_efficiency")], "");
  EXPECT_EQ(a4[col("cluster_usd_per_hour")], "18");
  EXPECT_EQ(a4[col("ps-async-mva-overlap_examples_per_s")], "600");
  EXPECT_EQ(a4[col("ps-sync-fair_examples_per_s")], "");
  EXPECT_EQ(r2[col("sharing")], "");
  EXPECT_EQ(primary_model(results[0].run), "ps-async-mva-overlap");
  EXPECT_EQ(primary_model(results[2].run), "osf");
}

TEST(TextFile, CsvLinesSplitOnUnquotedCommas)
{
  EXPECT_EQ(split_csv_line("a,\"b, c\",,d\r"), (std::vector<std::string>{"a", "b, c", "", "d"}));
  EXPECT_EQ(split_csv_line("\"say \"\"hi\"\"\",x"), (std::vector<std::string>{"say \"hi\"", "x"}));
  EXPECT_EQ(split_csv_line(""), (std::vector<std::string>{""}));
}
