// Framework profiles (README "Frameworks", docs/models.md §10): the defaults with which a framework moves
// gradients, each value cited to the framework's own source, so that a user names the framework instead of knowing
// that Horovod fuses 128 MiB or that Gloo runs two collectives at once. Explicit options override a profile.
#pragma once

#include "common/scenario.hpp"

#include <string>
#include <vector>

namespace sgdsim {

/** A profile: a name, a line of help and the values it sets. Every field not named in a profile's row keeps the
 *  default below, sgdsim's own ("none"), so that a row lists only what the framework does differently. */
struct FrameworkProfile {
  const char* name    = "";
  const char* summary = "";   // one line for --help and the run report
  bool for_ring       = true; // a profile of decentralized (ring) training, or of parameter servers
  // Ring profiles:
  AllreduceUnit unit         = AllreduceUnit::LAYER; // TENSOR, LAYER, BUCKET or FUSION
  double bucket_bytes        = 25.0 * 1024 * 1024;   // PyTorch DDP's bucket_cap_mb = 25 (MiB)
  double first_bucket_bytes  = 1024.0 * 1024;        // torch.distributed._DEFAULT_FIRST_BUCKET_BYTES
  double fusion_buffer_bytes = 0;                    // FUSION only
  double fusion_timeout_s    = 5e-3;                 // FUSION only: Horovod's cycle time until 0.20
  int collectives_in_flight  = 1;
  bool nccl = false; // its collectives run on NCCL, which opens the platform's sgdsim.nccl_sockets per peer (§10.9)
  // The ring's slices and slices in flight per connection (§10.10; 0: whole chunks).
  double ring_slice_bytes   = 0;
  int ring_slices_in_flight = 1;
  bool ring_credit_messages = false; // a receiver frees a slice's buffer by a message of its own (Gloo's, §10.12)
  // PS profiles:
  Sharing sharing           = Sharing::FAIR; // how concurrent transfers share the PS's NIC
  double message_s_per_byte = 0; // software cost per byte of each PS message between hosts (docs/models.md §10.5)
  double receive_s_per_byte = 0; // per byte of a process's one receive thread, serial across its connections (§10.5)
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
