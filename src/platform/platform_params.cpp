#include "platform/platform_params.hpp"

#include <algorithm>
#include <limits>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

RouteInfo route_info(const sg4::Host* src, const sg4::Host* dst)
{
  RouteInfo info;
  std::vector<sg4::Link*> links;
  double latency = 0;
  src->route_to(dst, links, &latency);
  info.latency_s      = latency;
  info.bottleneck_Bps = std::numeric_limits<double>::infinity();
  info.flow_cap_Bps   = std::numeric_limits<double>::infinity();
  info.first_link_Bps = links.empty() ? std::numeric_limits<double>::infinity() : links.front()->get_bandwidth();
  for (const sg4::Link* link : links) {
    info.link_names.push_back(link->get_name());
    if (link->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE)
      info.flow_cap_Bps = std::min(info.flow_cap_Bps, link->get_bandwidth());
    else
      info.bottleneck_Bps = std::min(info.bottleneck_Bps, link->get_bandwidth());
  }
  return info;
}

} // namespace sgdsim
