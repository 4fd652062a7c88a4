#!/usr/bin/env python3
"""A diagnosis, not a prediction (after the trainings): the five series of 2026-12-05 at K = 2 predicted as
series/predict.py does, but with each K = 2 size of the 128-call microbenchmark up to 1 MiB taken as the median over
its launch in the series and the three launches of run.sh here (4 hours later, reference pace 12.4 us against 15.4),
what campaign.sh's more launches give since 2026-12-05, through the kit's own recipe (make_cases.calibrate_allreduce
on a folder laid out as a campaign's, micro_dir); beside the measured step and the prediction
(series/simulated.txt).

    validation/testbed/campaign-2026-12-05/again/k2.py > k2.out

Python 3 standard library; the derived CSVs and platforms go to a temporary folder."""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SERIES = os.path.join(os.path.dirname(HERE), "series")
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
sys.path.append(SERIES)  # after tools/measure: the series folder has a make_cases.py of its own
import make_cases  # noqa: E402  (calibrate_allreduce, kept_points, rel)
import predict  # noqa: E402  (SERIES, step_s)


def micro_dir(tmp):
    """TMP laid out as a campaign's rate folder that the kit's recipe (make_cases.calibrate_allreduce) reads: the
    series' microbenchmarks, its 128 calls as the long queue, and this folder's three launches of them as the more
    launches (small/allreduce-queued-long-2..4.csv, whose median over the four it takes)."""
    for name in ("allreduce.csv", "allreduce.csv.json", "allreduce-queued.csv", "allreduce-queued.csv.json"):
        shutil.copy(os.path.join(SERIES, name), tmp)
    shutil.copy(os.path.join(SERIES, "allreduce-queued-128.csv"), os.path.join(tmp, "allreduce-queued-long.csv"))
    os.makedirs(os.path.join(tmp, "small"))
    for i in (1, 2, 3):
        shutil.copy(os.path.join(HERE, f"queued-128-{i}.csv"),
                    os.path.join(tmp, "small", f"allreduce-queued-long-{i + 1}.csv"))
    return tmp


def main():
    sgdsim = os.path.join(ROOT, "build", "src", "sgdsim")
    with open(os.path.join(SERIES, "simulated.txt"), encoding="utf-8") as f:
        sim = {(m, u, int(k)): float(r) for m, u, k, r, _ in (line.split() for line in list(f)[1:])}
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        micro = micro_dir(tmp)
        plats = {}
        print("series K=2 measured_s prediction_s error median-over-launches_s error")
        for model, unit in predict.SERIES:
            if model not in plats:
                path = os.path.join(tmp, f"platform-{model}.xml")
                make_cases.calibrate_allreduce(sgdsim, micro, os.path.join(ROOT, "workloads", f"{model}.xml"), "1gbit",
                                               path)
                plats[model] = make_cases.rel(path)
            pts, _ = make_cases.kept_points(os.path.join(SERIES, f"{model}-ring-{unit}-overlap-on.jsonl"))
            m = next(p["measured"] for p in pts if int(p["args"][1]) == 2)
            a = sim[(model, unit, 2)]
            b = predict.step_s(sgdsim, model, plats[model], unit, 2, "rate")
            print(f"{model}/{unit} {m:.4f} {a:.4f} {a / m - 1:+.1%} {b:.4f} {b / m - 1:+.1%}", flush=True)


if __name__ == "__main__":
    main()
