// One test per kind of input error (docs/design.md "Tests"): the exact FILE:LINE, the element, the field and the value.
#include "common/input_error.hpp"
#include "common/scenario.hpp"
#include "platform/deployment.hpp"
#include "sim/isolated_run.hpp"
#include "support/tiny.hpp"
#include "workload/workload_parser.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

namespace {
const std::string kBad = SGDSIM_TEST_DATA "/bad/";

std::string workload_error(const std::string& file)
{
  try {
    parse_workload_file(kBad + file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string deployment_error(const std::string& file)
{
  std::vector<HostInfo> hosts = {{"h0", ""}, {"h1", ""}, {"h2", ""}};
  try {
    read_deployment_file(kBad + file, hosts, "tiny.xml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A run of the sampled workload on `platform_path` with fair sharing: the setup of the checks that need a loaded
// platform.
SimInputs sampled_inputs(const std::string& platform_path, int workers = Scenario{}.workers)
{
  SimInputs in;
  in.platform_path    = platform_path;
  in.workload         = parse_workload_file(SGDSIM_TEST_DATA "/sampled_workload.xml");
  in.scenario.workers = workers;
  in.scenario.sharing = Sharing::FAIR;
  return in;
}
} // namespace

TEST(BadWorkload, MissingAttribute)
{
  EXPECT_EQ(workload_error("missing_attribute.xml"),
            kBad + "missing_attribute.xml:4: <tensor name='conv1.weight'>: missing attribute 'size'");
}

TEST(BadWorkload, NegativeTime)
{
  EXPECT_EQ(workload_error("negative_time.xml"),
            kBad + "negative_time.xml:4: <layer name='fc'>: attribute 'bwd': '-0.4ms' is negative");
}

TEST(BadWorkload, UnknownUnit)
{
  EXPECT_EQ(workload_error("unknown_unit.xml"),
            kBad + "unknown_unit.xml:4: <tensor name='fc.weight'>: attribute 'size': '4.1MB/s' has an unknown unit "
                   "(use B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

TEST(BadWorkload, ValueWithoutUnit)
{
  EXPECT_EQ(workload_error("no_unit.xml"), kBad + "no_unit.xml:3: <layer name='conv1'>: attribute 'fwd': '1.5' has "
                                                  "no unit (use ns, us, ms, s, m, h)");
}

TEST(BadWorkload, DuplicateLayerName)
{
  EXPECT_EQ(workload_error("duplicate_layer.xml"),
            kBad + "duplicate_layer.xml:5: <layer name='conv1'>: duplicate layer name (first defined at line 3)");
}

TEST(BadWorkload, DuplicateTensorName)
{
  EXPECT_EQ(workload_error("duplicate_tensor.xml"),
            kBad + "duplicate_tensor.xml:5: <tensor name='w'>: duplicate tensor name (first defined at line 3)");
}

TEST(BadWorkload, EmptyModel)
{
  EXPECT_EQ(workload_error("empty_model.xml"),
            kBad + "empty_model.xml:2: <workload name='m'>: the model is empty (no <layer>)");
}

TEST(BadWorkload, ModelWithoutTensors)
{
  EXPECT_EQ(
      workload_error("no_tensors.xml"),
      kBad + "no_tensors.xml:2: <workload name='m'>: the model has no parameter tensors (no <tensor> in any <layer>)");
}

TEST(BadWorkload, UnknownElementListsKnownOnes)
{
  EXPECT_EQ(workload_error("unknown_element.xml"), kBad +
                                                       "unknown_element.xml:5: <param name='x'>: unknown element "
                                                       "<param> inside <layer name='conv1'> (known: tensor, sample)");
}

TEST(BadWorkload, UnknownAttributeListsKnownOnes)
{
  EXPECT_EQ(workload_error("unknown_attribute.xml"),
            kBad + "unknown_attribute.xml:3: <layer name='fc'>: unknown attribute 'bwd_time' (known: name, fwd, bwd)");
}

TEST(BadWorkload, MalformedXml)
{
  EXPECT_EQ(workload_error("broken.xml"), kBad + "broken.xml:5: XML: Start-end tags mismatch");
}

TEST(BadWorkload, ZeroSizeTensor)
{
  EXPECT_EQ(workload_error("zero_size.xml"),
            kBad + "zero_size.xml:3: <tensor name='w'>: attribute 'size': '0B' must be at least 1 byte");
}

TEST(BadWorkload, NonIntegerBatch)
{
  EXPECT_EQ(workload_error("bad_batch.xml"),
            kBad + "bad_batch.xml:2: <workload name='m'>: attribute 'batch': '3x2' is not an integer");
}

TEST(BadWorkload, TimesAndSamplesTogether)
{
  EXPECT_EQ(workload_error("times_and_samples.xml"),
            kBad + "times_and_samples.xml:3: <layer name='fc'>: give either the attributes 'fwd' and 'bwd' or "
                   "<sample> elements, not both");
}

TEST(BadWorkload, WrongRootElement)
{
  EXPECT_EQ(workload_error("wrong_root.xml"),
            kBad + "wrong_root.xml:2: <platform>: unexpected root element (expected <workload>)");
}

TEST(BadWorkload, MissingFile)
{
  EXPECT_EQ(workload_error("does_not_exist.xml"),
            kBad + "does_not_exist.xml: cannot read the file: No such file or directory");
}

TEST(BadDeployment, UnknownHostListsTheHosts)
{
  EXPECT_EQ(deployment_error("deploy_unknown_host.xml"),
            kBad + "deploy_unknown_host.xml:5: <actor>: attribute 'host': 'h9' is not a host of tiny.xml (hosts: h0, "
                   "h1, h2)");
}

TEST(BadDeployment, UnknownFunction)
{
  EXPECT_EQ(deployment_error("deploy_unknown_function.xml"),
            kBad + "deploy_unknown_function.xml:4: <actor>: attribute 'function': 'wroker' is not a known function "
                   "(valid: worker, ps)");
}

TEST(BadDeployment, DuplicateRank)
{
  EXPECT_EQ(deployment_error("deploy_duplicate_rank.xml"),
            kBad + "deploy_duplicate_rank.xml:5: <actor>: duplicate worker rank 0 (first at line 4)");
}

TEST(BadDeployment, RankGap)
{
  EXPECT_EQ(deployment_error("deploy_rank_gap.xml"),
            kBad + "deploy_rank_gap.xml:2: <platform>: the ranks of function 'worker' have a gap: rank 1 is missing "
                   "(ranks must be 0..1)");
}

TEST(BadDeployment, MissingRank)
{
  EXPECT_EQ(deployment_error("deploy_no_rank.xml"),
            kBad + "deploy_no_rank.xml:4: <actor>: needs exactly one <argument value=\"RANK\"/> (found 0)");
}

TEST(BadScenario, UnknownArchitectureListsValidOnes)
{
  try {
    parse_arch("ps_sync", "--arch");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--arch 'ps_sync': unknown architecture (valid: ps-async, ps-sync, ring)");
  }
}

// The checks that need a loaded platform run in the simulation's child process and come back as InputError.
TEST(BadScenario, DeploymentHostMissingFromPlatformIsAnErrorNotAnAbort)
{
  SimInputs in       = sampled_inputs(tiny::star_platform(3, "1GBps"));
  in.deployment_path = kBad + "deploy_unknown_host.xml";
  try {
    simulate_isolated(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), kBad +
                                         "deploy_unknown_host.xml:5: <actor>: attribute 'host': 'h9' is not a "
                                         "host of " +
                                         in.platform_path + " (hosts: h0, h1, h2)");
  }
}

TEST(BadScenario, TooManyWorkersForThePlatform)
{
  SimInputs in = sampled_inputs(tiny::star_platform(3, "1GBps"), 5);
  EXPECT_THROW(
      {
        try {
          simulate_isolated(in);
        } catch (const InputError& e) {
          EXPECT_EQ(std::string(e.what()), in.platform_path + ": --workers 5 --ps 1: the platform has only 3 hosts "
                                                              "(one per worker and per PS is needed)");
          throw;
        }
      },
      InputError);
}

TEST(BadScenario, PlatformUnitErrorIsSimGridsParseErrorWithFileAndLine)
{
  SimInputs in = sampled_inputs(kBad + "platform_bad_unit.xml", 1);
  try {
    simulate_isolated(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("platform_bad_unit.xml:7"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Gbit"), std::string::npos) << e.what();
  }
}

TEST(BadScenario, UnknownSimGridConfigItem)
{
  SimInputs in            = sampled_inputs(tiny::star_platform(2, "1GBps"), 1);
  in.scenario.simgrid_cfg = {"network/modle:CM02"};
  try {
    simulate_isolated(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--cfg 'network/modle:CM02'"), std::string::npos) << e.what();
  }
}

TEST(BadScenario, PriceThatIsNotANumber)
{
  std::vector<tiny::HostSpec> hosts(2);
  hosts[1].price = "3.06USD";
  SimInputs in   = sampled_inputs(tiny::star_platform(hosts), 1);
  try {
    simulate_isolated(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), in.platform_path + ":7: host 'h1': property price_per_hour_usd '3.06USD' is " +
                                         "not a non-negative number (USD per hour, e.g. 3.06)");
  }
}
