#include "sim/sim_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sgdsim {

namespace {
double harmonic2(double a, double b)
{
  return (a > 0 && b > 0) ? 2.0 / (1.0 / a + 1.0 / b) : std::max(a, b);
}
double mean2(double a, double b)
{
  return (a + b) / 2.0;
}

// JSON has no infinity: null stands for "no such link".
nlohmann::ordered_json finite_or_null(double x)
{
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json();
}
double finite_or_inf(const nlohmann::ordered_json& j)
{
  return j.is_null() ? std::numeric_limits<double>::infinity() : j.get<double>();
}
nlohmann::ordered_json name_or_null(const std::string& name)
{
  return name.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(name);
}
std::string name_or_empty(const nlohmann::ordered_json& j)
{
  return j.is_null() ? std::string() : j.get<std::string>();
}

nlohmann::ordered_json route_json(const RouteInfo& r)
{
  return {{"from", r.from_host},
          {"to", r.to_host},
          {"links", r.link_names},
          {"bottleneck_Bps", finite_or_null(r.bottleneck_Bps)},
          {"bottleneck_link", name_or_null(r.bottleneck_link)},
          {"flow_cap_Bps", finite_or_null(r.flow_cap_Bps)},
          {"flow_cap_link", name_or_null(r.flow_cap_link)},
          {"first_link_Bps", finite_or_null(r.first_link_Bps)},
          {"latency_s", r.latency_s}};
}

// Results written before the route was recorded have none: from_host stays empty.
RouteInfo route_from_json(const nlohmann::ordered_json& parent)
{
  RouteInfo r;
  if (!parent.contains("route"))
    return r;
  const auto& j     = parent.at("route");
  r.from_host       = j.at("from").get<std::string>();
  r.to_host         = j.at("to").get<std::string>();
  r.link_names      = j.at("links").get<std::vector<std::string>>();
  r.bottleneck_Bps  = finite_or_inf(j.at("bottleneck_Bps"));
  r.bottleneck_link = name_or_empty(j.at("bottleneck_link"));
  r.flow_cap_Bps    = finite_or_inf(j.at("flow_cap_Bps"));
  r.flow_cap_link   = name_or_empty(j.at("flow_cap_link"));
  r.first_link_Bps  = finite_or_inf(j.at("first_link_Bps"));
  r.latency_s       = j.at("latency_s").get<double>();
  return r;
}
} // namespace

double cost_usd_per_million_examples(const SimResult& r)
{
  constexpr double kSecondsPerHour = 3600;
  if (!std::isfinite(r.cluster_price_per_hour_usd) || !(r.throughput_examples_per_s > 0))
    return std::numeric_limits<double>::quiet_NaN();
  return r.cluster_price_per_hour_usd / kSecondsPerHour / r.throughput_examples_per_s * 1e6;
}

SimResult combine_hybrid(const SimResult& fair, const SimResult& fcfs)
{
  SimResult r;
  r.sharing                    = "hybrid";
  r.steps_measured             = fair.steps_measured;
  r.throughput_examples_per_s  = mean2(fair.throughput_examples_per_s, fcfs.throughput_examples_per_s);
  r.step_time_mean_s           = harmonic2(fair.step_time_mean_s, fcfs.step_time_mean_s);
  r.step_time_std_s            = mean2(fair.step_time_std_s, fcfs.step_time_std_s);
  r.step_time_min_s            = harmonic2(fair.step_time_min_s, fcfs.step_time_min_s);
  r.step_time_max_s            = harmonic2(fair.step_time_max_s, fcfs.step_time_max_s);
  r.compute_s                  = mean2(fair.compute_s, fcfs.compute_s);
  r.comm_exposed_s             = mean2(fair.comm_exposed_s, fcfs.comm_exposed_s);
  r.wait_s                     = mean2(fair.wait_s, fcfs.wait_s);
  r.simulated_time_s           = std::max(fair.simulated_time_s, fcfs.simulated_time_s);
  r.ps_dispatcher              = fair.ps_dispatcher; // the FCFS run never goes through it
  r.cluster_price_per_hour_usd = fair.cluster_price_per_hour_usd;
  r.per_worker                 = fair.per_worker;
  for (std::size_t i = 0; i < r.per_worker.size() && i < fcfs.per_worker.size(); i++) {
    WorkerStats& w       = r.per_worker[i];
    const WorkerStats& f = fcfs.per_worker[i];
    w.step_time_mean_s   = harmonic2(w.step_time_mean_s, f.step_time_mean_s);
    w.step_time_std_s    = mean2(w.step_time_std_s, f.step_time_std_s);
    w.compute_s          = mean2(w.compute_s, f.compute_s);
    w.comm_exposed_s     = mean2(w.comm_exposed_s, f.comm_exposed_s);
    w.wait_s             = mean2(w.wait_s, f.wait_s);
    // Each step as the mean step time is: the time that gives the mean of the two runs' rates at that step.
    for (std::size_t s = 0; s < w.step_times_s.size() && s < f.step_times_s.size(); s++)
      w.step_times_s[s] = harmonic2(w.step_times_s[s], f.step_times_s[s]);
  }
  r.per_ps = fair.per_ps;
  for (std::size_t i = 0; i < r.per_ps.size() && i < fcfs.per_ps.size(); i++) {
    r.per_ps[i].downlink_utilization = mean2(r.per_ps[i].downlink_utilization, fcfs.per_ps[i].downlink_utilization);
    r.per_ps[i].uplink_utilization   = mean2(r.per_ps[i].uplink_utilization, fcfs.per_ps[i].uplink_utilization);
  }
  r.components = {fair, fcfs};
  r.network    = fair.network;
  r.route      = fair.route;
  r.ps_routes  = fair.ps_routes;
  r.timeline   = fair.timeline; // the timeline of a hybrid run is its fair simulation's
  return r;
}

nlohmann::ordered_json to_json(const SimResult& r)
{
  nlohmann::ordered_json j;
  j["sharing"]                    = r.sharing;
  j["throughput_examples_per_s"]  = r.throughput_examples_per_s;
  j["step_time_mean_s"]           = r.step_time_mean_s;
  j["step_time_std_s"]            = r.step_time_std_s;
  j["step_time_min_s"]            = r.step_time_min_s;
  j["step_time_max_s"]            = r.step_time_max_s;
  j["steps_measured"]             = r.steps_measured;
  j["compute_s"]                  = r.compute_s;
  j["comm_exposed_s"]             = r.comm_exposed_s;
  j["wait_s"]                     = r.wait_s;
  j["simulated_time_s"]           = r.simulated_time_s;
  j["ps_dispatcher"]              = r.ps_dispatcher;
  j["cluster_price_per_hour_usd"] = std::isfinite(r.cluster_price_per_hour_usd)
                                        ? nlohmann::ordered_json(r.cluster_price_per_hour_usd)
                                        : nlohmann::ordered_json();
  const double cost_usd           = cost_usd_per_million_examples(r);
  j["cost_usd_per_million_examples"] =
      std::isfinite(cost_usd) ? nlohmann::ordered_json(cost_usd) : nlohmann::ordered_json();
  j["per_worker"] = nlohmann::ordered_json::array();
  for (const WorkerStats& w : r.per_worker)
    j["per_worker"].push_back({{"rank", w.rank},
                               {"host", w.host},
                               {"speed_ratio", w.speed_ratio},
                               {"step_time_mean_s", w.step_time_mean_s},
                               {"step_time_std_s", w.step_time_std_s},
                               {"compute_s", w.compute_s},
                               {"comm_exposed_s", w.comm_exposed_s},
                               {"wait_s", w.wait_s},
                               {"step_times_s", w.step_times_s}});
  j["per_ps"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.per_ps.size(); i++) {
    const PsStats& p = r.per_ps[i];
    j["per_ps"].push_back({{"rank", p.rank},
                           {"host", p.host},
                           {"speed_ratio", p.speed_ratio},
                           {"nic_Bps", p.nic_Bps},
                           {"tensors", p.tensors},
                           {"bytes", p.bytes},
                           {"downlink_utilization", p.downlink_utilization},
                           {"uplink_utilization", p.uplink_utilization}});
    if (i < r.ps_routes.size() && !r.ps_routes[i].from_host.empty())
      j["per_ps"].back()["route"] = route_json(r.ps_routes[i]);
  }
  j["network"] = {{"bottleneck_Bps", r.network.bottleneck_Bps},
                  {"flow_cap_Bps", std::isfinite(r.network.flow_cap_Bps)
                                       ? nlohmann::ordered_json(r.network.flow_cap_Bps)
                                       : nlohmann::ordered_json()},
                  {"latency_s", r.network.latency_s}};
  if (!r.route.from_host.empty())
    j["route"] = route_json(r.route);
  if (!r.timeline.empty()) {
    j["timeline"] = nlohmann::ordered_json::array();
    for (const TimelineEvent& e : r.timeline)
      j["timeline"].push_back({e.track, e.resource, e.name, e.step, e.start_s, e.end_s});
  }
  if (!r.components.empty()) {
    j["components"] = nlohmann::ordered_json::array();
    for (const SimResult& c : r.components)
      j["components"].push_back(to_json(c));
  }
  return j;
}

SimResult sim_result_from_json(const nlohmann::ordered_json& j)
{
  SimResult r;
  r.sharing                    = j.at("sharing").get<std::string>();
  r.throughput_examples_per_s  = j.at("throughput_examples_per_s").get<double>();
  r.step_time_mean_s           = j.at("step_time_mean_s").get<double>();
  r.step_time_std_s            = j.at("step_time_std_s").get<double>();
  r.step_time_min_s            = j.at("step_time_min_s").get<double>();
  r.step_time_max_s            = j.at("step_time_max_s").get<double>();
  r.steps_measured             = j.at("steps_measured").get<int>();
  r.compute_s                  = j.at("compute_s").get<double>();
  r.comm_exposed_s             = j.at("comm_exposed_s").get<double>();
  r.wait_s                     = j.at("wait_s").get<double>();
  r.simulated_time_s           = j.at("simulated_time_s").get<double>();
  r.ps_dispatcher              = j.value("ps_dispatcher", false); // absent from results written before it
  r.cluster_price_per_hour_usd = j.at("cluster_price_per_hour_usd").is_null()
                                     ? std::numeric_limits<double>::quiet_NaN()
                                     : j.at("cluster_price_per_hour_usd").get<double>();
  for (const auto& w : j.at("per_worker"))
    r.per_worker.push_back(WorkerStats{w.at("rank").get<int>(), w.at("host").get<std::string>(),
                                       w.at("speed_ratio").get<double>(), w.at("step_time_mean_s").get<double>(),
                                       w.at("step_time_std_s").get<double>(), w.at("compute_s").get<double>(),
                                       w.at("comm_exposed_s").get<double>(), w.at("wait_s").get<double>(),
                                       // absent from results written before it
                                       w.value("step_times_s", std::vector<double>{})});
  for (const auto& p : j.at("per_ps")) {
    r.per_ps.push_back(PsStats{p.at("rank").get<int>(), p.at("host").get<std::string>(),
                               p.at("speed_ratio").get<double>(), p.at("nic_Bps").get<double>(),
                               p.at("tensors").get<int>(), p.at("bytes").get<double>(),
                               p.at("downlink_utilization").get<double>(), p.at("uplink_utilization").get<double>()});
    if (p.contains("route"))
      r.ps_routes.push_back(route_from_json(p));
  }
  const auto& net          = j.at("network");
  r.network.bottleneck_Bps = net.at("bottleneck_Bps").get<double>();
  r.network.flow_cap_Bps =
      net.at("flow_cap_Bps").is_null() ? std::numeric_limits<double>::infinity() : net.at("flow_cap_Bps").get<double>();
  r.network.latency_s = net.at("latency_s").get<double>();
  r.route             = route_from_json(j);
  if (j.contains("timeline"))
    for (const auto& e : j.at("timeline"))
      r.timeline.push_back(TimelineEvent{e.at(0).get<std::string>(), e.at(1).get<std::string>(),
                                         e.at(2).get<std::string>(), e.at(3).get<int>(), e.at(4).get<double>(),
                                         e.at(5).get<double>()});
  if (j.contains("components"))
    for (const auto& c : j.at("components"))
      r.components.push_back(sim_result_from_json(c));
  return r;
}

} // namespace sgdsim
