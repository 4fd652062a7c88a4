#!/usr/bin/env python3
"""sgdsim validate with "seeds" (README "Validation"): each point's simulated figure is the mean of its runs with
--seed 1..N, summed in seed order; a bad count and a run that sets its own --seed are input errors (exit 2).
Usage: validate_seeds_test.py SGDSIM SRCDIR WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

sgdsim, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(why):
    print("validate_seeds_test: " + why)
    sys.exit(1)


case_dir = os.path.join("tests", "data", "validate", "seeds")
out = subprocess.run([sgdsim, "validate", case_dir, "--report-dir", work], cwd=src, capture_output=True, text=True)
if out.returncode != 0:
    fail(f"validate exited {out.returncode}: {out.stderr}")
if "Simulated: the mean of 3 runs, seeds 1 to 3" not in out.stdout:
    fail("the report does not say the figures are means over seeds:\n" + out.stdout)
report = json.load(open(os.path.join(work, "report.json")))
case = json.load(open(os.path.join(src, case_dir, "case.json")))
points = {p["label"]: p["simulated"] for p in report["cases"][0]["points"]}
for p in case["points"]:
    runs = []
    for seed in (1, 2, 3):
        path = os.path.join(work, f"{p['args'][1]}-{seed}.json")
        r = subprocess.run([sgdsim, "run"] + case["run"] + p["args"] + ["--seed", str(seed), "--json", path, "-q"],
                           cwd=src, capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"run failed: {r.stderr}")
        runs.append(json.load(open(path))["simulated"]["step_time_mean_s"])
    if len(set(runs)) < 2:
        fail(f"{p['label']}: the seeds gave the same step time {runs[0]}: the test case is not random")
    mean = 0.0
    for x in runs:  # as validate sums: each run's share, in seed order
        mean += x / 3
    if points[p["label"]] != mean:
        fail(f"{p['label']}: validate reports {points[p['label']]!r}, the mean of seeds 1-3 is {mean!r} ({runs})")

for bad, message in (("bad-seeds", "seeds 0: must be in [1, 64]"),
                     ("seeds-and-seed", "seeds: the case's run gives --seed")):
    r = subprocess.run([sgdsim, "validate", os.path.join("tests", "data", "validate", bad)], cwd=src,
                       capture_output=True, text=True)
    if r.returncode != 2 or message not in r.stderr:
        fail(f"{bad}: expected exit 2 and '{message}', got {r.returncode}: {r.stderr}")
print("validate_seeds_test: ok")
