// `sgdsim platform`: SimGrid platforms of N nodes written with SimGrid's compact <cluster> tag (README "Generated
// platforms"), so that 4,096 nodes load in well under a second. No SimGrid engine needed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sgdsim {

enum class Topology { STAR, RING, FAT_TREE, MULTI_GPU };

Topology parse_topology(const std::string& word);
const char* to_string(Topology t);

struct PlatformSpec {
  int nodes         = 0;
  Topology topology = Topology::STAR;
  std::string nic   = "10Gbps";          // each node's link to the fabric, full duplex
  std::string flow_cap;                  // per-flow cap (a FATPIPE backbone); empty: none (star and multi-gpu only)
  std::string latency       = "25us";    // per link
  std::string speed         = "15.7Tf";  // per node, or per GPU of a multi-GPU node
  int gpus_per_node         = 1;         // multi-gpu: cores of a host, one worker each
  std::string intra_node    = "150GBps"; // multi-gpu: transfers between two GPUs of a node (a loopback link)
  std::string intra_latency = "1us";
  int leaf_size             = 16; // fat-tree: nodes per leaf switch
  int oversubscription      = 1;  // fat-tree: leaf down-links per up-link
  std::string price_per_hour_usd; // empty: none
  /** More properties of every host, (id, value), e.g. sgdsim.message_overhead from `sgdsim calibrate -o`. */
  std::vector<std::pair<std::string, std::string>> host_props;
  std::string prefix = "node-";
  std::string command; // recorded in the file's comment
};

/** The platform as XML text. Throws InputError naming the option on a bad value (e.g. a unit-less bandwidth, a
 *  fat-tree whose nodes are not a multiple of the leaf size, a flow cap on a ring). Deterministic. */
std::string generate_platform_xml(const PlatformSpec& spec);

} // namespace sgdsim
