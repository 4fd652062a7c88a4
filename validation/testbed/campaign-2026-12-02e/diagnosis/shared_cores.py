#!/usr/bin/env python3
"""A prototype, not sgdsim: the all-reduces of a ring step sharing the testbed machine's cores (a fluid model).

Each all-reduce of a training step (per tensor, per layer or DDP bucket) needs
  - its bytes on the links: 2(K-1)/K x size / B, B from the largest call at K = 2 (one at a time);
  - its CPU, in core-seconds: the back-to-back microbenchmark row of its size and node count
    (allreduce-queued.csv.json cpu_rows: the machine's busy time over the row's window / 64 calls:
    16 launched together, one warm-up and three timed repeats), log-interpolated in size;
  - and it runs no faster than one such call alone (allreduce.csv, the median time).
Gloo's two threads: at most two calls at once, taken in the order the backward makes them ready. While calls
run together their rates are set by max-min sharing of the link (1) and of the cores (--cores), each capped by
its time alone. The step is the forward plus the backward's end or the last call's end, whichever is later.

    shared_cores.py CAMPAIGN/data/1gbit workloads/MODEL.xml validation/testbed/cases/CASE/case.json [--cores 2]

prints each node count's measured step, this model's and its error. Used in validation/testbed/README.md
("Held out on a machine of costlier calls") to test whether the cores the calls share explain the many-call
rings' shortfall at K = 7-8: it does not on 2026-12-02c and 2026-12-02d, so sgdsim has no such mechanism.
"""
import argparse
import bisect
import csv
import json
import math
import os
import sys

# The kit's workload reader and its plan of a step's all-reduces (what train.py ran).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools", "measure"))
import plan  # noqa: E402


def interp(rows, size, i):
    """Column i of rows (size, ...) at size, linear in log(size); proportional to size past the largest."""
    rs = sorted(rows)
    xs = [math.log(r[0]) for r in rs]
    x = math.log(max(size, rs[0][0]))
    if x >= xs[-1]:
        return rs[-1][i] * size / rs[-1][0]
    j = bisect.bisect_right(xs, x) - 1
    f = (x - xs[j]) / (xs[j + 1] - xs[j])
    return rs[j][i] * (1 - f) + rs[j + 1][i] * f


def units(workload, case):
    """(forward s, backward end s, [(ready s, bytes)]): the case's all-reduces as the kit launched them
    (plan.grad_units), each ready when the backward of its layer is done."""
    wl = plan.parse_workload(workload)
    run = json.load(open(case))["run"]
    unit = run[run.index("--allreduce-unit") + 1]
    done_s, t = {}, 0.0
    for layer in range(len(wl.layers) - 1, -1, -1):
        t += wl.layers[layer].bwd_s
        done_s[layer] = t
    calls = [(done_s[u.ready_layer], u.bytes) for u in plan.grad_units(wl, "ddp" if unit == "bucket" else unit)]
    return sum(layer.fwd_s for layer in wl.layers), t, calls


def share(demand, capacity):
    """Max-min fair split of capacity among demands."""
    alloc, left, n = [0.0] * len(demand), capacity, len(demand)
    for i in sorted(range(len(demand)), key=lambda i: demand[i]):
        alloc[i] = min(demand[i], left / n)
        left -= alloc[i]
        n -= 1
    return alloc


def step(k, fwd, bwd_end, calls, queued, alone, rate_Bps, cores, lanes=2):
    jobs = [[ready, 2 * (k - 1) / k * size / rate_Bps, interp(queued[k], size, 2), interp(alone[k], size, 1), 0.0]
            for ready, size in calls]
    now, running, nxt = 0.0, [], 0
    while nxt < len(jobs) or running:
        while nxt < len(jobs) and len(running) < lanes and jobs[nxt][0] <= now:
            running.append(jobs[nxt])
            nxt += 1
        if not running:
            now = jobs[nxt][0]
            continue
        p = [1 / j[3] for j in running]  # calls per second, capped by the time alone
        for _ in range(20):
            for col, capacity in ((1, 1.0), (2, cores)):
                use = [p[i] * running[i][col] for i in range(len(running))]
                if sum(use) > capacity + 1e-12:
                    alloc = share(use, capacity)
                    p = [p[i] * alloc[i] / use[i] if use[i] > 0 else p[i] for i in range(len(running))]
        dt = min((1 - j[4]) / p[i] for i, j in enumerate(running))
        if nxt < len(jobs) and len(running) < lanes:
            dt = min(dt, max(0.0, jobs[nxt][0] - now))
        for i, j in enumerate(running):
            j[4] += p[i] * dt
        now += dt
        running = [j for j in running if j[4] < 1 - 1e-9]
    return fwd + max(now, bwd_end)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="the campaign's data/RATE folder")
    ap.add_argument("workload")
    ap.add_argument("case", help="the case's case.json (its measured points and its granularity)")
    ap.add_argument("--cores", type=float, default=2.0, help="the machine's cores (default 2)")
    a = ap.parse_args()
    queued, alone = {}, {}
    for r in json.load(open(a.data + "/allreduce-queued.csv.json"))["cpu_rows"]:
        queued.setdefault(r["nodes"], []).append((r["size_bytes"], r["time_s"], r["busy_s"] / 64))
    for r in csv.DictReader(open(a.data + "/allreduce.csv")):
        alone.setdefault(int(r["nodes"]), []).append((int(r["size_bytes"]), float(r["time_s"])))
    largest = max(alone[2])
    rate_Bps = largest[0] / largest[1]
    fwd, bwd_end, calls = units(a.workload, a.case)
    errors = []
    for p in json.load(open(a.case))["points"]:
        k = int(p["args"][1])
        t = step(k, fwd, bwd_end, calls, queued, alone, rate_Bps, a.cores)
        errors.append(t / p["measured"] - 1)
        print(f"K = {k}: measured {p['measured']:.2f} s, shared cores {t:.2f} s, {100 * errors[-1]:+.1f}%")
    print(f"{len(calls)} calls a step: {100 * sum(map(abs, errors)) / len(errors):.1f}% mean, "
          f"{100 * max(map(abs, errors)):.1f}% max")


if __name__ == "__main__":
    main()
