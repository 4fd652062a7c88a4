// Building SimInputs for scenario tests; every simulation goes through simulate_isolated (one engine per
// process, docs/design.md, SimGrid fact 1), so the test process itself never creates a SimGrid engine.
#pragma once

#include "common/scenario.hpp"
#include "sim/isolated_run.hpp"
#include "workload/workload_parser.hpp"

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

} // namespace sgdsim::tiny
