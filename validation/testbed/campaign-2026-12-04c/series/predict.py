#!/usr/bin/env python3
"""The two predictions of validation/testbed/README.md, 2026-12-04c, from this folder's microbenchmarks alone
(written and committed before the series' trainings were read).

    validation/testbed/campaign-2026-12-04c/series/predict.py [--sgdsim build/src/sgdsim]

For each workload run.sh trains, two platforms through `sgdsim calibrate -o`, as tools/measure/make_cases.py
calibrates a campaign's ring series (allreduce.csv, --bandwidth-from 1MiB, --shared-cores from its provenance):

- platform-MODEL-16.xml: the back-to-back time per call of 16 calls launched together (allreduce-queued.csv), the
  kit's recipe from 2026-11-28 to 2026-12-04b (docs/models.md §10.8);
- platform-MODEL-128.xml: of 128 launched together (allreduce-queued-128.csv, 4 KiB..4 MiB) over the 16 calls'
  rows where both measured (allreduce-queued-long.csv, by make_cases.long_queue_over), the kit's recipe since
  2026-12-04b (tools/measure/campaign.sh QUEUED_LONG).

Then it simulates every series per layer and per tensor at K = 2..8 on each, with the recipe of the testbed's ring
cases (--framework pytorch-ddp-gloo --egress-fifo on), and writes the step times to simulated.txt. Python 3
standard library."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (calibrate, long_queue_over, shared_cores, rel)

MODELS = ("densenet121-v100-b32", "densenet121-k80-b32", "resnet152-k80-b32")  # run.sh's order
QUEUES = ("16", "128")


def recipe(model):
    return ["--workload", f"workloads/{model}.xml", "--arch", "ring", "--overlap", "on", "--steps", "5", "--warmup",
            "2", "--framework", "pytorch-ddp-gloo", "--egress-fifo", "on"]


def platform(sgdsim, model, queued_csv, queue):
    path = os.path.join(HERE, f"platform-{model}-{queue}.xml")
    cores = make_cases.shared_cores(os.path.join(HERE, "allreduce.csv.json"))
    make_cases.calibrate(sgdsim, ["--measurements", make_cases.rel(os.path.join(HERE, "allreduce.csv")), "--kind",
                                  "allreduce", "--where", "op=allreduce", "--bandwidth-from", "1MiB", "--line-rate",
                                  "1Gbps", "--workload", f"workloads/{model}.xml", "--nodes", "10", "-o",
                                  make_cases.rel(path), "--force", "--queued", make_cases.rel(queued_csv)]
                         + (["--shared-cores", str(cores)] if cores else []), path + ".log")
    return make_cases.rel(path)


def step_s(sgdsim, model, plat, unit, k):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([sgdsim, "run", "--platform", plat, "--allreduce-unit", unit, "--workers", str(k), "--json",
                        out] + recipe(model), cwd=ROOT, capture_output=True, text=True, check=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)["simulated"]["step_time_mean_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    args = ap.parse_args()
    queued = {"16": os.path.join(HERE, "allreduce-queued.csv"),
              "128": make_cases.long_queue_over(os.path.join(HERE, "allreduce-queued.csv"),
                                                os.path.join(HERE, "allreduce-queued-128.csv"),
                                                os.path.join(HERE, "allreduce-queued-long.csv"))}
    lines = ["model unit K queue16_s queue128_s"]
    for model in MODELS:
        plats = {q: platform(args.sgdsim, model, queued[q], q) for q in QUEUES}
        for unit in ("layer", "tensor"):
            for k in range(2, 9):
                lines.append(f"{model} {unit} {k} "
                             + " ".join(f"{step_s(args.sgdsim, model, plats[q], unit, k):.4f}" for q in QUEUES))
    with open(os.path.join(HERE, "simulated.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
