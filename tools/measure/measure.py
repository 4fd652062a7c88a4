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
import ctypes
import datetime
import hashlib
import json
import os
import platform
import queue
import random
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)

try:
    import torch
    import torch.distributed as dist
except ImportError:  # pragma: no cover - reported as a clear error below
    torch = None
    dist = None

KIB = 1024
MIB = 1024 * 1024
DOWN, UP, CTRL = 0, 1, 2  # tag directions of the PS architectures
CONTINUE, STOP = 0.0, 1.0  # ps-async, after a worker's measured steps: what the PS's control message says


class MeasureError(Exception):
    """A usage or environment error: one line, no traceback."""


def now():
    return time.perf_counter()


class Clock:
    """Emulated compute with time.sleep, against deadlines: an operation ends `duration` after the later of the
    previous operation's end and its own readiness, whatever the sleep overshoots (typically 50-100 us per
    time.sleep on Linux; the timer slack is set to 1 ns below). Overshoots are recorded, not accumulated."""

    def __init__(self, start):
        self.t = start
        self.overshoots = []

    def run(self, duration, ready=None):
        """Computes for `duration` seconds starting when the previous operation ended or at `ready` (later)."""
        self.t = max(self.t, ready if ready is not None else self.t) + duration
        self.sleep_until(self.t)

    def sleep_until(self, deadline):
        remaining = deadline - now()
        if remaining > 0:
            time.sleep(remaining)
            self.overshoots.append(now() - deadline)

    def sync(self, t):
        """Moves the clock to `t` if later: the next operation cannot start before it."""
        self.t = max(self.t, t)

    def stats(self):
        o = self.overshoots
        return {"sleeps": len(o), "overshoot_mean_us": 1e6 * plan.mean(o) if o else 0.0,
                "overshoot_max_us": 1e6 * max(o) if o else 0.0}


def set_timer_slack():
    """1 ns timer slack (prctl PR_SET_TIMERSLACK) so that time.sleep wakes up on time: the default 50 us slack
    would add up over the hundreds of layers of a step."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(29, 1, 0, 0, 0)  # PR_SET_TIMERSLACK
    except (OSError, AttributeError):
        pass


# ----------------------------------------------------------------------------------------------- provenance
def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


def iface():
    """The interface Gloo uses: GLOO_SOCKET_IFNAME, else the one with the default route."""
    name = os.environ.get("GLOO_SOCKET_IFNAME")
    if name:
        return name.split(",")[0]
    for line in (read_text("/proc/net/route") or "").splitlines()[1:]:
        fields = line.split()
        if len(fields) > 1 and fields[1] == "00000000":
            return fields[0]
    return None


def local_info():
    """What one rank knows of its host: its NIC (MTU, qdiscs as tc shows them), TCP congestion control, CPUs."""
    dev = iface()
    info = {
        "hostname": socket.gethostname(),
        "netns": os.environ.get("SGDSIM_NETNS"),
        "kernel": " ".join(os.uname()[i] for i in (0, 2, 3, 4)),
        "iface": dev,
        "mtu": int(read_text(f"/sys/class/net/{dev}/mtu") or 0) if dev else None,
        "congestion_control": read_text("/proc/sys/net/ipv4/tcp_congestion_control"),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)),
        "loadavg": list(os.getloadavg()),
    }
    if dev:
        try:
            out = subprocess.run(["tc", "-s", "qdisc", "show", "dev", dev], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, timeout=5).stdout
            info["tc_qdisc"] = out.strip()
        except (OSError, subprocess.TimeoutExpired):
            info["tc_qdisc"] = None
    return info


def gloo_info():
    """Gloo as this torch uses it: the worker-thread pool of ProcessGroupGloo (all-reduces in flight at once) and
    the all-reduce algorithm (gloo::allreduce with no algorithm set runs the ring, in segments of at most 1 MiB)."""
    threads = None
    try:
        threads = dist.ProcessGroupGloo._Options()._threads
    except AttributeError:
        pass
    lib = None
    try:
        lib = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}", "libgloo0"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=5).stdout or None
    except (OSError, subprocess.TimeoutExpired):
        pass
    return {"available": dist.is_gloo_available(), "process_group_threads": threads,
            "allreduce_algorithm": "ring (gloo::allreduce default), reduce-scatter + all-gather, segments <= 1 MiB",
            "library": lib}


def provenance(args, infos_before, infos_after):
    cluster = None
    path = args.cluster_info or os.environ.get("SGDSIM_CLUSTER_INFO")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            cluster = json.load(f)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "rate": rate_label(args),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "gloo": gloo_info(),
        "world_size": dist.get_world_size(),
        "ranks": [{"rank": r, **i} for r, i in enumerate(infos_before)],
        "loadavg_after": [i["loadavg"] for i in infos_after],
        "cluster": cluster,
    }


def rate_label(args):
    """The rate as given to emulate (or --rate on real hosts): a label of the measurements."""
    if args.rate:
        return args.rate
    path = args.cluster_info or os.environ.get("SGDSIM_CLUSTER_INFO")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("rate", "")
    return "unknown"


def gather_infos():
    out = [None] * dist.get_world_size()
    dist.all_gather_object(out, local_info())
    return out


# -------------------------------------------------------------------------------------------- microbenchmarks
def size_arg(text):
    """A size on the command line: a bare number of bytes or a SimGrid size (4KiB, 1MB)."""
    try:
        return int(text) if text.isdigit() else int(plan.parse_quantity(text, "size"))
    except ValueError as e:
        raise MeasureError(f"size {e}") from None


def sizes_from(args):
    if args.sizes:
        return [size_arg(s) for s in args.sizes.split(",")]
    lo, hi = size_arg(args.min_size), size_arg(args.max_size)
    out, s = [], lo
    while s <= hi:
        out.append(s)
        s *= 2
    if not out:
        raise MeasureError(f"no size between --min-size {args.min_size} and --max-size {args.max_size}")
    return out


CSV_COLUMNS = ["op", "library", "torch", "rate", "mtu", "cc", "nodes", "size_bytes", "time_s", "time_min_s",
               "time_max_s", "time_mean_s", "time_std_s", "repeats", "warmup", "algbw_Gbps", "busbw_Gbps"]


class CsvOut:
    """The results CSV, one row per (op, nodes, size) with the median time; written row by row (a long run can be
    watched) by rank 0 only."""

    def __init__(self, path, meta):
        self.path = path
        self.meta = meta
        with open(path, "w", encoding="utf-8") as f:
            f.write(",".join(CSV_COLUMNS) + "\n")

    def row(self, op, nodes, size, times, warmup, repeats=None):
        """`times`: the samples of the row (the repeats; for incast, every flow of every repeat); `repeats`: the
        value of the repeats column when it is not len(times)."""
        med = plan.median(times)
        algbw = size * 8 / med / 1e9
        busbw = algbw * (2 * (nodes - 1) / nodes if op.startswith("allreduce") else 1)
        values = {**self.meta, "op": op, "nodes": nodes, "size_bytes": size, "time_s": f"{med:.9g}",
                  "time_min_s": f"{min(times):.9g}", "time_max_s": f"{max(times):.9g}",
                  "time_mean_s": f"{plan.mean(times):.9g}", "time_std_s": f"{plan.std(times):.9g}",
                  "repeats": len(times) if repeats is None else repeats, "warmup": warmup, "algbw_Gbps": f"{algbw:.6g}",
                  "busbw_Gbps": f"{busbw:.6g}"}
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(",".join(str(values[c]) for c in CSV_COLUMNS) + "\n")
        return med


def check_out(args):
    """Refuses an existing --out without --force on every rank at once (a refusal on rank 0 alone would leave the
    others waiting in a collective until the timeout)."""
    verdict = [None]
    if dist.get_rank() == 0 and os.path.exists(args.out) and not args.force:
        verdict[0] = f"{args.out} exists (use --force to overwrite it)"
    dist.broadcast_object_list(verdict, src=0)
    if verdict[0]:
        raise MeasureError(verdict[0])


def csv_meta(args, infos):
    return {"library": "gloo", "torch": torch.__version__, "rate": rate_label(args), "mtu": infos[0]["mtu"],
            "cc": infos[0]["congestion_control"]}


def write_sidecar(path, args, infos_before, kind, extra=None):
    infos_after = gather_infos()
    if dist.get_rank() == 0:
        doc = {"kind": kind, "results": path, **(extra or {}), "provenance": provenance(args, infos_before,
                                                                                         infos_after)}
        with open(path + ".json", "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")


def stream_p2p(args, rank, pair, view, size, out, alone_s):
    """--stream N: rank 0 sends N tensors back to back on the connection, rank 1 times the N receives from the end
    of a barrier. Row p2p_stream: the time of each message beyond the first, (T_N - T_alone) / (N - 1), with
    T_alone the median of the transfers alone just measured: what a busy connection's messages pay each (bytes and
    per-message cost, no latency, nothing paid once per transfer; sgdsim calibrate --stream)."""
    totals = []
    for i in range(args.warmup + args.repeats):
        dist.barrier(group=pair)
        if rank == 1:
            t0 = now()
            for _ in range(args.stream):
                dist.recv(view, src=0)
            if i >= args.warmup:
                totals.append(now() - t0)
        else:
            for _ in range(args.stream):
                dist.send(view, dst=1)
    t = torch.tensor(totals if rank == 1 else [0.0] * args.repeats, dtype=torch.float64)
    dist.broadcast(t, src=1, group=pair)
    if rank == 0:
        # A noisy small size can come out at or below 0; a time must be positive, and 1 ns says "nothing measurable".
        each = [max(1e-9, (total - alone_s) / (args.stream - 1)) for total in t.tolist()]
        med = out.row("p2p_stream", 2, size, each, args.warmup)
        print(f"p2p {size:>10} B, {args.stream} back to back: {med * 1e3:9.3f} ms per message beyond the first",
              flush=True)


def cmd_p2p(args):
    """Ranks 0 and 1: rank 0 sends one tensor, rank 1 receives it and times the transfer from the end of a
    barrier of the two; then a ping-pong of one float for the small-message latency. Other ranks wait."""
    rank, world = dist.get_rank(), dist.get_world_size()
    if world < 2:
        raise MeasureError("p2p needs at least 2 ranks")
    check_out(args)
    infos = gather_infos()
    sizes = sizes_from(args)
    pair = dist.new_group([0, 1])
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    if rank in (0, 1):
        buf = torch.zeros(plan.elements(max(sizes)), dtype=torch.float32)
        for size in sizes:
            view = buf[:plan.elements(size)]
            times = []
            for i in range(args.warmup + args.repeats):
                dist.barrier(group=pair)
                if rank == 1:
                    t0 = now()
                    dist.recv(view, src=0)
                    if i >= args.warmup:
                        times.append(now() - t0)
                else:
                    dist.send(view, dst=1)
            t = torch.tensor(times if rank == 1 else [0.0] * args.repeats, dtype=torch.float64)
            dist.broadcast(t, src=1, group=pair)
            if rank == 0:
                med = out.row("p2p", 2, size, t.tolist(), args.warmup)
                print(f"p2p {size:>10} B: {med * 1e3:9.3f} ms  {size * 8 / med / 1e9:7.3f} Gbit/s", flush=True)
            if args.stream > 1:
                stream_p2p(args, rank, pair, view, size, out, med if rank == 0 else None)
        # Ping-pong: one float there and back, timed by rank 0; half the round trip is the one-way latency.
        one = torch.zeros(1, dtype=torch.float32)
        rtts = []
        dist.barrier(group=pair)
        for i in range(args.pingpong_warmup + args.pingpong_repeats):
            if rank == 0:
                t0 = now()
                dist.send(one, dst=1)
                dist.recv(one, src=1)
                if i >= args.pingpong_warmup:
                    rtts.append(now() - t0)
            else:
                dist.recv(one, src=0)
                dist.send(one, dst=0)
        if rank == 0:
            half = [r / 2 for r in rtts]
            med = out.row("pingpong", 2, 4, half, args.pingpong_warmup)
            print(f"ping-pong 4 B: one-way {med * 1e6:.1f} us (half the median round trip)", flush=True)
    dist.barrier()
    write_sidecar(args.out, args, infos, "p2p")


def cmd_allreduce(args):
    """dist.all_reduce of a float32 tensor on ranks 0..K-1 for every K asked (one sub-group per K, made with
    dist.new_group by every rank); a repeat's time is the maximum over the ranks, each timing from the end of a
    barrier of the group to the end of its all_reduce."""
    rank, world = dist.get_rank(), dist.get_world_size()
    check_out(args)
    infos = gather_infos()
    sizes = sizes_from(args)
    ks = [int(k) for k in args.nodes.split(",")] if args.nodes else list(range(2, world + 1))
    if any(k < 2 or k > world for k in ks):
        raise MeasureError(f"--nodes {args.nodes}: each must be in 2..{world} (the world size)")
    groups = {k: dist.new_group(list(range(k))) for k in sorted(set(ks))}  # every rank creates every group
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    calls = max(1, args.queued)
    op = "allreduce_queued" if args.queued else "allreduce"
    # One buffer per call in flight, as the training's units have (a queued call must not reduce another's data).
    bufs = [torch.zeros(plan.elements(max(sizes)), dtype=torch.float32) for _ in range(calls)]
    for k in ks:
        g = groups[k]
        if rank < k:
            for size in sizes:
                views = [b[:plan.elements(size)] for b in bufs]
                times = []
                for i in range(args.warmup + args.repeats):
                    dist.barrier(group=g)
                    t0 = now()
                    if args.queued:
                        # Launched together, as a training's backward queues them: ProcessGroupGloo runs as many
                        # at once as it has threads, the rest wait in its queue; the time per call is the total
                        # over the calls (their throughput, not one call's latency).
                        works = [dist.all_reduce(v, group=g, async_op=True) for v in views]
                        for w in works:
                            w.wait()
                    else:
                        dist.all_reduce(views[0], group=g)
                    if i >= args.warmup:
                        times.append((now() - t0) / calls)
                t = torch.tensor(times, dtype=torch.float64)
                dist.all_reduce(t, op=dist.ReduceOp.MAX, group=g)
                if rank == 0:
                    med = out.row(op, k, size, t.tolist(), args.warmup)
                    print(f"{op} {k} ranks {size:>10} B: {med * 1e3:9.3f} ms per call  busbw "
                          f"{size * 8 / med / 1e9 * 2 * (k - 1) / k:7.3f} Gbit/s", flush=True)
        dist.barrier()
    extra = {"queued_calls": args.queued} if args.queued else None
    write_sidecar(args.out, args, infos, "allreduce", extra)


def cmd_concurrency(args):
    """How many all-reduces ProcessGroupGloo runs at once: N async all-reduces of one size launched together on
    every rank; each one's completion time (as rank 0 sees it by polling) shows them finishing in waves of the
    worker-thread pool's size. Also timed alone, for comparison."""
    rank, world = dist.get_rank(), dist.get_world_size()
    size = size_arg(args.size)
    bufs = [torch.zeros(plan.elements(size), dtype=torch.float32) for _ in range(args.count)]
    dist.barrier()
    t0 = now()
    dist.all_reduce(bufs[0])
    alone = now() - t0
    rows = []
    for _ in range(args.repeats):
        dist.barrier()
        t0 = now()
        works = [dist.all_reduce(b, async_op=True) for b in bufs]
        done = [None] * len(works)
        while any(d is None for d in done):
            for i, w in enumerate(works):
                if done[i] is None and w.is_completed():
                    done[i] = now() - t0
            time.sleep(50e-6)
        rows.append(done)
    if rank == 0:
        threads = gloo_info()["process_group_threads"]
        print(f"{world} ranks, {args.count} all-reduces of {size} B launched together; one alone takes "
              f"{alone * 1e3:.1f} ms; ProcessGroupGloo threads (default options): {threads}")
        for done in rows:
            print("  completion times ms: " + " ".join(f"{d * 1e3:.1f}" for d in done))


# ------------------------------------------------------------------------------------------------------- incast
# Column layout of one repeat of each pattern, for N clients: (role, client rank) of each flow timed.
def incast_flows(pattern, n):
    """The flows one repeat of `pattern` times with N = n clients, as (role, client rank): `in` client -> hub, `out`
    hub -> client, `reverse` hub -> client n while clients 1..n-1 send to the hub, `alone` the same flow alone."""
    if pattern == "incast-in":
        return [("in", c) for c in range(1, n + 1)]
    if pattern == "incast-out":
        return [("out", c) for c in range(1, n + 1)]
    return [("in", c) for c in range(1, n)] + [("reverse", n), ("alone", n)]


def flow_stats(repeats):
    """`repeats`: per measured repeat, the completion times (s) of flows that ran at the same time. Returns every
    time (flattened: the CSV row's samples), each repeat's spread (its slowest flow's time / its fastest's: 1.0
    when the flows share fairly and finish together), and the median and maximum of the spreads."""
    every = [t for r in repeats for t in r]
    spreads = [max(r) / min(r) for r in repeats if r and min(r) > 0]
    return {"times": every, "spreads": spreads, "spread_median": plan.median(spreads),
            "spread_max": max(spreads) if spreads else float("nan")}


def paired_ratios(num, den):
    """Per repeat, num / den (incast-mixed: the reverse flow's time over its alone time of the same repeat)."""
    if len(num) != len(den):
        raise ValueError(f"{len(num)} numerators for {len(den)} denominators")
    return [a / b for a, b in zip(num, den) if b > 0]


def completion_times(works, t0):
    """Each work's completion time from t0. ProcessGroupGloo's send and recv works (torch 1.13) say
    is_completed() only once wait() has returned, so polling cannot see them end: one thread per work waits
    (wait releases the GIL) and stamps its own end."""
    done, errors = [None] * len(works), []

    def waiter(i):
        try:
            works[i].wait()
            done[i] = now() - t0
        except RuntimeError as e:  # a Gloo timeout or a peer's failure
            errors.append(e)
    threads = [threading.Thread(target=waiter, args=(i,), daemon=True) for i in range(len(works))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    return done


def incast_in(rank, n, bufs, group):
    """Clients 1..n isend to the hub at once; the hub times each of its irecvs from the end of the barrier."""
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        return completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n + 1)], t0)
    dist.isend(bufs["own"], dst=0).wait()
    return []


def incast_out(rank, n, bufs, group):
    """The hub isends to clients 1..n at once; each client times its recv from the end of the barrier."""
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        for work in [dist.isend(bufs["out"], dst=c) for c in range(1, n + 1)]:
            work.wait()
        return []
    dist.recv(bufs["own"], src=0)
    return [now() - t0]


def incast_mixed(rank, n, bufs, group):
    """Clients 1..n-1 isend to the hub while the hub isends to client n (the hub times the incoming flows, client n
    its recv); then, after another barrier, the hub sends to client n alone."""
    dist.barrier(group=group)
    t0 = now()
    times = []
    if rank == 0:
        reverse = dist.isend(bufs["out"], dst=n)
        times = completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n)], t0)
        reverse.wait()
    elif rank < n:
        dist.isend(bufs["own"], dst=0).wait()
    else:
        dist.recv(bufs["own"], src=0)
        times = [now() - t0]
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        dist.send(bufs["out"], dst=n)
    elif rank == n:
        dist.recv(bufs["own"], src=0)
        times.append(now() - t0)
    return times


INCAST = {"incast-in": incast_in, "incast-out": incast_out, "incast-mixed": incast_mixed}


def incast_slots(pattern, rank, n):
    """The columns of incast_flows(pattern, n) that `rank` times."""
    if rank == 0:
        return list(range(n)) if pattern == "incast-in" else list(range(n - 1)) if pattern == "incast-mixed" else []
    if pattern == "incast-out":
        return [rank - 1]
    return [n - 1, n] if pattern == "incast-mixed" and rank == n else []


def incast_run(args, pattern, n, size, bufs, group):
    """warmup + repeats of one pattern on ranks 0..n; returns every measured repeat's flow times (on every rank
    of the group: an all_reduce of each rank's own columns)."""
    rank = dist.get_rank()
    view = {"in": [b[:plan.elements(size)] for b in bufs["in"]], "out": bufs["out"][:plan.elements(size)],
            "own": bufs["own"][:plan.elements(size)]}
    cols, slots = len(incast_flows(pattern, n)), incast_slots(pattern, rank, n)
    table = torch.zeros(args.repeats, cols, dtype=torch.float64)
    for i in range(args.warmup + args.repeats):
        times = INCAST[pattern](rank, n, view, group)
        if i >= args.warmup:
            for col, t in zip(slots, times):
                table[i - args.warmup, col] = t
    dist.all_reduce(table, group=group)
    return table.tolist()


def incast_record(args, out, flows_path, pattern, n, size, table):
    """Rank 0: the repeats' JSON lines, the CSV rows (one per role) and a summary (within-repeat spreads)."""
    flows = incast_flows(pattern, n)
    with open(flows_path, "a", encoding="utf-8") as f:
        for r, times in enumerate(table):
            f.write(json.dumps({"pattern": pattern, "clients": n, "size_bytes": size, "repeat": r,
                                "rate": rate_label(args), "times_s": times, "roles": [x[0] for x in flows],
                                "ranks": [x[1] for x in flows]}) + "\n")
    summary = []
    for role in dict.fromkeys(x[0] for x in flows):
        cols = [i for i, x in enumerate(flows) if x[0] == role]
        st = flow_stats([[times[i] for i in cols] for times in table])
        op = pattern if pattern != "incast-mixed" else f"{pattern}-{role}"
        med = out.row(op, n + 1, size, st["times"], args.warmup, repeats=len(table))
        summary.append({"op": op, "clients": n, "flows": len(cols), "size_bytes": size, "time_median_s": med,
                        "spread_median": st["spread_median"], "spread_max": st["spread_max"]})
    if pattern == "incast-mixed":
        ratios = paired_ratios([t[n - 1] for t in table], [t[n] for t in table])
        summary[-2]["reverse_over_alone_median"] = plan.median(ratios)
    for s in summary:
        extra = f"  reverse/alone {s['reverse_over_alone_median']:.3f}" if "reverse_over_alone_median" in s else ""
        print(f"{s['op']:<22} N={n} {size:>10} B: median flow {s['time_median_s'] * 1e3:9.2f} ms, spread in a "
              f"repeat median {s['spread_median']:.3f} max {s['spread_max']:.3f}{extra}", flush=True)
    return summary


def tcp_counters():
    """This namespace's TCP counters (/proc/net/snmp): segments sent and retransmitted."""
    lines = [l.split() for l in (read_text("/proc/net/snmp") or "").splitlines() if l.startswith("Tcp:")]
    if len(lines) < 2:
        return {}
    values = dict(zip(lines[0][1:], lines[1][1:]))
    return {k: int(values[k]) for k in ("OutSegs", "RetransSegs") if k in values}


def incast_buffers(rank, clients, size):
    if rank == 0:
        return {"in": [torch.zeros(plan.elements(size), dtype=torch.float32) for _ in range(clients)],
                "out": torch.zeros(plan.elements(size), dtype=torch.float32), "own": torch.zeros(1)}
    return {"in": [], "out": torch.zeros(1), "own": torch.zeros(plan.elements(size), dtype=torch.float32)}


def cmd_incast(args):
    """Many-to-one and one-to-many transfers through the hub's NIC (rank 0; clients 1..N), for every N in --nodes
    and size: does TCP share one host's link fairly over a short transfer, and does traffic into the hub slow a
    transfer out of it? Async-PS training runs faster than a fluid max-min sharing predicts; these are the two
    network effects suspected (docs/measure.md). Patterns, each after a barrier of ranks 0..N: incast-in (every
    client sends S bytes to the hub), incast-out (the hub sends S bytes to every client), incast-mixed (clients
    1..N-1 send to the hub while the hub sends to client N; and that reverse flow alone). A flow's time runs from
    the barrier's end to its completion at the receiver."""
    rank, world = dist.get_rank(), dist.get_world_size()
    if world < 3:
        raise MeasureError("incast needs at least 3 ranks (the hub and 2 clients)")
    ns = [int(k) for k in args.nodes.split(",")] if args.nodes else list(range(2, world))
    if any(k < 2 or k > world - 1 for k in ns):
        raise MeasureError(f"--nodes {args.nodes}: clients, each in 2..{world - 1} (the world size - 1)")
    sizes = [size_arg(s) for s in args.sizes.split(",")]
    check_out(args)
    infos = gather_infos()
    counters = [None] * world
    dist.all_gather_object(counters, tcp_counters())
    groups = {k: dist.new_group(list(range(k + 1))) for k in sorted(set(ns))}  # every rank creates every group
    flows_path = args.out + ".flows.jsonl"
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    if rank == 0:
        open(flows_path, "w", encoding="utf-8").close()
    bufs = incast_buffers(rank, max(ns), max(sizes))
    summary = []
    for n in ns:
        if rank <= n:
            for size in sizes:
                for pattern in INCAST:
                    table = incast_run(args, pattern, n, size, bufs, groups[n])
                    if rank == 0:
                        summary += incast_record(args, out, flows_path, pattern, n, size, table)
        dist.barrier()
    after = [None] * world  # the uplinks' tc counters after the run (the switch's downlinks: emulate status)
    dist.all_gather_object(after, {"tcp": tcp_counters(), "tc_qdisc": local_info().get("tc_qdisc")})
    tcp = [{"rank": r, "tcp_before": b, "tcp_after": a["tcp"], "tc_qdisc_after": a["tc_qdisc"]}
           for r, (b, a) in enumerate(zip(counters, after))]
    write_sidecar(args.out, args, infos, "incast", {"flows": flows_path, "summary": summary, "after": tcp})


# --------------------------------------------------------------------------------------------------- training
class Config:
    """One configuration of `train`: the architecture and its sizes, and the rank layout. PS ranks are 0..M-1
    (each on its own host), workers M..M+K-1; the ring has no PS."""

    def __init__(self, args, wl, k, repeat):
        self.arch = args.arch
        self.k = k
        self.m = args.ps if args.arch != "ring" else 0
        self.overlap = args.overlap == "on"
        self.repeat = repeat
        self.steps, self.warmup = args.steps, args.warmup
        self.total = args.warmup + args.steps
        self.async_ = args.arch == "ps-async"
        self.key = f"sgdsim-measure/{args.arch}/r{repeat}/k{k}/measured"  # ps-async: workers done measuring
        self.scale = args.compute_scale
        self.wl = wl
        self.members = list(range(self.m)) + [self.m + w for w in range(k)]
        if self.m:
            owner = (plan.split_round_robin(len(wl.tensors), self.m) if args.ps_split == "round-robin"
                     else plan.split_balanced(wl, self.m))
            self.owner = owner
            self.shards = plan.ps_shards(owner, self.m)
        if args.arch == "ring":
            self.units = plan.grad_units(wl, args.granularity, args.bucket_cap_mb * MIB, args.first_bucket_mb * MIB)

    def worker_rank(self, w):
        return self.m + w

    def tag(self, direction, step, t):
        return (3 * step + direction) * len(self.wl.tensors) + t

    def marker(self, step, t):
        """A float32-exact number a worker writes in element 0 of gradient t of a step, so that the PS can check
        that every message landed where it was expected (threads, tags and sub-groups included)."""
        return float((step * len(self.wl.tensors) + t) % (1 << 24))


def draw_times(wl, rng):
    """This step's forward and backward times per layer: a uniformly drawn <sample> of each layer (one seeded
    stream per worker, as sgdsim draws them; not sgdsim's generator, so not its exact draws)."""
    fwd, bwd = [], []
    for layer in wl.layers:
        s = layer.samples[rng.randrange(len(layer.samples))] if len(layer.samples) > 1 else layer.samples[0]
        fwd.append(s[0])
        bwd.append(s[1])
    return fwd, bwd


def wait_all(works):
    """Waits for receives; returns when the last of them arrived if one had to be waited for, else None (they
    all arrived earlier, during compute: then they do not delay the next operation)."""
    ready = None
    for work in works:
        if work.is_completed():
            work.wait()
        else:
            work.wait()
            ready = now()
    return ready


def ps_worker(cfg, w, start, rng):
    """A worker of ps-sync / ps-async (src/sim/worker.cpp): downlink of each tensor from the PS that holds it, in
    forward order; forward of layer i once its tensors arrived and layer i-1 is done; backward in reverse order;
    each layer's gradients sent (tensors reversed) once its backward is done; the step ends when its last uplink
    completes. Without overlap: all downlinks, then all compute, then all uplinks. One message per tensor per
    direction; each PS's messages share one connection, in order; different PS are served concurrently.

    ps-async: as in sgdsim, a worker goes on after its measured steps until every worker has measured its own.
    It says it is done measuring in the default store (a counter); from then on each PS precedes the worker's
    parameters with a one-float control message, CONTINUE or STOP (once the counter shows every worker done),
    and the worker runs steps with the PS that continue until all have said STOP."""
    wl, scale = cfg.wl, cfg.scale
    buf = [torch.zeros(plan.elements(t.bytes), dtype=torch.float32) for t in wl.tensors]
    ctl = [torch.zeros(1, dtype=torch.float32) for _ in cfg.shards]
    active = list(range(len(cfg.shards)))
    clock = Clock(start)
    ends = []
    step = 0
    while True:
        if step == cfg.total and cfg.async_:
            dist.distributed_c10d._get_default_store().add(cfg.key, 1)
        if step >= cfg.total:
            if not cfg.async_:
                break
            works = {p: dist.irecv(ctl[p], src=p, tag=cfg.tag(CTRL, step, 0)) for p in active}
            for p, work in works.items():
                work.wait()
                if ctl[p][0].item() == STOP:
                    active.remove(p)
            if not active:
                break
        fwd, bwd = draw_times(wl, rng)
        recvs = {}
        for p in active:
            for t in cfg.shards[p]:
                recvs[t] = dist.irecv(buf[t], src=p, tag=cfg.tag(DOWN, step, t))
        sends = []

        def send(t):
            if t in recvs:  # a tensor of a PS that stopped this worker is not sent
                buf[t][0] = cfg.marker(step, t)
                sends.append(dist.isend(buf[t], dst=cfg.owner[t], tag=cfg.tag(UP, step, t)))

        if cfg.overlap:
            for i, layer in enumerate(wl.layers):
                clock.run(fwd[i] * scale, ready=wait_all([recvs[t] for t in layer.tensors if t in recvs]))
            for i in range(len(wl.layers) - 1, -1, -1):
                clock.run(bwd[i] * scale)
                for t in reversed(wl.layers[i].tensors):
                    send(t)
        else:
            clock.run((sum(fwd) + sum(bwd)) * scale, ready=wait_all(list(recvs.values())))
            for i in range(len(wl.layers) - 1, -1, -1):
                for t in reversed(wl.layers[i].tensors):
                    send(t)
        for work in sends:
            work.wait()
        ends.append(now())
        clock.sync(ends[-1])
        step += 1
    return {"step_ends": ends, "clock": clock.stats()}


def parameter_server(cfg, p, start, buffer_limit):
    """A parameter server (src/sim/parameter_server.cpp). Sync: a tensor is updated once all K workers' gradients
    for it arrived; when its whole shard is updated, it sends the next parameters to every worker. Async: each
    gradient is applied on arrival; worker w gets fresh parameters once all its gradients of the step are
    applied. Updates run one at a time in arrival order, each lasting ps_update x scale x tensor bytes / model bytes:
    their dates are computed (start = max(arrival, end of the previous update)), as sgdsim's computed queue does,
    and the PS sleeps only until the update a release waits for has ended.

    Arrivals are detected by one thread per worker that waits (Work.wait releases the GIL) on that worker's
    receives in the order the worker sends them, and queues (arrival time, worker, tensor); the main loop takes
    them in arrival order. The time the main loop spends outside waiting and sleeping is reported as the PS's own
    software overhead."""
    wl = cfg.wl
    shard = cfg.shards[p]
    if not shard:
        return {"rank": p, "tensors": 0}
    order = plan.uplink_order(wl, cfg.owner, p)
    sync = cfg.arch == "ps-sync"
    k = cfg.k
    params = {t: torch.zeros(plan.elements(wl.tensors[t].bytes), dtype=torch.float32) for t in shard}
    shard_bytes = sum(wl.tensors[t].bytes for t in shard)
    per_worker = k * shard_bytes <= buffer_limit
    if per_worker:
        grads = [{t: torch.zeros_like(params[t]) for t in shard} for _ in range(k)]
    else:  # shared receive buffers: contents race, timing does not; markers are not checked
        shared = {t: torch.zeros_like(params[t]) for t in shard}
        grads = [shared] * k
    # ps_update is a time on the reference device (sgdsim scales it with the PS host's speed, as compute).
    update_s = {t: cfg.scale * wl.ps_update_s * wl.tensors[t].bytes / wl.model_bytes() for t in shard}
    arrivals = queue.Queue()
    pending = [queue.Queue() for _ in range(k)]

    def waiter(w):
        while True:
            item = pending[w].get()
            if item is None:
                return
            step, t, work = item
            work.wait()
            arrivals.put((now(), w, step, t))

    threads = [threading.Thread(target=waiter, args=(w,), daemon=True) for w in range(k)]
    for th in threads:
        th.start()
    sends = []
    releases_late = []
    go, stop = torch.tensor([CONTINUE]), torch.tensor([STOP])
    store = dist.distributed_c10d._get_default_store() if cfg.async_ else None

    def release(w, step, due):
        """Posts the receives of worker w's gradients of `step` (before it can send them), then sends it the
        shard's parameters in forward order. ps-async, after w's measured steps: first a control message, and
        STOP instead of parameters once every worker has measured its steps. Returns False for STOP."""
        if cfg.async_ and step >= cfg.total:
            if int(store.add(cfg.key, 0)) >= k:
                sends.append(dist.isend(stop, dst=cfg.worker_rank(w), tag=cfg.tag(CTRL, step, 0)))
                return False
            sends.append(dist.isend(go, dst=cfg.worker_rank(w), tag=cfg.tag(CTRL, step, 0)))
        releases_late.append(max(0.0, now() - due))
        for t in order:
            work = dist.irecv(grads[w][t], src=cfg.worker_rank(w), tag=cfg.tag(UP, step, t))
            pending[w].put((step, t, work))
        for t in shard:
            sends.append(dist.isend(params[t], dst=cfg.worker_rank(w), tag=cfg.tag(DOWN, step, t)))
        return True

    clock = Clock(start)
    for w in range(k):
        release(w, 0, start)
    busy = 0.0
    lags = []
    bad_markers = 0
    updates = 0
    cpu_free = start
    if sync:
        received = {t: 0 for t in shard}
        applied, step = 0, 0
        while step < cfg.total:
            arrived, w, s, t = arrivals.get()
            t0 = now()
            lags.append(t0 - arrived)
            if per_worker and grads[w][t][0].item() != cfg.marker(s, t):
                bad_markers += 1
            received[t] += 1
            if received[t] == k:
                received[t] = 0
                cpu_free = max(arrived, cpu_free) + update_s[t]
                updates += 1
                applied += 1
                if applied == len(shard):
                    applied = 0
                    step += 1
                    if step < cfg.total:
                        busy += now() - t0
                        clock.sleep_until(cpu_free)
                        t0 = now()
                        for v in range(k):
                            release(v, step, cpu_free)
            busy += now() - t0
    else:
        count = [0] * k
        done = [0] * k
        finished = 0
        while finished < k:
            arrived, w, s, t = arrivals.get()
            t0 = now()
            lags.append(t0 - arrived)
            if per_worker and grads[w][t][0].item() != cfg.marker(s, t):
                bad_markers += 1
            cpu_free = max(arrived, cpu_free) + update_s[t]
            updates += 1
            count[w] += 1
            if count[w] == len(shard):
                count[w] = 0
                done[w] += 1
                busy += now() - t0
                clock.sleep_until(cpu_free)
                t0 = now()
                if not release(w, done[w], cpu_free):
                    finished += 1
            busy += now() - t0
    for w in range(k):
        pending[w].put(None)
    for th in threads:
        th.join()
    for work in sends:
        work.wait()
    elapsed = now() - start
    return {"rank": p, "tensors": len(shard), "bytes": shard_bytes, "updates": updates,
            "loop_busy_s": busy, "loop_busy_fraction": busy / elapsed if elapsed > 0 else 0.0,
            "arrival_lag_mean_us": 1e6 * plan.mean(lags), "arrival_lag_max_us": 1e6 * max(lags) if lags else 0.0,
            "release_late_mean_us": 1e6 * plan.mean(releases_late),
            "release_late_max_us": 1e6 * max(releases_late), "per_worker_buffers": per_worker,
            "bad_markers": bad_markers if per_worker else None, "clock": clock.stats()}


def ring_worker(cfg, w, group, start, rng):
    """A worker of decentralized Sync-SGD (src/sim/ring_worker.cpp, planned units): forward of every layer, then
    the backward in reverse; with overlap, each unit's all-reduce (dist.all_reduce, async) is launched as soon as
    the backward of its lowest layer is done, without overlap after the whole backward; the step ends when every
    all-reduce has finished and the local update (ps_update) is done. ProcessGroupGloo runs queued all-reduces on
    its worker threads (2 in torch 1.13), so up to 2 run at once, in launch order."""
    wl, scale = cfg.wl, cfg.scale
    units = cfg.units
    bufs = [torch.zeros(plan.elements(u.bytes), dtype=torch.float32) for u in units]
    clock = Clock(start)
    ends = []
    max_in_flight = 0
    allreduce_s = []
    for _ in range(cfg.total):
        fwd, bwd = draw_times(wl, rng)
        works = []
        launched = 0

        def launch(u):
            nonlocal max_in_flight
            if cfg.k > 1:  # sgdsim skips the all-reduce of a single worker
                in_flight = sum(1 for x in works if not x.is_completed())
                works.append(dist.all_reduce(bufs[u], group=group, async_op=True))
                max_in_flight = max(max_in_flight, in_flight + 1)

        for i in range(len(wl.layers)):
            clock.run(fwd[i] * scale)
        for i in range(len(wl.layers) - 1, -1, -1):
            clock.run(bwd[i] * scale)
            while cfg.overlap and launched < len(units) and units[launched].ready_layer >= i:
                launch(launched)
                launched += 1
        t_comm = now()
        while launched < len(units):
            launch(launched)
            launched += 1
        for work in works:
            work.wait()
        allreduce_s.append(now() - t_comm)
        clock.sync(now())
        clock.run(wl.ps_update_s * scale)
        ends.append(now())
    return {"step_ends": ends, "clock": clock.stats(), "max_queued_allreduces": max_in_flight,
            "wait_after_backward_mean_s": plan.mean(allreduce_s)}


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def cmd_train(args):
    """Emulated training steps of a sgdsim workload for K = 1..--workers (or --workers-list), one JSON line per
    configuration and repeat, written by rank 0."""
    rank, world = dist.get_rank(), dist.get_world_size()
    try:
        wl = plan.parse_workload(args.workload)
    except plan.WorkloadError as e:
        raise MeasureError(str(e)) from None
    m = args.ps if args.arch != "ring" else 0
    ks = [int(k) for k in args.workers_list.split(",")] if args.workers_list else list(range(1, args.workers + 1))
    if not ks or min(ks) < 1:
        raise MeasureError("--workers / --workers-list: at least one worker")
    if m + max(ks) > world:
        raise MeasureError(f"{m} PS + {max(ks)} workers need {m + max(ks)} ranks; the world has {world}")
    check_out(args)
    infos = gather_infos()
    sha = file_sha256(args.workload)
    # Every rank creates every group, in the same order (dist.new_group's rule).
    groups = {k: dist.new_group(list(range(m)) + [m + w for w in range(k)]) for k in sorted(set(ks))}
    results = []
    if rank == 0:
        open(args.out, "w", encoding="utf-8").close()
    for repeat in range(args.repeat):
        for k in ks:
            cfg = Config(args, wl, k, repeat)
            group = groups[k]
            mine = None
            if rank in cfg.members:
                rng = random.Random(args.seed * 1_000_003 + rank)
                dist.barrier(group=group)
                start = now()
                wall_start = time.time()
                if rank < m:
                    mine = {"role": "ps", **parameter_server(cfg, rank, start, args.ps_buffer_limit_gib * (1 << 30))}
                elif cfg.arch == "ring":
                    mine = {"role": "worker", "rank": rank, **ring_worker(cfg, rank - m, group, start, rng)}
                else:
                    mine = {"role": "worker", "rank": rank, **ps_worker(cfg, rank - m, start, rng)}
                mine["start"] = start
                mine["wall_offset"] = wall_start - start
                gathered = [None] * len(cfg.members)
                dist.all_gather_object(gathered, mine, group=group)
                if rank == 0:
                    line = train_record(args, cfg, wl, sha, gathered)
                    results.append(line)
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(line) + "\n")
                    print(f"train {cfg.arch}{' ' + args.granularity if cfg.arch == 'ring' else ''} K={k} "
                          f"PS={m} overlap={args.overlap} repeat {repeat}: step {line['step_time_mean_s']:.4f} s, "
                          f"{line['throughput_examples_per_s']:.2f} examples/s", flush=True)
            dist.barrier()
    infos_after = gather_infos()
    if rank == 0:
        prov = provenance(args, infos, infos_after)
        with open(args.out + ".provenance.json", "w", encoding="utf-8") as f:
            json.dump(prov, f, indent=2)
            f.write("\n")
        # Every line carries the provenance too, so that a line copied alone still says where it comes from.
        with open(args.out, "w", encoding="utf-8") as f:
            for line in results:
                line["provenance"] = prov
                f.write(json.dumps(line) + "\n")


def train_record(args, cfg, wl, sha, gathered):
    workers = [g for g in gathered if g["role"] == "worker"]
    per_worker = [plan.step_times(g["step_ends"], g["start"], cfg.warmup, cfg.steps) for g in workers]
    summary = plan.summarize(per_worker, wl.batch)
    record = {
        "kind": "train",
        "arch": cfg.arch,
        "granularity": args.granularity if cfg.arch == "ring" else None,
        "workers": cfg.k,
        "ps": cfg.m,
        "ps_split": args.ps_split if cfg.m else None,
        "overlap": args.overlap,
        "workload": args.workload,
        "workload_sha256": sha,
        "workload_name": wl.name,
        "batch": wl.batch,
        "rate": rate_label(args),
        "compute_scale": cfg.scale,
        "steps": cfg.steps,
        "warmup": cfg.warmup,
        "repeat": cfg.repeat,
        "seed": args.seed,
        "step_times_s": per_worker,
        **{key: summary[key] for key in ("step_time_mean_s", "step_time_std_s", "step_time_min_s",
                                         "step_time_max_s", "throughput_examples_per_s")},
        "per_worker": [{"rank": g["rank"], "step_time_mean_s": summary["per_worker_step_time_mean_s"][i],
                        "step_time_std_s": summary["per_worker_step_time_std_s"][i], "clock": g["clock"],
                        **({"max_queued_allreduces": g["max_queued_allreduces"],
                            "wait_after_backward_mean_s": g["wait_after_backward_mean_s"]}
                           if cfg.arch == "ring" else {})}
                       for i, g in enumerate(workers)],
    }
    if cfg.m:
        record["ps_servers"] = [{k: v for k, v in g.items() if k not in ("role", "start", "wall_offset")}
                                for g in gathered if g["role"] == "ps"]
        if any(s.get("bad_markers") for s in record["ps_servers"]):
            record["error"] = "a PS received a gradient that was not the one expected (bad_markers > 0)"
    if cfg.arch == "ring":
        record["allreduces_per_step"] = len(cfg.units) if cfg.k > 1 else 0
        record["allreduce_unit_bytes"] = [u.bytes for u in cfg.units]
        record["gloo_threads"] = gloo_info()["process_group_threads"]
    if cfg.async_:
        record["steps_run"] = [len(g["step_ends"]) for g in workers]  # measured + those until all measured
    return record


# ------------------------------------------------------------------------------------------------------- main
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

    p = sub.add_parser("p2p", help="send/recv between ranks 0 and 1, and a ping-pong")
    micro(p)
    p.add_argument("--stream", type=int, default=0,
                   help="also send N tensors of each size back to back (rows p2p_stream: the time of each message "
                        "beyond the first, for sgdsim calibrate --stream); default 0: not measured")
    p.add_argument("--pingpong-repeats", type=int, default=200, help="measured round trips (default 200)")
    p.add_argument("--pingpong-warmup", type=int, default=20, help="unmeasured round trips (default 20)")
    p.set_defaults(func=cmd_p2p)
    p = sub.add_parser("allreduce", help="dist.all_reduce on 2..K ranks")
    micro(p)
    p.add_argument("--nodes", default="", help="comma-separated rank counts (default 2..WORLD_SIZE)")
    p.add_argument("--queued", type=int, default=0,
                   help="N > 0: launch N async all-reduces of each size together and time them per call (op "
                        "allreduce_queued: a training's back-to-back calls, with Gloo's own concurrency)")
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
    p.add_argument("--nodes", default="", help="comma-separated client counts N (default 2..WORLD_SIZE-1)")
    p.add_argument("--sizes", default="16MiB,64MiB", help="comma-separated bytes per flow (default 16MiB,64MiB)")
    p.add_argument("--warmup", type=int, default=1, help="unmeasured repeats per pattern and size (default 1)")
    p.add_argument("--repeats", type=int, default=5, help="measured repeats per pattern and size (default 5)")
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
    p.add_argument("--steps", type=int, default=10, help="measured steps (default 10, as sgdsim)")
    p.add_argument("--warmup", type=int, default=2, help="unmeasured first steps (default 2, as sgdsim)")
    p.add_argument("--repeat", type=int, default=1, help="runs of each configuration (default 1)")
    p.add_argument("--compute-scale", type=float, default=1.0,
                   help="multiplies every forward, backward and update time, PS or ring (simulate with every "
                        "host's speed = reference_speed / scale; default 1)")
    p.add_argument("--bucket-cap-mb", type=float, default=25, help="ddp: bucket_cap_mb (default 25, MiB)")
    p.add_argument("--first-bucket-mb", type=float, default=1,
                   help="ddp: first bucket's cap (default 1, torch's _DEFAULT_FIRST_BUCKET_BYTES, MiB)")
    p.add_argument("--ps-buffer-limit-gib", type=float, default=4,
                   help="a PS keeps a receive buffer per worker and tensor up to this size (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON-lines file (rank 0), plus OUT.provenance.json")
    p.add_argument("--force", action="store_true", help="overwrite --out")
    p.set_defaults(func=cmd_train)
    args = parser.parse_args(argv)

    try:
        if torch is None:
            raise MeasureError("PyTorch is not installed for this interpreter (Debian: apt-get install "
                               "python3-torch; run /usr/bin/python3)")
        if not dist.is_gloo_available():
            raise MeasureError("this PyTorch has no Gloo backend")
        if getattr(args, "queued", 0) < 0:
            raise MeasureError("--queued must be 0 (one call at a time) or a number of calls")
        if getattr(args, "repeats", 5) < 1:
            raise MeasureError("--repeats must be at least 1")
        if getattr(args, "stream", 0) == 1 or getattr(args, "stream", 0) < 0:
            raise MeasureError("--stream must be 0 (not measured) or at least 2 messages")
        if args.command == "train" and not (args.workers or args.workers_list):
            raise MeasureError("train: give --workers K or --workers-list")
        missing = [v for v in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE") if v not in os.environ]
        if missing:
            raise MeasureError(f"{', '.join(missing)} not set: run under torchrun or tools/measure/launch")
        torch.set_num_threads(1)
        set_timer_slack()
        dist.init_process_group("gloo", init_method="env://",
                                timeout=datetime.timedelta(seconds=args.timeout))
        args.func(args)
        dist.barrier()
        dist.destroy_process_group()
    except MeasureError as e:
        print(f"measure.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
