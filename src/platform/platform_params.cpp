#include "platform/platform_params.hpp"

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
  info.from_host      = src->get_name();
  info.to_host        = dst->get_name();
  info.latency_s      = latency;
  info.bottleneck_Bps = std::numeric_limits<double>::infinity();
  info.flow_cap_Bps   = std::numeric_limits<double>::infinity();
  info.first_link_Bps = links.empty() ? std::numeric_limits<double>::infinity() : links.front()->get_bandwidth();
  for (const sg4::Link* link : links) {
    info.link_names.push_back(link->get_name());
    const bool fatpipe = link->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE;
    double& narrowest  = fatpipe ? info.flow_cap_Bps : info.bottleneck_Bps;
    if (link->get_bandwidth() < narrowest) { // strictly: ties keep the first link of the route
      narrowest                                             = link->get_bandwidth();
      (fatpipe ? info.flow_cap_link : info.bottleneck_link) = link->get_name();
    }
  }
  return info;
}

} // namespace sgdsim
