#include "report/run_report.hpp"

#include "analytic/predict.hpp"
#include "common/units.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <tuple>

// simgrid/version.h needs the macros of xbt/base.h first (a separate block keeps clang-format from reordering).
#include <xbt/base.h>

#include <simgrid/version.h>

namespace sgdsim {

namespace {
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* format, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  return buf;
}

std::string simgrid_version()
{
  return std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) +
         (SIMGRID_VERSION_PATCH > 0 ? "." + std::to_string(SIMGRID_VERSION_PATCH) : "");
}

std::string cfg_list(const std::vector<std::string>& cfg)
{
  if (cfg.empty())
    return "SimGrid defaults";
  std::string out;
  for (const auto& c : cfg) {
    if (!out.empty())
      out += ' ';
    out += "--cfg=";
    out += c;
  }
  return out;
}

const char* sharing_note(Sharing s)
{
  switch (s) {
  case Sharing::FAIR:
    return "fair (SimGrid max-min)";
  case Sharing::FCFS:
    return "fcfs (one transfer at a time per PS NIC direction)";
  case Sharing::HYBRID:
    return "hybrid (fair and fcfs simulated, throughputs averaged)";
  }
  return "?";
}
} // namespace

double relative_difference(double analytic, double simulated)
{
  return simulated != 0 ? (analytic - simulated) / simulated : 0.0;
}

namespace {
// An option that may be unset: its value, or null.
nlohmann::ordered_json optional_json(const std::optional<double>& v)
{
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
}

// What each all-reduce carries and how many run at once, e.g. "pytorch-ddp: 25 MiB buckets (first 1 MiB), 1 in
// flight".
std::string gradient_sync_note(const Scenario& sc)
{
  std::string unit;
  switch (sc.unit()) {
  case AllreduceUnit::TENSOR:
    unit = "one all-reduce per tensor";
    break;
  case AllreduceUnit::LAYER:
    unit = "one all-reduce per layer";
    break;
  case AllreduceUnit::BUCKET:
    unit = fmt("%.4g MiB buckets (first %.4g MiB)", sc.bucket_bytes / 1048576, sc.first_bucket_bytes / 1048576);
    break;
  case AllreduceUnit::FUSION:
    unit = sc.fusion_batches == FusionBatches::SCHEDULED // docs/models.md §10.1
               ? fmt("fusion buffer %.4g MB of launched tensors", sc.fusion_buffer_bytes / 1e6)
               : fmt("fusion buffer %.4g MB, timeout %.4g ms%s", sc.fusion_buffer_bytes / 1e6,
                     sc.fusion_timeout_s * 1e3, sc.ada_fusion ? ", adaFusion" : "");
    break;
  }
  std::string note =
      fmt("framework %s: %s, %d in flight", sc.framework.c_str(), unit.c_str(), sc.collectives_in_flight);
  if (sc.sockets_per_peer > 1) // docs/models.md §10.9
    note += fmt(", %d sockets per peer", sc.sockets_per_peer);
  if (sc.connection_rate_Bps > 0) // docs/models.md §10.11
    note += fmt(", %.4g GB/s per connection", sc.connection_rate_Bps / 1e9);
  if (sc.ring_slice_bytes > 0 && sc.ring_mode == RingMode::STEPS) // docs/models.md §10.10
    note += fmt(", slices of %.4g MiB (%d in flight)", sc.ring_slice_bytes / (1024.0 * 1024), sc.ring_slices_in_flight);
  if (sc.ring_slice_bytes > 0 && sc.ring_mode == RingMode::STEPS && sc.ring_min_slices_per_step > 1)
    note += fmt(", at least %d per step", sc.ring_min_slices_per_step);
  if (sc.egress_fifo) // docs/models.md §10.12; a measured all-reduce holds the credits' wait
    note += std::string(sc.measured_allreduce ? ", FIFO egress (other calls' slices ahead"
                                              : ", FIFO egress (other calls' slices and own slices ahead of credits") +
            (sc.fifo_wait == FifoWait::AVERAGE ? ", their average)"
             : sc.fifo_wait == FifoWait::EXACT ? ", until they leave)"
                                               : ", until they leave behind a call of one slice a step, else their "
                                                 "average)");
  return note;
}

// The run line's coupling, with the exponents where they are not 1 (docs/models.md §10.6).
std::string ack_coupling_text(const Scenario& sc)
{
  std::string text = fmt("ACK coupling %.3g in, %.3g out", sc.ack_coupling_in, sc.ack_coupling_out);
  if (sc.ack_coupling_exponent_in != 1 || sc.ack_coupling_exponent_out != 1)
    text += fmt(" (exponents %.3g in, %.3g out)", sc.ack_coupling_exponent_in, sc.ack_coupling_exponent_out);
  if (sc.start_order_set()) { // docs/models.md §10.6 "Start order"; unset: "as together"
    auto g = [](const std::optional<double>& v) { return v ? fmt("%.3g", *v) : std::string("as together"); };
    text += ", started late " + g(sc.ack_coupling_late_in) + " in, " + g(sc.ack_coupling_late_out) +
            " out, established " + g(sc.ack_coupling_established_in) + " in, " + g(sc.ack_coupling_established_out) +
            " out";
    if (sc.ack_coupling_offered_load)
      text += ", the flows out's laws scaled by the flows in's offered load";
  }
  return text + " (SimGrid's ACK traffic off), ";
}

// The ring's measured all-reduce (docs/models.md §10.7), and whether K lies outside the node counts measured.
std::string measured_note(const Scenario& sc)
{
  if (!sc.measured_allreduce)
    return "";
  const int lo = sc.allreduce_time.front().nodes, hi = sc.allreduce_time.back().nodes;
  const int k      = sc.workers;
  std::string note = fmt("all-reduce as measured at %d..%d nodes", lo, hi);
  if (k < lo)
    note += fmt(" (K = %d below: the %d-node fit)", k, lo);
  else if (k > hi && sc.shared_cores > 0) // docs/models.md §10.7, "Ranks sharing cores"
    note += fmt(" (K = %d beyond: the %d-node excess per step, times the ranks per core of %d shared cores)", k, hi,
                sc.shared_cores);
  else if (k > hi) // each step more pays the software cost per step of the node counts measured
    note += fmt(" (K = %d beyond: the %d-node fit, plus a cost per ring step more)", k, hi);
  if (!sc.allreduce_queued_time.empty()) {
    // docs/models.md §10.8 "Calls of different sizes", "The uncovered gain holds the connection"
    const bool paired = sc.in_flight_cost == InFlightCost::PAIRED;
    const char* in_flight =
        paired ? "each call in flight at its own size; beside shorter ones, part of its time alone, as "
        : sc.in_flight_cost == InFlightCost::EACH ? "each call in flight at its own size"
                                                  : "calls in flight as this one's size";
    const char* where = !paired                                    ? ""
                        : sc.uncovered_gain == UncoveredGain::RATE ? "a slower rate of its bytes"
                                                                   : "waits before its steps";
    note += fmt(", and back to back at %d..%d nodes (%s%s)", sc.allreduce_queued_time.front().nodes,
                sc.allreduce_queued_time.back().nodes, in_flight, where);
  }
  if (sc.measured_sizes)
    note += " (its large sizes as measured)";
  if (sc.measured_node_window > 1) // docs/models.md §10.7, "Neighbouring node counts pooled"
    note += fmt(" (per ring step, a line through the %d nearest node counts)", sc.measured_node_window);
  return note + ", ";
}

// A route's figures: "bottleneck 10 Gbps (p3_link_0_UP), per-flow cap 10 Gbps (p3_backbone), latency 50 us", each
// part only where the route has it.
std::string route_figures(const RouteInfo& r)
{
  std::string out;
  for (const auto& [label, Bps, link] : {std::tuple{"bottleneck ", r.bottleneck_Bps, &r.bottleneck_link},
                                         {"per-flow cap ", r.flow_cap_Bps, &r.flow_cap_link}})
    if (std::isfinite(Bps))
      out.append(label).append(format_Gbps(Bps)).append(" (").append(*link).append("), ");
  if (r.link_names.empty())
    out += "no link, ";
  out += "latency ";
  out += format_us(r.latency_s);
  return out;
}

// The network line (README "Parameters from the platform"). When every worker runs on the host the route starts
// from, the simulation reads no route between hosts (B = 0): the line says so, and, where the simulation read it, the
// route SimGrid gives transfers within that host.
std::string network_line(const RunReport& rep)
{
  const Scenario& sc  = rep.scenario;
  const RouteInfo* rt = rep.has_simulation && !rep.simulated.route.from_host.empty() ? &rep.simulated.route : nullptr;
  if (rep.network.bottleneck_Bps != 0) {
    const bool finite = std::isfinite(rep.network.bottleneck_Bps);
    // A calibrated platform's NIC is above the measured rate by SimGrid's factors; the models read the measured rate.
    const std::string models_read =
        finite && rep.nic_factor != 1
            ? fmt(" (the models read %s: the platform's sgdsim.nic_factor %.4g)",
                  format_Gbps(rep.network.bottleneck_Bps / rep.nic_factor).c_str(), rep.nic_factor)
            : "";
    return fmt("  network   %s -> a worker on another host: bottleneck %s%s, per-flow cap %s, latency %s\n",
               sc.is_ps() ? "PS 0" : "worker 0",
               finite ? format_Gbps(rep.network.bottleneck_Bps).c_str() : "none (FATPIPE links only)",
               models_read.c_str(),
               std::isfinite(rep.network.flow_cap_Bps) ? format_Gbps(rep.network.flow_cap_Bps).c_str() : "none",
               format_us(rep.network.latency_s).c_str());
  }
  std::string host = "host ";
  if (rt != nullptr)
    host += rt->from_host;
  else if (rep.has_simulation && sc.is_ps() && !rep.simulated.per_ps.empty())
    host += rep.simulated.per_ps.front().host;
  else if (rep.has_simulation && !rep.simulated.per_worker.empty())
    host += rep.simulated.per_worker.front().host;
  else // `sgdsim analytic`: the probe's NetworkParams name no host
    host = sc.is_ps() ? "one host" : "worker 0's host";
  std::string out = "  network   none between hosts: ";
  out += sc.is_ps() ? "PS 0 and " : "";
  out += fmt("all %d workers on %s", sc.workers, host.c_str());
  if (rt != nullptr) {
    out += "; within it: ";
    out += route_figures(*rt);
  }
  return out + "\n";
}

std::string header(const RunReport& rep)
{
  const Workload& wl = *rep.workload;
  const Scenario& sc = rep.scenario;
  std::string out;
  if (sc.is_ps())
    out += fmt("sgdsim %s: %s, %d workers, %d PS, overlap %s, framework %s, sharing %s%s%s%s\n", SGDSIM_VERSION,
               to_string(sc.arch), sc.workers, sc.ps, sc.overlap ? "on" : "off", sc.framework.c_str(),
               sharing_note(sc.sharing),
               sc.message_overhead_s > 0 ? fmt(", %.4g us per message", sc.message_overhead_s * 1e6).c_str() : "",
               sc.message_s_per_byte > 0 ? fmt(", %.4g ns per message byte", sc.message_s_per_byte * 1e9).c_str() : "",
               sc.receive_s_per_byte > 0
                   ? fmt(", %.4g ns per byte on each process's receive thread", sc.receive_s_per_byte * 1e9).c_str()
                   : "");
  else
    out += fmt("sgdsim %s: %s all-reduce (%s), %d workers, overlap %s, %s\n", SGDSIM_VERSION, to_string(sc.collective),
               sc.collective == Collective::TREE               ? fmt("%d chunks", sc.pipeline_chunks).c_str()
               : sc.collective == Collective::HALVING_DOUBLING ? "recursive halving and doubling"
               : sc.collective == Collective::HIERARCHICAL
                   ? fmt("%d GPUs per node, %s ring", sc.gpus_per_node, to_string(sc.ring_mode)).c_str()
                   : fmt("%s mode", to_string(sc.ring_mode)).c_str(),
               sc.workers, sc.overlap ? "on" : "off", gradient_sync_note(sc).c_str());
  out += fmt("  workload  %s (%s): batch %d, %zu layers, %zu tensors, %.4g MB, T_F %.4g ms, T_B %.4g ms on %s\n",
             wl.name.c_str(), wl.source_file.c_str(), wl.batch, wl.layers.size(), wl.tensors.size(),
             wl.model_bytes() / 1e6, wl.fwd_s() * 1e3, wl.bwd_s() * 1e3, wl.device.c_str());
  out += fmt("  platform  %s, %s%s\n", rep.platform_path.c_str(),
             rep.deployment_path.empty() ? "automatic placement" : ("deployment " + rep.deployment_path).c_str(),
             rep.background_path.empty() ? "" : (", background " + rep.background_path).c_str());
  out += network_line(rep);
  if (rep.has_simulation)
    out += fmt("  run       %d steps measured after %d warm-up, seed %llu, %s%s%s%s%s%s%s\n", sc.steps, sc.warmup,
               static_cast<unsigned long long>(sc.seed),
               !sc.is_ps() ? measured_note(sc).c_str()
               : sc.stream ? "PS connections as streams, "
                           : "latency per PS message, ",
               sc.ps_reads_per_variable ? "parameters read per variable, " : "",
               sc.release_quantum_s > 0 ? fmt("release quantum %.4g us, ", sc.release_quantum_s * 1e6).c_str() : "",
               sc.flow_spread_in > 0 || sc.flow_spread_out > 0
                   ? fmt("flow weights' spread %.3g in, %.3g out, ", sc.flow_spread_in, sc.flow_spread_out).c_str()
                   : "",
               sc.first_pull_weight() != 1 ? fmt("first pull's weight %.3g, ", sc.first_pull_weight()).c_str() : "",
               sc.ack_coupled() ? ack_coupling_text(sc).c_str() : "", cfg_list(sc.simgrid_cfg).c_str());
  return out;
}

std::string analytic_rows(const RunReport& rep)
{
  std::string out;
  // No model applies: one line that says why, instead of an empty table.
  if (rep.analytic.empty()) {
    out = "\nanalytic models: n/a";
    if (const std::string why = no_prediction_reason(rep.scenario, rep.network); !why.empty()) {
      out += " (";
      out += why;
      out += ")";
    }
    return out + "\n";
  }
  if (rep.has_simulation)
    out += "\nanalytic models                     throughput        step time   vs simulated\n";
  else
    out += "\nanalytic models                     throughput        step time\n";
  for (const Prediction& p : rep.analytic) {
    std::string diff = rep.has_simulation
                           ? fmt(" %+13.2f%%", 100 * relative_difference(p.throughput_examples_per_s,
                                                                         rep.simulated.throughput_examples_per_s))
                           : std::string();
    out += fmt("  %-30s %12.2f ex/s %12.6f s%s   %s\n", p.model.c_str(), p.throughput_examples_per_s, p.step_time_s,
               diff.c_str(), p.equation.c_str());
  }
  return out;
}
} // namespace

std::string format_analytic_table(const RunReport& rep)
{
  return header(rep) + analytic_rows(rep);
}

std::string format_table(const RunReport& rep)
{
  const SimResult& sim = rep.simulated;
  std::string out      = header(rep);
  out += "\nsimulated\n";
  out += fmt("  throughput         %12.2f examples/s\n", sim.throughput_examples_per_s);
  out += fmt("  step time          %12.6f s mean (std %.6f s, min %.6f s, max %.6f s)\n", sim.step_time_mean_s,
             sim.step_time_std_s, sim.step_time_min_s, sim.step_time_max_s);
  out += fmt("  per step           %12.6f s compute, %.6f s communication not hidden, %.6f s waiting\n", sim.compute_s,
             sim.comm_exposed_s, sim.wait_s);
  if (const double cost_usd = cost_usd_per_million_examples(sim); std::isfinite(cost_usd))
    out += fmt("  cost               %12.4f USD per million examples (hosts %.2f USD/h)\n", cost_usd,
               sim.cluster_price_per_hour_usd);
  for (std::size_t p = 0; p < sim.per_ps.size(); p++) {
    const PsStats& ps = sim.per_ps[p];
    if (ps.nic_Bps > 0)
      out += fmt("  PS %-3d %-11s NIC %s, %d tensors (%.4g MB), utilization down %.1f%% up %.1f%%\n", ps.rank,
                 ps.host.c_str(), format_Gbps(ps.nic_Bps).c_str(), ps.tensors, ps.bytes / 1e6,
                 100 * ps.downlink_utilization, 100 * ps.uplink_utilization);
    else // every worker on the PS's host: no NIC between them (run_summary.cpp leaves nic_Bps at 0)
      out += fmt("  PS %-3d %-11s no NIC between it and the workers (all on its host), %d tensors (%.4g MB)\n", ps.rank,
                 ps.host.c_str(), ps.tensors, ps.bytes / 1e6);
    // Its route to a worker: the narrowest link may lie beyond the PS's own NIC (issue #24).
    if (p < sim.ps_routes.size() && !sim.ps_routes[p].from_host.empty()) {
      const RouteInfo& r = sim.ps_routes[p];
      if (r.to_host == r.from_host) {
        out += "         route within its host: ";
      } else {
        out += "         route to ";
        out += r.to_host;
        out += ": ";
      }
      out += route_figures(r);
      out += "\n";
    }
  }
  if (!sim.components.empty())
    for (const SimResult& c : sim.components)
      out += fmt("  sharing %-10s %12.2f examples/s, step %.6f s\n", c.sharing.c_str(), c.throughput_examples_per_s,
                 c.step_time_mean_s);
  const bool few = sim.per_worker.size() <= 16;
  if (few) {
    out += "  worker host         speed   step mean s  step std s   compute s   exposed s   waiting s\n";
    for (const WorkerStats& w : sim.per_worker)
      out += fmt("  %-6d %-12s %5.2fx %12.6f %11.6f %11.6f %11.6f %11.6f\n", w.rank, w.host.c_str(), w.speed_ratio,
                 w.step_time_mean_s, w.step_time_std_s, w.compute_s, w.comm_exposed_s, w.wait_s);
  } else {
    const WorkerStats* slow = &sim.per_worker.front();
    const WorkerStats* fast = &sim.per_worker.front();
    for (const WorkerStats& w : sim.per_worker) {
      if (w.step_time_mean_s > slow->step_time_mean_s)
        slow = &w;
      if (w.step_time_mean_s < fast->step_time_mean_s)
        fast = &w;
    }
    out += fmt("  workers            fastest %d (%s) %.6f s per step, slowest %d (%s) %.6f s per step\n", fast->rank,
               fast->host.c_str(), fast->step_time_mean_s, slow->rank, slow->host.c_str(), slow->step_time_mean_s);
  }
  out += analytic_rows(rep);
  return out;
}

nlohmann::ordered_json report_json(const RunReport& rep)
{
  const Workload& wl = *rep.workload;
  const Scenario& sc = rep.scenario;
  // Calls back to back measured (docs/models.md §10.8): only then does the in-flight rule apply.
  const bool measured_queued = sc.measured_allreduce && !sc.allreduce_queued_time.empty();
  nlohmann::ordered_json j;
  j["schema_version"]  = kJsonSchemaVersion;
  j["sgdsim_version"]  = SGDSIM_VERSION;
  j["simgrid_version"] = simgrid_version();
  j["inputs"]          = {{"platform", rep.platform_path},
                          {"deployment",
                  rep.deployment_path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(rep.deployment_path)},
                          {"background",
                  rep.background_path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(rep.background_path)},
                          {"workload", wl.source_file},
                          {"arch", to_string(sc.arch)},
                          {"workers", sc.workers},
                          {"ps", sc.ps},
                          {"overlap", sc.overlap},
                          {"sharing", to_string(sc.sharing)},
                          {"collective", to_string(sc.collective)},
                          {"gpus_per_node", sc.gpus_per_node},
                          {"pipeline_chunks", sc.pipeline_chunks},
                          {"ring_mode", to_string(sc.ring_mode)},
                          {"framework", sc.framework},
                          {"allreduce_unit", to_string(sc.unit())},
                          {"bucket_bytes", sc.bucket_bytes},
                          {"first_bucket_bytes", sc.first_bucket_bytes},
                          {"collectives_in_flight", sc.collectives_in_flight},
                          {"sockets_per_peer", sc.sockets_per_peer},
                          {"connection_rate_Bps", sc.connection_rate_Bps},
                          {"ring_slice_bytes", sc.ring_slice_bytes},
                          {"ring_slices_in_flight", sc.ring_slices_in_flight},
                          {"ring_min_slices_per_step", sc.ring_min_slices_per_step},
                          {"egress_fifo", sc.egress_fifo},
                          {"fifo_wait", sc.egress_fifo ? to_string(sc.fifo_wait) : "none"},
                          {"fusion_buffer_bytes", sc.fusion_buffer_bytes},
                          {"fusion_timeout_s", sc.fusion_timeout_s},
                          {"fusion_batches", to_string(sc.fusion_batches)},
                          {"ada_fusion", sc.ada_fusion},
                          {"allreduce_overhead_s", sc.allreduce_overhead_s},
                          {"message_overhead_s", sc.message_overhead_s},
                          {"message_s_per_byte", sc.message_s_per_byte},
                          {"receive_s_per_byte", sc.receive_s_per_byte},
                          {"reduce_s_per_byte", sc.reduce_s_per_byte},
                          {"measured_allreduce", sc.measured_allreduce},
                          {"shared_cores", sc.shared_cores},
                          {"measured_allreduce_queued", measured_queued},
                          {"measured_sizes", sc.measured_allreduce && sc.measured_sizes},
                          {"measured_node_window", sc.measured_allreduce ? sc.measured_node_window : 0},
                          {"in_flight_cost", measured_queued ? to_string(sc.in_flight_cost) : ""},
                          {"uncovered_gain",
                  measured_queued && sc.in_flight_cost == InFlightCost::PAIRED ? to_string(sc.uncovered_gain) : ""},
                          {"ps_split", to_string(sc.ps_split)},
                          {"release_quantum_s", sc.release_quantum_s},
                          {"stream", sc.stream},
                          {"flow_spread_in", sc.flow_spread_in},
                          {"flow_spread_out", sc.flow_spread_out},
                          {"ack_coupling_in", sc.ack_coupling_in},
                          {"ack_coupling_out", sc.ack_coupling_out},
                          {"ack_coupling_exponent_in", sc.ack_coupling_exponent_in},
                          {"ack_coupling_exponent_out", sc.ack_coupling_exponent_out},
                          {"ack_coupling_late_in", optional_json(sc.ack_coupling_late_in)},
                          {"ack_coupling_late_out", optional_json(sc.ack_coupling_late_out)},
                          {"ack_coupling_established_in", optional_json(sc.ack_coupling_established_in)},
                          {"ack_coupling_established_out", optional_json(sc.ack_coupling_established_out)},
                          {"ack_coupling_offered_load", sc.ack_coupling_offered_load},
                          {"steps", sc.steps},
                          {"warmup", sc.warmup},
                          {"seed", sc.seed},
                          {"compute_jitter_cv", sc.compute_jitter_cv},
                          {"simgrid_cfg", sc.simgrid_cfg},
                          {"log", rep.log_settings}};
  j["workload"]        = {{"name", wl.name},
                          {"batch", wl.batch},
                          {"device", wl.device},
                          {"reference_speed_flops", wl.reference_speed},
                          {"layers", wl.layers.size()},
                          {"tensors", wl.tensors.size()},
                          {"model_bytes", wl.model_bytes()},
                          {"fwd_s", wl.fwd_s()},
                          {"bwd_s", wl.bwd_s()},
                          {"ps_update_s", wl.ps_update_s}};
  j["network"]         = {{"bottleneck_Bps", rep.network.bottleneck_Bps},
                          {"flow_cap_Bps", std::isfinite(rep.network.flow_cap_Bps)
                                               ? nlohmann::ordered_json(rep.network.flow_cap_Bps)
                                               : nlohmann::ordered_json()},
                          {"latency_s", rep.network.latency_s},
                          {"nic_factor", rep.nic_factor}};
  j["simulated"]       = rep.has_simulation ? to_json(rep.simulated) : nlohmann::ordered_json();
  if (j["simulated"].is_object())
    j["simulated"].erase("timeline"); // the timeline has its own file (--timeline)
  j["analytic"] = nlohmann::ordered_json::array();
  for (const Prediction& p : rep.analytic)
    j["analytic"].push_back({{"model", p.model},
                             {"equation", p.equation},
                             {"throughput_examples_per_s", p.throughput_examples_per_s},
                             {"step_time_s", p.step_time_s},
                             {"rel_diff_vs_simulated", relative_difference(p.throughput_examples_per_s,
                                                                           rep.simulated.throughput_examples_per_s)}});
  // Why `analytic` is empty (no network between hosts, or a collective no model covers); null when it is not.
  const std::string no_model = rep.analytic.empty() ? no_prediction_reason(sc, rep.network) : "";
  j["analytic_note"]         = no_model.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(no_model);
  return j;
}

} // namespace sgdsim
