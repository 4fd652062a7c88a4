#!/usr/bin/env python3
"""Writes the five cases of validation/testbed/README.md, 2026-12-05, from this folder's series.

    validation/testbed/campaign-2026-12-05/series/make_cases.py

ResNet-101 (GTX 1080 Ti compute) per layer and per tensor, GoogLeNet (T4) per layer and per tensor, Inception-v3 (T4)
per layer; overlap on, K = 2..8, each point the kit's kept attempt (rank 0's record of MODEL-ring-UNIT-overlap-on.jsonl).
The prediction is predict.py's (the default --uncovered-gain rate), written to simulated.txt by run.sh before the
first training ran: the platform calibrated on this folder's microbenchmarks alone (platform-MODEL.xml). When each
series was measured is read from run.log. A case written again keeps its guard and its "missing" text, as
tools/measure/make_cases.py does. Python 3 standard library."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (kept_points, save_held_out_case)
import predict  # noqa: E402  (SERIES, recipe: beside this script, on the path after tools/measure)

CASES = os.path.join(ROOT, "validation", "testbed", "cases")
REL = "validation/testbed/campaign-2026-12-05/series"


def window(model, unit):
    """(start, end) UTC of the training in run.log: its own start line and the next line's time."""
    with open(os.path.join(HERE, "run.log"), encoding="utf-8") as f:
        stamps = [(line.split(" start ")[0], line.split()[-1]) for line in f
                  if re.search(r" (start|done) \d\d:\d\d:\d\d$", line) or line.startswith("done ")]
    labels = [s for s, _ in stamps]
    i = labels.index(f"train {model} {unit}")
    return stamps[i][1], stamps[i + 1][1]


def write(model, unit):
    name = f"1gbit-{model}-ring-{unit}-overlap-on-2026-12-05"
    series = f"{model}-ring-{unit}-overlap-on.jsonl"
    pts, notes = make_cases.kept_points(os.path.join(HERE, series))
    start, end = window(model, unit)
    case = {
        "name": name,
        "description": (
            f"{model}, batch 32, ring all-reduce, one per {unit}, overlap on, K = 2..8 workers on the emulated "
            "cluster at 1gbit per NIC (tools/measure, Gloo over TCP, compute as sleeps of the workload's own "
            f"times); step time, mean of 5 measured steps after 2 warm-up, the kit's kept attempt ({REL}/{series}; "
            + (", ".join(notes) + " in the attempt kept" if notes else "no kept attempt busy or read slow")
            + f"); held out: a workload and compute never measured on the testbed before, measured 2026-12-05 "
            f"{start}-{end} UTC after its microbenchmarks on the machine of 2026-12-04b..g (kernel 6.18.44-fc-v1252), "
            "the prediction (predict.py, simulated.txt) written by run.sh before the first training ran, with the "
            "model of commit b00a441 (validation/testbed/README.md, 2026-12-05); reported as the first run gave them"),
        "prediction_uses": (
            "the all-reduce microbenchmark of the same emulated cluster, measured that day right before (every node "
            "count and size; one call at a time; 128 calls launched back to back up to 4 MiB and 16 above) through "
            "sgdsim calibrate -o (--bandwidth-from 1MiB), the workload file, --framework pytorch-ddp-gloo and "
            "--egress-fifo on (docs/models.md \u00a710.8, \u00a710.12)"),
        "metric": "step_time_s",
        "run": ["--platform", f"{REL}/platform-{model}.xml"] + predict.recipe(model) + ["--allreduce-unit", unit],
        "guard": {"mean": 10, "max": 10},
        "points": pts,
    }
    make_cases.save_held_out_case(
        CASES, case, "../../README.md, 2026-12-05, for the machine, the series and the recipe of the prediction",
        f"../../campaign-2026-12-05/series/{series} with its .provenance.json (kernel, qdiscs, rates, congestion "
        "control, torch and Gloo versions, load average)",
        f"../../campaign-2026-12-05/series/platform-{model}.xml, made from the microbenchmarks alone by predict.py "
        "there")


def main():
    for model, unit in predict.SERIES:
        write(model, unit)


if __name__ == "__main__":
    main()
