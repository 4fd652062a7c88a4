"""measure.py incast (docs/measure.md): N clients to and from one hub (rank 0), for flow fairness and the
coupling of the two directions; its pure parts are unit-tested (tests/measure/test_incast.py)."""

import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)
from kit import (check_out, csv_meta, CsvOut, dist, gather_infos, local_info, MeasureError, now, rate_label,
                 read_text, size_arg, torch, write_sidecar)  # noqa: E402

# Column layout of one repeat of each pattern, for N clients: (role, client rank) of each flow timed.
def incast_flows(pattern, n):
    """The flows one repeat of `pattern` times with N = n clients, as (role, client rank): `in` client -> hub, `out`
    hub -> client, `reverse` hub -> client n while clients 1..n-1 send to the hub, `alone` the same flow alone;
    incast-half: clients 1..n-m send to the hub while the hub sends to clients n-m+1..n, m = n // 2."""
    if pattern == "incast-in":
        return [("in", c) for c in range(1, n + 1)]
    if pattern == "incast-out":
        return [("out", c) for c in range(1, n + 1)]
    if pattern == "incast-half":
        m = n // 2
        return [("in", c) for c in range(1, n - m + 1)] + [("out", c) for c in range(n - m + 1, n + 1)]
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


def incast_half(rank, n, bufs, group):
    """Clients 1..n-m isend to the hub while the hub isends to clients n-m+1..n (m = n // 2): both directions of
    the hub's NIC loaded by several flows, as a PS's is in Async-PS (incast-mixed has one flow out). The hub times
    the incoming flows, each receiving client its own."""
    m = n // 2
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        outs = [dist.isend(bufs["out"], dst=c) for c in range(n - m + 1, n + 1)]
        times = completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n - m + 1)], t0)
        for work in outs:
            work.wait()
        return times
    if rank <= n - m:
        dist.isend(bufs["own"], dst=0).wait()
        return []
    dist.recv(bufs["own"], src=0)
    return [now() - t0]


INCAST = {"incast-in": incast_in, "incast-out": incast_out, "incast-mixed": incast_mixed, "incast-half": incast_half}


def incast_slots(pattern, rank, n):
    """The columns of incast_flows(pattern, n) that `rank` times: each flow's receiver's, the hub for a flow into it
    and the client for every other (out, reverse, alone), in column order (each pattern returns its times so)."""
    return [col for col, (role, client) in enumerate(incast_flows(pattern, n))
            if rank == (0 if role == "in" else client)]


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
        op = f"{pattern}-{role}" if pattern in ("incast-mixed", "incast-half") else pattern
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
    1..N-1 send to the hub while the hub sends to client N; and that reverse flow alone), incast-half (clients
    1..N-M send to the hub while the hub sends to the other M = N // 2). A flow's time runs from the barrier's end
    to its completion at the receiver."""
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
