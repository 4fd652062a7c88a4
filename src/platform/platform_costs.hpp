// Software costs that a calibrated platform carries (README "Calibration", docs/models.md §9.2 and §10.5):
// `sgdsim calibrate -o` records what the microbenchmarks measured beyond bandwidth and latency as properties
// <prop id="sgdsim.NAME" value="TIME"/> of the platform's hosts (a <cluster>'s props reach every host), and
// `sgdsim run --platform FILE` uses them wherever the command line does not give the option. Read with pugixml
// before any SimGrid engine starts, so that a bad value is an input error naming FILE:LINE.
#pragma once

#include "common/allreduce_time.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sgdsim {

/** The largest software cost per message byte sgdsim takes (--message-overhead-per-byte, the platform's
 *  sgdsim.message_overhead_per_byte): 1 us per byte is a transport of 1 MB/s, far below any framework's, so most
 *  likely a unit mistake. */
constexpr double kMaxMessageSPerByte = 1e-6;

struct PlatformCosts {
  std::optional<double> allreduce_overhead_s; // sgdsim.allreduce_overhead: per all-reduce call (--allreduce-overhead)
  std::optional<double> message_overhead_s;   // sgdsim.message_overhead: per message (--message-overhead)
  std::optional<double> message_s_per_byte;   // sgdsim.message_overhead_per_byte: PS (--message-overhead-per-byte)
  // sgdsim.allreduce_time: the all-reduce microbenchmark's eq. (37) per node count (docs/models.md §10.7), written by
  // `calibrate --kind allreduce -o` from several node counts; the value is "K:a1,b1,threshold,a2,b2,smallest K:..." in
  // seconds, seconds, bytes, seconds per byte, seconds, bytes (",smallest" optional). Increasing K; empty if absent.
  std::vector<AllreduceTimeFit> allreduce_time;
  // sgdsim.allreduce_queued_time: the same fits of the time per call of all-reduces launched back to back, run as
  // many at once as the framework runs (`calibrate --queued`, docs/models.md §10.8); same grammar; empty if absent.
  std::vector<AllreduceTimeFit> allreduce_queued_time;
  // sgdsim.nccl_sockets: the connections NCCL's socket transport opens per peer on this platform's NICs (its
  // NCCL_NSOCKS_PERTHREAD x NCCL_SOCKET_NTHREADS, which it chooses by the NIC's vendor: 16 on AWS, 4 on GCP, 1
  // elsewhere; docs/models.md §10.9), an integer in [1, 64]; used by the NCCL framework profiles' rings.
  std::optional<int> nccl_sockets;
  // sgdsim.nic_factor: the NICs' bandwidth over the rate a flow's data were measured at (`calibrate -o`: 1 / 0.97 for
  // LV08's factor, times 1.05 for an all-reduce calibration's ACKs; docs/models.md §10.7). The analytic models read B
  // as the route's bottleneck over it, the measured rate, where the simulation reads the NIC. A plain number in
  // [1, kMaxNicFactor].
  std::optional<double> nic_factor;
  // sgdsim.models_latency, sgdsim.models_allreduce_overhead: where the platform's route latency is the one measured
  // apart (`calibrate --kind allreduce --latency`), eq. (41)'s alpha (per message, the whole route) and c fitted over
  // every node count, which the analytic models take for their per-message and per-call costs (they have no measured
  // excess per node count to hold the software; docs/models.md §10.7 "The route's latency, measured apart").
  std::optional<double> models_latency_s;
  std::optional<double> models_allreduce_overhead_s;
  // sgdsim.shared_cores: the all-reduce microbenchmark's ranks all ran on one machine of this many cores (an emulated
  // cluster, `calibrate --shared-cores`), so its software cost per ring step grew with the ranks per core
  // (docs/models.md §10.7, "Ranks sharing cores"); an integer in [1, Scenario::kMaxSharedCores].
  std::optional<int> shared_cores;
};

/** The largest sgdsim.nic_factor taken: calibrate writes at most 1.05 / 0.97 = 1.083; a NIC twice the measured rate
 *  would hide more than SimGrid's factors, most likely a mistake. */
constexpr double kMaxNicFactor = 2;

/** The text of sgdsim.allreduce_time (or _queued_time) for `fits` (round-trips through read_platform_costs to 9
 * digits). */
std::string format_allreduce_time(const std::vector<AllreduceTimeFit>& fits);

/** The sgdsim.* properties of `platform_path`. Every occurrence of a property must carry the same value (one number
 *  for the whole platform); an unknown sgdsim.* name, a value without a time unit, a negative or non-finite value
 *  is an InputError naming FILE:LINE, and so are a file that is not XML and a root element other than <platform>. */
PlatformCosts read_platform_costs(const std::string& platform_path);

} // namespace sgdsim
