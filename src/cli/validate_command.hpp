// `sgdsim validate`: runs the validation cases (validation/cases/NAME/case.json) and compares the simulation and
// every analytic model with the measurements (README "Validation").
#pragma once

#include "report/validation_report.hpp"

#include <string>
#include <vector>

namespace sgdsim {

/** Returns 0 if every case is within its guard and every check holds (or is a known failure), 1 otherwise; a missed
 *  target is reported, never an error. Throws InputError on a bad case. */
int validate_command(const std::vector<std::string>& args, const std::string& data_dir);

} // namespace sgdsim
