#!/usr/bin/env python3
"""The two predictions of validation/testbed/README.md, 2026-12-04b, "A longer queue", from this folder's
microbenchmarks alone (written before the series' trainings were read).

    validation/testbed/campaign-2026-12-04b/series/predict.py [--sgdsim build/src/sgdsim]

Two platforms, both through `sgdsim calibrate -o` as tools/measure/make_cases.py calibrates a campaign's ring series
(allreduce.csv, --bandwidth-from 1MiB, --shared-cores from its provenance):

- platform-16.xml: the back-to-back time per call of 16 calls launched together (allreduce-queued.csv), the kit's
  recipe since 2026-11-28 (docs/models.md §10.8);
- platform-128.xml: of 128 launched together (allreduce-queued-128.csv, 4 KiB..4 MiB), the 16 calls' rows above 4
  MiB (allreduce-queued-long.csv, written here).

Then it simulates ResNet-152 (GTX 1080 Ti compute) per layer and per tensor at K = 2..8 on each, with the recipe of
the testbed's ring cases (--framework pytorch-ddp-gloo --egress-fifo on), and writes the step times to
simulated.txt. Python 3 standard library."""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (calibrate, shared_cores, rel)

WORKLOAD = "workloads/resnet152-gtx1080ti-b32.xml"
LONG_MAX_BYTES = 4 << 20  # the largest size run.sh measured 128 calls of
RECIPE = ["--workload", WORKLOAD, "--arch", "ring", "--overlap", "on", "--steps", "5", "--warmup", "2", "--framework",
          "pytorch-ddp-gloo", "--egress-fifo", "on"]


def long_queue_csv(out):
    """The 128 calls' rows up to LONG_MAX_BYTES, the 16 calls' above."""
    with open(os.path.join(HERE, "allreduce-queued-128.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, [r for r in reader if int(r["size_bytes"]) <= LONG_MAX_BYTES]
    with open(os.path.join(HERE, "allreduce-queued.csv"), newline="", encoding="utf-8") as f:
        rows += [r for r in csv.DictReader(f) if int(r["size_bytes"]) > LONG_MAX_BYTES]
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def platform(sgdsim, queued_csv, name):
    path = os.path.join(HERE, name)
    cores = make_cases.shared_cores(os.path.join(HERE, "allreduce.csv.json"))
    make_cases.calibrate(sgdsim, ["--measurements", make_cases.rel(os.path.join(HERE, "allreduce.csv")), "--kind",
                                  "allreduce", "--where", "op=allreduce", "--bandwidth-from", "1MiB", "--line-rate",
                                  "1Gbps", "--workload", WORKLOAD, "--nodes", "10", "-o", make_cases.rel(path),
                                  "--force", "--queued", make_cases.rel(queued_csv)]
                         + (["--shared-cores", str(cores)] if cores else []), path + ".log")
    return make_cases.rel(path)


def step_s(sgdsim, plat, unit, k):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([sgdsim, "run", "--platform", plat, "--allreduce-unit", unit, "--workers", str(k), "--json",
                        out] + RECIPE, cwd=ROOT, capture_output=True, text=True, check=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)["simulated"]["step_time_mean_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    args = ap.parse_args()
    long_csv = os.path.join(HERE, "allreduce-queued-long.csv")
    long_queue_csv(long_csv)
    plats = {"16": platform(args.sgdsim, os.path.join(HERE, "allreduce-queued.csv"), "platform-16.xml"),
             "128": platform(args.sgdsim, long_csv, "platform-128.xml")}
    lines = ["unit K queue16_s queue128_s"]
    for unit in ("layer", "tensor"):
        for k in range(2, 9):
            lines.append(f"{unit} {k} " + " ".join(f"{step_s(args.sgdsim, p, unit, k):.4f}" for p in plats.values()))
    with open(os.path.join(HERE, "simulated.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
