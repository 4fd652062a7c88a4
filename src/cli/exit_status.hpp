// How a command ends: its exit status and, for an error, the one line sgdsim prints (docs/design.md "Errors"):
// 0 success, 2 bad input (InputError, SimGrid's ParseError), 1 internal failure. Used by main() and by the children
// that validate and sweep fork for their points, so that a point's log reads as `sgdsim run` would print it.
#pragma once

#include <functional>
#include <string>

namespace sgdsim {

/** `message` on one line: line breaks become spaces, other control characters '?', cut beyond 2000 characters. */
std::string one_line(const std::string& message);

/** Runs `command` and returns its exit status; an InputError prints `sgdsim: error: ...` on stderr and gives 2,
 *  another exception `sgdsim: internal error: ...` and 1. */
int exit_status_of(const std::function<int()>& command);

} // namespace sgdsim
