// src/sim/ring_cost.hpp: how many chunk messages a steps-mode ring run simulates, and the warning before a run that
// would simulate so many that it takes hours: on a platform whose ring edges differ (a fat-tree: some edges cross
// the spine) the step replay (docs/design.md "Ring step replay") does not apply, and every one of the 2(K - 1)K
// chunks of every all-reduce is a SimGrid comm.
#pragma once

#include "common/scenario.hpp"
#include "workload/grad_units.hpp"
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace sgdsim {

/** The chunk messages a steps-mode ring run of `sc` simulates where no step is replayed, over its warm-up and
 *  measured steps: per all-reduce of B bytes among the K members of the ring 2(K - 1)K chunks, each cut over
 *  `sockets` connections and, in a `sliced` run, into max(ceil(B / K / slice), the least slices per step) slices.
 *  `units`: one step's all-reduces (plan_grad_units); with fusion decided during the run, buffers of the fusion
 *  size instead. 0 for a PS run, stream mode, or a collective other than the ring (or the hierarchical one's
 *  ring of leaders). */
double ring_steps_messages(const Workload& wl, const Scenario& sc, const std::vector<GradUnit>& units, int sockets,
                           bool sliced);

/** Why a steps-mode ring run of `sc` replays no step, from the scenario alone, for people; empty when the scenario
 *  lets the RingDriver replay (its own static conditions, RingDriver::replay_refusal, may still refuse).
 *  `platform_changes`: a background file or a profile in the platform. */
std::string ring_replay_refusal(const Scenario& sc, bool sliced, bool platform_changes);

/** Above this many simulated chunk messages simulate() warns before the engine starts: at the 5.5 us of wall time
 *  each that a 1,024-worker ring on a generated fat-tree took on the project's 2-core development machine (31 M
 *  chunks in 170 s, 2026-11-29), 2e7 are about two minutes. */
constexpr double kRingMessagesWarning = 2e7;

/** The warning's line (without "sgdsim: warning: "): the count, the ring's size, why no step is replayed and what
 *  to do instead. */
std::string ring_cost_warning(double messages, int members, const std::string& why_not_replayed);

} // namespace sgdsim
