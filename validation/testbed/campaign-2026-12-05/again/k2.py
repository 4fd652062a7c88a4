#!/usr/bin/env python3
"""A diagnosis, not a prediction (after the trainings): the five series of 2026-12-05 at K = 2 predicted as
series/predict.py does, but with each K = 2 size of the 128-call microbenchmark up to 1 MiB taken as the median over
its launch in the series and the three launches of run.sh here (4 hours later, reference pace 12.4 us against 15.4),
what campaign.sh's more launches give since 2026-12-05 (make_cases.median_over_launches); beside the measured step
and the prediction (series/simulated.txt).

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
import make_cases  # noqa: E402  (calibrate, kept_points, long_queue_over, median_over_launches, rel, shared_cores)
import predict  # noqa: E402  (SERIES, recipe, step_s)


def main():
    sgdsim = os.path.join(ROOT, "build", "src", "sgdsim")
    with open(os.path.join(SERIES, "simulated.txt"), encoding="utf-8") as f:
        sim = {(m, u, int(k)): float(r) for m, u, k, r, _ in (line.split() for line in list(f)[1:])}
    cores = make_cases.shared_cores(os.path.join(SERIES, "allreduce.csv.json"))
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        first = os.path.join(tmp, "allreduce-queued-128.csv")
        shutil.copy(os.path.join(SERIES, "allreduce-queued-128.csv"), first)
        long_csv = make_cases.median_over_launches(
            first, [os.path.join(HERE, f"queued-128-{i}.csv") for i in (1, 2, 3)], os.path.join(tmp, "long.csv"))
        queued = make_cases.long_queue_over(os.path.join(SERIES, "allreduce-queued.csv"), long_csv,
                                            os.path.join(tmp, "queued.csv"))
        plats = {}
        print("series K=2 measured_s prediction_s error median-over-launches_s error")
        for model, unit in predict.SERIES:
            if model not in plats:
                path = os.path.join(tmp, f"platform-{model}.xml")
                make_cases.calibrate(sgdsim, ["--measurements", make_cases.rel(os.path.join(SERIES, "allreduce.csv")),
                                              "--kind", "allreduce", "--where", "op=allreduce", "--bandwidth-from",
                                              "1MiB", "--line-rate", "1Gbps", "--workload", f"workloads/{model}.xml",
                                              "--nodes", "10", "-o", make_cases.rel(path), "--force", "--queued",
                                              make_cases.rel(queued)]
                                     + (["--shared-cores", str(cores)] if cores else []), path + ".log")
                plats[model] = make_cases.rel(path)
            pts, _ = make_cases.kept_points(os.path.join(SERIES, f"{model}-ring-{unit}-overlap-on.jsonl"))
            m = next(p["measured"] for p in pts if int(p["args"][1]) == 2)
            a = sim[(model, unit, 2)]
            b = predict.step_s(sgdsim, model, plats[model], unit, 2, "rate")
            print(f"{model}/{unit} {m:.4f} {a:.4f} {a / m - 1:+.1%} {b:.4f} {b / m - 1:+.1%}", flush=True)


if __name__ == "__main__":
    main()
