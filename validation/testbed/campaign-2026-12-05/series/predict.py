#!/usr/bin/env python3
"""The prediction of validation/testbed/README.md, 2026-12-05, from this folder's microbenchmarks alone (run.sh runs
it after them and before the first training; nothing measured by a training is read).

    validation/testbed/campaign-2026-12-05/series/predict.py [--sgdsim build/src/sgdsim]

For each workload run.sh trains, one platform through `sgdsim calibrate -o`, as tools/measure/make_cases.py
calibrates a campaign's ring series: allreduce.csv (--bandwidth-from 1MiB, --shared-cores from its provenance) and
the back-to-back time per call of 128 calls launched together (allreduce-queued-128.csv, 4 KiB..4 MiB) over the 16
calls' rows where both measured (allreduce-queued-long.csv, make_cases.long_queue_over), the kit's recipe since
2026-12-04b. Then it simulates every series run.sh trains at K = 2..8 with the recipe of the testbed's ring cases
(--framework pytorch-ddp-gloo --egress-fifo on), with the default --uncovered-gain rate (the prediction) and with
--uncovered-gain waits (the rule before 2026-12-04g, for comparison), and writes the step times to simulated.txt.
Python 3 standard library."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (calibrate, long_queue_over, shared_cores, rel)

SERIES = (("resnet101-gtx1080ti-b32", "layer"), ("resnet101-gtx1080ti-b32", "tensor"), ("googlenet-t4-b32", "layer"),
          ("googlenet-t4-b32", "tensor"), ("inception_v3-t4-b32", "layer"))  # run.sh's order
RULES = ("rate", "waits")


def recipe(model):
    return ["--workload", f"workloads/{model}.xml", "--arch", "ring", "--overlap", "on", "--steps", "5", "--warmup",
            "2", "--framework", "pytorch-ddp-gloo", "--egress-fifo", "on"]


def platform(sgdsim, model, queued_csv):
    path = os.path.join(HERE, f"platform-{model}.xml")
    cores = make_cases.shared_cores(os.path.join(HERE, "allreduce.csv.json"))
    make_cases.calibrate(sgdsim, ["--measurements", make_cases.rel(os.path.join(HERE, "allreduce.csv")), "--kind",
                                  "allreduce", "--where", "op=allreduce", "--bandwidth-from", "1MiB", "--line-rate",
                                  "1Gbps", "--workload", f"workloads/{model}.xml", "--nodes", "10", "-o",
                                  make_cases.rel(path), "--force", "--queued", make_cases.rel(queued_csv)]
                         + (["--shared-cores", str(cores)] if cores else []), path + ".log")
    return make_cases.rel(path)


def step_s(sgdsim, model, plat, unit, k, rule):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([sgdsim, "run", "--platform", plat, "--allreduce-unit", unit, "--workers", str(k), "--json",
                        out, "--uncovered-gain", rule] + recipe(model), cwd=ROOT, capture_output=True, text=True,
                       check=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)["simulated"]["step_time_mean_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    args = ap.parse_args()
    queued = make_cases.long_queue_over(os.path.join(HERE, "allreduce-queued.csv"),
                                        os.path.join(HERE, "allreduce-queued-128.csv"),
                                        os.path.join(HERE, "allreduce-queued-long.csv"))
    plats = {}
    lines = ["model unit K rate_s waits_s"]
    for model, unit in SERIES:
        if model not in plats:
            plats[model] = platform(args.sgdsim, model, queued)
        for k in range(2, 9):
            lines.append(f"{model} {unit} {k} "
                         + " ".join(f"{step_s(args.sgdsim, model, plats[model], unit, k, r):.4f}" for r in RULES))
    with open(os.path.join(HERE, "simulated.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("written", time.strftime("%H:%M:%S", time.gmtime()), "UTC")


if __name__ == "__main__":
    main()
