// The numbers of a platform file, checked before SimGrid reads it (issue #21, classes 2, 4, 9 and 10): SimGrid takes
// a bandwidth of 0, NaN or infinity, a negative latency or a radical of millions without a word and then deadlocks,
// aborts, warns mid-run or exhausts memory. Read with pugixml, so that every error names FILE:LINE, the element and
// the attribute. What SimGrid itself checks at load time (a missing profile file, 0 cores) and routes are checked
// in the simulation process under a SimGridGuard (sim/simgrid_guard.hpp).
#pragma once

#include "common/limits.hpp" // kMaxPlatformHosts: platforms with more hosts are refused before loading

#include <string>

namespace sgdsim {

/** The slowest host speed and link bandwidth a platform may give (issue #21, classes 3 and 10). A slower one is a
 *  typo or a unit mistake, not a device: 1 Mflop/s is slower than any processor sold since the 1990s (a ResNet-50 step
 *  of 15.7 Tflop/s x 87 ms would take 16 days), 1 kbit/s than a 1980s telephone modem. Far below them,
 *  SimGrid's solver takes the rates for 0 (maxmin/precision) and ends the run in a deadlock. */
constexpr double kMinSpeed_flops   = 1e6;
constexpr double kMinBandwidth_Bps = 125;
/** Zones nested deeper are refused: a real cloud has a handful of levels (region, datacenter, pod, rack, node);
 *  SimGrid's route search recurses once per level. */
constexpr int kMaxZoneDepth = 64;

/** Throws InputError naming FILE:LINE on the first bad number: a speed, bandwidth, latency or core count that is
 *  missing its unit, negative, NaN or infinite; a speed or bandwidth below kMinSpeed_flops or kMinBandwidth_Bps; a
 *  core count outside [1, kMaxWorkers]; a radical that is malformed or takes the platform beyond kMaxPlatformHosts;
 *  zones nested beyond kMaxZoneDepth. */
void check_platform_numbers(const std::string& platform_path);

} // namespace sgdsim
