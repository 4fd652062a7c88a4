// `sgdsim calibrate` (README "Calibration", docs/models.md §9.2): fits the network's effective bandwidth, latency
// and per-message or per-call costs to microbenchmarks, and with -o writes the platform that `sgdsim run` uses as it
// is: hosts of the user's device speed, NICs and latencies that reproduce the fit under SimGrid's default model, and
// the software costs as platform properties (platform/platform_costs.hpp).
#include "cli/platform_commands.hpp"
#include "cli/subcommand.hpp"
#include "common/allreduce_time.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/network_params.hpp"
#include "common/scenario.hpp"
#include "common/units.hpp"
#include "platform/calibration.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_costs.hpp"
#include "platform/platform_generator.hpp"
#include "workload/workload_parser.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace po = boost::program_options;

namespace sgdsim {
namespace {
// The time per message that tools/measure/microbench.py writes in a p2p_stream row where it measured none (its
// "nothing measurable"): rows at or below it are left out of --stream's fit.
constexpr double kStreamNothingMeasurableS = 1e-9;
} // namespace

int calibrate_command(const std::vector<std::string>& args)
{
  std::string measurements, kind_word, out, size_column, time_column, latency_text, speed, workload, line_rate_text,
      queued, chain_text, bandwidth_from_text;
  std::vector<std::string> where, stream_where, series_where;
  int nodes_given = 0, shared_cores = 0;
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("measurements", po::value<std::string>(&measurements)->required(), "CSV of measured times (README \"Calibration\")")
    ("kind", po::value<std::string>(&kind_word)->default_value("p2p"), "p2p (one transfer) or allreduce (ring)")
    ("where", po::value<std::vector<std::string>>(&where)->composing(),
     "COLUMN=VALUE or COLUMN=LO..HI (numbers, either bound optional): use only these rows (repeatable)")
    ("size-column", po::value<std::string>(&size_column), "the size column (default: found by its unit suffix)")
    ("time-column", po::value<std::string>(&time_column), "the time column (default: found by its unit suffix)")
    ("nodes", po::value<int>(&nodes_given), "-o: nodes of the platform (default: the most measured)")
    ("output,o", po::value<std::string>(&out),
     "also write a star platform with the fitted NIC, latency and software costs, which `sgdsim run --platform` uses "
     "as it is (needs --speed or --workload)")
    ("speed", po::value<std::string>(&speed), "-o: the hosts' speed, the FP32 peak of the device, e.g. 11.3Tf")
    ("workload", po::value<std::string>(&workload),
     "-o: the hosts' speed is this workload's reference_speed (its compute times are then its own)")
    ("latency", po::value<std::string>(&latency_text),
     "p2p: the one-way network latency, measured apart (e.g. half a ping-pong round trip), taken as the route's "
     "latency; what the fitted per-transfer constant c holds beyond it is the per-message software cost "
     "(sgdsim.message_overhead). Default: c is all latency. allreduce (two node counts or more): eq. (41)'s alpha, "
     "not fitted; what a ring step costs beyond it is each node count's own excess (sgdsim.allreduce_time; "
     "docs/models.md §10.7 \"The route's latency, measured apart\"). Default: alpha fitted over every node count")
    ("stream", po::value<std::vector<std::string>>(&stream_where)->composing(),
     "p2p: COLUMN=VALUE or COLUMN=LO..HI (repeatable) selecting, in the same CSV, the time of each message sent back "
     "to back on one connection (tools/measure p2p --stream: op=p2p_stream). Their fitted constant is the per-message "
     "software cost (sgdsim.message_overhead); what the constant of a transfer alone holds beyond it and the latency "
     "is paid once per transfer, not per message, and is reported, not written (docs/models.md §10.5)")
    ("node-series", po::value<std::vector<std::string>>(&series_where)->composing(),
     "p2p, with --latency: COLUMN=VALUE or COLUMN=LO..HI (repeatable) selecting, in the same CSV, a ring collective "
     "of the same library measured at two or more node counts (e.g. op=reduce: Gloo's reduce is its all-reduce's "
     "segmented ring, K - 1 steps, then a gather). How its time grows with K bounds what a ring step pays beyond its "
     "bytes; of the constant beyond the latency, up to that much is written as the per-message cost "
     "(sgdsim.message_overhead) and the rest as paid once per call (sgdsim.allreduce_overhead): TCP's ramp of a "
     "transfer after idle, not a cost of each step (docs/models.md §10.10)")
    ("node-series-chain", po::value<std::string>(&chain_text),
     "with --node-series: SLICE, e.g. 512KiB: the series' collective is a pipelined chain whose every added node is "
     "one more hop (NCCL's reduce: slices of NCCL_BUFFSIZE 4 MiB / NCCL_STEPS 8 x REDUCE_SLICESTEPS 1 = 512 KiB); "
     "the hop's latency (--latency) and one slice at the fitted bandwidth are taken off its growth per node before "
     "it bounds a ring step's cost (docs/models.md §10.10)")
    ("bandwidth-from", po::value<std::string>(&bandwidth_from_text),
     "SIZE, e.g. 1MiB: fit the bandwidth B on the rows of at least SIZE only, where the bytes decide the time, then "
     "alpha and c on every row with that B; eq. (37)'s fits still use every row (docs/models.md §10.7, \"The "
     "network's bandwidth\"). Default: B, alpha and c fitted together on every row")
    ("line-rate", po::value<std::string>(&line_rate_text),
     "the NIC's nominal rate, e.g. 1Gbps: a fitted bandwidth above it is warned about")
    ("split-per-byte",
     "p2p, -o, with --line-rate: the NIC gets the line rate, and the time per byte the fit holds beyond it becomes "
     "the framework's software cost per byte (sgdsim.message_overhead_per_byte: paid per PS connection, not shared "
     "on the NIC; docs/models.md §10.5). For a benchmark of a framework's own transport between two hosts")
    ("queued", po::value<std::string>(&queued),
     "allreduce, -o: a CSV of all-reduces launched back to back, as many at once as the framework runs (tools/measure "
     "allreduce --queued), at two or more node counts: each node count's eq. (37) of the time per call is written as "
     "sgdsim.allreduce_queued_time, which `run` charges to a call that starts beside others in flight "
     "(docs/models.md §10.8); same columns as --measurements, every row used")
    ("shared-cores", po::value<int>(&shared_cores),
     "allreduce, -o: the measured ranks all ran on one machine of this many cores (an emulated cluster): written as "
     "sgdsim.shared_cores, so that `run` beyond the node counts measured lets a ring step's software time grow with "
     "the ranks per core (docs/models.md §10.7, \"Ranks sharing cores\")")
    ("force", "overwrite the output file");
  // clang-format on
  po::variables_map vm;
  if (!parse_subcommand(args, d,
                        "Usage: sgdsim calibrate --measurements FILE.csv [--kind p2p|allreduce] [-o platform.xml "
                        "--speed SPEED|--workload FILE]",
                        vm))
    return 0;
  if (kind_word != "p2p" && kind_word != "allreduce")
    throw InputError("--kind '" + kind_word + "': unknown kind (valid: p2p, allreduce)");
  const CommKind kind = kind_word == "p2p" ? CommKind::P2P : CommKind::ALLREDUCE;
  // Every option is checked before anything is fitted or written.
  if (!out.empty()) {
    check_output(out, vm.count("force") > 0);
    check_not_an_input("-o", out, {measurements, workload});
    if (speed.empty() == workload.empty())
      throw InputError("-o: give the hosts' speed with --speed (e.g. 11.3Tf) or --workload FILE (its reference "
                       "speed), once: the calibrated platform's hosts must run the workloads at their device's speed");
    if (!workload.empty())
      speed = fmt("%.6g", parse_workload_file(workload).reference_speed) + "f";
    parse_quantity(Quantity::SPEED, speed, "--speed");
  } else {
    for (const char* needs_output : {"speed", "workload", "nodes"})
      if (vm.count(needs_output))
        throw InputError(std::string("--") + needs_output + ": applies with -o (the platform to write)");
  }
  if (vm.count("nodes") && (nodes_given < 2 || nodes_given > kMaxPlatformHosts))
    throw InputError(std::string("--nodes ").append(std::to_string(nodes_given)).append(": must be in [2, ") +
                     std::to_string(kMaxPlatformHosts) + "] (the most hosts sgdsim loads, docs/design.md \"Limits\")");
  if (vm.count("shared-cores") && (kind != CommKind::ALLREDUCE || out.empty()))
    throw InputError("--shared-cores: applies with --kind allreduce and -o (it is written into the platform)");
  if (vm.count("shared-cores") && (shared_cores < 1 || shared_cores > Scenario::kMaxSharedCores))
    throw InputError("--shared-cores " + std::to_string(shared_cores) + ": must be in [1, " +
                     std::to_string(Scenario::kMaxSharedCores) + "] (the cores of the machine the ranks ran on)");
  if (!queued.empty() && (kind != CommKind::ALLREDUCE || out.empty()))
    throw InputError("--queued: applies with --kind allreduce and -o (it is written into the platform)");
  if (!stream_where.empty() && kind != CommKind::P2P)
    throw InputError("--stream: applies to --kind p2p (back-to-back messages between two hosts)");
  if (!series_where.empty() && (kind != CommKind::P2P || latency_text.empty() || !stream_where.empty()))
    throw InputError("--node-series: applies to --kind p2p with --latency and without --stream (it splits the "
                     "constant a transfer alone pays beyond the latency)");
  if (!chain_text.empty() && series_where.empty())
    throw InputError("--node-series-chain " + chain_text + ": applies with --node-series (it reads that series)");
  const double chain_bytes = chain_text.empty() ? 0 : parse_quantity(Quantity::SIZE, chain_text, "--node-series-chain");
  if (!chain_text.empty() && !(chain_bytes > 0))
    throw InputError("--node-series-chain " + chain_text + ": a slice of more than 0 bytes, e.g. 512KiB");
  const double latency_s = latency_text.empty() ? -1 : parse_quantity(Quantity::TIME, latency_text, "--latency");
  const double line_rate_Bps =
      line_rate_text.empty() ? 0 : parse_quantity(Quantity::BANDWIDTH, line_rate_text, "--line-rate");
  const bool split_per_byte = vm.count("split-per-byte") > 0;
  if (split_per_byte && (kind != CommKind::P2P || out.empty() || line_rate_Bps <= 0))
    throw InputError("--split-per-byte: needs --kind p2p, -o and --line-rate (the wire's rate, against which the "
                     "fitted time per byte is split)");
  const double bandwidth_from_bytes =
      bandwidth_from_text.empty() ? 0 : parse_quantity(Quantity::SIZE, bandwidth_from_text, "--bandwidth-from");
  if (!bandwidth_from_text.empty() && !(bandwidth_from_bytes > 0))
    throw InputError("--bandwidth-from " + bandwidth_from_text + ": a size of more than 0 bytes, e.g. 1MiB");
  std::vector<CommMeasurement> m = read_comm_measurements(measurements, where, size_column, time_column);
  CalibrationFit f =
      calibrate(kind, m, measurements, bandwidth_from_bytes, kind == CommKind::ALLREDUCE ? latency_s : -1);
  // --stream: the messages of a busy connection pay the per-message cost and nothing per transfer.
  // Their constant c' is the per-message cost; the route latency L is --latency's, or what a transfer alone holds
  // beyond c'.
  std::optional<CalibrationFit> stream_fit;
  double stream_message_s = 0, stream_latency_s = 0;
  std::vector<int> stream_floor_lines; // --stream rows at the kit's floor, left out of the fit
  if (!stream_where.empty()) {
    std::vector<CommMeasurement> stream_rows =
        read_comm_measurements(measurements, stream_where, size_column, time_column);
    // tools/measure/microbench.py writes a stream row's time per message as 1 ns where it measured nothing (a noisy
    // transfer alone as long as the N back to back): not a time. With the least squares' relative weights (1 / T^2)
    // one such row outweighs the others by 10^10 and leaves the equations singular.
    std::erase_if(stream_rows, [&](const CommMeasurement& x) {
      if (x.time_s > kStreamNothingMeasurableS)
        return false;
      stream_floor_lines.push_back(x.line);
      return true;
    });
    stream_fit       = calibrate(CommKind::P2P, stream_rows, measurements);
    stream_message_s = std::max(0.0, stream_fit->call_s);
    stream_latency_s = latency_s >= 0 ? latency_s : std::max(0.0, f.call_s - stream_message_s);
  }
  // --node-series: of the constant beyond the latency, what a ring step may pay (at most the series' h) is a cost
  // per message; the rest is paid once per transfer, i.e. once per call of a ring whose connections stay busy.
  std::optional<StepCostFit> series_fit;
  std::vector<CommMeasurement> series_rows;
  double series_message_s = 0, series_call_s = 0, series_hop_s = 0;
  if (!series_where.empty()) {
    series_rows           = read_comm_measurements(measurements, series_where, size_column, time_column);
    series_fit            = fit_step_cost(series_rows, measurements + " (--node-series)");
    const double beyond_s = std::max(0.0, f.call_s - latency_s);
    // A chain's every added node is a hop: its latency and one slice come with the growth, not with a step's cost.
    series_hop_s     = chain_bytes > 0 ? latency_s + chain_bytes / f.bandwidth_Bps : 0.0;
    series_message_s = std::min(beyond_s, std::max(0.0, series_fit->step_s - series_hop_s));
    series_call_s    = beyond_s - series_message_s;
  }
  std::vector<AllreduceTimeFit> queued_fits;
  if (!queued.empty()) {
    check_not_an_input("-o", out, {queued});
    queued_fits =
        fit_allreduce_by_nodes(read_comm_measurements(queued, {}, size_column, time_column), f.bandwidth_from_bytes);
    if (queued_fits.size() < 2)
      throw InputError(queued, 0,
                       "--queued: eq. (37) fits " + std::to_string(queued_fits.size()) +
                           " node count(s); `run` needs two or more (each with 4 sizes or more, times growing with "
                           "the size)");
    if (f.by_nodes.empty())
      throw InputError(measurements, 0,
                       "--queued: these measurements give no per-node-count fit (sgdsim.allreduce_time, the time of "
                       "a call alone, which the queued one goes with): measure two or more node counts");
  }
  if (!out.empty() && f.bandwidth_Bps / kLv08BandwidthFactor < kMinBandwidth_Bps)
    throw InputError(measurements, 0,
                     std::string("the fitted bandwidth, ").append(format_Gbps(f.bandwidth_Bps)) +
                         ", is below 1kbps, the slowest a platform may give: check the size and time columns' units");
  // The bandwidth rests on how the times grow with the size. Where the bytes account for little of the time even
  // at the largest size, the noise of the constant term decides it: said, not hidden (issue #21, class 7).
  const auto largest = std::max_element(
      m.begin(), m.end(), [](const CommMeasurement& a, const CommMeasurement& b) { return a.bytes < b.bytes; });
  const double ring_share = kind == CommKind::ALLREDUCE ? 2.0 * (largest->nodes - 1) / largest->nodes : 1.0;
  const double bytes_share =
      ring_share * largest->bytes / f.bandwidth_Bps / f.linear_s[static_cast<std::size_t>(largest - m.begin())];
  constexpr double kLeastBytesShare = 0.1; // below it, 1% of noise on the times moves B by 10% or more
  if (bytes_share < kLeastBytesShare)
    std::cerr << "sgdsim: warning: " << measurements << ":" << largest->line << ": at the largest size, "
              << fmt("%.6g", largest->bytes) << " B, the bytes account for " << fmt("%.2g", 100 * bytes_share)
              << "% of the fitted time: the bandwidth, " << format_Gbps(f.bandwidth_Bps)
              << ", is barely determined; measure larger sizes\n";
  if (line_rate_Bps > 0 && f.bandwidth_Bps > line_rate_Bps)
    std::cerr << "sgdsim: warning: the fitted bandwidth, " << format_Gbps(f.bandwidth_Bps)
              << ", exceeds the line rate, " << format_Gbps(line_rate_Bps)
              << ": small transfers may pass a shaper's burst unthrottled, or the times are not transfer times; "
                 "fit on larger sizes (--where size_bytes=1048576..)\n";

  std::ostringstream o;
  o << "calibration of " << measurements << " (" << kind_word << ", " << m.size() << " measurements)\n";
  o << "  model      "
    << (kind == CommKind::P2P
            ? "T = bytes / B + c"
            : (f.alpha_separable ? "T = 2(K-1)/K bytes / B + 2(K-1) alpha + c (docs/models.md eq. (41))"
                                 : "T = 2(K-1)/K bytes / B + c (one node count: c holds the "
                                   "per-message latencies too)"))
    << "\n";
  o << "  B          " << format_Gbps(f.bandwidth_Bps) << " (" << fmt("%.4g", f.bandwidth_Bps / 1e6) << " MB/s"
    << (f.bandwidth_fixed ? ", from the " + std::to_string(f.bandwidth_rows) + " rows of at least " +
                                fmt("%.6g", f.bandwidth_from_bytes) + " B (--bandwidth-from); alpha and c with it"
                          : std::string())
    << ")\n";
  if (f.alpha_separable)
    o << "  alpha      " << fmt("%.4g", f.alpha_s * 1e6) << " us per message"
      << (f.alpha_given_s >= 0 ? " (--latency: the route's, measured apart; c is 0, and what a call costs beyond "
                                 "the route is each node count's excess below)"
                               : "")
      << "\n";
  o << "  c          " << fmt("%.6g", f.call_s * 1e6) << " us per " << (kind == CommKind::P2P ? "transfer" : "call")
    << "\n";
  if (stream_fit) {
    // The part of a lone transfer's constant that a busy connection's messages do not pay: TCP's ramp of a transfer
    // after idle, the transfer's handshake, the benchmark's own synchronization (docs/models.md §10.5).
    o << "  c'         " << fmt("%.4g", stream_message_s * 1e6) << " us per message on a stream (--stream rows; B' "
      << format_Gbps(stream_fit->bandwidth_Bps) << ")\n";
    if (!stream_floor_lines.empty()) {
      o << "  (--stream rows left out at the kit's 1 ns, nothing measured: line";
      for (const int line : stream_floor_lines)
        o << " " << line;
      o << ")\n";
    }
    o << "  c - c' - L " << fmt("%.4g", std::max(0.0, f.call_s - stream_message_s - stream_latency_s) * 1e6)
      << " us per transfer alone, beyond the per-message cost and the latency L = "
      << fmt("%.4g", stream_latency_s * 1e6) << " us" << (latency_s >= 0 ? " (--latency)" : " (c - c')")
      << ": paid once per transfer, not per message; sgdsim does not model it\n";
  }
  if (series_fit) {
    o << "  h          " << fmt("%.6g", series_fit->step_s * 1e6)
      << " us per ring step at most (--node-series: " << series_fit->rows << " rows at " << series_fit->node_counts
      << " node counts, T = a(size) + (K-1) h" << (series_fit->step_s < 0 ? "; negative: no cost per step shows" : "")
      << ")\n";
    if (series_hop_s > 0)
      o << "  h - hop    " << fmt("%.6g", (series_fit->step_s - series_hop_s) * 1e6)
        << " us per ring step at most (--node-series-chain: each node one more hop, the latency and a slice: "
        << fmt("%.6g", series_hop_s * 1e6) << " us)\n";
    o << "  c - L      " << fmt("%.6g", (series_message_s + series_call_s) * 1e6)
      << " us beyond the latency: " << fmt("%.6g", series_message_s * 1e6) << " us per message (at most h"
      << (series_hop_s > 0 ? " - hop" : "") << ", sgdsim.message_overhead), " << fmt("%.6g", series_call_s * 1e6)
      << " us once per call (sgdsim.allreduce_overhead)\n";
  }
  if (f.dropped_line > 0)
    o << "  (line " << f.dropped_line << " left out of the fit: an outlier, off by more than 5% and 4 times the median "
      << "point)\n";
  for (const std::string& z : f.fixed_at_zero)
    if (z == "c" && f.burst_c_s < 0)
      o << "  (c fixed at 0: the unconstrained fit made it " << fmt("%.4g", f.burst_c_s * 1e6) << " us, the first "
        << fmt("%.3g", -f.burst_c_s * f.bandwidth_Bps)
        << " B or so of a transfer passing faster than the rate (a shaper's burst); B is that fit's rate, the one "
           "back-to-back traffic sees, so a lone transfer is predicted up to "
        << fmt("%.4g", -f.burst_c_s * 1e6) << " us long: docs/models.md §10.7 \"A negative constant\")\n";
    else
      o << "  (" << z << " fixed at 0: the unconstrained fit made it negative, which no network does)\n";
  if (f.piecewise)
    o << "  eq. (37)   " << fmt("%.4g", f.piecewise->a1_s) << " log2(D) + " << fmt("%.4g", f.piecewise->b1_s)
      << " s below " << fmt("%.4g", f.piecewise->threshold_bytes) << " bytes, "
      << fmt("%.4g", f.piecewise->a2_s_per_byte) << " D + " << fmt("%.4g", f.piecewise->b2_s) << " s from there on\n";
  o << "\n  line  nodes          bytes   measured s     linear s    error"
    << (f.piecewise.has_value() ? "   eq. (37) s    error" : "") << "\n";
  double sum = 0, worst = 0, sum_pw = 0, worst_pw = 0;
  for (std::size_t i = 0; i < m.size(); i++) {
    double e = (f.linear_s[i] - m[i].time_s) / m[i].time_s;
    sum += std::fabs(e);
    worst = std::max(worst, std::fabs(e));
    char row[160];
    std::snprintf(row, sizeof row, "  %4d %6d %14.0f %12.6g %12.6g %+7.2f%%", m[i].line, m[i].nodes, m[i].bytes,
                  m[i].time_s, f.linear_s[i], 100 * e);
    o << row;
    if (f.piecewise.has_value()) {
      double ep = (f.piecewise_s[i] - m[i].time_s) / m[i].time_s;
      sum_pw += std::fabs(ep);
      worst_pw = std::max(worst_pw, std::fabs(ep));
      std::snprintf(row, sizeof row, " %12.6g %+7.2f%%", f.piecewise_s[i], 100 * ep);
      o << row;
    }
    o << "\n";
  }
  o << "\n  linear: mean |error| " << fmt("%.2f", 100 * sum / m.size()) << "%, max " << fmt("%.2f", 100 * worst)
    << "%\n";
  if (f.piecewise.has_value())
    o << "  eq. (37): mean |error| " << fmt("%.2f", 100 * sum_pw / m.size()) << "%, max " << fmt("%.2f", 100 * worst_pw)
      << "%\n";
  auto fits_table = [&o](const std::vector<AllreduceTimeFit>& fits, const std::string& title) {
    o << "\n  " << title << "\n"
      << "  nodes   a1 s/log2(B)         b1 s  threshold B     a2 s/B         b2 s   mean err    max err  as measured "
         "from B  eq. (37) at the largest\n";
    for (const AllreduceTimeFit& a : fits) {
      char row[240];
      // How far the line lies from the largest size's measured time: where the bytes decide, what a mean error over
      // every size hides (docs/models.md §10.7 "The large sizes as measured").
      const double off_largest = a.measured.empty() || !(a.measured.back().time_s > 0)
                                     ? 0.0
                                     : a.eq.value_s(a.measured.back().bytes) / a.measured.back().time_s - 1;
      std::snprintf(row, sizeof row, "  %5d %12.4g %12.4g %12.4g %10.4g %12.4g %9.2f%% %9.2f%% %14.4g %+22.2f%%\n",
                    a.nodes, a.eq.a1_s, a.eq.b1_s, a.eq.threshold_bytes, a.eq.a2_s_per_byte, a.eq.b2_s,
                    100 * a.mean_error, 100 * a.max_error, a.measured.empty() ? 0.0 : a.measured.front().bytes,
                    100 * off_largest);
      o << row;
    }
    o << "  (errors of eq. (37), what `run` charges; from the size 'as measured from' on, `run --measured-sizes on` "
         "takes the measured times instead, made non-decreasing; the last column, eq. (37) against the largest size's "
         "time: docs/models.md §10.7 \"The large sizes as measured\")\n";
  };
  if (!f.by_nodes.empty())
    fits_table(f.by_nodes,
               "eq. (37) for each node count: the time `run` charges beyond the network (docs/models.md §10.7)");
  // Sizes 16 times apart across those measured, from 4 KiB, and the largest: where the per-step figures below are
  // shown.
  std::vector<double> shown_sizes;
  if (f.by_nodes.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(
        m.begin(), m.end(), [](const CommMeasurement& a, const CommMeasurement& b) { return a.bytes < b.bytes; });
    for (double d = 4096; d < hi->bytes; d *= 16)
      if (d >= lo->bytes)
        shown_sizes.push_back(d);
    shown_sizes.push_back(hi->bytes);
  }
  if (f.by_nodes.size() >= 2 && shared_cores > 0) {
    o << "\n  beyond " << f.by_nodes.back().nodes << " nodes, a ring pays the " << f.by_nodes.back().nodes
      << "-node excess times its steps and its ranks per core (" << shared_cores
      << " shared cores; docs/models.md §10.7 \"Ranks sharing cores\")\n";
  } else if (f.by_nodes.size() >= 2) {
    // A ring larger than the node counts measured pays, for each step more, what the excess grows by per step: shown
    // so that the figure extrapolated is seen before it is used; from the fits as `run` takes them by default (with
    // their measured sizes, docs/models.md §10.7 "The large sizes as measured").
    o << "\n  beyond " << f.by_nodes.back().nodes << " nodes, each ring step more adds (docs/models.md §10.7):";
    for (std::size_t j = 0; j < shown_sizes.size(); j++)
      o << " " << fmt("%.0f", shown_sizes[j]) << " B " << format_us(step_excess_beyond_s(f, f.by_nodes, shown_sizes[j]))
        << (j + 1 < shown_sizes.size() ? "," : "\n");
  }
  if (f.by_nodes.size() >= 3) {
    // Each node count's excess per step beside the line through its neighbours', which `run --measured-node-window 3`
    // charges: a node count far from it is the microbenchmark's noise more than a property of that K.
    constexpr std::size_t kWindow = 3;
    o << "\n  excess per ring step over eq. (41)'s network, ms: each node count's own -> the line through the "
      << kWindow << " nearest\n  (run --measured-node-window " << kWindow
      << ", docs/models.md §10.7 \"Neighbouring node counts pooled\")\n  nodes";
    for (const double d : shown_sizes)
      o << fmt("%22.0f B", d);
    o << "\n";
    std::vector<int> nodes;
    for (const AllreduceTimeFit& a : f.by_nodes)
      nodes.push_back(a.nodes);
    std::vector<std::vector<double>> own(shown_sizes.size());
    for (std::size_t j = 0; j < shown_sizes.size(); j++)
      for (const AllreduceTimeFit& a : f.by_nodes)
        own[j].push_back(step_excess_s(f, a, shown_sizes[j]));
    for (std::size_t i = 0; i < nodes.size(); i++) {
      o << "  " << std::setw(5) << nodes[i];
      for (std::size_t j = 0; j < shown_sizes.size(); j++)
        o << "  " << std::setw(22)
          << fmt("%.3g", 1e3 * own[j][i]) + " -> " +
                 fmt("%.3g", 1e3 * nearest_line_at(nodes, own[j], nodes[i], kWindow));
      o << "\n";
    }
  }
  if (!queued_fits.empty())
    fits_table(queued_fits,
               "eq. (37) for each node count of " + queued + ": the time per call back to back (docs/models.md §10.8)");
  if (series_fit) {
    o << "\n  node series (--node-series): T = a(size) + (K-1) h\n"
      << "  line  nodes          bytes   measured s     fitted s    error\n";
    for (std::size_t i = 0; i < series_rows.size(); i++) {
      const CommMeasurement& x = series_rows[i];
      char row[160];
      std::snprintf(row, sizeof row, "  %4d %6d %14.0f %12.6g %12.6g %+7.2f%%\n", x.line, x.nodes, x.bytes, x.time_s,
                    series_fit->fitted_s[i], 100 * (series_fit->fitted_s[i] - x.time_s) / x.time_s);
      o << row;
    }
  }
  std::cout << o.str();

  if (!out.empty()) {
    // The platform that reproduces the fit in sgdsim's default network model: LV08 multiplies bandwidths by 0.97
    // (docs/design.md, SimGrid fact 9), so the NIC is B / 0.97; a route crosses two NIC links, so each has half the
    // per-message latency. p2p: c is the latency, or with --latency the latency and a per-message software cost;
    // allreduce: alpha is the latency and c a per-call cost (docs/models.md §9.2).
    int nodes = 2;
    for (const CommMeasurement& x : m)
      nodes = std::max(nodes, x.nodes);
    if (vm.count("nodes"))
      nodes = nodes_given;
    PlatformSpec s;
    s.nodes = nodes;
    s.speed = speed;
    // An all-reduce's measured rate already holds the ACKs a ring's NIC carries beside its data; SimGrid adds its
    // own (1.05, kSimgridAckWeight) on the star written here, so the NIC carries them too and a call alone
    // reproduces the fit (docs/models.md §10.7, "The ring's ACKs").
    const double ack_factor = kind == CommKind::ALLREDUCE ? 1.0 + kSimgridAckWeight : 1.0;
    const double nic_Bps    = f.bandwidth_Bps * ack_factor / kLv08BandwidthFactor;
    s.nic                   = fmt("%.6g", nic_Bps) + "Bps";
    // --split-per-byte: 1/B = 1/(0.97 line rate) + a, the wire at the line rate (LV08's factor applied by SimGrid)
    // and a the software's time per byte (docs/models.md §10.5). A fit at or above the wire's rate leaves no a.
    const double wire_Bps   = line_rate_Bps * kLv08BandwidthFactor;
    const double s_per_byte = split_per_byte ? 1.0 / f.bandwidth_Bps - 1.0 / wire_Bps : 0.0;
    const bool split        = s_per_byte > 0;
    if (split) {
      s.nic = fmt("%.6g", line_rate_Bps) + "Bps";
      s.host_props.emplace_back("sgdsim.message_overhead_per_byte", fmt("%.6g", s_per_byte * 1e9) + "ns");
    } else if (split_per_byte) {
      std::cerr << "sgdsim: warning: --split-per-byte: the fitted bandwidth, " << format_Gbps(f.bandwidth_Bps)
                << ", is not below the wire's " << format_Gbps(wire_Bps)
                << " (the line rate times LV08's 0.97): no software cost per byte to split off\n";
    }
    double route_latency_s = kind == CommKind::P2P ? f.call_s : (f.alpha_separable ? f.alpha_s : 0.0);
    if (stream_fit) { // the per-message cost measured on a stream
      route_latency_s = stream_latency_s;
      s.host_props.emplace_back("sgdsim.message_overhead", fmt("%.6g", stream_message_s * 1e6) + "us");
    } else if (series_fit) {
      route_latency_s = latency_s;
      s.host_props.emplace_back("sgdsim.message_overhead", fmt("%.6g", series_message_s * 1e6) + "us");
      if (series_call_s > 0)
        s.host_props.emplace_back("sgdsim.allreduce_overhead", fmt("%.6g", series_call_s * 1e6) + "us");
    } else if (kind == CommKind::P2P && latency_s >= 0) {
      route_latency_s       = latency_s; // measured apart: it stands even where the fit's c is smaller (c fixed at 0)
      const double beyond_s = std::max(0.0, f.call_s - latency_s);
      s.host_props.emplace_back("sgdsim.message_overhead", fmt("%.6g", beyond_s * 1e6) + "us");
      // A constant of several round trips is rather TCP's ramp of a transfer after idle than software: a ring's
      // warm connections do not pay it per message, which the written cost makes each step pay (docs/models.md
      // §10.10; the shaped AWS cases: 70 ms beyond 10 ms). Said, not hidden: this fit cannot tell the two apart;
      // messages measured back to back can (--stream, docs/models.md §10.5).
      constexpr double kRoundTripsOfSoftware = 2;
      if (latency_s > 0 && beyond_s > kRoundTripsOfSoftware * 2 * latency_s)
        std::cerr
            << "sgdsim: warning: --latency " << latency_text << ": the fitted constant beyond it, "
            << fmt("%.3g", beyond_s * 1e3) << " ms, is " << fmt("%.2g", beyond_s / (2 * latency_s))
            << " round trips: more likely TCP's ramp of a fresh transfer than a software cost; it is written as "
               "sgdsim.message_overhead, which every ring step pays (override with run --message-overhead; "
               "tools/measure p2p --stream and calibrate --stream measure the per-message cost apart; --node-series "
               "bounds it with a collective at several node counts)\n";
    }
    if (kind == CommKind::ALLREDUCE)
      s.host_props.emplace_back("sgdsim.allreduce_overhead", fmt("%.6g", f.call_s * 1e6) + "us");
    if (kind == CommKind::ALLREDUCE && f.alpha_given_s >= 0) {
      // The analytic models have no excess per node count: they keep eq. (41) fitted over every node count, whose
      // alpha and c hold the software (docs/models.md §10.7 "The route's latency, measured apart").
      const CalibrationFit fitted = calibrate(kind, m, measurements, bandwidth_from_bytes);
      s.host_props.emplace_back("sgdsim.models_latency", fmt("%.6g", fitted.alpha_s * 1e6) + "us");
      s.host_props.emplace_back("sgdsim.models_allreduce_overhead", fmt("%.6g", fitted.call_s * 1e6) + "us");
    }
    // The NIC over the measured rate, so that the analytic models read the measured B (run_command.cpp); with
    // --split-per-byte the NIC is the line rate and the models add the per-byte cost themselves.
    const double nic_factor = (split ? 1.0 : ack_factor) / kLv08BandwidthFactor;
    s.host_props.emplace_back("sgdsim.nic_factor", fmt("%.6g", nic_factor));
    if (!f.by_nodes.empty())
      s.host_props.emplace_back("sgdsim.allreduce_time", format_allreduce_time(f.by_nodes));
    if (!queued_fits.empty())
      s.host_props.emplace_back("sgdsim.allreduce_queued_time", format_allreduce_time(queued_fits));
    if (shared_cores > 0) {
      if (f.by_nodes.empty())
        throw InputError(measurements, 0,
                         "--shared-cores: these measurements give no per-node-count fit (sgdsim.allreduce_time, "
                         "whose growth beyond the node counts measured the cores set): measure two or more node "
                         "counts");
      s.host_props.emplace_back("sgdsim.shared_cores", std::to_string(shared_cores));
    }
    s.latency = fmt("%.6g", route_latency_s / 2 * 1e6) + "us";
    s.command = command_line(args);
    write_file_atomically(out, generate_platform_xml(s));
    // Printed for people (the XML above keeps SimGrid's exact values).
    std::cout << "\nwrote " << out << ": " << nodes << " nodes of " << s.speed << ", NIC "
              << (split ? format_Gbps(line_rate_Bps) + " (the line rate)"
                        : format_Gbps(nic_Bps) + (kind == CommKind::ALLREDUCE
                                                      ? " (B x 1.05 / 0.97: LV08's factor, and SimGrid's ACKs of the "
                                                        "ring's other flow on each NIC)"
                                                      : " (B / 0.97, LV08's factor)"))
              << ", latency " << format_us(route_latency_s / 2) << " per link";
    for (const auto& [name, value] : s.host_props)
      std::cout << ", " << name << " " << value;
    std::cout << "\n";
  }
  return 0;
}

} // namespace sgdsim
