#include "sim/background_load.hpp"

#include "common/input_error.hpp"

#include <algorithm>
#include <map>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

// Attaches the background file's host profiles (SimGrid speed profiles scale the nominal speed by the given
// fraction from each time on), adds their hosts to `varying_speed_hosts` and returns the link schedules.
std::vector<LinkSchedule> apply_background(sg4::Engine& engine, const std::string& path,
                                           std::set<std::string>& varying_speed_hosts)
{
  std::vector<LinkSchedule> links_out;
  int n = 0;
  for (const AvailabilityProfile& p : read_background_file(path)) {
    if (p.target == AvailabilityProfile::Target::LINK) {
      sg4::Link* link = sg4::Link::by_name_or_null(p.name);
      if (link == nullptr)
        throw InputError(path, p.line, "<link name='" + p.name + "'>: no such link in the platform");
      links_out.push_back({link, p});
      continue;
    }
    sg4::Host* host = engine.host_by_name_or_null(p.name);
    if (host == nullptr)
      throw InputError(path, p.line, "host '" + p.name + "': not in the platform");
    if (p.target == AvailabilityProfile::Target::HOST) {
      varying_speed_hosts.insert(p.name);
      host->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
          "background-" + std::to_string(n++) + "-" + p.name, p.simgrid_trace(), p.repeat_s));
      continue;
    }
    // A NIC: the first link of a route from the host (up), the last of a route to it (down).
    sg4::Host* other = nullptr;
    for (sg4::Host* h : engine.get_all_hosts())
      if (h != host) {
        other = h;
        break;
      }
    std::vector<sg4::Link*> links;
    double latency = 0;
    if (other != nullptr) {
      if (p.target == AvailabilityProfile::Target::NIC_UP)
        host->route_to(other, links, &latency);
      else
        other->route_to(host, links, &latency);
    }
    if (links.empty())
      throw InputError(path, p.line, "<nic host='" + p.name + "'>: the host has no link to another host");
    links_out.push_back({p.target == AvailabilityProfile::Target::NIC_UP ? links.front() : links.back(), p});
  }
  // A <nic> and a <link> may name one link: two schedules would overwrite each other's bandwidth.
  std::map<const sg4::Link*, int> first_line;
  for (const LinkSchedule& ls : links_out)
    if (auto [it, fresh] = first_line.emplace(ls.link, ls.profile.line); !fresh)
      throw InputError(path, ls.profile.line,
                       "link '" + ls.link->get_name() + "' already has a profile (line " + std::to_string(it->second) +
                           "): give each link one element, with all its <at> steps");
  return links_out;
}

// The daemon that sets each scheduled link's bandwidth at its times (repeating if asked); it dies with the run.
void run_link_schedules(std::vector<LinkSchedule> schedules)
{
  struct Event {
    double time_s;
    std::size_t schedule;
    std::size_t step;
  };
  std::vector<double> nominal;
  for (const LinkSchedule& ls : schedules)
    nominal.push_back(ls.link->get_bandwidth());
  auto later = [](const Event& a, const Event& b) {
    return a.time_s > b.time_s || (a.time_s == b.time_s && a.schedule > b.schedule);
  };
  std::vector<Event> queue;
  for (std::size_t i = 0; i < schedules.size(); i++)
    queue.push_back({schedules[i].profile.steps[0].time_s, i, 0});
  std::make_heap(queue.begin(), queue.end(), later);
  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), later);
    Event e = queue.back();
    queue.pop_back();
    sg4::this_actor::sleep_until(e.time_s);
    const AvailabilityProfile& p = schedules[e.schedule].profile;
    schedules[e.schedule].link->set_bandwidth(nominal[e.schedule] * p.steps[e.step].fraction);
    std::size_t next = e.step + 1;
    double offset    = e.time_s - p.steps[e.step].time_s;
    if (next == p.steps.size()) {
      if (p.repeat_s <= 0)
        continue;
      next = 0;
      offset += p.repeat_s;
    }
    queue.push_back({offset + p.steps[next].time_s, e.schedule, next});
    std::push_heap(queue.begin(), queue.end(), later);
  }
}
} // namespace sgdsim
