// libFuzzer harness: a deployment file (docs/fuzzing.md), read against a fixed platform whose host names are those
// of the shipped and test deployments, once for a PS architecture and once for the ring.
#include "fuzz_support.hpp"
#include "platform/deployment.hpp"

using namespace sgdsim;

namespace {
std::vector<HostInfo> known_hosts()
{
  std::vector<HostInfo> hosts;
  for (const char* prefix : {"h", "p3-", "p3x8-", "g4dn-", "d430-", "node-", "ps-"})
    for (int i = 0; i < 40; i++)
      hosts.push_back({prefix + std::to_string(i), "", 1});
  return hosts;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::vector<HostInfo> hosts = known_hosts();
  const std::string path                   = fuzz::write_scratch_file("deployment.xml", fuzz::as_text(data, size));
  for (bool needs_ps : {true, false})
    fuzz::expect_input_errors_only([&] {
      const Placement p = read_deployment_file(path, hosts, "platform.xml", needs_ps);
      if (p.worker_hosts.empty() || p.ps_hosts.empty() != !needs_ps)
        fuzz::finding("an accepted deployment without workers, or with parameter servers where none may be");
    });
  return 0;
}
