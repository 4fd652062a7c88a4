// Reads a workload XML file (format in README.md, "Workload files") into a Workload, checking everything:
// every error is an InputError naming FILE:LINE, the element, the field and the bad value.
#pragma once

#include "workload/workload.hpp"

#include <string>

namespace sgdsim {

/** Parses and validates the workload file at `path`. Throws InputError on any problem. */
Workload parse_workload_file(const std::string& path);

} // namespace sgdsim
