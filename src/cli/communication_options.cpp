// src/cli/communication_options.cpp: see communication_options.hpp.
#include "cli/communication_options.hpp"

#include "cli/option_parsing.hpp"

#include "common/frameworks.hpp"
#include "common/input_error.hpp"
#include "common/limits.hpp"
#include "common/paths.hpp"
#include "common/units.hpp"
#include "platform/platform_check.hpp"
#include "platform/platform_costs.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <string>
#include <utility>
#include <vector>

namespace po = boost::program_options;

namespace sgdsim {

namespace {
// More lanes than any framework runs (Gloo: 2 threads by default); each lane is an actor per worker.
constexpr int kMaxCollectivesInFlight = 64;
} // namespace

// Ring: the framework profile first, then the options the user gave, which override it (README "Frameworks").
void parse_gradient_sync(const po::variables_map& vm, Scenario& sc)
{
  apply_framework(find_framework(get_or<std::string>(vm, "framework", "pytorch-ddp"), true, "--framework"), sc);
  if (vm.count("fusion-timeout") && vm.count("fusion-cycle"))
    throw InputError("--fusion-cycle: the same setting as --fusion-timeout; give one of the two");
  if (vm.count("fusion-timeout"))
    sc.fusion_timeout_s = parse_quantity(Quantity::TIME, vm["fusion-timeout"].as<std::string>(), "--fusion-timeout");
  if (vm.count("fusion-cycle"))
    sc.fusion_timeout_s = parse_quantity(Quantity::TIME, vm["fusion-cycle"].as<std::string>(), "--fusion-cycle");
  if (vm.count("bucket-size"))
    sc.bucket_bytes = parse_quantity(Quantity::SIZE, vm["bucket-size"].as<std::string>(), "--bucket-size");
  if (vm.count("first-bucket-size"))
    sc.first_bucket_bytes =
        parse_quantity(Quantity::SIZE, vm["first-bucket-size"].as<std::string>(), "--first-bucket-size");
  for (const auto& [name, bytes] :
       {std::pair{"bucket-size", sc.bucket_bytes}, {"first-bucket-size", sc.first_bucket_bytes}})
    if (vm.count(name) && !(bytes >= 1))
      throw InputError(std::string("--") + name + " " + vm[name].as<std::string>() + ": must be at least one byte");
  if (vm.count("collectives-in-flight")) {
    sc.collectives_in_flight = vm["collectives-in-flight"].as<int>();
    if (sc.collectives_in_flight < 1 || sc.collectives_in_flight > kMaxCollectivesInFlight)
      throw InputError("--collectives-in-flight " + std::to_string(sc.collectives_in_flight) + ": must be in [1, " +
                       std::to_string(kMaxCollectivesInFlight) + "]");
  }
  const bool unit_given = vm.count("allreduce-unit") > 0;
  const AllreduceUnit unit =
      unit_given ? parse_allreduce_unit(vm["allreduce-unit"].as<std::string>(), "--allreduce-unit") : sc.unit();
  if (vm.count("fusion-buffer")) {
    if (unit_given && unit != AllreduceUnit::FUSION)
      throw InputError("--fusion-buffer: applies to --allreduce-unit fusion, not to --allreduce-unit " +
                       std::string(to_string(unit)));
    sc.fusion_buffer_bytes = parse_quantity(Quantity::SIZE, vm["fusion-buffer"].as<std::string>(), "--fusion-buffer");
    if (sc.fusion_buffer_bytes > 0 && sc.fusion_buffer_bytes < 1)
      throw InputError("--fusion-buffer " + vm["fusion-buffer"].as<std::string>() +
                       ": must be 0 (no fusion) or at least one byte");
  } else if (unit_given && unit == AllreduceUnit::FUSION && sc.fusion_buffer_bytes <= 0) {
    throw InputError("--allreduce-unit fusion: needs a fusion buffer (--fusion-buffer SIZE, or --framework horovod)");
  } else if (unit_given && unit != AllreduceUnit::FUSION) {
    sc.fusion_buffer_bytes = 0; // the unit named replaces the framework's fusion
  }
  if (unit != AllreduceUnit::FUSION)
    sc.allreduce_unit = unit;
  for (const char* bucket_only : {"bucket-size", "first-bucket-size"})
    if (vm.count(bucket_only) && sc.unit() != AllreduceUnit::BUCKET)
      throw InputError(std::string("--") + bucket_only + ": applies to --allreduce-unit bucket, not to " +
                       to_string(sc.unit()));
  if (sc.unit() == AllreduceUnit::FUSION && vm.count("collectives-in-flight") && sc.collectives_in_flight > 1)
    throw InputError("--collectives-in-flight " + std::to_string(sc.collectives_in_flight) +
                     ": tensor fusion runs one all-reduce at a time (as Horovod's background thread does)");
  if (sc.unit() == AllreduceUnit::FUSION)
    sc.collectives_in_flight = 1;
  if (sc.collectives_in_flight > 1 && sc.collective != Collective::RING)
    throw InputError("--collectives-in-flight " + std::to_string(sc.collectives_in_flight) +
                     ": several all-reduces at once apply to --collective ring, not to " + to_string(sc.collective) +
                     (vm.count("collectives-in-flight") ? "" : " (set by --framework " + sc.framework + ")"));
}

namespace {
// A per-byte software cost, option `name` (docs/models.md §10.5): above 1 us per byte (slower than 1 MB/s) it is a
// unit mistake. `what` names what would be that slow, `example` a sensible value.
void parse_s_per_byte(const po::variables_map& vm, const std::string& name, const char* what, const char* example,
                      double& s_per_byte)
{
  if (!vm.count(name))
    return;
  const std::string v = vm[name].as<std::string>();
  s_per_byte          = parse_quantity(Quantity::TIME, v, "--" + name);
  if (s_per_byte > kMaxMessageSPerByte)
    throw InputError("--" + name + " " + v + ": more than 1us per byte (" + what +
                     " slower than 1 MB/s); the value is per byte, e.g. " + example);
}

// --ack-coupling-late-in/out and -established-in/out: the coupling by start order (docs/models.md §10.6 "Start
// order"), each a G as the coupling of flows started together is.
void parse_start_order_coupling(const po::variables_map& vm, Scenario& sc)
{
  for (const StartOrderOption& option : kStartOrderOptions) {
    const char* name = option.name;
    if (!vm.count(name))
      continue;
    const double g = vm[name].as<double>();
    if (!sc.ack_coupled())
      throw InputError(std::string("--") + name +
                       ": needs --ack-coupling-in and --ack-coupling-out (it refines their coupling by start order)");
    if (!(g > 0 && g <= Scenario::kMaxAckCoupling))
      throw InputError(std::string("--") + name + " " + std::to_string(g) +
                       ": must be in (0, 4] (a flow's slowdown per flow the other way)");
    sc.*option.field = g;
  }
  if (vm.count("ack-coupling-offered-load")) {
    sc.ack_coupling_offered_load =
        parse_on_off(vm["ack-coupling-offered-load"].as<std::string>(), "--ack-coupling-offered-load");
    if (sc.ack_coupling_offered_load && !sc.ack_coupling_late_out && !sc.ack_coupling_established_out)
      throw InputError("--ack-coupling-offered-load on: needs --ack-coupling-late-out or "
                       "--ack-coupling-established-out (it scales their laws; without them it changes nothing)");
  }
}
} // namespace

// The software costs of messages and calls (docs/models.md §10.5, §10.7), the PS's stream and release quantum, and
// the flow weights' spreads (§10.6).
namespace {
// --first-pull-weight: one weight (every K), or K:W pairs with K ascending (docs/models.md §10.6, "The first pull").
std::vector<std::pair<int, double>> parse_first_pull_weights(const std::string& text)
{
  const std::string what = "--first-pull-weight '" + text + "'";
  auto weight            = [&](const std::string& s) {
    std::size_t used = 0;
    double w         = 0;
    try {
      w = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || s.empty() || !(w >= 1 && w <= Scenario::kMaxFirstPullWeight))
      throw InputError(what + ": weight '" + s +
                                  "' must be in [1, 8] (the first pull's sharing weight against the later ones; 1: none)");
    return w;
  };
  std::vector<std::pair<int, double>> table;
  if (text.find(':') == std::string::npos) {
    table.emplace_back(1, weight(text));
    return table;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end   = std::min(text.find(',', start), text.size());
    const std::string item  = text.substr(start, end - start);
    const std::size_t colon = item.find(':');
    int k                   = 0;
    try {
      std::size_t used = 0;
      k                = colon == std::string::npos ? 0 : std::stoi(item.substr(0, colon), &used);
      if (used != colon)
        k = 0;
    } catch (const std::exception&) {
      k = 0;
    }
    if (k < 1 || k > kMaxWorkers)
      throw InputError(what + ": '" + item + "' must be K:W, K a number of workers in [1, " +
                       std::to_string(kMaxWorkers) + "]");
    if (!table.empty() && k <= table.back().first)
      throw InputError(what + ": the numbers of workers must ascend (" + std::to_string(k) + " after " +
                       std::to_string(table.back().first) + ")");
    table.emplace_back(k, weight(item.substr(colon + 1)));
    start = end + 1;
  }
  return table;
}

// The connections' sharing weights (--flow-spread-in/out, --first-pull-weight) ride on the latency of a link only the
// worker's connections cross (docs/models.md §10.6): they need streams, which leave the links' latencies free, and
// no relay inside a node, whose flows have no such link.
void refuse_unweighable(const std::string& option, const Scenario& sc)
{
  if (!sc.stream)
    throw InputError(option +
                     ": needs --stream on (the weights ride on the links' latencies, which streams leave free)");
  if (sc.gpus_per_node > 1)
    throw InputError(option + ": not with hierarchical PS (--gpus-per-node " + std::to_string(sc.gpus_per_node) +
                     "): the relays' flows inside a node have no weight");
}
} // namespace

void parse_software_costs(const po::variables_map& vm, Scenario& sc)
{
  if (vm.count("message-overhead"))
    sc.message_overhead_s =
        parse_quantity(Quantity::TIME, vm["message-overhead"].as<std::string>(), "--message-overhead");
  parse_s_per_byte(vm, "message-overhead-per-byte", "a transport", "5ns", sc.message_s_per_byte);
  parse_s_per_byte(vm, "receive-overhead-per-byte", "a receive thread", "1ns", sc.receive_s_per_byte);
  if (vm.count("allreduce-overhead"))
    sc.allreduce_overhead_s =
        parse_quantity(Quantity::TIME, vm["allreduce-overhead"].as<std::string>(), "--allreduce-overhead");
  if (vm.count("reduce-cost-per-byte"))
    sc.reduce_s_per_byte =
        parse_quantity(Quantity::TIME, vm["reduce-cost-per-byte"].as<std::string>(), "--reduce-cost-per-byte");
  if (vm.count("stream"))
    sc.stream = parse_on_off(vm["stream"].as<std::string>(), "--stream");
  if (vm.count("ps-reads")) {
    const std::string reads = vm["ps-reads"].as<std::string>();
    if (reads != "shard" && reads != "per-variable")
      throw InputError("--ps-reads '" + reads + "': expected shard or per-variable");
    sc.ps_reads_per_variable = reads == "per-variable";
    if (sc.ps_reads_per_variable && sc.arch != Arch::PS_SYNC)
      throw InputError("--ps-reads per-variable: applies to ps-sync (a read waits for every worker's gradient of "
                       "its tensor), not to --arch " +
                       std::string(to_string(sc.arch)));
    if (sc.ps_reads_per_variable && sc.sharing != Sharing::FAIR)
      throw InputError("--ps-reads per-variable: needs --sharing fair, not " + std::string(to_string(sc.sharing)) +
                       " (FCFS serves a worker's whole shard at its turn)");
  }
  if (vm.count("release-quantum"))
    sc.release_quantum_s = parse_quantity(Quantity::TIME, vm["release-quantum"].as<std::string>(), "--release-quantum");
  for (auto [name, field] :
       {std::pair{"flow-spread-in", &sc.flow_spread_in}, {"flow-spread-out", &sc.flow_spread_out}}) {
    if (!vm.count(name))
      continue;
    *field = vm[name].as<double>();
    if (!(*field >= 0 && *field <= Scenario::kMaxFlowSpread))
      throw InputError(std::string("--") + name + " " + std::to_string(*field) +
                       ": must be in [0, 2] (weights from exp(-spread) to exp(spread))");
    if (*field > 0)
      refuse_unweighable(std::string("--") + name, sc);
  }
  if (vm.count("first-pull-weight")) {
    sc.first_pull_weights = parse_first_pull_weights(vm["first-pull-weight"].as<std::string>());
    const bool weighs     = std::any_of(sc.first_pull_weights.begin(), sc.first_pull_weights.end(),
                                        [](const auto& kw) { return kw.second != 1; });
    if (!weighs)
      sc.first_pull_weights.clear();
    if (weighs)
      refuse_unweighable("--first-pull-weight", sc);
    if (weighs && sc.ps_reads_per_variable)
      throw InputError("--first-pull-weight: applies to --ps-reads shard (a pull is the shard sent at once), not to "
                       "per-variable reads");
    if (weighs && sc.sharing != Sharing::FAIR)
      throw InputError("--first-pull-weight: needs --sharing fair, not " + std::string(to_string(sc.sharing)) +
                       " (FCFS sends one pull at a time)");
  }
  if (vm.count("ack-coupling-in") != vm.count("ack-coupling-out"))
    throw InputError(std::string("--") + (vm.count("ack-coupling-in") ? "ack-coupling-in" : "ack-coupling-out") +
                     ": give both --ack-coupling-in and --ack-coupling-out (each direction's coupling replaces "
                     "SimGrid's ACK traffic, which couples both)");
  for (auto [name, field] :
       {std::pair{"ack-coupling-in", &sc.ack_coupling_in}, {"ack-coupling-out", &sc.ack_coupling_out}}) {
    if (!vm.count(name))
      continue;
    *field = vm[name].as<double>();
    // 0 for one direction: the flows the other way do not slow it (campaign 2026-12-06g's incast-mixed under CUBIC,
    // docs/models.md §10.6); both 0 would be no coupling at all, which leaving both out says (SimGrid's own).
    if (!(*field >= 0 && *field <= Scenario::kMaxAckCoupling))
      throw InputError(std::string("--") + name + " " + std::to_string(*field) +
                       ": must be in [0, 4] (a flow's slowdown per flow the other way; 0: none)");
    if (sc.gpus_per_node > 1)
      throw InputError(std::string("--") + name + ": not with hierarchical PS (--gpus-per-node " +
                       std::to_string(sc.gpus_per_node) + "): the relays' flows are not counted");
  }
  if (vm.count("ack-coupling-in") && sc.ack_coupling_in == 0 && sc.ack_coupling_out == 0)
    throw InputError("--ack-coupling-in 0 --ack-coupling-out 0: neither direction coupled; leave both options out for "
                     "SimGrid's own ACK traffic");
  for (auto [name, field] : {std::pair{"ack-coupling-exponent-in", &sc.ack_coupling_exponent_in},
                             {"ack-coupling-exponent-out", &sc.ack_coupling_exponent_out}}) {
    if (!vm.count(name))
      continue;
    *field = vm[name].as<double>();
    if (!sc.ack_coupled())
      throw InputError(std::string("--") + name +
                       ": needs --ack-coupling-in and --ack-coupling-out (it shapes "
                       "their coupling)");
    if (!(*field >= 0 && *field <= 1))
      throw InputError(std::string("--") + name + " " + std::to_string(*field) +
                       ": must be in [0, 1] (1: each flow bound as a lone flow; 0: the direction's flows together "
                       "as one)");
  }
  parse_start_order_coupling(vm, sc);
}

// A calibrated platform's software costs, where the command line gives none (README "Calibration").
void apply_platform_costs(const po::variables_map& vm, RunOptions& opts)
{
  Scenario& sc = opts.scenario;
  if (is_regular_path(opts.platform)) {
    check_platform_numbers(opts.platform);
    const PlatformCosts costs = read_platform_costs(opts.platform);
    opts.nic_factor           = costs.nic_factor.value_or(1.0);
    if (costs.models_latency_s.has_value() != costs.models_allreduce_overhead_s.has_value())
      throw InputError(opts.platform + ": has one of sgdsim.models_latency and sgdsim.models_allreduce_overhead "
                                       "without the other (calibrate --latency writes both: eq. (41)'s alpha and c)");
    opts.models_latency_s = costs.models_latency_s.value_or(-1);
    if (costs.models_allreduce_overhead_s && !vm.count("allreduce-overhead") && !sc.is_ps())
      opts.models_allreduce_overhead_s = *costs.models_allreduce_overhead_s;
    if (costs.message_overhead_s && !vm.count("message-overhead"))
      sc.message_overhead_s = *costs.message_overhead_s;
    // Measured on the user's cluster, it overrides the framework profile's figure (the ring does not use it: its
    // messages are the collective library's, calibrated with --kind allreduce).
    if (costs.message_s_per_byte && !vm.count("message-overhead-per-byte") && sc.is_ps())
      sc.message_s_per_byte = *costs.message_s_per_byte;
    if (costs.allreduce_overhead_s && !vm.count("allreduce-overhead") && !sc.is_ps())
      sc.allreduce_overhead_s = *costs.allreduce_overhead_s;
    if (!costs.allreduce_queued_time.empty() && costs.allreduce_time.empty())
      throw InputError(opts.platform + ": has sgdsim.allreduce_queued_time but no sgdsim.allreduce_time (the time of "
                                       "one call alone, which a call with no other in flight pays)");
    if (costs.shared_cores && costs.allreduce_time.empty())
      throw InputError(opts.platform + ": has sgdsim.shared_cores but no sgdsim.allreduce_time (the cores are those "
                                       "the all-reduce microbenchmark's ranks shared)");
    if (!sc.is_ps()) {
      sc.allreduce_time        = costs.allreduce_time;
      sc.allreduce_queued_time = costs.allreduce_queued_time;
      sc.shared_cores          = costs.shared_cores.value_or(0);
    }
    // NCCL chooses its sockets by the NIC (docs/models.md §10.9): the platform's figure, for NCCL's rings.
    if (costs.nccl_sockets && !sc.is_ps() && !vm.count("sockets-per-peer") &&
        find_framework(sc.framework, true, "--framework").nccl)
      sc.sockets_per_peer = *costs.nccl_sockets;
  }
}

// When tensor fusion forms its buffers (docs/models.md §7.2, §10.1): from computed gradients (ready, [OSF22]'s rule,
// which adaFusion and the timeout belong to) or from launched ones (scheduled, the Horovod profiles' default).
void parse_fusion_batches_option(const po::variables_map& vm, Scenario& sc)
{
  if (vm.count("fusion-batches")) {
    if (sc.unit() != AllreduceUnit::FUSION)
      throw InputError("--fusion-batches: applies to tensor fusion (--fusion-buffer SIZE, or --framework horovod), not "
                       "to --allreduce-unit " +
                       std::string(to_string(sc.unit())));
    sc.fusion_batches = parse_fusion_batches(vm["fusion-batches"].as<std::string>(), "--fusion-batches");
  } else if (sc.ada_fusion) {
    sc.fusion_batches = FusionBatches::READY; // adaFusion decides as each gradient is computed (eq. (36))
  }
  if (sc.unit() != AllreduceUnit::FUSION || sc.fusion_batches != FusionBatches::SCHEDULED)
    return;
  if (sc.ada_fusion)
    throw InputError("--ada-fusion: decides as gradients are computed, not with --fusion-batches scheduled");
  for (const char* timeout : {"fusion-timeout", "fusion-cycle"})
    if (vm.count(timeout))
      throw InputError(std::string("--") + timeout +
                       ": applies to --fusion-batches ready; buffers of launched tensors (scheduled, the Horovod "
                       "profiles' default) go once their last gradient is computed");
}

namespace {
// --ring-slices-in-flight and --ring-min-slices: a count of slices in [1, most], which only a ring of slices has.
int sliced_ring_count(const po::variables_map& vm, const char* name, int most, const Scenario& sc)
{
  const int n = vm[name].as<int>();
  if (n < 1 || n > most)
    throw InputError(std::string("--") + name + " " + std::to_string(n) + ": must be in [1, " + std::to_string(most) +
                     "]");
  if (sc.ring_slice_bytes == 0)
    throw InputError(std::string("--") + name + " " + std::to_string(n) +
                     ": needs --ring-slice (or a framework with slices: NCCL's or Gloo's): whole chunks are one "
                     "message per step");
  return n;
}
} // namespace

// How the ring's messages travel: sockets per peer (docs/models.md §10.9), slices (§10.10), and whether the measured
// all-reduce applies (§10.7).
void parse_ring_transport(const po::variables_map& vm, RunOptions& opts)
{
  Scenario& sc = opts.scenario;
  if (vm.count("sockets-per-peer")) {
    sc.sockets_per_peer = vm["sockets-per-peer"].as<int>();
    if (sc.sockets_per_peer < 1 || sc.sockets_per_peer > Scenario::kMaxSocketsPerPeer)
      throw InputError("--sockets-per-peer " + std::to_string(sc.sockets_per_peer) + ": must be in [1, " +
                       std::to_string(Scenario::kMaxSocketsPerPeer) + "] (NCCL's MAX_SOCKETS)");
  }
  if (vm.count("connection-rate")) {
    const std::string text = vm["connection-rate"].as<std::string>();
    sc.connection_rate_Bps = parse_quantity(Quantity::BANDWIDTH, text, "--connection-rate");
    if (sc.connection_rate_Bps <= 0) // parse_quantity already refuses negative and non-finite values
      throw InputError("--connection-rate " + text + ": must be a positive rate, e.g. 2.06GBps");
  }
  if (vm.count("ring-slice")) {
    sc.ring_slice_bytes = parse_quantity(Quantity::SIZE, vm["ring-slice"].as<std::string>(), "--ring-slice");
    if (sc.ring_slice_bytes > 0 && sc.ring_slice_bytes < Scenario::kMinRingSliceBytes)
      throw InputError("--ring-slice " + vm["ring-slice"].as<std::string>() +
                       ": a slice is at least 4 KiB (0: whole chunks); smaller ones would only multiply the messages");
    if (sc.ring_slice_bytes == 0 && !vm.count("ring-slices-in-flight"))
      sc.ring_slices_in_flight = 1;
  }
  if (vm.count("ring-slices-in-flight"))
    sc.ring_slices_in_flight = sliced_ring_count(vm, "ring-slices-in-flight", Scenario::kMaxSlicesInFlight, sc);
  if (vm.count("ring-min-slices")) {
    sc.ring_min_slices_per_step = sliced_ring_count(vm, "ring-min-slices", Scenario::kMaxMinSlicesPerStep, sc);
    if (sc.ring_mode != RingMode::STEPS)
      throw InputError("--ring-min-slices " + std::to_string(sc.ring_min_slices_per_step) +
                       ": applies to --ring-mode steps (stream mode sends one flow per ring edge)");
  }
  if (vm.count("egress-fifo")) {
    sc.egress_fifo = parse_on_off(vm["egress-fifo"].as<std::string>(), "--egress-fifo");
    if (sc.egress_fifo && (!sc.ring_sliced() || !sc.ring_credit_messages))
      throw InputError("--egress-fifo on: applies to a ring of slices whose receivers free each buffer by a message "
                       "(Gloo's: --framework gloo or pytorch-ddp-gloo), not to --framework " +
                       sc.framework + (sc.ring_slice_bytes == 0 ? " with whole chunks" : "") +
                       (sc.ring_mode != RingMode::STEPS ? " in stream mode" : ""));
  }
  if (vm.count("fifo-wait")) {
    const std::string wait              = vm["fifo-wait"].as<std::string>();
    const std::optional<FifoWait> named = fifo_wait_named(wait);
    if (!named)
      throw InputError("--fifo-wait '" + wait + "': expected average, exact or phase");
    if (!sc.egress_fifo)
      throw InputError("--fifo-wait " + wait +
                       ": applies with --egress-fifo on (it says how a slice waits behind "
                       "the host's other calls' slices in that queue)");
    sc.fifo_wait = *named;
  }
  if (sc.ring_slice_bytes > 0 && sc.ring_mode != RingMode::STEPS && vm.count("ring-slice"))
    throw InputError("--ring-slice: applies to --ring-mode steps (stream mode sends one flow per ring edge)");
  // The measured all-reduce (docs/models.md §10.7): the ring's, by default wherever the platform has one.
  const bool asked_on = vm.count("measured-allreduce") &&
                        parse_on_off(vm["measured-allreduce"].as<std::string>(), "--measured-allreduce");
  if (asked_on && sc.allreduce_time.empty())
    throw InputError("--measured-allreduce on: the platform " + opts.platform +
                     " has no sgdsim.allreduce_time (sgdsim calibrate --kind allreduce -o writes it from "
                     "microbenchmarks of two or more node counts)");
  if (asked_on && sc.collective != Collective::RING)
    throw InputError("--measured-allreduce on: applies to --collective ring (the microbenchmark's algorithm), not to " +
                     std::string(to_string(sc.collective)));
  sc.measured_allreduce =
      !sc.allreduce_time.empty() && sc.collective == Collective::RING && (asked_on || !vm.count("measured-allreduce"));
  // The microbenchmark's own times at its large sizes (docs/models.md §10.7 "The large sizes as measured"): on by
  // default where the platform has them; off, they are left out and eq. (37) gives every size.
  const auto has_sizes = [](const std::vector<AllreduceTimeFit>& fits) {
    return std::any_of(fits.begin(), fits.end(), [](const AllreduceTimeFit& f) { return !f.measured.empty(); });
  };
  sc.measured_sizes = vm.count("measured-sizes")
                          ? parse_on_off(vm["measured-sizes"].as<std::string>(), "--measured-sizes")
                          : sc.measured_allreduce && has_sizes(sc.allreduce_time);
  if (sc.measured_sizes && !sc.measured_allreduce)
    throw InputError("--measured-sizes on: needs the measured all-reduce (a platform with sgdsim.allreduce_time, "
                     "--collective ring, --measured-allreduce on)");
  if (sc.measured_sizes && !has_sizes(sc.allreduce_time))
    throw InputError("--measured-sizes on: the platform " + opts.platform +
                     "'s sgdsim.allreduce_time carries no measured sizes (';bytes=s' after a node count's fit: "
                     "calibrate --kind allreduce -o writes them since 2026-11-29)");
  if (vm.count("measured-node-window")) {
    const int window = vm["measured-node-window"].as<int>();
    if (window < 1 || window > Scenario::kMaxNodeWindow)
      throw InputError("--measured-node-window " + std::to_string(window) + ": must be in [1, " +
                       std::to_string(Scenario::kMaxNodeWindow) + "]");
    if (window > 1 && !sc.measured_allreduce)
      throw InputError("--measured-node-window " + std::to_string(window) +
                       ": needs the measured all-reduce (a platform with sgdsim.allreduce_time, --collective ring, "
                       "--measured-allreduce on)");
    sc.measured_node_window = window;
  }
  if (vm.count("in-flight-cost")) {
    const std::string cost                  = vm["in-flight-cost"].as<std::string>();
    const std::optional<InFlightCost> named = in_flight_cost_named(cost);
    if (!named)
      throw InputError("--in-flight-cost '" + cost + "': expected paired, each or same");
    if (!sc.measured_allreduce || sc.allreduce_queued_time.empty())
      throw InputError(
          "--in-flight-cost " + cost + ": needs the back-to-back all-reduce (a platform with " +
          "sgdsim.allreduce_queued_time: calibrate --queued; --measured-allreduce on), which the platform " +
          opts.platform + (sc.allreduce_queued_time.empty() ? " lacks" : " has, but off"));
    sc.in_flight_cost = *named;
  }
  if (vm.count("uncovered-gain")) {
    const std::string where                  = vm["uncovered-gain"].as<std::string>();
    const std::optional<UncoveredGain> named = uncovered_gain_named(where);
    if (!named)
      throw InputError("--uncovered-gain '" + where + "': expected rate or waits");
    if (!sc.measured_allreduce || sc.allreduce_queued_time.empty() || sc.in_flight_cost != InFlightCost::PAIRED)
      throw InputError("--uncovered-gain " + where +
                       ": applies with --in-flight-cost paired and the back-to-back all-reduce (a platform with "
                       "sgdsim.allreduce_queued_time: calibrate --queued; --measured-allreduce on)");
    sc.uncovered_gain = *named;
  }
  if (!sc.measured_sizes) {
    sc.allreduce_time        = lines_only(std::move(sc.allreduce_time));
    sc.allreduce_queued_time = lines_only(std::move(sc.allreduce_queued_time));
  }
}

} // namespace sgdsim
