// Background load (README "Background traffic and stragglers"): time-varying availability of hosts' compute
// speed and of links' bandwidth, as SimGrid profiles. Parsed here (pure); applied by the simulation.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

struct AvailabilityStep {
  double time_s   = 0; // from this simulated time on...
  double fraction = 1; // ...this fraction of the nominal speed or bandwidth is available (> 0)
};

struct AvailabilityProfile {
  enum class Target { HOST, LINK, NIC_UP, NIC_DOWN } target = Target::HOST;
  std::string name;     // host name (HOST, NIC_*) or SimGrid link name (LINK)
  double repeat_s = -1; // the steps repeat with this period (the profile's length); negative: no repetition
  std::vector<AvailabilityStep> steps;
  int line = 0;
  /** The profile in SimGrid's trace format ("TIME VALUE" per line). */
  std::string simgrid_trace() const;
};

/** The most changes per simulated second that the repeating profiles of a background file may make together: one
 *  per 10 us on average. Each costs SimGrid about what a message does (a re-solve of the shared resources), and
 *  SimGrid handles 0.3-0.65 million of those per second of wall time (bench/README.md), so the background alone
 *  costs at most about 0.3 s of wall time per simulated second; a period of nanoseconds would flood the event queue
 *  and never end. */
constexpr double kMaxBackgroundEventsPerSecond = 1e5;

/** Reads a background file:
 *    <background>
 *      <host name="p3-3" repeat="10s"> <at time="0s" speed="1"/> <at time="2s" speed="0.5"/> </host>
 *      <nic host="p3-0" direction="up|down|both"> <at time="1s" bandwidth="0.6"/> </nic>
 *      <link name="cluster_link_3_UP"> <at time="0s" bandwidth="0.8"/> </link>
 *    </background>
 *  Times strictly increasing within a profile, fractions in [1e-3, 1e3], one element per host and per link (a
 *  <nic direction="both"> counts for both of its links), repeating profiles within kMaxBackgroundEventsPerSecond.
 *  Throws InputError naming FILE:LINE. */
std::vector<AvailabilityProfile> read_background_file(const std::string& path);

} // namespace sgdsim
