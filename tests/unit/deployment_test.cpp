#include "common/input_error.hpp"
#include "platform/deployment.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

TEST(Deployment, NaturalOrderComparesNumbersAsNumbers)
{
  EXPECT_TRUE(natural_less("w2", "w10"));
  EXPECT_FALSE(natural_less("w10", "w2"));
  EXPECT_TRUE(natural_less("ps-9", "worker-0"));
  EXPECT_TRUE(natural_less("h1", "h1a"));
  EXPECT_FALSE(natural_less("h1", "h1"));
}

TEST(Deployment, AutoPlacementWithoutRolesPutsPsFirst)
{
  std::vector<HostInfo> hosts = {{"h10", ""}, {"h2", ""}, {"h1", ""}, {"h0", ""}};
  Placement p                 = auto_placement(hosts, 2, 1, "plat.xml");
  EXPECT_EQ(p.ps_hosts, (std::vector<std::string>{"h0"}));
  EXPECT_EQ(p.worker_hosts, (std::vector<std::string>{"h1", "h2"}));
}

TEST(Deployment, AutoPlacementFollowsRoles)
{
  std::vector<HostInfo> hosts = {{"worker-10", "worker"}, {"worker-2", "worker"}, {"ps-0", "ps"}, {"ps-1", "ps"}};
  Placement p                 = auto_placement(hosts, 2, 2, "plat.xml");
  EXPECT_EQ(p.ps_hosts, (std::vector<std::string>{"ps-0", "ps-1"}));
  EXPECT_EQ(p.worker_hosts, (std::vector<std::string>{"worker-2", "worker-10"}));
}

TEST(Deployment, AutoPlacementNamesTheShortage)
{
  std::vector<HostInfo> hosts = {{"worker-0", "worker"}, {"ps-0", "ps"}};
  try {
    auto_placement(hosts, 3, 1, "plat.xml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "plat.xml: --workers 3: the platform has only 1 hosts with role='worker'");
  }
  EXPECT_THROW(auto_placement({{"a", ""}, {"b", ""}}, 2, 1, "p.xml"), InputError);
  EXPECT_THROW(auto_placement({{"a", "gpu"}}, 1, 1, "p.xml"), InputError);
}

TEST(Deployment, ReadsRanksInAnyOrder)
{
  std::string path =
      tiny::write_file("d.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                                "  <actor host=\"h2\" function=\"worker\"><argument value=\"1\"/></actor>\n"
                                "  <actor host=\"h0\" function=\"ps\"><argument value=\"0\"/></actor>\n"
                                "  <actor host=\"h1\" function=\"worker\"><argument value=\"0\"/></actor>\n"
                                "</platform>\n");
  Placement p = read_deployment_file(path, {{"h0", ""}, {"h1", ""}, {"h2", ""}}, "plat.xml");
  EXPECT_EQ(p.worker_hosts, (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(p.ps_hosts, (std::vector<std::string>{"h0"}));
}
