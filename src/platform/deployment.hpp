// Which host runs which worker and parameter server (docs/design.md "Deployment"): read from a SimGrid deployment
// file, checked by sgdsim itself (SimGrid 3.32 aborts on an unknown host: docs/design.md, SimGrid fact 5), or placed
// automatically on the platform's hosts. Pure functions of host lists: no SimGrid engine needed.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** A platform host as seen by the placement: its name and its optional "role" property ("ps" or "worker"). */
struct HostInfo {
  std::string name;
  std::string role; // empty if the host has no role property
  int slots = 1;    // workers it can take in automatic placement: its core count (one worker per GPU or core)
};

struct Placement {
  std::vector<std::string> worker_hosts; // index = worker rank
  std::vector<std::string> ps_hosts;     // index = PS rank
};

/** Numeric-aware name order ("w2" < "w10"), the documented order of automatic placement. */
bool natural_less(const std::string& a, const std::string& b);

/** Reads a SimGrid deployment file: <actor host=H function="worker"|"ps"><argument value="RANK"/></actor>.
 *  Checks that every host is in `hosts`, every function is known, ranks are 0..n-1 without gaps or duplicates,
 *  at least one worker, and at least one PS for PS architectures (`needs_ps`) or none otherwise. Throws InputError
 *  naming FILE:LINE and the field. */
Placement read_deployment_file(const std::string& path, const std::vector<HostInfo>& hosts,
                               const std::string& platform_path, bool needs_ps = true);

/** Automatic placement (README "Deployment"): hosts in natural name order; if any host has a "role" property,
 *  PS ranks go to role="ps" hosts and worker ranks to role="worker" hosts; otherwise PS ranks take the first
 *  hosts and workers the next ones. A PS takes a whole host; a worker host takes `slots` consecutive worker ranks
 *  (a multi-GPU node). Throws InputError if the platform has too few hosts. */
Placement auto_placement(const std::vector<HostInfo>& hosts, int workers, int ps, const std::string& platform_path);

} // namespace sgdsim
