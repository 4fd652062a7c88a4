// The checks of what sgdsim hands SimGrid besides --cfg (issue #21): --log values (check_log_value) and the file
// the tracing --cfg items make SimGrid write (simgrid_trace_file). The malformed values are the bad_input suite's
// (tests/bad_input/cases/simgrid_outputs.txt); here, what must pass, and the list of sgdsim's own log categories.
#include "cli/options.hpp"
#include "common/input_error.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace sgdsim;

TEST(LogValue, AcceptsWhatSimGridReads)
{
  for (const char* ok :
       {"sgdsim_worker.thresh:debug", "sgdsim.threshold=VERBOSE", "root.t:info", "xbt_cfg.thres:warning",
        "ker_actor.thresh:critical", "sgdsim_ps.add:off", "sgdsim.additivity:YES", "no_loc",
        "sgdsim.fmt:[%10.3r]%e%c/%p:%e%m%n", "sgdsim.fmt:%%%.m%l%L%F%M%h%P%t%i%d", "sgdsim_ring.app:file:ring.log",
        "root.appender:rollfile:4096:roll.log"})
    EXPECT_NO_THROW(check_log_value(ok)) << ok;
}

TEST(LogValue, SplitsAtSpacesAndNamesTheFiles)
{
  std::vector<std::string> files;
  const std::vector<std::string> settings =
      check_log_value("  sgdsim.thresh:debug   sgdsim.app:file:a.log root.app:rollfile:10:dir/b:c.log ", &files);
  EXPECT_EQ(settings, (std::vector<std::string>{"sgdsim.thresh:debug", "sgdsim.app:file:a.log",
                                                "root.app:rollfile:10:dir/b:c.log"}));
  EXPECT_EQ(files, (std::vector<std::string>{"a.log", "dir/b:c.log"}));
  EXPECT_EQ(log_setting_file("root.app:rollfile:10:dir/b:c.log"), "dir/b:c.log");
  EXPECT_EQ(log_setting_with_file("root.app:rollfile:10:dir/b:c.log", "x.tmp"), "root.app:rollfile:10:x.tmp");
  EXPECT_EQ(log_setting_with_file("sgdsim.thresh:debug", "x.tmp"), "sgdsim.thresh:debug");
}

TEST(LogValue, RefusesWhatSimGridIgnoresOrAbortsOn)
{
  for (const char* bad : {"nosuch.thresh:debug", "sgdsim.thresh:loud", "sgdsim.thresh:none", "sgdsim.fmt:%Z",
                          "sgdsim.fmt:%", "sgdsim.fmt:%-5p", "sgdsim.fmt:%99999m", "sgdsim.add:2",
                          "sgdsim.app:telegraph", "sgdsim.app:splitfile:10:a%", "sgdsim.app:rollfile:10",
                          "sgdsim.app:file:", "sgdsim.x:1", "sgdsim", "", "sgdsim.thresh:debug sgdsim.fmt:'%m %n'"})
    EXPECT_THROW(check_log_value(bad), InputError) << bad;
}

// Every log category sgdsim defines (XBT_LOG_NEW_* in src/) is one --log accepts: the list in cli/options.cpp must
// follow the sources.
TEST(LogValue, KnowsEverySgdsimCategory)
{
  const std::regex def(R"(XBT_LOG_NEW_(?:DEFAULT_)?(?:SUB)?CATEGORY\(\s*([A-Za-z0-9_]+))");
  int found = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(SGDSIM_SOURCE_DIR) + "/src")) {
    if (e.path().extension() != ".cpp" && e.path().extension() != ".hpp")
      continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator m(s.begin(), s.end(), def), end; m != end; ++m, found++)
      EXPECT_NO_THROW(check_log_value((*m)[1].str() + ".thresh:info")) << e.path() << ": " << (*m)[1].str();
  }
  EXPECT_GE(found, 5);
}

TEST(TraceFile, FollowsTheTracingItemsInOrder)
{
  EXPECT_EQ(simgrid_trace_file({"network/model:CM02"}), "");
  EXPECT_EQ(simgrid_trace_file({"tracing:yes"}), "simgrid.trace");
  EXPECT_EQ(simgrid_trace_file({"tracing/filename:a.trace", "tracing:on"}), "a.trace");
  EXPECT_EQ(simgrid_trace_file({"tracing:1", "tracing/filename:a.trace", "tracing:no"}), "");
  EXPECT_EQ(simgrid_trace_file({"tracing/filename:a.trace"}), "");
  EXPECT_THROW(simgrid_trace_file({"tracing:yes", "tracing/filename:"}), InputError);
  EXPECT_THROW(simgrid_trace_file({"tracing:yes", "tracing/comment-file:/nonexistent/comment.txt"}), InputError);
}
