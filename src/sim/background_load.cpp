#include "sim/background_load.hpp"

#include "common/input_error.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

namespace {
std::string fmt_fraction(double f)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%", f * 100);
  return buf;
}

// docs/design.md, SimGrid fact 17: under LV08 with its ACK traffic (network/crosstraffic) and network/weight-S > 0,
// Link::set_bandwidth adds weight-S x (1/new - 1/old) to the sharing penalty of every flow on the link, including the
// flows that cross it only with their ACKs, whose penalty never counted the link: a raised bandwidth can take their
// penalty below 0, and SimGrid 3.32 aborts ("Variable penalty should not be negative!"). Seen with streams (links'
// latencies at 0, so a penalty is only its weight-S terms) on a NIC back from 30% to 100%. A schedule that only ever
// lowers the bandwidth (from the nominal, across repetitions too) adds only positive terms.
void check_no_rise(const std::string& path, const LinkSchedule& ls)
{
  const bool crosstraffic = simgrid::config::get_value<bool>("network/crosstraffic");
  const double weight_s   = simgrid::config::get_value<double>("network/weight-S");
  if (!crosstraffic || weight_s <= 0)
    return;
  const auto& steps = ls.profile.steps;
  double before     = 1; // the nominal bandwidth until the first step
  for (std::size_t i = 0; i <= steps.size(); i++) {
    const bool wrap = i == steps.size();
    if (wrap && ls.profile.repeat_s <= 0)
      break;
    const AvailabilityStep& s = wrap ? steps.front() : steps[i];
    if (s.fraction > before)
      throw InputError(
          path, ls.profile.line,
          "link '" + ls.link->get_name() + "': its bandwidth rises from " + fmt_fraction(before) + " to " +
              fmt_fraction(s.fraction) + " of nominal" + (wrap ? " when the schedule repeats" : "") +
              ", which SimGrid 3.32 cannot take under LV08 with ACK traffic and network/weight-S > 0 (a flow's sharing "
              "penalty may go negative and the simulation abort: docs/design.md, SimGrid fact 17); give a schedule "
              "that only lowers the bandwidth, or run with --cfg=network/crosstraffic:0 or --cfg=network/weight-S:0");
    before = s.fraction;
  }
}
} // namespace

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
  for (const LinkSchedule& ls : links_out)
    check_no_rise(path, ls);
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
