#!/usr/bin/env python3
"""A closed form beside the simulation for the testbed's ring series: the step's all-reduces one after the other.

    tools/calls_in_series.py [--report validation/report.json] [--cases REGEX]

Each all-reduce of a step (tools/measure/plan.py's units, in launch order) takes T_q(K, D), the time per call that
the same campaign's back-to-back microbenchmark measured at its node count and size (allreduce-queued.csv: 16 calls
launched at once, Gloo's two threads; median of the repeats, linear between the sizes measured, the smallest size's
time below it, the two largest sizes' line above them), and starts once the one before has ended and the backward
has produced its gradients:

    end_i = max(end_{i-1}, ready_i) + T_q(K, D_i),     step = max(end_last, compute) + update

It credits no concurrency beyond what T_q holds, where the simulation also runs a call's software beside another
call's bytes (docs/models.md §10.8 "Calls of different sizes"). It is a diagnosis, not a predictor sgdsim uses:
validation/testbed/README.md "Calls in series, a diagnosis" gives what it shows. For every testbed ring case whose
campaign has a back-to-back table it prints the closed form's and the simulation's (from the report) mean / max error
and signed errors per node count, then, per unit and node count, the mean signed error of both over the cases the
--cases pattern selects. Python 3 standard library and tools/measure/plan.py only.
"""

import argparse
import bisect
import csv
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "measure"))
import plan  # noqa: E402


def read_queued(path):
    """{K: (sizes ascending, median time per call of each)} from a back-to-back microbenchmark CSV."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.setdefault(int(r["nodes"]), {}).setdefault(int(r["size_bytes"]), []).append(float(r["time_s"]))
    return {k: (sorted(v), [plan.median(v[s]) for s in sorted(v)]) for k, v in rows.items()}


def time_per_call(table, k, size):
    """T_q(K, size): linear between the sizes measured, the smallest's time below them, the last two's line above."""
    sizes, times = table[k]
    if size <= sizes[0] or len(sizes) == 1:
        return times[0]
    i = min(bisect.bisect_left(sizes, size), len(sizes) - 1)
    s0, s1, t0, t1 = sizes[i - 1], sizes[i], times[i - 1], times[i]
    return t0 + (t1 - t0) * (size - s0) / (s1 - s0)


def calls_in_series(ready_s, call_s, compute_s, update_s):
    """The step of calls one after the other: each starts at the later of the previous one's end and its ready
    time, and the step ends after the later of the last call and the compute, plus the update."""
    end = 0.0
    for ready, call in zip(ready_s, call_s):
        end = max(end, ready) + call
    return max(end, compute_s) + update_s


def step_s(wl, granularity, table, k):
    fwd = sum(layer.fwd_s for layer in wl.layers)
    done, t = {}, fwd
    for i in range(len(wl.layers) - 1, -1, -1):
        t += wl.layers[i].bwd_s
        done[i] = t
    units = plan.grad_units(wl, granularity)
    return calls_in_series([done[u.ready_layer] for u in units], [time_per_call(table, k, u.bytes) for u in units],
                           t, wl.ps_update_s)


def option(run, name):
    """The value that follows `name` in a case's sgdsim options."""
    return run[run.index(name) + 1]


def pct(x, measured):
    return 100 * (x / measured - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", default=os.path.join(ROOT, "validation", "report.json"))
    ap.add_argument("--cases", default=r"(2026-11-30[ijklmn]|2026-12-01b?)$",
                    help="the cases of the summary per node count (regex on the name; default: the campaigns "
                         "with the loop yielding, the testbed's default since 2026-11-30i)")
    a = ap.parse_args()
    with open(a.report, encoding="utf-8") as f:
        simulated = {c["name"]: {p["label"]: p["simulated"] for p in c.get("points", [])}
                     for c in json.load(f)["cases"]}
    tables, rows = {}, []
    for path in sorted(glob.glob(os.path.join(ROOT, "validation", "testbed", "cases", "*-ring-*", "case.json"))):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        run = case["run"]
        queued = os.path.join(ROOT, os.path.dirname(os.path.dirname(option(run, "--platform"))),
                              "allreduce-queued.csv")
        if not os.path.exists(queued):
            continue
        if queued not in tables:
            tables[queued] = read_queued(queued)
        wl = plan.parse_workload(os.path.join(ROOT, option(run, "--workload")))
        unit = {"bucket": "ddp"}.get(option(run, "--allreduce-unit"), option(run, "--allreduce-unit"))
        for p in case["points"]:
            k = int(p["args"][p["args"].index("--workers") + 1])
            sim = simulated.get(case["name"], {}).get(p["label"])
            if sim is None:
                sys.exit(f"calls_in_series.py: {case['name']} {p['label']}: not in {a.report}")
            rows.append((case["name"], unit, k, p["measured"], step_s(wl, unit, tables[queued], k), sim))
    if not rows:
        sys.exit("calls_in_series.py: no testbed ring case with a back-to-back table")
    by_case = {}
    for row in rows:
        by_case.setdefault(row[0], []).append(row)
    print("case | in series: mean / max, signed K = 2..8 | simulation: mean / max, signed")
    for name, rs in by_case.items():
        s = [abs(pct(r[4], r[3])) for r in rs]
        m = [abs(pct(r[5], r[3])) for r in rs]
        print(f"{name} | {sum(s) / len(s):.1f}% / {max(s):.1f}% [{' '.join(f'{pct(r[4], r[3]):+.0f}' for r in rs)}]"
              f" | {sum(m) / len(m):.1f}% / {max(m):.1f}% [{' '.join(f'{pct(r[5], r[3]):+.0f}' for r in rs)}]")
    for label, sel in (("all", rows), (f"--cases {a.cases}", [r for r in rows if re.search(a.cases, r[0])])):
        if sel:
            s = sum(abs(pct(r[4], r[3])) for r in sel) / len(sel)
            m = sum(abs(pct(r[5], r[3])) for r in sel) / len(sel)
            print(f"{label}: {len(sel)} points, in series {s:.2f}% mean, simulation {m:.2f}%")
    sel = [r for r in rows if re.search(a.cases, r[0])]
    print("unit, K: cases, mean signed error in series / simulation")
    for unit in ("tensor", "layer", "ddp"):
        for k in range(2, 9):
            v = [r for r in sel if r[1] == unit and r[2] == k]
            if v:
                print(f"{unit}, K = {k}: {len(v)}, {sum(pct(r[4], r[3]) for r in v) / len(v):+.1f}% / "
                      f"{sum(pct(r[5], r[3]) for r in v) / len(v):+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
