#!/usr/bin/env python3
"""A testbed case's steps one by one: the measured series beside the simulated one, per seed.

    tools/step_series.py CASE_DIR MEASURED.jsonl --workers K [--seeds 1-8] [--sgdsim build/src/sgdsim]

A case's mean hides how its steps went: Async-PS workers that start in step and draw apart over several steps, or
that alternate from the first, give the same mean over a few steps as a series that stays between (docs/models.md
§10.6). This prints, for node count K, each measured step (mean over the workers, then each worker's), and the same
for each seed of `sgdsim run` with the case's options (its `run` arguments, the point's, --seed S, --json), read from
per_worker[].step_times_s. Steps are numbered after the warm-up, as both report them. A diagnosis, not a predictor:
it runs the simulation the case's way and shows what the mean is made of. Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_seeds(text):
    """'1-8' or '1,3,5' -> [1, ..., 8] / [1, 3, 5]."""
    out = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.extend(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    if not out or any(s < 1 for s in out):
        raise ValueError(f"seeds must be positive integers, got {text!r}")
    return out


def measured_series(path, workers):
    """Per worker, the measured steps of the jsonl's train row for `workers` (first repeat)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row.get("kind") == "train" and row.get("workers") == workers:
                return row["step_times_s"]
    raise SystemExit(f"step_series: {path}: no train row for {workers} workers")


def case_point(case, workers):
    """The point of the case whose --workers is `workers`."""
    for p in case["points"]:
        args = p.get("args", [])
        if "--workers" in args and args[args.index("--workers") + 1] == str(workers):
            return p
    raise SystemExit(f"step_series: case {case['name']}: no point with --workers {workers}")


def simulated_series(sgdsim, case, point, seed, folder):
    """Per worker, the simulated steps of `sgdsim run` with the case's options and this seed."""
    out = os.path.join(folder, f"seed{seed}.json")
    cmd = [sgdsim, "run", *case["run"], *point["args"], "--seed", str(seed), "--json", out]
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"step_series: {' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    with open(out, encoding="utf-8") as f:
        sim = json.load(f)["simulated"]
    return [w["step_times_s"] for w in sim["per_worker"]]


def step_means(series):
    """Mean over the workers at each step index every worker reached."""
    n = min(len(s) for s in series)
    return [sum(s[i] for s in series) / len(series) for i in range(n)]


def show(label, series):
    means = step_means(series)
    mean = sum(sum(s) for s in series) / sum(len(s) for s in series)
    print(f"{label:12s} mean {mean:8.3f} s | per step " + " ".join(f"{x:.3f}" for x in means))
    for w, s in enumerate(series):
        print(f"{'':12s} worker {w + 1:<3d}     | " + " ".join(f"{x:.3f}" for x in s))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case_dir", help="a case folder (its case.json)")
    ap.add_argument("measured", help="the measured jsonl of the case's series")
    ap.add_argument("--workers", type=int, required=True, help="node count K")
    ap.add_argument("--seeds", default="1-8", help="seeds to simulate (default 1-8, the PS cases' 8 seeds)")
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    a = ap.parse_args()
    try:
        seeds = parse_seeds(a.seeds)
    except ValueError as e:
        raise SystemExit(f"step_series: {e}")
    with open(os.path.join(a.case_dir, "case.json"), encoding="utf-8") as f:
        case = json.load(f)
    point = case_point(case, a.workers)
    show("measured", measured_series(a.measured, a.workers))
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            show(f"seed {seed}", simulated_series(a.sgdsim, case, point, seed, folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
