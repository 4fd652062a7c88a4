#!/usr/bin/env python3
"""A diagnosis, not a prediction (written after the trainings were measured): the five series of 2026-12-05 at
K = 2..8 predicted as predict.py does but with the 16 calls' back-to-back rows alone (allreduce-queued.csv, the kit's
recipe before 2026-12-04b) instead of the 128 calls' over them, beside the prediction (simulated.txt, rate) and the
measured step. It asks whether the K = 2 steps came out long from the 128-call launch's small rows at K = 2 (4 and 8
KiB: 0.76 and 0.73 ms a call, the 16-call launch's 0.22 and 0.25, 2026-12-04c's 128-call launch 0.22 and 0.19).

    validation/testbed/campaign-2026-12-05/series/queue16.py > queue16.out

Python 3 standard library; the platforms go to a temporary folder."""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (calibrate_allreduce, kept_points, rel)
import predict  # noqa: E402  (SERIES, step_s)

# What the kit's recipe (make_cases.calibrate_allreduce) reads: the calls one at a time and the 16 back to back only.
MICRO = ("allreduce.csv", "allreduce.csv.json", "allreduce-queued.csv", "allreduce-queued.csv.json")


def main():
    sgdsim = os.path.join(ROOT, "build", "src", "sgdsim")
    with open(os.path.join(HERE, "simulated.txt"), encoding="utf-8") as f:
        sim = {(m, u, int(k)): float(r) for m, u, k, r, _ in (line.split() for line in list(f)[1:])}
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        for name in MICRO:
            shutil.copy(os.path.join(HERE, name), tmp)
        plats = {}
        print("series K measured_s 128-over-16_s error 16-alone_s error")
        for model, unit in predict.SERIES:
            if model not in plats:
                path = os.path.join(tmp, f"platform-{model}.xml")
                make_cases.calibrate_allreduce(sgdsim, tmp, os.path.join(ROOT, "workloads", f"{model}.xml"), "1gbit",
                                               path)
                plats[model] = make_cases.rel(path)
            pts, _ = make_cases.kept_points(os.path.join(HERE, f"{model}-ring-{unit}-overlap-on.jsonl"))
            for p in pts:
                k = int(p["args"][1])
                m, a = p["measured"], sim[(model, unit, k)]
                b = predict.step_s(sgdsim, model, plats[model], unit, k, "rate")
                print(f"{model}/{unit} {k} {m:.4f} {a:.4f} {a / m - 1:+.1%} {b:.4f} {b / m - 1:+.1%}", flush=True)


if __name__ == "__main__":
    main()
