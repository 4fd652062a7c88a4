#!/usr/bin/env python3
"""Measurements for sgdsim's validation: network microbenchmarks and emulated training steps with
torch.distributed (Gloo), on real hosts (torchrun or the env:// variables) or on tools/measure/emulate's cluster
(started by tools/measure/launch). docs/measure.md says what each measurement means; its semantics are sgdsim's.

    measure.py p2p --out p2p.csv                    # ranks 0 and 1: send/recv 4 KiB .. 256 MiB, ping-pong
    measure.py allreduce --out ar.csv               # dist.all_reduce on 2 .. WORLD_SIZE ranks
    measure.py incast --out incast.csv              # N clients to / from rank 0: fairness, direction coupling
    measure.py train --workload W.xml --arch ps-sync --ps 1 --workers 4 --out train.jsonl

Every rank runs the same command; rank 0 writes the results. Needs PyTorch with Gloo (Debian: python3-torch).
"""
import argparse
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from incast import cmd_incast, SIZES_DEFAULT  # noqa: E402  (the commands, each in a module next to this file)
from kit import (MeasureError, dist, pace_reference_given, record_machine, set_timer_slack, size_arg,  # noqa: E402
                 torch, torch_installed)
from microbench import cmd_allreduce, cmd_concurrency, cmd_p2p  # noqa: E402
from train import cmd_train  # noqa: E402
from plan import PACE_SLOW, PACE_WAIT_S  # noqa: E402

def pace_wait_arg(p, what):
    """--pace-wait, for the microbenchmarks' rows and the trainings' configurations alike (kit.await_pace)."""
    p.add_argument("--pace-wait", type=float, default=PACE_WAIT_S,
                   help=f"before each {what}, wait up to this many seconds for the machine's pace (probe.py --pace) "
                        f"to come within {round(100 * (PACE_SLOW - 1))}%% of the reference (probe.py --reference; default "
                        f"{PACE_WAIT_S:g}; 0: never wait; docs/measure.md \"Is the machine at its pace?\")")


def main(argv):
    parser = argparse.ArgumentParser(prog="measure.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=1800, help="Gloo timeout in seconds (default 1800)")
    parser.add_argument("--rate", default="", help="rate label of the measurements (default: emulate's rate, "
                                                   "from SGDSIM_CLUSTER_INFO)")
    parser.add_argument("--cluster-info", default="", help="emulate's cluster.json (default: $SGDSIM_CLUSTER_INFO)")
    sub = parser.add_subparsers(dest="command", required=True)

    def micro(p):
        p.add_argument("--out", required=True, help="CSV file (rank 0 writes it, and OUT.json: provenance)")
        p.add_argument("--force", action="store_true", help="overwrite --out")
        p.add_argument("--min-size", default="4KiB", help="smallest size (default 4KiB)")
        p.add_argument("--max-size", default="256MiB", help="largest size (default 256MiB); powers of 2 between")
        p.add_argument("--sizes", default="", help="comma-separated sizes instead (e.g. 4KiB,1MiB)")
        p.add_argument("--warmup", type=int, default=2, help="unmeasured transfers per size (default 2)")
        p.add_argument("--repeats", type=int, default=5, help="measured transfers per size (default 5)")
        pace_wait_arg(p, "row")
        p.add_argument("--quiet-retries", type=int, default=2,
                       help="measure a row again, up to this many times, while the machine's other processes took "
                            "more than 0.1 cores or its hypervisor more than 0.08 during it, or its pace read 25%% "
                            "slower than the reference; keep the first quiet attempt at pace, else the quiet one at the "
                            "fastest pace, else the least busy (default 2; 0: never; docs/measure.md \"Was the machine "
                            "quiet?\")")

    p = sub.add_parser("p2p", help="send/recv between ranks 0 and 1, and a ping-pong")
    micro(p)
    p.add_argument("--stream", type=int, default=0,
                   help="also send N tensors of each size back to back (rows p2p_stream: the time of each message "
                        "beyond the first, for sgdsim calibrate --stream); default 0: not measured")
    p.add_argument("--both-ways", action="store_true",
                   help="also send a tensor of each size both ways at once (rows p2p_both: against p2p, how much a "
                        "flow the other way slows a flow, as in a ring)")
    p.add_argument("--pingpong-repeats", type=int, default=200, help="measured round trips (default 200)")
    p.add_argument("--pingpong-warmup", type=int, default=20, help="unmeasured round trips (default 20)")
    p.set_defaults(func=cmd_p2p)
    p = sub.add_parser("allreduce", help="dist.all_reduce on 2..K ranks")
    micro(p)
    p.add_argument("--nodes", default="", help="comma-separated rank counts (default 2..WORLD_SIZE)")
    p.add_argument("--queued", type=int, default=0,
                   help="N > 0: launch N async all-reduces of each size together and time them per call (op "
                        "allreduce_queued: a training's back-to-back calls, with Gloo's own concurrency)")
    p.add_argument("--with", dest="with_size", default="",
                   help="SIZE, with --queued N: each of the N calls launched together is followed by --with-calls "
                        "calls of SIZE, as a training's layer launches its weight's all-reduce and its batch-norm "
                        "vectors' (op allreduce_queued_with: the time per group, whether the small calls hide "
                        "behind the large ones back to back)")
    p.add_argument("--with-calls", type=int, default=2,
                   help="--with: the calls of SIZE after each call of the measured size (default 2)")
    p.add_argument("--beside", default="",
                   help="SIZE: time each call while an all-reduce of SIZE runs beside it on Gloo's other thread (op "
                        "allreduce_beside: a training's small calls beside a large one; the repeats of a size run "
                        "one after another during one such call, which must outlast them)")
    p.add_argument("--after", default="",
                   help="SIZE: time each call launched right after an all-reduce of SIZE, each repeat after a "
                        "barrier (op allreduce_after: a training's small call that follows a medium one on Gloo's "
                        "other thread; the medium call may end first)")
    p.add_argument("--among", default="",
                   help="SIZE: time each call while all-reduces of SIZE run one after another on Gloo's other "
                        "thread (op allreduce_among: a training's large call beside its small ones; one of SIZE is "
                        "launched first, the timed call next, then --among-calls - 1 more of SIZE, which must "
                        "outlast it)")
    p.add_argument("--among-calls", type=int, default=64,
                   help="--among: the calls of SIZE launched around each timed one (default 64)")
    p.add_argument("--gloo-threads", type=int, default=0,
                   help="the timed calls run on a Gloo process group of N worker threads, the calls a rank runs at "
                        "once (default 0: torch's own group, 2 threads in torch 1.13; as train --gloo-threads)")
    p.set_defaults(func=cmd_allreduce)

    p = sub.add_parser("concurrency", help="how many async all-reduces Gloo runs at once")
    p.add_argument("--size", default="16MiB", help="size of each all-reduce (default 16MiB)")
    p.add_argument("--count", type=int, default=6, help="all-reduces launched together (default 6)")
    p.add_argument("--repeats", type=int, default=2)
    p.set_defaults(func=cmd_concurrency)

    p = sub.add_parser("incast", help="N clients to and from one hub (rank 0): flow fairness, direction coupling")
    p.add_argument("--out", required=True, help="CSV file (rank 0 writes it, OUT.json: provenance, and "
                                                "OUT.flows.jsonl: every flow's time)")
    p.add_argument("--force", action="store_true", help="overwrite --out")
    p.add_argument("--nodes", default="", help="comma-separated client counts N (default 2..WORLD_SIZE-1; 1 only "
                                               "when every pattern is incast-duplex, duplex-late-* or staggered-*)")
    p.add_argument("--sizes", default=SIZES_DEFAULT, help=f"comma-separated bytes per flow (default {SIZES_DEFAULT})")
    p.add_argument("--warmup", type=int, default=1, help="unmeasured repeats per pattern and size (default 1)")
    p.add_argument("--repeats", type=int, default=5, help="measured repeats per pattern and size (default 5)")
    p.add_argument("--patterns", default="incast-in,incast-out,incast-mixed,incast-half,outcast-mixed",
                   help="comma-separated patterns (default incast-in,incast-out,incast-mixed,incast-half,"
                        "outcast-mixed; also incast-duplex, late-in, late-out)")
    p.add_argument("--lone-message", default="",
                   help="incast-mixed, outcast-mixed: send the lone flow as messages of this size back to back, "
                        "e.g. 128KiB, as a PS sends a shard of tensors (default: one message)")
    p.add_argument("--flow-message", default="",
                   help="incast-in, incast-out, incast-duplex, duplex-late-in/out, staggered-in/out: send every "
                        "flow as messages of this size back to back, all receives posted at once, e.g. 1MiB, as "
                        "training sends a step's tensors (default: one message)")
    p.add_argument("--flow-tensors", default="", metavar="WORKLOAD",
                   help="incast-in, incast-out, incast-duplex, duplex-late-in/out, staggered-in/out: every flow is "
                        "this workload file's tensors in forward order, one message each, as a PS sends a worker its "
                        "shard (replaces --sizes and --flow-message)")
    p.add_argument("--early-recvs", action="store_true",
                   help="incast-out: each client posts its receives before the barrier that starts a repeat, as a "
                        "worker posts its parameters' receives long before the PS releases them (Gloo sends a message "
                        "only once the receiver has posted its receive)")
    p.add_argument("--hub-recvs", action="store_true",
                   help="incast-out with --flow-tensors or --flow-message: before its sends to a client, the hub "
                        "posts one receive from it per message, which the client answers once every flow is in, as "
                        "a PS posts a worker's gradient receives before sending it its parameters")
    p.add_argument("--message-gap", type=float, default=0.0,
                   help="with --flow-message: each client posts its messages into the hub this many milliseconds "
                        "apart instead of all at once, as a worker's pushes follow its backward (default 0)")
    p.add_argument("--hub-message-gap", type=float, default=0.0,
                   help="with --flow-message: the hub posts its messages to the clients this many milliseconds "
                        "apart (message i to every client of the flow at once), alone as well as beside the flows "
                        "in, as a PS releases each tensor to the workers once it is updated (default 0)")
    p.add_argument("--established-flows", type=int, default=0,
                   help="staggered-in/out: the established flows, clients 1..E (default 0: every client)")
    p.add_argument("--late-flows", type=int, default=0,
                   help="staggered-in/out: the flows started late, clients N-L+1..N (default 0: every client)")
    p.add_argument("--late-fraction", type=float, default=0.5,
                   help="late-in/out: each later flow starts this fraction of a flow's time alone after the "
                        "previous one (default 0.5)")
    p.set_defaults(func=cmd_incast)

    p = sub.add_parser("train", help="emulated training steps of a sgdsim workload")
    p.add_argument("--workload", required=True, help="sgdsim workload XML")
    p.add_argument("--arch", required=True, choices=["ps-sync", "ps-async", "ring"])
    p.add_argument("--granularity", default="layer", choices=["tensor", "layer", "ddp"],
                   help="ring: what one all-reduce carries (default layer)")
    p.add_argument("--workers", type=int, default=0, help="K: runs K = 1..K in one launch")
    p.add_argument("--workers-list", default="", help="comma-separated worker counts instead")
    p.add_argument("--ps", type=int, default=1, help="parameter servers, on their own ranks 0..M-1 (default 1)")
    p.add_argument("--ps-split", default="round-robin", choices=["round-robin", "balanced"])
    p.add_argument("--overlap", default="on", choices=["on", "off"])
    p.add_argument("--ps-reads", default="shard", choices=["shard", "per-variable"],
                   help="ps-sync: shard (default): a PS sends a worker its shard once all of it is updated; "
                        "per-variable: each tensor once its K gradients are applied, and a step ends with the next "
                        "step's parameters (sgdsim's --ps-reads, docs/models.md §10.13)")
    p.add_argument("--steps", type=int, default=10, help="measured steps (default 10, as sgdsim)")
    p.add_argument("--warmup", type=int, default=2, help="unmeasured first steps (default 2, as sgdsim)")
    p.add_argument("--repeat", type=int, default=1, help="runs of each configuration (default 1)")
    pace_wait_arg(p, "configuration")
    p.add_argument("--quiet-retries", type=int, default=2,
                   help="run a configuration again, up to this many times, while the machine's other processes took "
                        "more than 0.1 cores or its hypervisor more than 0.08 during it, or its pace read 25%% "
                        "slower than the reference; keep the first quiet run at pace, else the quiet one at the fastest "
                        "pace, else the least busy (default 2; 0: never; docs/measure.md \"Was the machine quiet?\")")
    p.add_argument("--compute-scale", type=float, default=1.0,
                   help="multiplies every forward, backward and update time, PS or ring (simulate with every "
                        "host's speed = reference_speed / scale; default 1)")
    p.add_argument("--bucket-cap-mb", type=float, default=25, help="ddp: bucket_cap_mb (default 25, MiB)")
    p.add_argument("--first-bucket-mb", type=float, default=1,
                   help="ddp: first bucket's cap (default 1, torch's _DEFAULT_FIRST_BUCKET_BYTES, MiB)")
    p.add_argument("--ps-buffer-limit-gib", type=float, default=4,
                   help="a PS keeps a receive buffer per worker and tensor up to this size (default 4)")
    p.add_argument("--gloo-threads", type=int, default=0,
                   help="ring: worker threads of the Gloo process group the all-reduces run on, the calls a rank runs "
                        "at once (default 0: torch's own group, 2 threads in torch 1.13; docs/measure.md §4)")
    p.add_argument("--call-times", action="store_true",
                   help="ring: each worker's all-reduces of every measured step as [unit, launched, ended], s from "
                        "the step's start (per_worker[i].call_times), to set beside sgdsim run --timeline")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON-lines file (rank 0), plus OUT.provenance.json")
    p.add_argument("--force", action="store_true", help="overwrite --out")
    p.set_defaults(func=cmd_train)
    args = parser.parse_args(argv)

    try:
        if not torch_installed():
            raise MeasureError("PyTorch is not installed for this interpreter (Debian: apt-get install "
                               "python3-torch; run /usr/bin/python3)")
        if sum(bool(getattr(args, a, 0)) for a in ("queued", "beside", "after", "among")) > 1:
            raise MeasureError("--queued, --beside, --after and --among: give one at most")
        if getattr(args, "among", "") and getattr(args, "among_calls", 64) < 2:
            raise MeasureError("--among-calls must be at least 2 (one before the timed call, one after)")
        # --among keeps one buffer per call of SIZE, as a training's units have.
        if getattr(args, "among", "") and size_arg(args.among) * args.among_calls > 4 * (1 << 30):
            raise MeasureError(f"--among {args.among} x --among-calls {args.among_calls}: more than 4 GiB of buffers "
                               f"per rank; --among is for small calls (a training's batch-norm vectors)")
        if getattr(args, "with_size", "") and getattr(args, "queued", 0) < 1:
            raise MeasureError("--with needs --queued N (the groups launched together)")
        if getattr(args, "with_size", "") and getattr(args, "with_calls", 2) < 1:
            raise MeasureError("--with-calls must be at least 1")
        pace_reference_given()  # a bad $SGDSIM_PACE_REFERENCE_US stops every rank before the process group
        if not getattr(args, "pace_wait", 0) >= 0:
            raise MeasureError(f"--pace-wait {args.pace_wait}: seconds, 0 (never wait) or more")
        if getattr(args, "quiet_retries", 0) < 0:
            raise MeasureError(f"--quiet-retries {args.quiet_retries}: must be 0 (never) or more")
        if getattr(args, "queued", 0) < 0:
            raise MeasureError("--queued must be 0 (one call at a time) or a number of calls")
        if getattr(args, "repeats", 5) < 1:
            raise MeasureError("--repeats must be at least 1")
        if getattr(args, "stream", 0) == 1 or getattr(args, "stream", 0) < 0:
            raise MeasureError("--stream must be 0 (not measured) or at least 2 messages")
        if args.command == "train" and args.gloo_threads and (args.arch != "ring" or args.gloo_threads < 0):
            raise MeasureError(f"--gloo-threads {args.gloo_threads}: 1 or more, and for --arch ring only")
        if args.command == "allreduce" and args.gloo_threads < 0:
            raise MeasureError(f"--gloo-threads {args.gloo_threads}: 1 or more (0: torch's own group)")
        if args.command == "train" and not (args.workers or args.workers_list):
            raise MeasureError("train: give --workers K or --workers-list")
        # PyTorch is imported from here on (kit.LazyModule): the checks above need none of it.
        if not dist.is_gloo_available():
            raise MeasureError("this PyTorch has no Gloo backend")
        missing = [v for v in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE") if v not in os.environ]
        if missing:
            raise MeasureError(f"{', '.join(missing)} not set: run under torchrun or tools/measure/launch")
        torch.set_num_threads(1)
        set_timer_slack()
        dist.init_process_group("gloo", init_method="env://",
                                timeout=datetime.timedelta(seconds=args.timeout))
        args.func(args)
        dist.barrier()
        rank = dist.get_rank()
        dist.destroy_process_group()
        if rank == 0:
            try:
                record_machine()  # which machine measured it, once the other ranks have left (kit.record_machine)
            except (OSError, ValueError) as e:  # the measurement is written and stands without it
                print(f"measure.py: warning: the machine probe was not recorded: {e}", file=sys.stderr)
    except MeasureError as e:
        print(f"measure.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
