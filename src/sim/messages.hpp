// Every message exchanged by sgdsim actors, with its sender and receiver (docs/design.md "Actors"). Payloads point
// into a table owned by the simulation (SimContext::messages), never to heap objects, so a message that is never
// received at the end of a run (a daemon's last send) leaks nothing.
#pragma once

#include <string>

namespace sgdsim {

/** PS sender -> worker (downlink: the current parameters of one tensor), and
 *  worker -> PS receiver (uplink: the gradient of one tensor). Carries which worker and which tensor. */
struct TensorMsg {
  int worker = 0;
  int tensor = 0;
};

/** Downlink connection from PS `ps` to worker `worker` (one tensor at a time, in forward order). */
std::string downlink_mailbox(int ps, int worker);
/** Uplink connection from worker `worker` to PS `ps`, with fair sharing (one receiver per connection). */
std::string uplink_mailbox(int ps, int worker);
/** Uplink of all workers to PS `ps`, with FCFS sharing (one receiver, one transfer at a time). */
std::string uplink_mailbox_fcfs(int ps);
/** Hierarchical PS: node relay -> GPU `worker` (parameters of PS `ps`'s tensors), and GPU -> relay (gradients). */
std::string relay_down_mailbox(int ps, int worker);
std::string relay_up_mailbox(int ps, int worker);

} // namespace sgdsim
