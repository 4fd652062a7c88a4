#!/usr/bin/env python3
"""Gloo's two lanes, reconstructed from a training's call times, beside sgdsim's timeline of the same step
(validation/testbed/README.md, 2026-12-04f "A small call beside a large one lasts as long as it").

    validation/testbed/campaign-2026-12-04f/lockstep/lanes.py CALL_TIMES.jsonl K [TIMELINE.json ...]

CALL_TIMES.jsonl: `measure.py train --call-times` records (each call's unit, launch and end on rank 0, s from the
step's start; e.g. campaign-2026-12-02h/call-times/layer.jsonl), the record of K workers, whose mean step it prints. ProcessGroupGloo runs its
queue first in, first out on two threads, so each call, in launch order, starts when it is launched or when the
earlier of the two threads is free, whichever is later, and the thread is then busy to the call's measured end.
TIMELINE.json: `sgdsim run --timeline` (worker 0's all-reduces, which start on their lane). Prints per size class the
lane time of a call (median and sum a step) and, for each small call (< 64 KiB) that starts while a call of 1 MiB or
more runs on the other lane, its lane time over that call's (median): about 1 when the small call lasts as long as
the large one beside it. Size classes as ../../campaign-2026-12-02h/call-times/summarize.py's. Python 3 standard
library."""

import collections
import importlib.util
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "call_times_02h", os.path.join(HERE, "..", "..", "campaign-2026-12-02h", "call-times", "summarize.py"))
h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h)  # CLASSES, size_class


def on_lanes(calls):
    """(bytes, launch s, end s) -> [(bytes, start s, end s)] on two threads taking the queue in launch order."""
    free = [0.0, 0.0]
    out = []
    for size, launch, end in sorted(calls, key=lambda c: c[1]):
        lane = 0 if free[0] <= free[1] else 1
        start = max(launch, free[lane])
        free[lane] = end
        out.append((size, start, end))
    return out


def measured_steps(path, workers):
    """(mean step s, each step's calls on the lanes) of the record of `workers` workers."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["workers"] == workers:
                units = r["allreduce_unit_bytes"]
                return r["step_time_mean_s"], [on_lanes([(units[u], a, b) for u, a, b in step])
                                               for step in r["per_worker"][0]["call_times"]]
    raise SystemExit(f"lanes.py: {path}: no record of {workers} workers")


def simulated_steps(path):
    steps = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for e in json.load(f)["traceEvents"]:
            if e.get("cat") == "allreduce" and e.get("pid") == 1:
                start = e["ts"] / 1e6
                steps[e["args"]["step"]].append((float(e["name"].split()[0]), start, start + e["dur"] / 1e6))
    return [steps[s] for s in sorted(steps)]


def summary(label, steps):
    lane_s = collections.defaultdict(list)
    ratios = []  # a small call's lane time over that of the call of >= 1 MiB running when it started
    for calls in steps:
        for size, start, end in calls:
            lane_s[h.size_class(size)].append(end - start)
            if size < 64 << 10:
                beside = [(s2, e2) for b2, s2, e2 in calls if b2 >= 1 << 20 and s2 <= start < e2]
                if beside:
                    s2, e2 = beside[0]
                    ratios.append((end - start) / (e2 - s2))
    cells = [f"{name} {1e3 * statistics.median(lane_s[name]):.1f} ms, {sum(lane_s[name]) / len(steps):.2f} s"
             for _, name in h.CLASSES if lane_s[name]]
    print(f"{label}: lane time a call (median) and a step: " + "; ".join(cells))
    if ratios:
        print(f"  a small call started beside a call of >= 1 MiB lasts {statistics.median(ratios):.2f} of its time "
              f"(median of {len(ratios)})")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    step_s, steps = measured_steps(sys.argv[1], int(sys.argv[2]))
    summary(f"measured, K = {sys.argv[2]} (step {step_s:.3f} s)", steps)
    for path in sys.argv[3:]:
        summary(f"simulated, {path}", simulated_steps(path))


if __name__ == "__main__":
    main()
