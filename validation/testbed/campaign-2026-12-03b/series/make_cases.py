#!/usr/bin/env python3
"""Writes the two cases of validation/testbed/README.md, 2026-12-03b, from this folder's series.

    validation/testbed/campaign-2026-12-03b/series/make_cases.py

ResNet-152 (GTX 1080 Ti compute), one all-reduce per layer, overlap on, K = 2..8, on a Gloo group of one worker
thread (ring-layer-1thread) and of two, torch's own count (ring-layer). Each configuration was measured in the
series (ring-layer-overlap-on-threadsN.jsonl, run.sh) and, where the attempt the kit kept was busy (the
hypervisor's steal above 0.08 cores; every attempt of it was), once more after it (again-*.jsonl, again.sh, the rule
set before that run): of the two kept attempts the case takes the one tools/measure/plan.quietest keeps, the first
quiet one at pace, else the quiet one at the fastest pace, else the least busy. The prediction is the recipe of
campaign 2026-12-03's per-layer case (its platform, from that morning's microbenchmarks on this machine), unchanged,
with --collectives-in-flight set to the group's threads. A case written again keeps its guard and its "missing" text,
as make_cases.py does. Python 3 standard library."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (save_held_out_case: a case written again keeps its guard and "missing" text)
import plan  # noqa: E402

CASES = os.path.join(ROOT, "validation", "testbed", "cases")
REL = "validation/testbed/campaign-2026-12-03b/series"
PLATFORM = "validation/testbed/campaign-2026-12-03/data/1gbit/resnet152-gtx1080ti-b32/platform-allreduce.xml"
RECIPE = ["--platform", PLATFORM, "--workload", "workloads/resnet152-gtx1080ti-b32.xml", "--arch", "ring", "--overlap",
          "on", "--steps", "5", "--warmup", "2", "--framework", "pytorch-ddp-gloo", "--egress-fifo", "on",
          "--allreduce-unit", "layer"]
SERIES = {1: ("1gbit-resnet152-gtx1080ti-b32-ring-layer-1thread-overlap-on-2026-12-03b", "on a Gloo group of one worker "
              "thread (measure.py train --gloo-threads 1: one all-reduce at a time), simulated with "
              "--collectives-in-flight 1"),
          2: ("1gbit-resnet152-gtx1080ti-b32-ring-layer-overlap-on-2026-12-03b", "on a Gloo group of two worker "
              "threads (--gloo-threads 2, torch 1.13's own count), simulated as the recipe has it (pytorch-ddp-gloo: "
              "2 in flight)")}


def kept(path):
    """{K: record} of a train output, rank 0's kept attempt per configuration."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {rec["workers"]: rec for rec in map(json.loads, f)}


def points(threads):
    series = kept(os.path.join(HERE, f"ring-layer-overlap-on-threads{threads}.jsonl"))
    again = kept(os.path.join(HERE, f"again-ring-layer-overlap-on-threads{threads}.jsonl"))
    out, notes = [], []
    for k in sorted(series):
        if k < 2:
            continue  # sgdsim's single worker runs no all-reduce: no prediction of the network to check
        tries = [series[k]] + ([again[k]] if k in again else [])
        pick = tries[plan.quietest([t["cpu"] for t in tries])]
        cpu = pick["cpu"]
        if plan.cpu_busy(cpu):
            notes.append(f"K = {k} busy ({plan.steal_cores(cpu):.2f} cores stolen)")
        out.append({"label": f"{k} workers", "args": ["--workers", str(k)], "measured": pick["step_time_mean_s"]})
    return out, notes


def write(threads):
    name, how = SERIES[threads]
    pts, notes = points(threads)
    case = {
        "name": name,
        "description": (
            f"resnet152-gtx1080ti-b32, batch 32, ring all-reduce, one per layer, overlap on, {how}, K = 2..8 workers "
            "on the emulated cluster at 1gbit per NIC (tools/measure, Gloo over TCP, compute as sleeps of the "
            "workload's own times); step time, mean of 5 measured steps after 2 warm-up "
            f"({REL}/ring-layer-overlap-on-threads{threads}.jsonl; a configuration whose kept attempt was busy "
            f"measured again after the series, again-ring-layer-overlap-on-threads{threads}.jsonl, and the quieter "
            "kept: make_cases.py there); the hypervisor took up to 0.8 cores during the attempts of that hour, "
            + ("and " + ", ".join(notes) + " in the attempt kept" if notes else "and no kept attempt was busy")
            + " (validation/testbed/README.md, 2026-12-03b); held out: measured 2026-12-03 10:34-11:14 UTC on the "
            "machine of campaign 2026-12-03 (kernel 6.18.44-fc-v1098) with the model and recipe of campaign "
            "2026-12-03's per-layer case unchanged (no simulation change since session 46), the simulated steps "
            "written at 10:34 before any result of the series (series/simulated-1034.txt; K = 7 and 8 of both had "
            "been measured in the hour before, lanes/, and nothing of the model or recipe was changed after); "
            "reported as the first run gave them"),
        "prediction_uses": (
            "the all-reduce microbenchmark of the same emulated cluster, measured that morning (campaign 2026-12-03: "
            "every node count and size; one call at a time and 16 launched back to back) through sgdsim calibrate "
            "-o (--bandwidth-from 1MiB), the workload file, --framework pytorch-ddp-gloo and --egress-fifo on "
            "(docs/models.md \u00a710.12), as campaign 2026-12-03's per-layer case"
            + (", and --collectives-in-flight 1, the Gloo group's one thread" if threads == 1 else "")),
        "metric": "step_time_s",
        "run": RECIPE + (["--collectives-in-flight", "1"] if threads == 1 else []),
        "guard": {"mean": 10, "max": 10},
        "points": pts,
    }
    make_cases.save_held_out_case(
        CASES, case, "../../README.md, 2026-12-03b, for the machine, the series and the recipe of the prediction",
        f"../../campaign-2026-12-03b/series/ring-layer-overlap-on-threads{threads}.jsonl and "
        f"../../campaign-2026-12-03b/series/again-ring-layer-overlap-on-threads{threads}.jsonl, each with its "
        f".provenance.json (kernel, qdiscs, rates, congestion control, torch and Gloo versions, load average); "
        f"make_cases.py there picks each point",
        "../../campaign-2026-12-03/data/1gbit/resnet152-gtx1080ti-b32/platform-allreduce.xml, made from the "
        "microbenchmarks alone")

def main():
    for threads in SERIES:
        write(threads)


if __name__ == "__main__":
    main()
