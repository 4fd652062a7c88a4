// `sgdsim run`'s option declarations: names, defaults and help texts (README "Options").
#include "cli/option_descriptions.hpp"
#include "cli/options.hpp"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace sgdsim {

po::options_description scenario_options()
{
  po::options_description d("Scenario (command line or --scenario file)");
  // clang-format off
  d.add_options()
    ("platform", po::value<std::string>(), "SimGrid platform XML (default platforms/aws-p3.2xlarge.xml)")
    ("workload", po::value<std::string>(), "workload XML (default workloads/resnet50-v100-b32.xml)")
    ("deployment", po::value<std::string>(), "SimGrid deployment XML (default: automatic placement, see README)")
    ("background", po::value<std::string>(),
     "background load: time-varying speed of hosts and bandwidth of links (README \"Background traffic\")")
    ("arch", po::value<std::string>()->default_value("ps-sync"), "architecture: ps-sync, ps-async, ring")
    ("workers", po::value<int>(), "number of workers K (default 8, or as many as the deployment has)")
    ("ps", po::value<int>(), "number of parameter servers (default 1 for ps-*, 0 for ring, or as the deployment has)")
    ("overlap", po::value<std::string>()->default_value("on"),
     "on: forward of a layer starts when its tensors arrived, uplinks start after each backward; off: all "
     "downlinks, then all compute, then all uplinks")
    ("sharing", po::value<std::string>(),
     "PS link sharing: fair (SimGrid max-min), fcfs (one transfer at a time per PS NIC direction), hybrid (both, "
     "throughputs averaged). Default: fair (README \"Link sharing at the PS\")")
    ("ps-split", po::value<std::string>()->default_value("round-robin"),
     "assignment of tensors to PS: round-robin (forward order), balanced (largest first to least loaded)")
    ("collective", po::value<std::string>(),
     "ring: all-reduce algorithm: ring (default), tree, halving-doubling, hierarchical (README \"Collectives\")")
    ("gpus-per-node", po::value<int>(),
     "consecutive ranks per multi-GPU node (>= 2): hierarchical all-reduce (ring) or hierarchical PS (ps-*)")
    ("pipeline-chunks", po::value<int>(), "ring, tree collective: chunks pipelined through the tree (default 1)")
    ("ring-mode", po::value<std::string>(),
     "ring: steps (2(K-1) exchanges per all-reduce, default) or stream (one flow per ring edge, for large K)")
    ("framework", po::value<std::string>(),
     "the framework whose communication to reproduce, which sets other options' defaults (README \"Gradient units "
     "and frameworks\"): ring: pytorch-ddp (default), pytorch-ddp-gloo, horovod, horovod-0.20, nccl, gloo, none; PS: none "
     "(default: TCP streams, fair sharing), tf-ps (TensorFlow's gRPC PS: hybrid sharing), tf-ps-1.3 (TensorFlow <= "
     "1.3: one receive thread per process at 1.111 ns per byte, 4.756 ns per message byte between hosts, fair "
     "sharing)")
    ("allreduce-unit", po::value<std::string>(),
     "ring: what one all-reduce carries: tensor, layer, bucket, fusion (default: the framework's)")
    ("bucket-size", po::value<std::string>(),
     "ring, bucket unit: a bucket closes once it holds this much, e.g. 25MiB (DDP's bucket_cap_mb, the default)")
    ("first-bucket-size", po::value<std::string>(),
     "ring, bucket unit: the first bucket's limit (default 1MiB, DDP's)")
    ("collectives-in-flight", po::value<int>(),
     "ring: all-reduces a worker runs at once, started in order (default: the framework's; 2 for Gloo)")
    ("sockets-per-peer", po::value<int>(),
     "ring: TCP connections each collective message between hosts is cut over, in parts of at least 64 KiB "
     "(NCCL's NCCL_NSOCKS_PERTHREAD x NCCL_SOCKET_NTHREADS; default 1, or with an NCCL framework the platform's "
     "sgdsim.nccl_sockets)")
    ("ring-slice", po::value<std::string>(),
     "ring, steps mode: a chunk between two workers travels in slices of at most this size, each forwarded as soon as "
     "it has arrived, e.g. 1MiB (default: the framework's: 1 MiB for NCCL's and Gloo's, 0 for none: whole chunks, "
     "forwarded once arrived; docs/models.md §10.10)")
    ("ring-slices-in-flight", po::value<int>(),
     "ring, with --ring-slice: slices in flight per connection (default: the framework's: 4 for NCCL, 2 for Gloo)")
    ("ring-min-slices", po::value<int>(),
     "ring, with --ring-slice: each step's chunk travels in at least this many slices, however small (Gloo cuts "
     "every chunk into 2 or more; default 1, for every framework: docs/models.md §10.10 says why)")
    ("egress-fifo", po::value<std::string>(),
     "on|off. ring with Gloo's slices (--framework gloo or pytorch-ddp-gloo): a slice leaves behind the slices the "
     "host's other calls have queued (Gloo's threads write to one connection per pair of ranks; tc's netem makes a "
     "host's egress one FIFO too), and a receiver's notice that a slice's buffer is free behind the slices it has "
     "queued itself (not with a measured all-reduce, which holds it) (default off: flows share the NIC at once; "
     "docs/models.md §10.12)")
    ("fifo-wait", po::value<std::string>(),
     "average|exact|phase. with --egress-fifo on: a slice behind the host's other calls' queued slices waits for "
     "their queue's time average, (queued - 1/2) slices (average), or until they have left (exact; in a homogeneous "
     "ring that meets them in lockstep), or until they have left behind a call that moves one slice per ring step, "
     "its steps in phase with this call's, and their average behind the others (phase) (default phase: "
     "docs/models.md §10.12 \"The queue's average\", \"In phase with a call of one slice a step\")")
    ("connection-rate", po::value<std::string>(),
     "ring, every collective: the most one connection of the collective library moves between two hosts, e.g. "
     "2.06GBps (NCCL's socket transport before 2.4.8 with one ring, docs/models.md §10.11); each socket per peer is a "
     "connection (default: none, the network alone decides)")
    ("fusion-buffer", po::value<std::string>(),
     "ring: tensor fusion buffer Q, e.g. 64MB (default: the framework's; 0: no fusion)")
    ("fusion-timeout", po::value<std::string>(),
     "ring, --fusion-batches ready: a fused buffer is sent when no gradient arrives within this time (default 5ms, "
     "Horovod's cycle)")
    ("fusion-cycle", po::value<std::string>(), "ring: Horovod's name for --fusion-timeout (give one of the two)")
    ("fusion-batches", po::value<std::string>(),
     "ring, tensor fusion: ready (a buffer takes gradients as they are computed, [OSF22]'s rule, with the timeout) "
     "or scheduled (it takes consecutive tensors up to the buffer as the framework launches them, ahead of the GPU, "
     "and waits for its last one: Horovod with a GPU framework); default: scheduled with --framework horovod or "
     "horovod-0.20, else ready; --ada-fusion implies ready")
    ("message-overhead", po::value<std::string>(),
     "software cost of each message, e.g. 20us (default 0, or the platform's sgdsim.message_overhead): ring, paid by "
     "the sender of each collective message; PS, paid by the PS before it sends each tensor and after it receives "
     "each gradient")
    ("message-overhead-per-byte", po::value<std::string>(),
     "PS: software cost per byte of each message between hosts, e.g. 5ns ([LI20]'s a: deserialization and copies; "
     "default: the platform's sgdsim.message_overhead_per_byte, else the framework's, 0 but for tf-ps-1.3), paid "
     "where --message-overhead is; from a point-to-point benchmark of the framework's own transport "
     "(docs/models.md §10.5)")
    ("receive-overhead-per-byte", po::value<std::string>(),
     "PS: software cost per byte of a process's one receive thread, e.g. 1.1ns: every message a process receives "
     "(the PS its gradients, a worker its parameters; between hosts or not) passes through it, one after the other, "
     "before it counts as arrived (default: the framework's, 0 but for tf-ps-1.3; docs/models.md §10.5)")
    ("ada-fusion", "ring: adaFusion, fuse a layer only if docs/models.md eq. (36) says it pays (needs --fusion-buffer)")
    ("allreduce-overhead", po::value<std::string>(), "ring: fixed cost of each all-reduce call, e.g. 100us (default 0)")
    ("measured-allreduce", po::value<std::string>(),
     "ring: on (default where the platform carries sgdsim.allreduce_time, written by calibrate --kind allreduce "
     "from several node counts): each all-reduce pays, spread over its ring steps, what the microbenchmark measured "
     "for its node count and size beyond the network's time; off: the network alone (docs/models.md §10.7)")
    ("measured-sizes", po::value<std::string>(),
     "ring, with the measured all-reduce: on (default where the platform carries them, calibrate -o since "
     "2026-11-29): from the sizes where the bytes decide the time, a call takes the microbenchmark's own times "
     "(interpolated between the sizes measured) instead of eq. (37)'s line, what they add above the line paid as a "
     "slower rate of its bytes (a row faster than the simulated network as a faster one); off: the line "
     "(docs/models.md §10.7 \"The large sizes as measured\")")
    ("in-flight-cost", po::value<std::string>(),
     "paired|each|same. ring, with the platform's back-to-back all-reduce (sgdsim.allreduce_queued_time): a call "
     "that starts beside others in flight pays its own back-to-back time beyond its bytes plus each other call's at "
     "that call's size (each); as each, plus the share of its gain over the call alone that the longest other call "
     "beside it does not cover (paired, the default: docs/models.md §10.8 \"A call beside shorter ones\"); or as "
     "many times its own as there are calls in flight (same)")
    ("uncovered-gain", po::value<std::string>(),
     "rate|waits. ring, with --in-flight-cost paired: the share of a call's gain over the call alone that shorter "
     "calls beside it leave uncovered is paid as a slower rate of its bytes, which hold its connection so that the "
     "other calls' messages behind them wait (rate, the default), or as waits before its ring steps while its "
     "connection is free (waits, the rule until 2026-12-04; docs/models.md §10.8 \"The uncovered gain holds the "
     "connection\")")
    ("measured-node-window", po::value<int>(),
     "ring, with the measured all-reduce: how many node counts of the microbenchmark, the nearest to K, set a call's "
     "software cost: 1, its own node count's; N > 1, a least-squares line of the cost per ring step through the N "
     "nearest, evaluated at K (default 3: docs/models.md §10.7 \"Neighbouring node counts pooled\")")
    ("reduce-cost-per-byte", po::value<std::string>(),
     "ring: time to sum one received byte during the reduce-scatter, e.g. 0.01ns (default 0)")
    ("stream", po::value<std::string>(),
     "ps-*: on (default): messages on a PS connection form a TCP stream, the route latency delays each one's "
     "delivery without holding the connection; off: each message pays the route latency before its bytes, serially "
     "(docs/models.md §10.5)")
    ("flow-spread-in", po::value<double>(),
     "ps-*: spread of the sharing weights of the workers' connections into their PS, redrawn each step: TCP's unequal "
     "sharing of a link among concurrent flows, from tools/measure/fit_incast.py (default 0: fair; docs/models.md "
     "§10.6)")
    ("flow-spread-out", po::value<double>(),
     "ps-*: the same for the connections out of the PS (default 0: fair)")
    ("first-pull-weight", po::value<std::string>(),
     "ps-*, shard reads: the sharing weight, against the pulls started after it, of a pull (a worker's parameters) "
     "that starts while its PS sends no other (with several PS, the worker's while any PS sends it such a pull): "
     "TCP's first flow keeps a larger window. W, or K:W,K:W,... "
     "per number of workers (linear in between); from tools/measure/fit_incast.py --first-pull on incast-out of the "
     "workload's tensors (default 1: none; docs/models.md §10.6)")
    ("ack-coupling-in", po::value<double>(),
     "ps-*: with --ack-coupling-out, replaces SimGrid's ACK traffic: a flow into a PS runs at most at its rate alone / "
     "(G x the flows out of that PS at the moment), G from tools/measure/fit_incast.py on outcast-mixed (default: "
     "SimGrid's ACK traffic; docs/models.md §10.6)")
    ("ack-coupling-out", po::value<double>(),
     "ps-*: the same for a flow out of a PS beside the flows into it, G from incast-mixed (0: not slowed; not both 0)")
    ("ack-coupling-exponent-in", po::value<double>(),
     "ps-*, with --ack-coupling-in/out: n flows into a PS beside m out of it are slowed max(1, G m / n^E), E in "
     "[0, 1] from tools/measure/fit_incast.py on incast-duplex (default 1: each flow bound as a lone flow would "
     "be; docs/models.md §10.6)")
    ("ack-coupling-exponent-out", po::value<double>(),
     "ps-*: the same for the flows out of a PS (default 1)")
    ("ack-coupling-late-in", po::value<double>(),
     "ps-*, with --ack-coupling-in/out: n flows into a PS started while a flow out of it started before them runs "
     "are slowed max(1, G m / n) beside m flows out, G from tools/measure/fit_incast.py on duplex-late-in or "
     "staggered-in (a push joining running pulls; default: the law of flows started together; docs/models.md §10.6 "
     "\"Start order under CUBIC\")")
    ("ack-coupling-late-out", po::value<double>(),
     "ps-*: the same for flows out of a PS started late, from duplex-late-out")
    ("ack-coupling-established-in", po::value<double>(),
     "ps-*: the same for flows into a PS that flows out of it joined later, from duplex-late-out")
    ("ack-coupling-established-out", po::value<double>(),
     "ps-*: the same for flows out of a PS that flows into it joined later, from duplex-late-in")
    ("ack-coupling-offered-load", po::value<std::string>(),
     "ps-*, with --ack-coupling-late-out or --ack-coupling-established-out: on: those laws hold for flows in that are "
     "backlogged; an established flow out loses the share of its rate its law takes times u^2, u the flows into the "
     "PS's offered load together (bytes given over the time, at the NIC's rate; at most 1), and a flow out started "
     "late takes its law only while its own connection's flows in are backlogged (default off; docs/models.md §10.6 "
     "\"The offered load of the flows in\")")
    ("ps-reads", po::value<std::string>(),
     "ps-sync: shard (default): a PS sends a worker its shard once every tensor of it is updated, and a layer's "
     "forward starts once its tensors arrived ([LI22]); per-variable: each tensor is sent once all workers' "
     "gradients of it are applied, during the backward, and the next step starts once all have arrived "
     "(tf_cnn_benchmarks' distributed_replicated; docs/models.md §10.13)")
    ("release-quantum", po::value<std::string>(),
     "ps-*: a PS starts sending a worker its parameters at the next multiple of this time, e.g. 10us (default 0: "
     "at once). Faster Async-PS runs at large K; changes the results (README \"Release quantum\")")
    ("steps", po::value<int>()->default_value(10), "steps measured")
    ("warmup", po::value<int>()->default_value(2), "steps simulated before the measured ones")
    ("seed", po::value<std::string>()->default_value("1"), "seed of the RNG that samples per-layer times")
    ("compute-jitter", po::value<double>()->default_value(0, "0"),
     "coefficient of variation of a uniform noise on every layer's compute time, e.g. 0.02 (README \"Steps\")")
    ("cfg", po::value<std::vector<std::string>>()->composing(),
     "SimGrid configuration item NAME:VALUE, repeatable (e.g. --cfg=network/model:CM02); recorded in the JSON")
    ("log", po::value<std::vector<std::string>>()->composing(),
     "SimGrid log setting, repeatable (e.g. --log=sgdsim_worker.thresh:debug); an appender's file "
     "(app:file:PATH) is an output like --json's")
    ("rho-t", po::value<double>()->default_value(0.6, "0.6"),
     "analytic: threshold of the async hybrid model (docs/models.md eq. (5)); [LI22]: 0.5 on 1 Gbps CPU clusters, "
     "0.6 on AWS")
    ("tensor-overhead", po::value<std::string>()->default_value("0"),
     "analytic: fixed cost c after each tensor's reception, e.g. 50us ([LI20], docs/models.md §5)")
    ("tensor-overhead-per-byte", po::value<std::string>()->default_value("0"),
     "analytic: cost a per byte after each tensor's reception, as a time per byte, e.g. 0.1ns ([LI20])");
  // clang-format on
  return d;
}

// `analytic` offers only what it does: it writes no timeline or CSV row and has no scenario to print.
po::options_description command_options(const std::string& command)
{
  const bool run = command == "run";
  po::options_description d(run ? "Run" : "Analytic");
  // clang-format off
  d.add_options()
    ("help,h", "print this help")
    ("scenario", po::value<std::string>(), "read options from FILE (same names, one 'name = value' per line); "
     "command-line options take precedence")
    ("json", po::value<std::string>(), "write the whole result as JSON to FILE (atomically)");
  if (run)
    d.add_options()
      ("timeline", po::value<std::string>(),
       "write the operations of the measured steps to FILE as a Chrome trace (Perfetto, chrome://tracing)")
      ("csv", po::value<std::string>(),
       "append the result as one row of the sweep CSV to FILE (header written if the file is new; README \"Sweep CSV\")");
  d.add_options()
    ("force", "overwrite the output files if they exist");
  if (run)
    d.add_options()
      ("print-scenario", "print the resolved scenario file and exit without simulating")
      ("progress", po::value<std::string>()->default_value("auto"),
       "report steps done, simulated time and the time left on stderr, once a second: auto (when stderr is a "
       "terminal), on, off")
      ("quiet,q", "no progress and no wall-time line on stderr (errors, warnings about the inputs and what --log "
       "sends there still go to stderr)");
  // clang-format on
  return d;
}

po::options_description run_options_description()
{
  po::options_description all;
  all.add(command_options("run")).add(scenario_options());
  return all;
}

} // namespace sgdsim
