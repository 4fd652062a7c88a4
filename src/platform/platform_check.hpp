// The numbers of a platform file, checked before SimGrid reads it (issue #21, classes 2, 4, 9 and 10): SimGrid takes
// a bandwidth of 0, NaN or infinity, a negative latency or a radical of millions without a word and then deadlocks,
// aborts, warns mid-run or exhausts memory. Read with pugixml, so that every error names FILE:LINE, the element and
// the attribute. What SimGrid itself checks at load time (a missing profile file, 0 cores) and routes are checked
// in the simulation process under a SimGridGuard (sim/simgrid_guard.hpp).
#pragma once

#include <string>

namespace sgdsim {

/** Platforms with more hosts are refused before loading: twice the largest the project targets (16,384 nodes of
 *  8 GPUs, README "What is simulated"). */
constexpr long kMaxPlatformHosts = 262144;
/** Zones nested deeper are refused: a real cloud has a handful of levels (region, datacenter, pod, rack, node);
 *  SimGrid's route search recurses once per level. */
constexpr int kMaxZoneDepth = 64;

/** Throws InputError naming FILE:LINE on the first bad number: a speed, bandwidth, latency or core count that is
 *  missing its unit, negative, NaN or infinite; a speed or bandwidth of 0; a core count below 1; a radical that is
 *  malformed or takes the platform beyond kMaxPlatformHosts; zones nested beyond kMaxZoneDepth. */
void check_platform_numbers(const std::string& platform_path);

} // namespace sgdsim
