// How a run's gradients and messages travel, from the options that say it: the framework profile and what overrides
// it (README "Frameworks"), the software costs (docs/models.md §10.5-§10.8) and a calibrated platform's, and the
// ring's transport (§10.9, §10.10). Part of `sgdsim run`'s option parsing (options.cpp calls these in this order).
#pragma once

#include "cli/options.hpp"
#include "common/scenario.hpp"

#include <boost/program_options/variables_map.hpp>

namespace sgdsim {

/** The ring's gradient synchronization: the --framework profile, then the options that override it (unit, buckets,
 *  fusion, collectives in flight). Throws InputError on a bad value or a combination that does not apply. */
void parse_gradient_sync(const boost::program_options::variables_map& vm, Scenario& sc);

/** --fusion-batches, and what tensor fusion's batching excludes (--ada-fusion, the timeout with scheduled). */
void parse_fusion_batches_option(const boost::program_options::variables_map& vm, Scenario& sc);

/** The per-message and per-byte software costs, the sharing weights and the coupling of a NIC's two directions. */
void parse_software_costs(const boost::program_options::variables_map& vm, Scenario& sc);

/** A calibrated platform's software costs (README "Calibration"), where the command line gives none. */
void apply_platform_costs(const boost::program_options::variables_map& vm, RunOptions& opts);

/** The ring's transport: sockets per peer, slices, and how the measured all-reduce applies. Runs after
 *  apply_platform_costs, whose measured all-reduce it checks. */
void parse_ring_transport(const boost::program_options::variables_map& vm, RunOptions& opts);

} // namespace sgdsim
