// Input limits of issue #21 (classes 8 and 9): background files that would flood SimGrid's event queue or give one
// resource two profiles, and runs whose actors would not fit the machine, are refused before SimGrid starts.
#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "platform/background.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sys/resource.h>

using namespace sgdsim;

namespace {
std::string background_error(const std::string& name, const std::string& body)
{
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << "<background>\n" << body << "</background>\n";
  try {
    read_background_file(path);
  } catch (const InputError& e) {
    return std::string(e.what()).substr(path.size());
  }
  return "no error";
}
} // namespace

TEST(InputLimits, BackgroundGivesEachResourceOneProfile)
{
  EXPECT_EQ(background_error("twice.xml", "<host name='h1'><at time='0s' speed='0.5'/></host>\n"
                                          "<host name='h1'><at time='1s' speed='0.7'/></host>\n"),
            ":3: <host name='h1'>: host 'h1' already has a profile (line 2): give each resource one element, with all "
            "its <at> steps");
  // A NIC in both directions is its uplink and its downlink; a host's speed and its NIC are different resources.
  EXPECT_NE(background_error("nic.xml", "<nic host='h1'><at time='0s' bandwidth='0.5'/></nic>\n"
                                        "<nic host='h1' direction='down'><at time='1s' bandwidth='0.7'/></nic>\n")
                .find(":3: <nic>: the downlink of host 'h1' already has a profile (line 2)"),
            std::string::npos);
  EXPECT_EQ(background_error("distinct.xml", "<host name='h1'><at time='0s' speed='0.5'/></host>\n"
                                             "<nic host='h1'><at time='0s' bandwidth='0.5'/></nic>\n"),
            "no error");
}

TEST(InputLimits, BackgroundChangesPerSecondAreBounded)
{
  // 2 steps every 20 us: 100,000 changes per simulated second, the limit itself; one more element passes it.
  const std::string at = "<at time='0s' speed='0.5'/><at time='10us' speed='1'/>";
  EXPECT_EQ(background_error("limit.xml", "<host name='h1' repeat='20us'>" + at + "</host>\n"), "no error");
  EXPECT_NE(
      background_error("flood.xml", "<host name='h1' repeat='20us'>" + at + "</host>\n<host name='h2' repeat='1s'>" +
                                        at + "</host>\n")
          .find(":3: <host name='h2'>: attribute 'repeat': '1s' makes, with the repeating elements before it, 100002 "
                "background changes per simulated second, more than the 100000"),
      std::string::npos);
  EXPECT_NE(background_error("tiny.xml", "<host name='h1'><at time='0s' speed='0.0001'/></host>\n")
                .find("must be a fraction of the nominal rate in [0.001, 1000]"),
            std::string::npos);
}

TEST(InputLimits, ActorsMustFitTheMachine)
{
  Scenario ring;
  ring.arch                  = Arch::RING;
  ring.workers               = 1024;
  ring.ps                    = 0;
  ring.collectives_in_flight = 2;
  EXPECT_EQ(max_actors(ring), 1024 * 4 + 16);
  Scenario ps;
  ps.arch    = Arch::PS_SYNC;
  ps.workers = 128;
  ps.ps      = 2;
  EXPECT_EQ(max_actors(ps), 128 * 7 + 2 + 16);
  EXPECT_NO_THROW(check_actors_fit(1000, 8 << 20, "--workers 500"));
  // A petabyte of actors fits no machine.
  try {
    check_actors_fit(1e11, 8 << 20, "--workers 262144 --ps 262144");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--workers 262144 --ps 262144: up to 100000000000 SimGrid actors need about"),
              std::string::npos)
        << e.what();
  }
}
