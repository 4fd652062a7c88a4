// src/sim/ring_cost.cpp: see ring_cost.hpp.

#include "sim/ring_cost.hpp"

#include "sim/ring_driver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sgdsim {

double ring_steps_messages(const Workload& wl, const Scenario& sc, const std::vector<GradUnit>& units, int sockets,
                           bool sliced)
{
  if (sc.is_ps() || sc.ring_mode != RingMode::STEPS ||
      (sc.collective != Collective::RING && sc.collective != Collective::HIERARCHICAL))
    return 0;
  const double members = static_cast<double>(sc.workers / sc.ring_stride());
  if (members < 2)
    return 0;
  const auto per_allreduce = [&](double bytes) {
    double slices = 1;
    if (sliced && sc.ring_slice_bytes > 0)
      slices = std::max(std::ceil(bytes / members / sc.ring_slice_bytes), double(sc.ring_min_slices_per_step));
    return 2 * (members - 1) * members * std::max(1, sockets) * slices;
  };
  double per_step = 0;
  if (sc.fusion_at_run_time()) { // buffers of the fusion size, the last one the rest
    const double model  = wl.model_bytes();
    const double buffer = sc.fusion_buffer_bytes > 0 ? std::min(sc.fusion_buffer_bytes, model) : model;
    per_step            = std::ceil(model / buffer) * per_allreduce(buffer);
  } else
    for (const GradUnit& u : units)
      per_step += per_allreduce(u.bytes);
  return per_step * (sc.steps + sc.warmup);
}

std::string ring_replay_refusal(const Scenario& sc, bool sliced, bool platform_changes)
{
  if (sliced)
    return "its chunks travel in slices (docs/models.md §10.10), each simulated";
  std::string why;
  if (!ring_replay_applies(sc, &why))
    return why;
  if (platform_changes)
    return "the platform changes during the run (--background, or a profile in the platform)";
  return "";
}

std::string ring_cost_warning(double messages, int members, const std::string& why_not_replayed)
{
  char count[32];
  std::snprintf(count, sizeof count, "%.2g", messages);
  return std::string("this steps-mode ring of ") + std::to_string(members) + " members simulates about " + count +
         " chunk messages, some microseconds of wall time each (2(K - 1)K per all-reduce): the step replay, which "
         "simulates 2K, does not apply because " +
         (why_not_replayed.empty() ? std::string("of the run's conditions") : why_not_replayed) +
         " (docs/design.md \"Ring step replay\"); --ring-mode stream simulates one flow per ring edge";
}

} // namespace sgdsim
