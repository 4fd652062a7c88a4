// --timeline FILE: the operations of the measured steps as a Chrome trace-event JSON (README "Timeline"),
// openable in Perfetto (ui.perfetto.dev) or chrome://tracing: one process per worker and PS, one thread per
// resource (compute, downlink, uplink, allreduce, update).
#pragma once

#include "sim/sim_result.hpp"

#include <nlohmann/json.hpp>

namespace sgdsim {

/** The trace-event document: "X" (complete) events with ts and dur in microseconds, and "M" metadata events naming
 *  the processes and threads. Deterministic: events in the order the simulation recorded them. */
nlohmann::ordered_json chrome_trace(const SimResult& result);

} // namespace sgdsim
