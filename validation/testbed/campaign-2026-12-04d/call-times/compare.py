#!/usr/bin/env python3
"""Prints the table of validation/testbed/README.md, 2026-12-04d, "Which calls make DenseNet-121's K = 2 per tensor
step long": measured and simulated, per size class, each call's completion gap summed over a step.

    validation/testbed/campaign-2026-12-04d/call-times/compare.py [--sgdsim build/src/sgdsim]

tensor.jsonl, layer.jsonl (run.sh): DenseNet-121 (V100 compute), one all-reduce per tensor / per layer, K = 2 and 3,
each call's launch and end on rank 0. A call's completion gap is its end minus the later of its launch and the previous
call's end (calls sorted by end; ../../campaign-2026-12-02h/call-times/summarize.py): a step's gaps add up to its
communication outside compute. The simulation is the case's own run (the platform the 2026-12-04c series calibrated
with 128 calls back to back, --framework pytorch-ddp-gloo --egress-fifo on; its cases'
1gbit-densenet121-v100-b32-ring-*-overlap-on-2026-12-04c), with --timeline: worker 0's all-reduces of the measured
steps, the same gaps. Beside them, what the back-to-back microbenchmark gives the same calls (as 2026-12-04c's
call-times summary). Nothing is fitted. Python 3 standard library."""

import argparse
import collections
import csv
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "measure"))
import make_cases  # noqa: E402  (ring_run, simulate: the case's own run)

_spec = importlib.util.spec_from_file_location(
    "call_times_02h", os.path.join(HERE, "..", "..", "campaign-2026-12-02h", "call-times", "summarize.py"))
h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h)  # per_call: a size between two measured ones takes the next larger one's time
SERIES = os.path.join(REPO, "validation", "testbed", "campaign-2026-12-04c", "series")
CLASSES = [(8 << 10, "< 8 KiB"), (64 << 10, "8-64 KiB"), (512 << 10, "64-512 KiB"), (1 << 62, ">= 512 KiB")]


def size_class(size_bytes):
    return next(name for limit, name in CLASSES if size_bytes < limit)


def back_to_back():
    """(nodes, size_bytes) -> s per call, the series' back-to-back rows (128 calls up to 4 MiB, 16 above)."""
    with open(os.path.join(SERIES, "allreduce-queued-long.csv"), newline="", encoding="utf-8") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): float(r["time_s"]) for r in csv.DictReader(f)}


def gaps_by_class(steps, table, nodes):
    """steps: per step a list of (size_bytes, launched_s, ended_s). Per class: (calls, gaps s, back to back s), a
    step's mean."""
    gaps, calls, micro = collections.Counter(), collections.Counter(), collections.Counter()
    for step in steps:
        previous_end = float("-inf")
        for size, launched, ended in sorted(step, key=lambda c: c[2]):
            c = size_class(size)
            gaps[c] += ended - max(previous_end, launched)
            previous_end = ended
            calls[c] += 1
            micro[c] += h.per_call(table, nodes, size)
    n = len(steps)
    return {c: (calls[c] / n, gaps[c] / n, micro[c] / n) for _, c in CLASSES}


def measured_steps(record):
    units = record["allreduce_unit_bytes"]
    return [[(units[u], a, b) for u, a, b in step] for step in record["per_worker"][0]["call_times"]]


def simulated(sgdsim, granularity, workers, steps, warmup):
    """(--json's result, per step worker 0's [(size_bytes, start_s, end_s)]) of the case's simulation."""
    with tempfile.TemporaryDirectory() as d:
        timeline = os.path.join(d, "t.json")
        result = make_cases.simulate(sgdsim, make_cases.ring_run(
            os.path.join(SERIES, "platform-densenet121-v100-b32-128.xml"),
            os.path.join(REPO, "workloads", "densenet121-v100-b32.xml"), granularity, workers, steps, warmup)
            + ["--timeline", timeline])
        with open(timeline, encoding="utf-8") as f:
            events = json.load(f)["traceEvents"]
    worker0 = next(e["pid"] for e in events if e.get("ph") == "M" and e["args"].get("name") == "worker 0")
    by_step = collections.defaultdict(list)
    for e in events:
        if e.get("cat") == "allreduce" and e["pid"] == worker0:
            by_step[e["args"]["step"]].append((int(e["name"].split()[0]), e["ts"] * 1e-6, (e["ts"] + e["dur"]) * 1e-6))
    return result, [by_step[s] for s in sorted(by_step)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgdsim", default=os.path.join(REPO, "build", "src", "sgdsim"))
    args = ap.parse_args()
    table = back_to_back()
    print("| unit | K | step s measured / simulated | class | calls a step | gaps s a step measured / simulated | "
          "back to back s a step |")
    print("|---|---|---|---|---|---|---|")
    for name in ("tensor", "layer"):
        with open(os.path.join(HERE, name + ".jsonl"), encoding="utf-8") as f:
            records = [json.loads(line) for line in f]
        for r in records:
            k = r["workers"]
            meas = gaps_by_class(measured_steps(r), table, k)
            result, sim_steps = simulated(args.sgdsim, name, k, r["steps"], r["warmup"])
            sim = gaps_by_class(sim_steps, table, k)
            step_sim = result["simulated"]["step_time_mean_s"]
            for _, c in CLASSES:
                calls, g, micro = meas[c]
                print(f"| {name} | {k} | {r['step_time_mean_s']:.3f} / {step_sim:.3f} | {c} | {calls:.0f} "
                      f"({sim[c][0]:.0f}) | {g:.3f} / {sim[c][1]:.3f} | {micro:.3f} |")


if __name__ == "__main__":
    main()
