#!/usr/bin/env python3
"""Writes the two cases of validation/testbed/README.md, 2026-12-04b, "A longer queue", from this folder's series.

    validation/testbed/campaign-2026-12-04b/series/make_cases.py

ResNet-152 (GTX 1080 Ti compute), one all-reduce per layer and per tensor, overlap on, K = 2..8, each point the kit's
kept attempt (rank 0's record of ring-UNIT-overlap-on.jsonl). The prediction is predict.py's second one, fixed with
the first before the series was read: the platform calibrated on this folder's microbenchmarks with the back-to-back
time per call of 128 calls launched together up to 4 MiB (platform-128.xml), the recipe the kit takes since
(tools/measure/campaign.sh QUEUED_LONG). A case written again keeps its guard and its "missing" text, as
tools/measure/make_cases.py does. Python 3 standard library."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (kept_points, save_held_out_case)

CASES = os.path.join(ROOT, "validation", "testbed", "cases")
REL = "validation/testbed/campaign-2026-12-04b/series"
RECIPE = ["--platform", f"{REL}/platform-128.xml", "--workload", "workloads/resnet152-gtx1080ti-b32.xml", "--arch",
          "ring", "--overlap", "on", "--steps", "5", "--warmup", "2", "--framework", "pytorch-ddp-gloo", "--egress-fifo",
          "on"]


def write(unit):
    name = f"1gbit-resnet152-gtx1080ti-b32-ring-{unit}-overlap-on-2026-12-04b"
    pts, notes = make_cases.kept_points(os.path.join(HERE, f"ring-{unit}-overlap-on.jsonl"))
    case = {
        "name": name,
        "description": (
            f"resnet152-gtx1080ti-b32, batch 32, ring all-reduce, one per {unit}, overlap on, K = 2..8 workers on the "
            "emulated cluster at 1gbit per NIC (tools/measure, Gloo over TCP, compute as sleeps of the workload's own "
            "times); step time, mean of 5 measured steps after 2 warm-up, the kit's kept attempt "
            f"({REL}/ring-{unit}-overlap-on.jsonl; "
            + (", ".join(notes) + " in the attempt kept" if notes else "no kept attempt busy or read slow")
            + "); held out: measured 2026-12-04 08:34-08:48 UTC right after its microbenchmarks (07:29-08:34, "
            "run.sh) on a fourth build of the machine (kernel 6.18.44-fc-v1252), the two predictions of predict.py "
            "fixed in commit 59b15d7 before the series was read (validation/testbed/README.md, 2026-12-04b); "
            "reported as the first run gave them"),
        "prediction_uses": (
            "the all-reduce microbenchmark of the same emulated cluster, measured that morning (every node count and "
            "size; one call at a time; 128 calls launched back to back up to 4 MiB and 16 above) through sgdsim "
            "calibrate -o (--bandwidth-from 1MiB), the workload file, --framework pytorch-ddp-gloo and --egress-fifo "
            "on (docs/models.md \u00a710.8, \u00a710.12)"),
        "metric": "step_time_s",
        "run": RECIPE + ["--allreduce-unit", unit],
        "guard": {"mean": 10, "max": 10},
        "points": pts,
    }
    make_cases.save_held_out_case(
        CASES, case, "../../README.md, 2026-12-04b, for the machine, the series and the recipe of the prediction",
        f"../../campaign-2026-12-04b/series/ring-{unit}-overlap-on.jsonl with its .provenance.json (kernel, qdiscs, "
        f"rates, congestion control, torch and Gloo versions, load average)",
        "../../campaign-2026-12-04b/series/platform-128.xml, made from the microbenchmarks alone by predict.py there")

def main():
    for unit in ("layer", "tensor"):
        write(unit)


if __name__ == "__main__":
    main()
