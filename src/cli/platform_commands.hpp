// `sgdsim platform` (generate an N-node platform), `sgdsim deploy` (write the deployment of an automatic
// placement) and `sgdsim calibrate` (fit the network to measurements): README "Platforms".
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

int platform_command(const std::vector<std::string>& args);
int deploy_command(const std::vector<std::string>& args);
int calibrate_command(const std::vector<std::string>& args);

} // namespace sgdsim
