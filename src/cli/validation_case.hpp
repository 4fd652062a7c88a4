// A validation case, validation/.../NAME/case.json (README "Validation"): read and checked, without running it
// (cli/validate_command.cpp runs it; the fuzzer of tests/fuzz reads it alone).
#pragma once

#include "report/validation_report.hpp"

#include <string>

namespace sgdsim {

/** Reads and checks CASE_DIR/case.json (README "Validation"); paths in its run arguments are resolved against the
 *  repository above the case. Throws InputError naming the file on anything malformed. */
ValidationCase read_validation_case(const std::string& case_dir);

} // namespace sgdsim
