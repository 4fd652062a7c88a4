#include "report/sweep_table.hpp"

#include "analytic/prediction.hpp"
#include "report/svg_plot.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>

namespace sgdsim {

namespace {
using Json = nlohmann::ordered_json;

// Full precision without noise: 10 significant digits (the simulation's own spread is far larger).
std::string number(double v)
{
  if (!std::isfinite(v))
    return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string number_or_empty(const Json& v)
{
  return v.is_null() ? "" : number(v.get<double>());
}

// RFC 4180: quote a field that holds a comma, a quote or a newline.
std::string field(const std::string& s)
{
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
  return out;
}

bool is_ps(const Json& run)
{
  return run.at("inputs").at("arch").get<std::string>() != "ring";
}

double analytic_throughput(const Json& run, const std::string& model)
{
  for (const Json& p : run.at("analytic"))
    if (p.at("model").get<std::string>() == model)
      return p.at("throughput_examples_per_s").get<double>();
  return std::numeric_limits<double>::quiet_NaN();
}

int workers_of(const Json& run)
{
  return run.at("inputs").at("workers").get<int>();
}
} // namespace

std::vector<std::string> sweep_csv_columns()
{
  std::vector<std::string> c = {"point",
                                "series",
                                "arch",
                                "collective",
                                "ps",
                                "workers",
                                "overlap",
                                "sharing",
                                "throughput_examples_per_s",
                                "step_time_mean_s",
                                "step_time_std_s",
                                "compute_s",
                                "comm_exposed_s",
                                "wait_s",
                                "scaling_efficiency",
                                "cluster_usd_per_hour",
                                "usd_per_million_examples"};
  for (std::string_view id : kAnalyticModelIds)
    c.push_back(std::string(id) + "_examples_per_s");
  return c;
}

std::string sweep_csv_header()
{
  std::string out;
  for (const std::string& c : sweep_csv_columns()) {
    if (!out.empty())
      out += ',';
    out += c;
  }
  return out + "\n";
}

std::string sweep_series(const Json& run)
{
  const Json& in = run.at("inputs");
  std::string s  = in.at("arch").get<std::string>();
  if (is_ps(run)) {
    s += ", " + std::to_string(in.at("ps").get<int>()) + " PS";
  } else {
    const std::string coll = in.at("collective").get<std::string>();
    if (coll != "ring")
      s += " (" + coll + ")";
  }
  return s;
}

std::string sweep_csv_row(const SweepResult& r, double one_worker_throughput)
{
  const Json& in  = r.run.at("inputs");
  const Json& sim = r.run.at("simulated");
  const bool ps   = is_ps(r.run);
  const double x  = sim.at("throughput_examples_per_s").get<double>();
  const int k     = workers_of(r.run);
  std::vector<std::string> f;
  f.push_back(r.point_id);
  f.push_back(sweep_series(r.run));
  f.push_back(in.at("arch").get<std::string>());
  f.push_back(ps ? "" : in.at("collective").get<std::string>());
  f.push_back(std::to_string(in.at("ps").get<int>()));
  f.push_back(std::to_string(k));
  f.push_back(in.at("overlap").get<bool>() ? "on" : "off");
  f.push_back(ps ? sim.at("sharing").get<std::string>() : "");
  f.push_back(number(x));
  f.push_back(number(sim.at("step_time_mean_s").get<double>()));
  f.push_back(number(sim.at("step_time_std_s").get<double>()));
  f.push_back(number(sim.at("compute_s").get<double>()));
  f.push_back(number(sim.at("comm_exposed_s").get<double>()));
  f.push_back(number(sim.at("wait_s").get<double>()));
  f.push_back(
      number(one_worker_throughput > 0 ? x / (k * one_worker_throughput) : std::numeric_limits<double>::quiet_NaN()));
  f.push_back(number_or_empty(sim.at("cluster_price_per_hour_usd")));
  f.push_back(number_or_empty(sim.at("cost_usd_per_million_examples")));
  for (std::string_view id : kAnalyticModelIds)
    f.push_back(number(analytic_throughput(r.run, std::string(id))));
  std::string out;
  for (std::size_t i = 0; i < f.size(); i++) {
    if (i > 0)
      out += ',';
    out += field(f[i]);
  }
  return out + "\n";
}

std::string sweep_csv(const std::vector<SweepResult>& results)
{
  std::map<std::string, double> one_worker; // series -> throughput at K = 1
  for (const SweepResult& r : results)
    if (workers_of(r.run) == 1)
      one_worker[sweep_series(r.run)] = r.run.at("simulated").at("throughput_examples_per_s").get<double>();
  std::string out = sweep_csv_header();
  for (const SweepResult& r : results) {
    auto it = one_worker.find(sweep_series(r.run));
    out += sweep_csv_row(r, it == one_worker.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
  }
  return out;
}

std::string primary_model(const Json& run)
{
  const Json& in            = run.at("inputs");
  const std::string arch    = in.at("arch").get<std::string>();
  const bool overlap        = in.at("overlap").get<bool>();
  const std::string sharing = in.at("sharing").get<std::string>();
  if (arch == "ps-sync")
    return overlap ? "ps-sync-hybrid-overlap" : "ps-sync-" + sharing; // eq. 10, or eq. 7 / 8 / 9
  if (arch == "ps-async")
    return overlap ? "ps-async-mva-overlap" : "ps-async-mva";
  if (in.at("collective").get<std::string>() == "halving-doubling")
    return "halving-doubling";
  if (!overlap)
    return "ring-eq11";
  if (in.at("fusion_buffer_bytes").get<double>() <= 0)
    return "osf";
  return in.at("ada_fusion").get<bool>() ? "osf-adafusion" : "osf-fusion";
}

std::string sweep_svg(const std::vector<SweepResult>& results, const std::vector<std::string>& models)
{
  // Series in order of first appearance; one colour each, its analytic curves in the same colour, dashed.
  std::vector<std::string> series;
  std::map<std::string, std::vector<const SweepResult*>> members;
  for (const SweepResult& r : results) {
    std::string s = sweep_series(r.run);
    if (!members.count(s))
      series.push_back(s);
    members[s].push_back(&r);
  }
  PlotSpec spec;
  int k_min = 1 << 30, k_max = 0;
  for (const SweepResult& r : results) {
    k_min = std::min(k_min, workers_of(r.run));
    k_max = std::max(k_max, workers_of(r.run));
  }
  spec.log2_x = k_max >= 64 * std::max(k_min, 1);
  if (!results.empty()) {
    const Json& first = results.front().run;
    spec.title        = first.at("workload").at("name").get<std::string>() + " (batch " +
                 std::to_string(first.at("workload").at("batch").get<int>()) + ") on " +
                 std::filesystem::path(first.at("inputs").at("platform").get<std::string>()).filename().string();
    spec.subtitle = "solid: simulated (SimGrid); dashed: analytic model (docs/models.md) named in the legend";
  }
  spec.x_label = "workers";
  spec.y_label = "throughput (examples/s)";
  for (std::size_t i = 0; i < series.size(); i++) {
    const auto& pts = members[series[i]];
    PlotCurve sim;
    sim.group = series[i];
    sim.label = "simulated";
    sim.color = static_cast<int>(i);
    for (const SweepResult* r : pts)
      sim.points.emplace_back(workers_of(r->run), r->run.at("simulated").at("throughput_examples_per_s").get<double>());
    spec.curves.push_back(sim);
    std::vector<std::string> drawn = models;
    if (drawn.empty())
      drawn.push_back(primary_model(pts.front()->run));
    for (const std::string& m : drawn) {
      PlotCurve a;
      a.group   = series[i];
      a.label   = m;
      a.color   = static_cast<int>(i);
      a.dashed  = true;
      a.markers = false;
      for (const SweepResult* r : pts) {
        double x = analytic_throughput(r->run, m);
        if (std::isfinite(x))
          a.points.emplace_back(workers_of(r->run), x);
      }
      spec.curves.push_back(a);
    }
  }
  return svg_line_plot(spec);
}

} // namespace sgdsim
