#include "report/timeline.hpp"

#include <map>

namespace sgdsim {

nlohmann::ordered_json chrome_trace(const SimResult& result)
{
  // Fixed thread ids per resource, so every worker's tracks come in the same order.
  static const std::map<std::string, int> kResourceTid = {
      {"compute", 1}, {"downlink", 2}, {"uplink", 3}, {"allreduce", 4}, {"update", 5}};
  std::map<std::string, int> pids; // track name -> pid, numbered in order of first appearance
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  std::map<std::pair<int, int>, bool> named_threads;
  for (const TimelineEvent& e : result.timeline) {
    auto [it, fresh]  = pids.emplace(e.track, static_cast<int>(pids.size()) + 1);
    const int pid     = it->second;
    const auto tid_it = kResourceTid.find(e.resource);
    const int tid     = tid_it == kResourceTid.end() ? 9 : tid_it->second;
    if (fresh)
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", e.track}}}});
    if (!named_threads[{pid, tid}]) {
      named_threads[{pid, tid}] = true;
      events.push_back(
          {{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", e.resource}}}});
    }
    nlohmann::ordered_json args = {{"step", e.step}};
    events.push_back({{"name", e.name},
                      {"cat", e.resource},
                      {"ph", "X"},
                      {"ts", e.start_s * 1e6},
                      {"dur", (e.end_s - e.start_s) * 1e6},
                      {"pid", pid},
                      {"tid", tid},
                      {"args", args}});
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

} // namespace sgdsim
