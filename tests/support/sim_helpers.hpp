// Building SimInputs for scenario tests; every simulation goes through simulate_isolated (one engine per
// process, docs/design.md, SimGrid fact 1), so the test process itself never creates a SimGrid engine.
#pragma once

#include "common/scenario.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

#include <map>
#include <string>
#include <utility>

namespace sgdsim::tiny {

inline SimInputs inputs(const std::string& platform, const std::string& workload, const Scenario& sc, bool ideal = true)
{
  SimInputs in;
  in.platform_path = platform;
  in.workload      = parse_workload_file(workload);
  in.scenario      = sc;
  if (ideal)
    in.scenario.simgrid_cfg = ideal_network_cfg();
  return in;
}

inline Scenario scenario(Arch arch, int workers, Sharing sharing, bool overlap, int steps = 4, int warmup = 1)
{
  Scenario sc;
  sc.arch    = arch;
  sc.workers = workers;
  sc.ps      = 1;
  sc.sharing = sharing;
  sc.overlap = overlap;
  sc.steps   = steps;
  sc.warmup  = warmup;
  return sc;
}

/** A steps-mode ring of `workers` with overlap, 3 steps after 1 warm-up, under network/optim:Full (which the ring
 *  dispatcher and its step replay need). */
inline Scenario steps_ring(int workers)
{
  Scenario sc    = scenario(Arch::RING, workers, Sharing::FAIR, true, 3, 1);
  sc.ps          = 0;
  sc.ring_mode   = RingMode::STEPS;
  sc.simgrid_cfg = {"network/optim:Full"};
  return sc;
}

/** Worker 0's all-reduce calls in `in`'s timeline (the simulation is run with its timeline on), by the event's name
 *  (the tensor's or the unit's): each call's start and end, in seconds. */
inline std::map<std::string, std::pair<double, double>> worker0_allreduce_calls_s(SimInputs in)
{
  in.timeline = true;
  std::map<std::string, std::pair<double, double>> calls;
  for (const TimelineEvent& e : simulate_isolated(in).timeline)
    if (e.track == "worker 0" && e.resource == "allreduce")
      calls[e.name] = {e.start_s, e.end_s};
  return calls;
}

} // namespace sgdsim::tiny
