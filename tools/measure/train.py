"""measure.py train (docs/measure.md): emulated training steps of a sgdsim workload, PS (sync, async) or
ring, with compute emulated by the clock and the communication done by torch.distributed (Gloo)."""

import contextlib
import hashlib
import json
import os
import queue
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)
from kit import (check_out, Clock, cpu_outside, cpu_snapshot, dist, gather_infos, gloo_info, gloo_lanes,  # noqa: E402
                 MeasureError, MIB, now, PaceSampler, provenance, rate_label, RESULT_FILES, torch, until_quiet)


DOWN, UP, CTRL = 0, 1, 2  # tag directions of the PS architectures
CONTINUE, STOP = 0.0, 1.0  # ps-async, after a worker's measured steps: what the PS's control message says


class Config:
    """One configuration of `train`: the architecture and its sizes, and the rank layout. PS ranks are 0..M-1
    (each on its own host), workers M..M+K-1; the ring has no PS."""

    def __init__(self, args, wl, k, repeat, attempt=0):
        self.arch = args.arch
        self.k = k
        self.m = args.ps if args.arch != "ring" else 0
        self.overlap = args.overlap == "on"
        self.repeat = repeat
        self.steps, self.warmup = args.steps, args.warmup
        self.total = args.warmup + args.steps
        self.async_ = args.arch == "ps-async"
        # sgdsim's --ps-reads per-variable (docs/models.md §10.13): each tensor back once all K gradients of it are in.
        self.per_variable = getattr(args, "ps_reads", "shard") == "per-variable"
        # ps-async: workers done measuring (a counter in the store: an attempt measured again needs its own).
        self.key = f"sgdsim-measure/{args.arch}/r{repeat}/k{k}/measured" + (f"/a{attempt}" if attempt else "")
        self.scale = args.compute_scale
        self.call_times = getattr(args, "call_times", False)
        self.lane = None  # ring, --gloo-threads: the process group its all-reduces run on (gloo_lanes)
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
    and the worker runs steps with the PS that continue until all have said STOP.

    Per-variable reads (ps-sync): the receives of the next step's parameters are posted before this step's first
    gradient leaves; the step ends once they have all arrived (the PS sends each as soon as it is updated), and the
    next step's forward starts with every parameter there."""
    wl, scale = cfg.wl, cfg.scale
    buf = [torch.zeros(plan.elements(t.bytes), dtype=torch.float32) for t in wl.tensors]
    ctl = [torch.zeros(1, dtype=torch.float32) for _ in cfg.shards]
    active = list(range(len(cfg.shards)))
    clock = Clock(start)
    ends = []
    pull_ends = []  # overlap, shard reads: when the forward last waited for a parameter (None: it never waited)
    step = 0
    ahead = {}
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

        def post_recvs(s):
            return {t: dist.irecv(buf[t], src=p, tag=cfg.tag(DOWN, s, t)) for p in active for t in cfg.shards[p]}

        recvs = ahead if cfg.per_variable and step > 0 else post_recvs(step)
        sends = []

        def send(t):
            if t in recvs:  # a tensor of a PS that stopped this worker is not sent
                buf[t][0] = cfg.marker(step, t)
                sends.append(dist.isend(buf[t], dst=cfg.owner[t], tag=cfg.tag(UP, step, t)))

        if cfg.per_variable:
            # From step 1 on, this step's parameters were waited for at the end of the last step (a Gloo receive
            # is waited for once: waiting again blocks).
            clock.run(sum(fwd) * scale, ready=wait_all(list(recvs.values())) if step == 0 else None)
            # The parameters of step + 1 land in the same buffers: every read of this step's is done.
            ahead = post_recvs(step + 1)
            for i in range(len(wl.layers) - 1, -1, -1):
                clock.run(bwd[i] * scale)
                if cfg.overlap:
                    for t in reversed(wl.layers[i].tensors):
                        send(t)
            if not cfg.overlap:
                for i in range(len(wl.layers) - 1, -1, -1):
                    for t in reversed(wl.layers[i].tensors):
                        send(t)
        elif cfg.overlap:
            pulled = None
            for i, layer in enumerate(wl.layers):
                ready = wait_all([recvs[t] for t in layer.tensors if t in recvs])
                pulled = ready if ready is not None else pulled
                clock.run(fwd[i] * scale, ready=ready)
            pull_ends.append(pulled)
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
        if cfg.per_variable:
            wait_all(list(ahead.values()))
        ends.append(now())
        clock.sync(ends[-1])
        step += 1
    return {"step_ends": ends, "clock": clock.stats(), **({"pull_ends": pull_ends} if pull_ends else {})}


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
    releases = []  # per release: step, worker, when its receives' posting began and when its last send was posted
    pushes = {}  # per step and worker: when the PS saw its first and its last gradient of the step arrive

    def taken(arrived, w, step, t):
        """The main loop takes worker w's gradient of tensor t and `step`, arrived at `arrived`: its lag, the first and
        last arrival of w's step (pushes), its marker; returns when it was taken."""
        nonlocal bad_markers
        t0 = now()
        lags.append(t0 - arrived)
        pushes.setdefault((step, w), [step, w, arrived - start, arrived - start])[3] = arrived - start
        if per_worker and grads[w][t][0].item() != cfg.marker(step, t):
            bad_markers += 1
        return t0

    go, stop = torch.tensor([CONTINUE]), torch.tensor([STOP])
    store = dist.distributed_c10d._get_default_store() if cfg.async_ else None

    def post_gradient_recvs(w, step):
        """Posts the receives of worker w's gradients of `step`, in the order the worker sends them."""
        for t in order:
            work = dist.irecv(grads[w][t], src=cfg.worker_rank(w), tag=cfg.tag(UP, step, t))
            pending[w].put((step, t, work))

    def release(w, step, due):
        """Posts the receives of worker w's gradients of `step` (before it can send them), then sends it the
        shard's parameters in forward order. ps-async, after w's measured steps: first a control message, and
        STOP instead of parameters once every worker has measured its steps. Returns False for STOP."""
        if cfg.async_ and step >= cfg.total:
            if int(store.add(cfg.key, 0)) >= k:
                sends.append(dist.isend(stop, dst=cfg.worker_rank(w), tag=cfg.tag(CTRL, step, 0)))
                return False
            sends.append(dist.isend(go, dst=cfg.worker_rank(w), tag=cfg.tag(CTRL, step, 0)))
        posted = now()
        releases_late.append(max(0.0, posted - due))
        post_gradient_recvs(w, step)
        for t in shard:
            sends.append(dist.isend(params[t], dst=cfg.worker_rank(w), tag=cfg.tag(DOWN, step, t)))
        releases.append([step, w, posted - start, now() - start])
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
        # Shard reads: once the whole shard is updated, every worker gets the next parameters. Per-variable reads:
        # each tensor goes back to every worker once its K gradients are applied, and a worker's receives of the
        # next step's gradients are posted once all its gradients of this step are in (it sends the next ones only
        # after every parameter of the next step has arrived, hence after every update of this step).
        received = {t: 0 for t in shard}
        got = [0] * k
        applied, step = 0, 0
        while step < cfg.total:
            arrived, w, s, t = arrivals.get()
            t0 = taken(arrived, w, s, t)
            if cfg.per_variable:
                got[w] += 1
                if got[w] == len(shard):
                    got[w] = 0
                    if s + 1 < cfg.total:
                        post_gradient_recvs(w, s + 1)
            received[t] += 1
            if received[t] == k:
                received[t] = 0
                cpu_free = max(arrived, cpu_free) + update_s[t]
                updates += 1
                if cfg.per_variable:
                    busy += now() - t0
                    clock.sleep_until(cpu_free)
                    t0 = now()
                    for v in range(k):
                        sends.append(dist.isend(params[t], dst=cfg.worker_rank(v), tag=cfg.tag(DOWN, s + 1, t)))
                applied += 1
                if applied == len(shard):
                    applied = 0
                    step += 1
                    if step < cfg.total and not cfg.per_variable:
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
            t0 = taken(arrived, w, s, t)
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
            "release_late_max_us": 1e6 * max(releases_late), "releases_s": releases,
            "pushes_s": sorted(pushes.values()), "per_worker_buffers": per_worker,
            "bad_markers": bad_markers if per_worker else None, "clock": clock.stats()}


def ring_worker(cfg, w, group, start, rng):
    """A worker of decentralized Sync-SGD (src/sim/ring_worker.cpp, planned units): forward of every layer, then
    the backward in reverse; with overlap, each unit's all-reduce (dist.all_reduce, async) is launched as soon as
    the backward of its lowest layer is done, without overlap after the whole backward; the step ends when every
    all-reduce has finished and the local update (ps_update) is done. ProcessGroupGloo runs queued all-reduces on
    its worker threads (2 in torch 1.13; --gloo-threads N: N, cfg.lane), so up to 2 run at once, in launch order."""
    wl, scale = cfg.wl, cfg.scale
    units = cfg.units
    bufs = [torch.zeros(plan.elements(u.bytes), dtype=torch.float32) for u in units]
    clock = Clock(start)
    ends = []
    max_in_flight = 0
    allreduce_s = []
    calls = []  # --call-times: per step, [unit, launched, ended] of each all-reduce, s from the step's start
    for _ in range(cfg.total):
        fwd, bwd = draw_times(wl, rng)
        works = []
        launched = 0
        step_start = now()
        times = []

        def launch(u):
            nonlocal max_in_flight
            if cfg.k > 1:  # sgdsim skips the all-reduce of a single worker
                in_flight = sum(1 for x in works if not x.is_completed())
                work = (cfg.lane.allreduce([bufs[u]]) if cfg.lane is not None
                        else dist.all_reduce(bufs[u], group=group, async_op=True))
                works.append(work)
                max_in_flight = max(max_in_flight, in_flight + 1)
                if cfg.call_times:
                    # The future completes on Gloo's thread as the call ends; its callback notes the time there
                    # (against this step's start, bound now), unless the step has already noted it (below).
                    row = [u, now() - step_start, None]
                    times.append(row)
                    work.get_future().then(
                        lambda _f, row=row, t0=step_start: row[2] is None and row.__setitem__(2, now() - t0))

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
        if cfg.call_times:
            # A callback may run only after wait() has returned: such a call ended by now.
            for row in times:
                if row[2] is None:
                    row[2] = now() - step_start
            calls.append(times)
        clock.sync(now())
        clock.run(wl.ps_update_s * scale)
        ends.append(now())
    return {"step_ends": ends, "clock": clock.stats(), "max_queued_allreduces": max_in_flight,
            "wait_after_backward_mean_s": plan.mean(allreduce_s),
            **({"call_times": calls[cfg.warmup:cfg.warmup + cfg.steps]} if cfg.call_times else {})}


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
    if getattr(args, "ps_reads", "shard") == "per-variable" and args.arch != "ps-sync":
        raise MeasureError(f"--ps-reads per-variable: applies to ps-sync, not to --arch {args.arch}")
    check_out(args)
    infos = gather_infos()
    sha = file_sha256(args.workload)
    # Every rank creates every group, in the same order (dist.new_group's rule).
    groups = {k: dist.new_group(list(range(m)) + [m + w for w in range(k)]) for k in sorted(set(ks))}
    threads = getattr(args, "gloo_threads", 0)
    lanes = ({k: gloo_lanes(list(range(k)), rank, threads, args.timeout) for k in sorted(set(ks))}
             if threads and args.arch == "ring" else {})
    results = []
    if rank == 0:
        open(args.out, "w", encoding="utf-8").close()
    for repeat in range(args.repeat):
        for k in ks:
            # Run again while rank 0 read the machine busy around it (docs/measure.md "A busy row is measured again").
            def attempt(n, k=k, repeat=repeat):
                cfg = Config(args, wl, k, repeat, n)
                cfg.lane = lanes.get(k)
                line = run_configuration(args, cfg, groups[k], rank, m, sha, infos)
                return line, line["cpu"] if line else None

            attempts = [line for line, _ in until_quiet(args.quiet_retries, attempt)]  # rank 0: each attempt's line
            if rank == 0:
                line = kept_attempt(attempts)
                results.append(line)
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(line) + "\n")
                print(f"train {line['arch']}{' ' + args.granularity if line['arch'] == 'ring' else ''}"
                      f"{' per-variable' if getattr(args, 'ps_reads', 'shard') == 'per-variable' else ''}"
                      f" K={k} PS={m} overlap={args.overlap} repeat {repeat}: step {line['step_time_mean_s']:.4f} s, "
                      f"{line['throughput_examples_per_s']:.2f} examples/s"
                      + plan.busy_note((line["cpu"] or {}).get("busy_attempts")), flush=True)
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
        RESULT_FILES.extend([args.out + ".provenance.json", args.out])


def run_configuration(args, cfg, group, rank, m, sha, infos):
    """One attempt at a configuration: its members train from a barrier, rank 0 gathers their results and returns
    the JSON line, with its reading of the machine's CPU around it (other ranks: None)."""
    if rank not in cfg.members:
        return None
    rng = random.Random(args.seed * 1_000_003 + rank)
    with PaceSampler() if rank == 0 else contextlib.nullcontext() as sampler:
        cpu_before = cpu_snapshot(args.pace_wait) if rank == 0 else None  # before the barrier: outside the steps
        mine = train_members(args, cfg, group, rank, m, rng)
        gathered = [None] * len(cfg.members)
        dist.all_gather_object(gathered, mine, group=group)
        if rank != 0:
            return None
        cpu_after = cpu_snapshot()
        sampled = sampler.readings()
    line = train_record(args, cfg, cfg.wl, sha, gathered)
    line["cpu"] = cpu_outside(cpu_before, cpu_after, [i.get("pid") for i in infos] + [sampler.pid], sampled)
    return line


def train_members(args, cfg, group, rank, m, rng):
    """This rank's part of one attempt, from a barrier of the configuration's members."""
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
    return mine


def kept_attempt(lines):
    """Of a configuration's attempts (rank 0's lines), the first quiet one, else the least busy (plan.quietest);
    the others' step time and CPU go in its cpu record's busy_attempts (quiet.py lists them), its own step time as
    the record's time_s."""
    cpus = [line["cpu"] for line in lines]
    keep = plan.quietest(cpus)
    line = lines[keep]
    if line["cpu"] is not None:
        others = plan.set_aside(cpus, [o["step_time_mean_s"] for o in lines], keep)
        line["cpu"] = {"time_s": line["step_time_mean_s"], **line["cpu"],
                       **({"busy_attempts": others} if others else {})}
    return line


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
        "ps_reads": "per-variable" if cfg.per_variable else ("shard" if cfg.m else None),
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
                           if cfg.arch == "ring" else {}),
                        **({"call_times": g["call_times"]} if "call_times" in g else {}),
                        **({"pull_ends_s": [None if t is None else t - g["start"] for t in g["pull_ends"]],
                            "step_ends_s": [t - g["start"] for t in g["step_ends"]]}
                           if "pull_ends" in g else {})}
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
        record["gloo_threads"] = getattr(args, "gloo_threads", 0) or gloo_info()["process_group_threads"]
    if cfg.async_:
        record["steps_run"] = [len(g["step_ends"]) for g in workers]  # measured + those until all measured
    return record
