// Framework profiles (README "Frameworks", docs/models.md §10): the defaults with which a framework moves
// gradients, each value cited to the framework's own source, so that a user names the framework instead of knowing
// that Horovod fuses 128 MiB or that Gloo runs two collectives at once. Explicit options override a profile.
#pragma once

#include "common/scenario.hpp"

#include <string>
#include <vector>

namespace sgdsim {

struct FrameworkProfile {
  const char* name;
  const char* summary; // one line for --help and the run report
  bool for_ring;       // a profile of decentralized (ring) training, or of parameter servers
  // Ring profiles:
  AllreduceUnit unit; // TENSOR, LAYER, BUCKET or FUSION
  double bucket_bytes;
  double first_bucket_bytes;
  double fusion_buffer_bytes; // FUSION only
  double fusion_timeout_s;    // FUSION only
  int collectives_in_flight;
  bool nccl; // its collectives run on NCCL, which opens the platform's sgdsim.nccl_sockets per peer (§10.9)
  // The ring's slices and slices in flight per connection (§10.10; 0: whole chunks).
  double ring_slice_bytes;
  int ring_slices_in_flight;
  // PS profiles:
  Sharing sharing;           // how concurrent transfers share the PS's NIC
  double message_s_per_byte; // software cost per byte of each PS message between hosts (docs/models.md §10.5)
  double receive_s_per_byte; // per byte of a process's one receive thread, serial across its connections (§10.5)
};

/** Every profile, in the order of --help: ring profiles ("none" first), then PS profiles ("none" first). */
const std::vector<FrameworkProfile>& framework_profiles();

/** The profile named `name` for the ring (`ring` true) or the PS architectures; throws
 *  InputError("<context> '<name>': unknown framework for ARCH (valid: ...)"). */
const FrameworkProfile& find_framework(const std::string& name, bool ring, const std::string& context);

/** Sets the scenario's defaults from `profile` (ring: its unit, bucket and fusion sizes, cycle time and collectives
 *  in flight; PS: its link sharing and per-byte message and receive costs) and records its name; options the user gave
 * are applied after this. */
void apply_framework(const FrameworkProfile& profile, Scenario& sc);

} // namespace sgdsim
