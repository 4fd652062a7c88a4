#include "support/tiny.hpp"

#include "platform/platform_generator.hpp"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace sgdsim::tiny {

namespace {
// The folder's path lives in the object that removes it, so it cannot be destroyed first (static order).
struct TempFolder {
  std::string path;
  pid_t owner = ::getpid();
  ~TempFolder()
  {
    // Children of simulate_isolated exit with _exit and never get here; only the owner cleans.
    if (!path.empty() && ::getpid() == owner)
      std::filesystem::remove_all(path);
  }
} folder;
std::atomic<int> counter{0};
} // namespace

std::string temp_dir()
{
  if (folder.path.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sgdsim-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed");
    folder.path = tmpl;
  }
  return folder.path;
}

std::string write_file(const std::string& name, const std::string& content)
{
  std::string path = temp_dir() + "/" + std::to_string(counter++) + "-" + name;
  std::ofstream(path) << content;
  return path;
}

std::string fat_tree_platform(int nodes, int leaf)
{
  PlatformSpec s;
  s.nodes     = nodes;
  s.topology  = Topology::FAT_TREE;
  s.nic       = "1GBps";
  s.latency   = "5us";
  s.speed     = "1Tf";
  s.leaf_size = leaf;
  return write_file("fat-tree.xml", generate_platform_xml(s));
}

std::string deployment(const std::vector<std::string>& ps_hosts, const std::vector<std::string>& worker_hosts)
{
  // Appends only: GCC 12 warns falsely on "literal" + std::string (-Wrestrict, GCC PR105329).
  std::string x = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n";
  auto actor    = [&x](const std::string& host, const char* function, std::size_t index) {
    x.append("  <actor host=\"").append(host).append("\" function=\"").append(function);
    x.append("\"><argument value=\"").append(std::to_string(index)).append("\"/></actor>\n");
  };
  for (std::size_t r = 0; r < ps_hosts.size(); r++)
    actor(ps_hosts[r], "ps", r);
  for (std::size_t w = 0; w < worker_hosts.size(); w++)
    actor(worker_hosts[w], "worker", w);
  x.append("</platform>\n");
  return write_file("deploy.xml", x);
}

std::string star_platform(const std::vector<HostSpec>& hosts, const std::string& latency, const std::string& flow_cap)
{
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\">\n<zone id=\"star\" routing=\"Full\">\n";
  for (std::size_t i = 0; i < hosts.size(); i++) {
    x += "  <host id=\"h" + std::to_string(i) + "\" speed=\"" + hosts[i].speed + "\"";
    if (hosts[i].price.empty())
      x += "/>\n";
    else
      x += "><prop id=\"price_per_hour_usd\" value=\"" + hosts[i].price + "\"/></host>\n";
    x += "  <link id=\"nic" + std::to_string(i) + "\" bandwidth=\"" + hosts[i].nic + "\" latency=\"" +
         (hosts[i].latency.empty() ? latency : hosts[i].latency) + "\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  }
  if (!flow_cap.empty())
    x += "  <link id=\"cap\" bandwidth=\"" + flow_cap + "\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>\n";
  for (std::size_t i = 0; i < hosts.size(); i++)
    for (std::size_t j = 0; j < hosts.size(); j++) {
      if (i == j)
        continue;
      x += "  <route src=\"h" + std::to_string(i) + "\" dst=\"h" + std::to_string(j) + "\" symmetrical=\"NO\">";
      x += "<link_ctn id=\"nic" + std::to_string(i) + "\" direction=\"UP\"/>";
      if (!flow_cap.empty())
        x += "<link_ctn id=\"cap\"/>";
      x += "<link_ctn id=\"nic" + std::to_string(j) + "\" direction=\"DOWN\"/></route>\n";
    }
  x += "</zone>\n</platform>\n";
  return write_file("star.xml", x);
}

std::string star_platform(int n_hosts, const std::string& nic, const std::string& latency, const std::string& flow_cap)
{
  return star_platform(std::vector<HostSpec>(static_cast<std::size_t>(n_hosts), HostSpec{"1Gf", nic}), latency,
                       flow_cap);
}

std::string one_tensor_workload(const std::string& size, const std::string& fwd, const std::string& bwd,
                                const std::string& ps_update, const std::string& reference_speed)
{
  return write_file("one_tensor.xml",
                    "<workload name=\"one\" batch=\"32\" device=\"test\" reference_speed=\"" + reference_speed +
                        "\" ps_update=\"" + ps_update + "\">\n  <layer name=\"l0\" fwd=\"" + fwd + "\" bwd=\"" + bwd +
                        "\">\n    <tensor name=\"w\" size=\"" + size + "\"/>\n  </layer>\n</workload>\n");
}

std::string layered_workload(int layers, const std::string& size, const std::string& fwd, const std::string& bwd,
                             const std::string& ps_update)
{
  std::string x = "<workload name=\"layered\" batch=\"32\" device=\"test\" reference_speed=\"1Gf\" ps_update=\"" +
                  ps_update + "\">\n";
  for (int l = 0; l < layers; l++)
    x += "  <layer name=\"l" + std::to_string(l) + "\" fwd=\"" + fwd + "\" bwd=\"" + bwd + "\"><tensor name=\"w" +
         std::to_string(l) + "\" size=\"" + size + "\"/></layer>\n";
  return write_file("layered.xml", x + "</workload>\n");
}

std::vector<HostSpec> uneven_hosts(int n_hosts)
{
  std::vector<HostSpec> hosts;
  for (int h = 0; h < n_hosts; h++)
    hosts.push_back(HostSpec{h % 2 == 0 ? "1Gf" : "0.5Gf", h % 3 == 0 ? "0.25GBps" : "1GBps", ""});
  return hosts;
}

std::string straggler_background(const std::string& name)
{
  return write_file(name, "<background>\n"
                          "  <host name=\"h2\"><at time=\"0.03s\" speed=\"0.4\"/></host>\n"
                          "  <nic host=\"h3\"><at time=\"0.02s\" bandwidth=\"0.3\"/></nic>\n"
                          "</background>\n");
}

} // namespace sgdsim::tiny
