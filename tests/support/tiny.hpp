// Tiny platforms and workloads for scenario tests (docs/design.md "Tests"): written to a temporary folder as real
// XML files, so the tests go through the same loaders as users.
#pragma once

#include <string>
#include <vector>

namespace sgdsim::tiny {

/** A fresh temporary folder, removed at the end of the test process. */
std::string temp_dir();

struct HostSpec {
  std::string speed   = "1Gf";
  std::string nic     = "1GBps"; // full duplex
  std::string price   = "";      // the host's price_per_hour_usd property; empty: none
  std::string latency = "";      // its NIC link's latency; empty: the star's
};

/** A star: every host has its own NIC link to one non-blocking switch (SimGrid Full routing, explicit routes
 *  NIC_src(up) [cap] NIC_dst(down)). `flow_cap` (e.g. "10Gbps") adds a FATPIPE link on every route, which limits
 *  each flow without flows competing on it (docs/design.md, SimGrid fact 8). Hosts are named h0, h1, ... */
std::string star_platform(const std::vector<HostSpec>& hosts, const std::string& latency = "0s",
                          const std::string& flow_cap = "");
std::string star_platform(int n_hosts, const std::string& nic, const std::string& latency = "0s",
                          const std::string& flow_cap = "");

/** A generated fat-tree (sgdsim platform --topology fat-tree) of `nodes` hosts of 1 Tf, `leaf` per leaf switch,
 *  1 GB/s NICs and 5 us per link: hosts of one leaf are 2 links (10 us) apart, of two leaves 4 links (20 us) through
 *  the spine. Hosts are named node-0, node-1, ... */
std::string fat_tree_platform(int nodes, int leaf);

/** Hosts that alternate full and half speed (1 and 0.5 Gf), with NICs of 0.25 GB/s on every third host from h0 and
 *  1 GB/s elsewhere: members of a collective enter each call at different dates and transfers end at different
 *  dates. */
std::vector<HostSpec> uneven_hosts(int n_hosts);

/** A --background file (written under `name`) that slows host h2 to 40% from 0.03 s and h3's NIC to 30% from
 *  0.02 s: a straggler and NIC traffic that change mid-run. */
std::string straggler_background(const std::string& name);

/** Writes `content` to a new file in temp_dir() and returns its path. */
std::string write_file(const std::string& name, const std::string& content);

/** A deployment file: PS rank r on ps_hosts[r], worker w on worker_hosts[w]; returns its path. */
std::string deployment(const std::vector<std::string>& ps_hosts, const std::vector<std::string>& worker_hosts);

/** A workload of one layer with one tensor. */
std::string one_tensor_workload(const std::string& size, const std::string& fwd, const std::string& bwd,
                                const std::string& ps_update = "0s", const std::string& reference_speed = "1Gf");

/** A workload of `layers` layers, each with one tensor of `size` and the given times per layer. */
std::string layered_workload(int layers, const std::string& size, const std::string& fwd, const std::string& bwd,
                             const std::string& ps_update = "0s");

} // namespace sgdsim::tiny
