"""measure.py p2p, allreduce and concurrency (docs/measure.md): network microbenchmarks with torch.distributed
(Gloo), written by rank 0 as the results CSV that `sgdsim calibrate` reads."""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)
from kit import (check_out, cpu_outside, cpu_snapshot, csv_meta, CsvOut, dist, gather_infos, gloo_info, gloo_lanes,  # noqa: E402
                 MeasureError, now, size_arg, sizes_from, torch, until_quiet, write_sidecar)


def time_p2p(args, rank, pair, view):
    """The warm-up and measured transfers of one size: rank 0 sends, rank 1 times each receive from the end of a
    barrier of the two. Returns rank 1's times (rank 0: as many zeros; quiet_attempt takes the maximum)."""
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
    return times if rank == 1 else [0.0] * args.repeats


def time_stream(args, rank, pair, view):
    """--stream N: rank 0 sends N tensors back to back on the connection, rank 1 times the N receives from the end
    of a barrier. Returns rank 1's totals (rank 0: zeros); row p2p_stream is each total's time per message beyond
    the first (cmd_p2p)."""
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
    return totals if rank == 1 else [0.0] * args.repeats


def time_both_ways(args, rank, pair, view, back):
    """--both-ways: ranks 0 and 1 send each other a tensor at once (isend and irecv), each timing its receive from
    the end of a barrier; quiet_attempt's maximum over the two is a repeat's time (row p2p_both: against the
    transfer alone, how much a flow the other way slows a flow when both ends' links carry one flow each way, as in
    a ring: the ACKs of each flow ride beside the other's data, docs/models.md §9.1)."""
    times = []
    for i in range(args.warmup + args.repeats):
        dist.barrier(group=pair)
        t0 = now()
        # The receive first: Gloo's notice that it is posted rides the connection's own direction, behind any data
        # this rank has begun to write on it, which would serialize the two transfers (seen: 2x at some repeats).
        recv = dist.irecv(back, src=1 - rank)
        send = dist.isend(view, dst=1 - rank)
        recv.wait()
        t = now() - t0
        send.wait()
        if i >= args.warmup:
            times.append(t)
    return times


def time_pingpong(args, rank):
    """One float there and back, timed by rank 0 (rank 1: zeros); half a round trip is the one-way latency."""
    one = torch.zeros(1, dtype=torch.float32)
    rtts = []
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
    return rtts if rank == 0 else [0.0] * args.pingpong_repeats


def cmd_p2p(args):
    """Ranks 0 and 1: rank 0 sends one tensor, rank 1 receives it and times the transfer from the end of a
    barrier of the two (with --stream and --both-ways, those rows after each size's); then a ping-pong of one float
    for the small-message latency. Other ranks wait. Each row is measured again while the machine was busy
    (quiet_attempt)."""
    rank, world = dist.get_rank(), dist.get_world_size()
    if world < 2:
        raise MeasureError("p2p needs at least 2 ranks")
    check_out(args)
    infos = gather_infos()
    sizes = sizes_from(args)
    pair = dist.new_group([0, 1])
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    pids = [i.get("pid") for i in infos]
    cpu_rows = []  # rank 0: the machine's CPU used outside the ranks during each row (plan.cpu_outside)

    def measured(op, size, bench, warmup, each=None):
        """Row `op` of `size` from quiet_attempt(bench); `each` turns rank 0's times into the row's values."""
        times, _, cpu, tries = quiet_attempt(args, pair, rank, pids, lambda: (bench(), []))
        if rank != 0:
            return None
        values = each(times) if each else times
        if each:  # a busy attempt's median in the row's terms (each is monotone: the median of each's values)
            tries = [{**t, "time_s": each([t["time_s"]])[0]} for t in tries]
        if cpu is not None:
            cpu_rows.append({"op": op, "nodes": 2, "size_bytes": size, "time_s": statistics.median(values), **cpu,
                             **({"busy_attempts": tries} if tries else {})})
        return out.row(op, 2, size, values, warmup), tries

    if rank in (0, 1):
        buf = torch.zeros(plan.elements(max(sizes)), dtype=torch.float32)
        back = torch.zeros(plan.elements(max(sizes)) if args.both_ways else 0, dtype=torch.float32)
        for size in sizes:
            view = buf[:plan.elements(size)]
            got = measured("p2p", size, lambda: time_p2p(args, rank, pair, view), args.warmup)
            alone_s = got[0] if got else None
            if got:
                print(f"p2p {size:>10} B: {alone_s * 1e3:9.3f} ms  {size * 8 / alone_s / 1e9:7.3f} Gbit/s"
                      + plan.busy_note(got[1]), flush=True)
            if args.stream > 1:
                # What a busy connection's messages pay each (bytes and per-message cost, no latency, nothing paid
                # once per transfer; sgdsim calibrate --stream): (T_N - T_alone) / (N - 1), with T_alone the
                # median just measured. A noisy small size can come out at or below 0; a time must be positive,
                # and 1 ns says "nothing measurable".
                got = measured("p2p_stream", size, lambda: time_stream(args, rank, pair, view), args.warmup,
                               lambda totals: [max(1e-9, (t - alone_s) / (args.stream - 1)) for t in totals])
                if got:
                    print(f"p2p {size:>10} B, {args.stream} back to back: {got[0] * 1e3:9.3f} ms per message beyond "
                          "the first" + plan.busy_note(got[1]), flush=True)
            if args.both_ways:
                got = measured("p2p_both", size,
                               lambda: time_both_ways(args, rank, pair, view, back[:plan.elements(size)]),
                               args.warmup)
                if got:
                    print(f"p2p {size:>10} B both ways at once: {got[0] * 1e3:9.3f} ms, {got[0] / alone_s:.3f} x one "
                          "way" + plan.busy_note(got[1]), flush=True)
        dist.barrier(group=pair)
        got = measured("pingpong", 4, lambda: time_pingpong(args, rank), args.pingpong_warmup,
                       lambda rtts: [r / 2 for r in rtts])
        if got:
            print(f"ping-pong 4 B: one-way {got[0] * 1e6:.1f} us (half the median round trip)" + plan.busy_note(got[1]),
                  flush=True)
    dist.barrier()
    write_sidecar(args.out, args, infos, "p2p", {"cpu_rows": cpu_rows, "sample_rows": out.samples if out else []})


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
    # --gloo-threads N: the timed calls run on a Gloo group of N worker threads (barriers stay on groups[k]), as
    # train --gloo-threads runs a training's.
    threads = getattr(args, "gloo_threads", 0)
    lanes = {k: gloo_lanes(list(range(k)), rank, threads, args.timeout) for k in sorted(set(ks))} if threads else {}
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    calls = max(1, args.queued)
    beside = size_arg(args.beside) if getattr(args, "beside", "") else 0
    after = size_arg(args.after) if getattr(args, "after", "") else 0
    among = size_arg(args.among) if getattr(args, "among", "") else 0
    with_size = size_arg(args.with_size) if getattr(args, "with_size", "") else 0
    op = ("allreduce_queued_with" if with_size else "allreduce_queued" if args.queued else "allreduce_beside"
          if beside else "allreduce_after" if after else "allreduce_among" if among else "allreduce")
    big = torch.zeros(plan.elements(beside or after), dtype=torch.float32) if beside or after else None
    # --among: one buffer per call of SIZE, as a training's units have (at most 4 GiB: measure.py checks).
    others = [torch.zeros(plan.elements(among), dtype=torch.float32) for _ in range(args.among_calls)] if among else []
    # One buffer per call in flight, as the training's units have (a queued call must not reduce another's data).
    bufs = [torch.zeros(plan.elements(max(sizes)), dtype=torch.float32) for _ in range(calls)]
    # --with: each group's small calls, one buffer each (a layer's batch-norm vectors).
    smalls = [[torch.zeros(plan.elements(with_size), dtype=torch.float32) for _ in range(args.with_calls)]
              for _ in range(calls)] if with_size else []
    cpu_rows = []  # rank 0: the machine's CPU used outside the ranks during each row (plan.cpu_outside)
    pids = [i.get("pid") for i in infos]
    for k in ks:
        g = groups[k]
        if rank < k:
            for size in sizes:
                views = [b[:plan.elements(size)] for b in bufs]
                lane = lanes.get(k) or g
                bench = (lambda: (time_beside(args, g, big, views[0], lane), [])) if beside else (
                    lambda: time_row(args, g, views, smalls, big if after else None, others, calls, lane))
                times, alls, cpu, tries = quiet_attempt(args, g, rank, pids, bench)
                if rank == 0:
                    if cpu is not None:
                        cpu_rows.append({"nodes": k, "size_bytes": size, "time_s": statistics.median(times), **cpu,
                                         **({"busy_attempts": tries} if tries else {})})
                    med = out.row(op, k, size, times, args.warmup)
                    print(f"{op} {k} ranks {size:>10} B: {med * 1e3:9.3f} ms per call  busbw "
                          f"{size * 8 / med / 1e9 * 2 * (k - 1) / k:7.3f} Gbit/s"
                          + plan.busy_note(tries), flush=True)
                    if among:
                        med = out.row("allreduce_among_all", k, size, alls, args.warmup)
                        print(f"allreduce_among_all {k} ranks {size:>10} B: {med * 1e3:9.3f} ms for the "
                              f"{len(others) + 1} calls", flush=True)
        dist.barrier()
    extra = {"gloo_threads": threads} if threads else {}
    extra.update({"queued_calls": args.queued, "with_bytes": with_size, "with_calls": args.with_calls} if with_size
             else {"queued_calls": args.queued} if args.queued else {"beside_bytes": beside} if beside
             else {"after_bytes": after} if after
             else {"among_bytes": among, "among_calls": args.among_calls} if among else {})
    write_sidecar(args.out, args, infos, "allreduce",
                  {**extra, "cpu_rows": cpu_rows, "sample_rows": out.samples if out else []})


def quiet_attempt(args, g, rank, pids, bench):
    """One all-reduce row (bench() on every rank of group g: its repeats' times, and --among's wholes), measured
    again up to --quiet-retries times while rank 0 reads that the machine's other processes or its hypervisor took
    more CPU than plan.cpu_busy allows during it (docs/measure.md "Was the machine quiet?": a row measured with a
    third of a core stolen came out 8% slow). Rank 0 decides and tells the group, so that every rank runs the same
    attempts. Returns, as rank 0 sees them (the maxima over the ranks), the kept attempt's times and wholes
    (plan.quietest: the first quiet one, else the least busy), its CPU record (None without /proc) and the busy
    attempts measured before it, each {"time_s": its median, **its CPU record}, the first kept for its record
    only."""
    def attempt(_):
        before = cpu_snapshot(args.pace_wait) if rank == 0 else None  # before the row's first barrier
        times, alls = bench()
        t = torch.tensor([times, alls or [0.0] * len(times)], dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX, group=g)
        return (t[0].tolist(), t[1].tolist()), cpu_outside(before, cpu_snapshot(), pids) if rank == 0 else None

    done = until_quiet(args.quiet_retries, attempt, g)
    cpus = [cpu for _, cpu in done]
    keep = plan.quietest(cpus)
    (times, alls), cpu = done[keep]
    busy = plan.set_aside(cpus, [statistics.median(r[0]) for r, _ in done], keep)
    return times, alls, cpu, busy


def time_row(args, g, views, smalls, first_big, others, calls, lane):
    """The warm-up and measured repeats of one row (every mode but --beside): each from the end of a barrier of the
    group g, the calls on `lane` (g, or --gloo-threads' group of the same ranks). Returns this rank's times per call, and for --among the wholes (from the first call's launch to the last
    one's end; else an empty list)."""
    times, alls = [], []
    for i in range(args.warmup + args.repeats):
        dist.barrier(group=g)
        if others:
            elapsed, whole = time_among(args, g, others, views[0], lane)
            if i >= args.warmup:
                times.append(elapsed)
                alls.append(whole)
            continue
        # --after: the earlier call takes one of Gloo's two threads, the timed one the other.
        first = dist.all_reduce(first_big, group=lane, async_op=True) if first_big is not None else None
        t0 = now()
        if args.queued:
            # Launched together, as a training's backward queues them: ProcessGroupGloo runs as many at once as it
            # has threads, the rest wait in its queue; the time per call is the total over the calls (their
            # throughput, not one call's latency). --with: each call followed by its group's small calls, in the
            # launch order a layer has.
            works = []
            for j, v in enumerate(views):
                works.append(dist.all_reduce(v, group=lane, async_op=True))
                for b in (smalls[j] if smalls else []):
                    works.append(dist.all_reduce(b, group=lane, async_op=True))
            for w in works:
                w.wait()
        else:
            dist.all_reduce(views[0], group=lane)
        if i >= args.warmup:
            times.append((now() - t0) / calls)
        if first is not None:
            first.wait()
    return times, alls


def time_beside(args, g, big, view, lane):
    """The warm-up and measured calls on `view`, one after another, while one all-reduce of `big` runs: launched
    first, it takes one of ProcessGroupGloo's two threads, and each timed call the other. A timed call that ends
    after the large one would not have run beside it for its whole life: an error (a larger --beside is needed)."""
    dist.barrier(group=g)
    large = dist.all_reduce(big, group=lane, async_op=True)
    times = []
    for i in range(args.warmup + args.repeats):
        t0 = now()
        dist.all_reduce(view, group=lane)
        if i >= args.warmup:
            times.append(now() - t0)
    alive = torch.tensor([0.0 if large.is_completed() else 1.0])
    large.wait()
    dist.all_reduce(alive, op=dist.ReduceOp.MIN, group=g)
    if alive.item() < 1:
        raise MeasureError(f"--beside {args.beside}: the large all-reduce ended before the timed calls of "
                           f"{view.numel() * 4} B on {g.size()} ranks; give a larger one")
    return times


def time_among(args, g, others, view, lane):
    """One timed call on `view` among calls on `others`, launched in the order a training's backward would: one of
    the others (it takes one of ProcessGroupGloo's two threads), the timed call (the other thread, free: it starts at
    once), then the rest, which the first thread runs one after another while the timed call runs. The time is from
    its launch to its end, noted by a callback on its future (else when its wait returns). The others must outlast
    it: an error otherwise (a larger --among-calls is needed). Returns the timed call's time and the whole's, from
    the first call's launch to the end of the last (row allreduce_among_all: whether the small calls' time hides
    behind the timed call's or adds to it)."""
    start = now()
    first = dist.all_reduce(others[0], group=lane, async_op=True)
    t0 = now()
    timed = dist.all_reduce(view, group=lane, async_op=True)
    end = []
    timed.get_future().then(lambda _f: end.append(now()))
    rest = [dist.all_reduce(o, group=lane, async_op=True) for o in others[1:]]
    timed.wait()
    waited = now()
    alive = torch.tensor([0.0 if rest[-1].is_completed() else 1.0])
    for w in [first] + rest:
        w.wait()
    whole = now() - start  # every call has ended
    dist.all_reduce(alive, op=dist.ReduceOp.MIN, group=g)
    if alive.item() < 1:
        raise MeasureError(f"--among {args.among}: its {len(others)} calls ended before the timed call of "
                           f"{view.numel() * 4} B on {g.size()} ranks; give a larger --among-calls")
    return (end[0] if end else waited) - t0, whole


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
