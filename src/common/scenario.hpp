// The scenario of a run (docs/design.md "Scenario options"): architecture, sizes, options. A plain struct, shared
// by the simulation and the analytic models. The CLI words and the enums meet only in the tables of
// scenario.cpp, which also produce the "valid: ..." lists of error messages.
#pragma once

#include "common/allreduce_time.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sgdsim {

enum class Arch { PS_ASYNC, PS_SYNC, RING };
/** How the PS NIC is shared: SimGrid's max-min flows, one transfer at a time per direction, or both averaged. */
enum class Sharing { FAIR, FCFS, HYBRID };
/** What a ring all-reduce started beside others in flight pays, with the back-to-back microbenchmark (docs/models.md
 *  §10.8): SAME, in_flight times its own back-to-back time (every call taken as this one's size); EACH, its own plus
 *  each other call's at that call's size ("Calls of different sizes"); PAIRED, as EACH, plus the share of its gain
 *  over the call alone that the longest other call leaves uncovered ("A call beside shorter ones"). */
enum class InFlightCost { SAME, EACH, PAIRED };
/** Where --in-flight-cost paired pays a call's uncovered gain (docs/models.md §10.8 "The uncovered gain holds the
 *  connection"). */
enum class UncoveredGain { RATE, WAITS };
/** How a slice behind its host's other calls' queued slices waits in a FIFO egress (docs/models.md §10.12): AVERAGE,
 *  for their queue's time average ("The queue's average"); EXACT, until they have left; PHASE, exactly behind a
 *  call that moves one slice per ring step (its steps in phase with this call's) and for the average of the others
 *  ("In phase with a call of one slice a step"). */
enum class FifoWait { AVERAGE, EXACT, PHASE };
/** The all-reduce algorithm of the decentralized architecture (README "Collectives"). */
enum class Collective { RING, TREE, HALVING_DOUBLING, HIERARCHICAL };
/** How a ring all-reduce is simulated: each of the 2(K-1) steps as messages, or one flow per ring edge. */
enum class RingMode { STEPS, STREAM };
/** How tensors are assigned to parameter servers. */
enum class PsSplit { ROUND_ROBIN, BALANCED };
/** What one all-reduce carries (README "Gradient units"): a tensor, a layer's tensors, a PyTorch DDP bucket, or a
 *  Horovod fusion buffer (--fusion-buffer). */
enum class AllreduceUnit { TENSOR, LAYER, BUCKET, FUSION };
/** When Horovod's fusion forms its buffers (docs/models.md §7.2): READY, from the gradients computed so far ([OSF22]'s
 *  rule, eq. (31)-(33)); SCHEDULED, from the gradients the framework has launched on the GPU, ahead of their
 *  computation, so that a buffer is consecutive tensors up to Q and waits for its last one (§10.1). */
enum class FusionBatches { READY, SCHEDULED };

struct Scenario {
  Arch arch = Arch::PS_SYNC;
  /** True for the architectures with parameter servers. */
  bool is_ps() const { return arch != Arch::RING; }
  /** What one all-reduce carries: a fusion buffer whenever one is set, else allreduce_unit. */
  AllreduceUnit unit() const;
  /** Tensor fusion whose buffers are decided during the run, from the gradients computed so far (--fusion-batches
   *  ready); fusion of launched tensors is planned before it, as units (workload/grad_units.hpp). */
  bool fusion_at_run_time() const { return unit() == AllreduceUnit::FUSION && fusion_batches == FusionBatches::READY; }
  int workers        = 8;
  int ps             = 1;
  bool overlap       = true;
  Sharing sharing    = Sharing::HYBRID;
  PsSplit ps_split   = PsSplit::ROUND_ROBIN;
  int steps          = 10; // measured steps
  int warmup         = 2;  // simulated before the measured ones, not measured
  std::uint64_t seed = 1;
  /** Coefficient of variation of a uniform multiplicative noise on every layer's compute time (0: none). */
  double compute_jitter_cv = 0;
  /** ps-*: a parameter server releases a worker's parameters (starts sending them) at the next multiple of this
   *  time, not at once (0: at once, exact). Releases that fall in one quantum then start together and share one
   *  simulation event; README "Release quantum" gives the speed gained and the change of the results. */
  double release_quantum_s = 0;
  /** ps-*: messages on one PS connection form a stream (docs/models.md §10.5): the route latency delays each
   *  message's delivery but does not hold the connection, so back-to-back messages pay it once. false: every
   *  message pays the route latency before its bytes, one after the other (sgdsim 0.1). */
  bool stream = true;
  /** ps-sync: when a worker reads its parameters (docs/models.md §10.13). false ("shard", [LI22]'s Algorithm 1): a
   *  PS sends a worker its shard once every tensor of it is updated, and the forward of a layer starts once its
   *  tensors have arrived. true ("per-variable", tf_cnn_benchmarks' distributed_replicated): a PS sends each tensor
   *  once all workers' gradients of it are applied, during the step, and the next step starts once every parameter
   *  has arrived (the step's session run ends with the reads). */
  bool ps_reads_per_variable = false;
  /** ps-*: TCP's unequal sharing of a host's link among concurrent flows (docs/models.md §10.6): each step, every
   *  worker's connection into its PS (in) and out of it (out) gets a sharing weight exp(spread x u), u uniform in
   *  [-1, 1], drawn from the seed; 0: SimGrid's fair max-min sharing. Fitted from `measure.py incast`
   *  (tools/measure/fit_incast.py). */
  double flow_spread_in  = 0;
  double flow_spread_out = 0;
  /** Whether the workers' connections carry sharing weights (spreads or the first pull's weight). */
  [[nodiscard]] bool weighs_flows() const
  {
    return flow_spread_in > 0 || flow_spread_out > 0 || first_pull_weight() != 1;
  }
  /** ps-* with shard reads: a PS's pull (a worker's parameters) that starts while the PS sends no other keeps this
   *  sharing weight against the pulls started after it, until it ends (docs/models.md §10.6, "The first pull"): a
   *  TCP flow that had the link alone keeps a larger window. Per number of workers (K, weight), K ascending: the
   *  weight at `workers` is interpolated linearly in K, the first or last beyond them; empty: 1, none. Fitted by
   *  tools/measure/fit_incast.py on incast-out of the workload's tensors (--flow-tensors). */
  std::vector<std::pair<int, double>> first_pull_weights;
  static constexpr double kMaxFirstPullWeight = 8;
  [[nodiscard]] double first_pull_weight() const
  {
    if (first_pull_weights.empty())
      return 1;
    if (workers <= first_pull_weights.front().first)
      return first_pull_weights.front().second;
    for (std::size_t i = 1; i < first_pull_weights.size(); i++) {
      const auto [k1, w1] = first_pull_weights[i];
      if (workers <= k1) {
        const auto [k0, w0] = first_pull_weights[i - 1];
        return w0 + (w1 - w0) * (workers - k0) / (k1 - k0);
      }
    }
    return first_pull_weights.back().second;
  }
  /** The largest spread: weights from exp(-2) to exp(2), 55x apart (the testbed's fit is 0.45). */
  static constexpr double kMaxFlowSpread = 2;
  /** ps-*: the coupling of a PS NIC's two directions as measured (docs/models.md §10.6): SimGrid's ACK traffic off,
   *  and a flow into (out of) a PS runs at most at its rate alone / (coupling x the flows out of (into) that PS at
   *  the moment). Both 0: SimGrid's own coupling (network/crosstraffic). Fitted by tools/measure/fit_incast.py on
   *  outcast-mixed (in) and incast-mixed (out). */
  double ack_coupling_in  = 0;
  double ack_coupling_out = 0;
  /** With the coupling, how a direction's own flows soften it: n_own flows beside n_rev the other way are slowed
   *  max(1, G n_rev / n_own^exponent) against their share of the link alone. 1 (default): each flow bound
   *  alone as one flow would be (the lone-flow fit); below 1 several flows lose more together, as the incast-duplex
   *  microbenchmark measured for flows into the PS (docs/models.md §10.6 "Many flows each way"). */
  double ack_coupling_exponent_in  = 1;
  double ack_coupling_exponent_out = 1;
  /** With the coupling, by start order (docs/models.md §10.6 "Start order, measured and modelled"): n flows of a
   * direction started while the other direction carried an older flow (late) are slowed max(1, G_late m / n) beside m
   * the other way; flows that the other direction joined later (established) max(1, G_established m / n). Fitted on
   * duplex-late-in (late in, established out) and duplex-late-out (late out, established in). Unset: the law of flows
   * started together (the fields above). */
  std::optional<double> ack_coupling_late_in, ack_coupling_late_out;
  std::optional<double> ack_coupling_established_in, ack_coupling_established_out;
  /** With the start-order laws of the flows out, scale them by the offered load of the flows into the PS
   *  (--ack-coupling-offered-load, docs/models.md §10.6 "The offered load of the flows in"): measured, pushes paced
   *  below the link cost the flows out less than back-to-back transfers, on which the laws were fitted. */
  bool ack_coupling_offered_load = false;
  /** The largest coupling accepted: a flow slowed 4 times per flow the other way (measured: 0.5 to 0.9). */
  static constexpr double kMaxAckCoupling = 4;
  bool ack_coupled() const { return ack_coupling_in > 0 || ack_coupling_out > 0; }
  bool start_order_set() const
  {
    return ack_coupling_late_in || ack_coupling_late_out || ack_coupling_established_in || ack_coupling_established_out;
  }
  // Decentralized (ring) options, docs/models.md §3 and §7.
  Collective collective        = Collective::RING;
  int gpus_per_node            = 1; // hierarchical: consecutive ranks per node, the first one leads
  int pipeline_chunks          = 1; // tree: the buffer is pipelined through the tree in this many chunks
  RingMode ring_mode           = RingMode::STEPS;
  double fusion_buffer_bytes   = 0;                    // Q; 0: no fusion (one all-reduce per layer with gradients)
  double fusion_timeout_s      = 5e-3;                 // Horovod's cycle time default (5 ms)
  bool ada_fusion              = false;                // fuse a layer only if docs/models.md eq. (36) says it pays
  FusionBatches fusion_batches = FusionBatches::READY; // the Horovod profiles: SCHEDULED
  double allreduce_overhead_s  = 0;                    // delta: fixed cost of each all-reduce call (negotiation)
  double message_overhead_s    = 0; // fixed cost of each message of a collective (software per-message cost)
  /** ps-*: [LI20] eq. (19)'s a, the software cost per byte of each PS message (deserialization, copies: what a
   *  framework's transport adds to the wire per byte, docs/models.md §10.5), charged where message_overhead_s is. */
  double message_s_per_byte = 0;
  /** ps-*: the software cost per byte of a process's one receive thread, which every message the process receives
   *  from the PS architecture's connections (between hosts or not) goes through one after the other: the PS for the
   *  gradients, a worker (or a node's relay) for the parameters (docs/models.md §10.5, "Receive thread"). */
  double receive_s_per_byte = 0;
  double reduce_s_per_byte  = 0; // summation cost per byte received in the reduce-scatter
  /** Ring: an all-reduce pays what measured_allreduce_s(allreduce_time, K, bytes), the platform's measured time,
   *  exceeds the network's time by, spread over its 2(K - 1) steps (docs/models.md §10.7); set only where the
   *  platform carries one (sgdsim.allreduce_time). */
  bool measured_allreduce = false;
  /** With measured_allreduce: whether the fits' measured sizes (AllreduceTimeFit::measured) set the time from the
   *  threshold on (--measured-sizes on); off, options.cpp leaves them out and eq. (37) holds at every size
   *  (docs/models.md §10.7 "The large sizes as measured"). */
  bool measured_sizes = false;
  std::vector<AllreduceTimeFit> allreduce_time;
  /** With measured_allreduce: the time per call of all-reduces run back to back (sgdsim.allreduce_queued_time), which
   *  a call that starts beside n - 1 others in flight pays n times over (docs/models.md §10.8); empty: every call
   *  pays allreduce_time's, as if alone. */
  std::vector<AllreduceTimeFit> allreduce_queued_time;
  /** With allreduce_queued_time: what a call that starts beside others in flight pays (docs/models.md §10.8). */
  InFlightCost in_flight_cost  = InFlightCost::PAIRED;
  UncoveredGain uncovered_gain = UncoveredGain::RATE;
  /** With measured_allreduce: the microbenchmark's ranks all ran on one machine of this many cores
   *  (sgdsim.shared_cores), so a ring step's software time grew with the ranks per core; beyond the node counts
   *  measured it keeps growing so (docs/models.md §10.7, "Ranks sharing cores"). 0: a machine per rank. */
  int shared_cores = 0;
  /** With measured_allreduce: how many of the node counts measured, the nearest to K, set a K-rank call's software
   *  cost: 1, that node count's own microbenchmark (interpolated between two); more, a least-squares line of the
   *  cost per ring step against the node count through them (--measured-node-window, docs/models.md §10.7
   *  "Neighbouring node counts pooled"; 3, the narrowest symmetric window, since 2026-11-30). */
  int measured_node_window = 3;
  /** sgdsim.shared_cores' bound: more cores than any one machine has. */
  static constexpr int kMaxSharedCores = 4096;
  /** measured_node_window's bound: more node counts than a microbenchmark measures. */
  static constexpr int kMaxNodeWindow = 64;
  /** The unit of each all-reduce without fusion (tensor, layer or bucket): read it through unit(). */
  AllreduceUnit allreduce_unit = AllreduceUnit::LAYER;
  double bucket_bytes          = 25.0 * 1024 * 1024; // BUCKET: DDP's bucket_cap_mb = 25 (MiB)
  double first_bucket_bytes    = 1024.0 * 1024;      // BUCKET: torch.distributed._DEFAULT_FIRST_BUCKET_BYTES
  /** All-reduces a worker runs at once, started in order (Gloo's process group: 2 threads; NCCL, Horovod: 1). */
  int collectives_in_flight = 1;
  /** Every collective: TCP connections per peer that each message between hosts is cut over (NCCL's socket
   *  transport: NCCL_NSOCKS_PERTHREAD x NCCL_SOCKET_NTHREADS; docs/models.md §10.9). 1: one flow per message (Gloo,
   *  NCCL's default outside AWS and GCP). */
  int sockets_per_peer = 1;
  /** Every collective: the most one connection of the collective library moves between two hosts, its software's
   *  rate (NCCL's socket transport before 2.4.8: one proxy thread per connection, about 2 GB/s; docs/models.md
   *  §10.11); each of a message's parts is a connection. 0: the network alone decides. */
  double connection_rate_Bps = 0;
  /** The most sockets per peer: NCCL's MAX_SOCKETS (net_socket.cc). */
  static constexpr int kMaxSocketsPerPeer = 64;
  /** Steps-mode ring: a chunk between two workers travels in slices of at most this many bytes, each forwarded as
   *  soon as it has arrived, with ring_slices_in_flight of them in flight per connection (docs/models.md §10.10).
   *  0: a chunk is one message, forwarded once it has wholly arrived (Gloo's store-and-forward of a step). */
  double ring_slice_bytes   = 0;
  int ring_slices_in_flight = 1;
  /** Sliced ring: each step's chunk travels in at least this many slices (Gloo cuts every chunk into two or more
   *  segments, gloo/allreduce.cc; no profile sets it, docs/models.md §10.10); 1: one slice where the chunk fits. */
  int ring_min_slices_per_step = 1;
  /** Sliced ring: the receiver tells the sender that a slice's buffer is free again by a message of its own (Gloo:
   *  its notice that the next receive is posted, tcp/pair.cc); set by the Gloo framework profiles. NCCL's socket
   *  transport sends no such message. */
  bool ring_credit_messages = false;
  /** Sliced ring with credit messages: every host's egress is one FIFO queue (tc shaping: netem, HTB with a pfifo
   *  leaf), so a credit leaves behind the slices its host has queued for its own next member (docs/models.md
   *  §10.12). false: it leaves at once (a NIC whose flows queue apart, or an idle one). */
  bool egress_fifo = false;
  /** With egress_fifo, how a slice behind the host's other calls' queued slices waits. AVERAGE: for their queue's
   *  time average, (queued - 1/2) of their slices at the duration of the last one that left, as a message written at
   *  a moment unrelated to their progress does (measured: validation/testbed/README.md "Where the small call
   *  waits"); EXACT: until they have left, which in a homogeneous ring meets them in lockstep, one just started
   *  (docs/models.md §10.12 "The queue's average"); PHASE (the default): until they have left where their call moves
   *  one slice per ring step, its steps in phase with this call's, else at the average (§10.12 "In phase with a call
   *  of one slice a step"). A call none of whose slices has left yet is waited for until they have. */
  FifoWait fifo_wait = FifoWait::PHASE;
  /** Ranks from one member of the ring to the next: the hierarchical all-reduce's ring joins the nodes' leaders. */
  int ring_stride() const { return collective == Collective::HIERARCHICAL ? gpus_per_node : 1; }
  /** A steps-mode ring, or the hierarchical all-reduce's leaders' ring, whose chunks travel in slices. */
  bool ring_sliced() const
  {
    return !is_ps() && ring_slice_bytes > 0 && ring_mode == RingMode::STEPS &&
           (collective == Collective::RING || collective == Collective::HIERARCHICAL);
  }
  /** The smallest slice (--ring-slice's bound): a page; NCCL's smallest is 32 KiB (its 1 MiB / 32). */
  static constexpr double kMinRingSliceBytes = 4096;
  /** The most slices per step that --ring-min-slices asks for: more only multiplies the messages. */
  static constexpr int kMaxMinSlicesPerStep = 64;
  /** The most slices in flight per connection (--ring-slices-in-flight's bound). */
  static constexpr int kMaxSlicesInFlight = 64;
  /** The framework profile that set the defaults above (README "Frameworks"); "none": sgdsim's own defaults. */
  std::string framework = "none";
  /** Steps mode: each worker's actor exchanges its own chunks, even where the ring dispatcher could
   *  (sim/ring_driver.hpp). Not a CLI option: tests check that both give the same simulated times. */
  bool ring_by_worker_actors = false;
  /** Steps mode through the ring dispatcher: every step of every all-reduce is simulated, even where the
   *  dispatcher could replay the steps of a lockstep ring (docs/design.md "Ring step replay"). Not a CLI option:
   *  tests check that both give the same results. */
  bool ring_every_step_simulated = false;
  /** Steps mode through the ring dispatcher: every chunk is a comm of its own, even where the ring's edges could keep
   *  their flows (docs/design.md "Kept flows in the ring"). Not a CLI option: tests check that both give the same
   *  results. */
  bool ring_fresh_flows = false;
  /** PS updates are executions on the PS host even where their dates could be computed (SimContext::
   *  ps_cpu_exclusive). Not a CLI option: tests check that both give the same simulated times. */
  bool ps_updates_as_executions = false;
  /** ps-*: the workers' and the PS's own actors run the steps even where the PS dispatcher could (sim/
   *  ps_dispatcher.hpp). Not a CLI option: tests check that both give the same simulated times. */
  bool ps_by_actors = false;
  /** SimGrid configuration items ("network/model:CM02"), applied before the platform is loaded. */
  std::vector<std::string> simgrid_cfg;
};

/** The start-order options, one row each: their parse, their line in a scenario file and their law in the
 *  simulation read this table (docs/models.md §10.6 "Start order, measured and modelled"). */
struct StartOrderOption {
  const char* name;
  std::optional<double> Scenario::*field;
  bool into_ps; // the law of flows into the PS, else out of it
  bool late;    // the law of late flows, else of established ones
};
inline constexpr StartOrderOption kStartOrderOptions[] = {
    {"ack-coupling-late-in", &Scenario::ack_coupling_late_in, true, true},
    {"ack-coupling-late-out", &Scenario::ack_coupling_late_out, false, true},
    {"ack-coupling-established-in", &Scenario::ack_coupling_established_in, true, false},
    {"ack-coupling-established-out", &Scenario::ack_coupling_established_out, false, false},
};

const char* to_string(Arch a);
const char* to_string(Sharing s);
const char* to_string(InFlightCost c);
const char* to_string(UncoveredGain g);
const char* to_string(FifoWait w);
const char* to_string(RingMode m);
const char* to_string(Collective c);
const char* to_string(PsSplit s);
const char* to_string(AllreduceUnit u);
const char* to_string(FusionBatches b);
/** Parse a CLI word; on error throws InputError("<context>: '<word>': unknown <kind> (valid: ...)"). */
Arch parse_arch(const std::string& word, const std::string& context);
Sharing parse_sharing(const std::string& word, const std::string& context);
PsSplit parse_ps_split(const std::string& word, const std::string& context);
RingMode parse_ring_mode(const std::string& word, const std::string& context);
Collective parse_collective(const std::string& word, const std::string& context);
AllreduceUnit parse_allreduce_unit(const std::string& word, const std::string& context);
FusionBatches parse_fusion_batches(const std::string& word, const std::string& context);
bool parse_on_off(const std::string& word, const std::string& context);
/** The value a CLI word names (to_string's inverse), nullopt for another word: for the options that word their own
 *  error ("--fifo-wait 'x': expected average, exact or phase"), not parse_word's. */
std::optional<InFlightCost> in_flight_cost_named(const std::string& word);
std::optional<UncoveredGain> uncovered_gain_named(const std::string& word);
std::optional<FifoWait> fifo_wait_named(const std::string& word);

/** The SimGrid settings under which the analytic models' assumptions hold (docs/design.md, SimGrid fact 2): with
 *  latency 0 on the platform, simulations then match the closed forms exactly. */
std::vector<std::string> ideal_network_cfg();

} // namespace sgdsim
