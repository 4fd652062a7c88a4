#!/usr/bin/env python3
"""Writes the six cases of validation/testbed/README.md, 2026-12-04c, from this folder's series.

    validation/testbed/campaign-2026-12-04c/series/make_cases.py

DenseNet-121 (V100 and K80 compute) and ResNet-152 (K80), one all-reduce per layer and per tensor, overlap on,
K = 2..8, each point the kit's kept attempt (rank 0's record of MODEL-ring-UNIT-overlap-on.jsonl). The prediction
is predict.py's second one, fixed with the first before the series was read: the platform calibrated on this
folder's microbenchmarks with the back-to-back time per call of 128 calls launched together up to 4 MiB
(platform-MODEL-128.xml), the kit's recipe since 2026-12-04b (tools/measure/campaign.sh QUEUED_LONG). When the
series was measured is read from run.log. A case written again keeps its guard and its "missing" text, as
tools/measure/make_cases.py does. Python 3 standard library."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (kept_points, save_held_out_case)
import predict  # noqa: E402  (MODELS, recipe: beside this script, on the path after tools/measure)

CASES = os.path.join(ROOT, "validation", "testbed", "cases")
REL = "validation/testbed/campaign-2026-12-04c/series"


def window(model, unit):
    """(start, end) UTC of the training in run.log: its own start line and the next line's time."""
    with open(os.path.join(HERE, "run.log"), encoding="utf-8") as f:
        stamps = [(line.split(" start ")[0], line.split()[-1]) for line in f
                  if re.search(r" (start|done) \d\d:\d\d:\d\d$", line) or line.startswith("done ")]
    labels = [s for s, _ in stamps]
    i = labels.index(f"train {model} {unit}")
    return stamps[i][1], stamps[i + 1][1]


def write(model, unit):
    name = f"1gbit-{model}-ring-{unit}-overlap-on-2026-12-04c"
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
            + f"); held out: measured 2026-12-04 {start}-{end} UTC after its microbenchmarks (run.sh) on the "
            "machine of 2026-12-04b (kernel 6.18.44-fc-v1252), the two predictions of predict.py committed before "
            "the series was read (validation/testbed/README.md, 2026-12-04c); reported as the first run gave them"),
        "prediction_uses": (
            "the all-reduce microbenchmark of the same emulated cluster, measured that day right before (every node "
            "count and size; one call at a time; 128 calls launched back to back up to 4 MiB and 16 above) through "
            "sgdsim calibrate -o (--bandwidth-from 1MiB), the workload file, --framework pytorch-ddp-gloo and "
            "--egress-fifo on (docs/models.md \u00a710.8, \u00a710.12)"),
        "metric": "step_time_s",
        "run": ["--platform", f"{REL}/platform-{model}-128.xml"] + predict.recipe(model) + ["--allreduce-unit", unit],
        "guard": {"mean": 10, "max": 10},
        "points": pts,
    }
    make_cases.save_held_out_case(
        CASES, case, "../../README.md, 2026-12-04c, for the machine, the series and the recipe of the prediction",
        f"../../campaign-2026-12-04c/series/{series} with its .provenance.json (kernel, qdiscs, rates, congestion "
        "control, torch and Gloo versions, load average)",
        f"../../campaign-2026-12-04c/series/platform-{model}-128.xml, made from the microbenchmarks alone by "
        "predict.py there")


def main():
    for model in predict.MODELS:
        for unit in ("layer", "tensor"):
            write(model, unit)


if __name__ == "__main__":
    main()
