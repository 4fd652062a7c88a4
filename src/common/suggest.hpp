// "Did you mean ...?" for a misspelt name (an option, a SimGrid --cfg key): the closest of the names that exist.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** The candidate closest to `name` by edit distance (or of which `name` is a prefix), or "" when none is close
 *  enough to be a likely typo. Ties go to the first candidate, so that the answer does not depend on hashing. */
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

/** ", did you mean X?" when a candidate is close to `name`, else "". */
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

} // namespace sgdsim
