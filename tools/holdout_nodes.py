#!/usr/bin/env python3
"""Does a calibration on a few node counts predict a larger ring? (docs/models.md §10.7, "Beyond the node counts
measured".) For every testbed ring case (validation/testbed/cases/*ring*), the platform is calibrated again as its
`.log` records (`sgdsim calibrate --kind allreduce ... --queued ...`), but from the microbenchmark rows of node counts
2..N only (both the single-call and the back-to-back CSV), and the case's points with more than N workers are run on
that platform. Their measured steps and the microbenchmark rows above N are not used for the prediction.

    tools/holdout_nodes.py                    # N = 5: predicts K = 6..8 from 2..5
    tools/holdout_nodes.py --upto 4 --sgdsim build/src/sgdsim --case alexnet
    tools/holdout_nodes.py --guard 7,24       # exit 1 beyond mean 7% or max 24% (ctest validation.holdout_nodes)

Prints each case's errors at the held-out node counts, (simulated - measured) / measured, and their mean and max.
The guard takes the cases measured under the default scheduler, the testbed's configuration; those whose
microbenchmark ran its ranks under SCHED_RR (`launch --rt`, campaign 2026-11-30g: their predictions from every node
count miss already, validation/testbed/README.md "Ranks under SCHED_RR") get a line of their own, not guarded; so do
the cases whose prediction from every node count (validation/report.json) already misses the target's max, 15%, at a
node count calibrated on (K <= N): there the microbenchmark does not describe the training even where it was
measured, so what their held-out points miss is not the extrapolation this checks (2026-12-01r's DenseNet-121 with a
V100's compute, short by 17-26% at every K in every series, validation/testbed/README.md).
"""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
from guard import check_guard, parse_guard  # noqa: E402
from recalibrate import command_of, with_output  # noqa: E402  (the .log's first line, read as recalibrate reads it)


def filtered_csv(path, upto, out):
    """The rows of `path` whose node count is at most `upto`, written to `out`."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"holdout_nodes: {path}: no rows")
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(r for r in rows if int(r["nodes"]) <= upto)


def calibration_command(platform):
    """The `sgdsim calibrate -o` command that wrote `platform`, the first line of its .log, as a list."""
    args = command_of(os.path.join(ROOT, platform + ".log"))
    if args is None or "--measurements" not in args:
        sys.exit(f"holdout_nodes: {platform}.log: its first line is not the sgdsim calibrate -o command")
    return ["sgdsim", "calibrate"] + args


def real_time(cmd):
    """Whether the microbenchmark the calibration `cmd` read ran its ranks under a real-time scheduler (its
    provenance's ranks, tools/measure/kit.py; absent before 2026-11-30: the default scheduler)."""
    with open(os.path.join(ROOT, cmd[cmd.index("--measurements") + 1] + ".json")) as f:
        ranks = json.load(f).get("provenance", {}).get("ranks", [])
    return any(r.get("scheduler") in ("rr", "fifo") for r in ranks)


def holdout_platform(sgdsim, platform, cmd, upto, tmp):
    """Calibrates `platform` again from node counts <= upto with its calibration command `cmd`; returns the path."""
    out = os.path.join(tmp, platform)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = with_output(cmd, out)
    cmd[0] = sgdsim
    cmd += ["--where", f"nodes=2..{upto}"]
    if "--queued" in cmd:
        i = cmd.index("--queued") + 1
        queued = out + ".queued.csv"
        filtered_csv(os.path.join(ROOT, cmd[i]), upto, queued)
        cmd[i] = queued
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"holdout_nodes: calibrating {platform} failed: {r.stderr.strip()}")
    return out


TARGET_MAX_PCT = 15  # the validation target's max error (validation/README.md)


def missed_within(upto):
    """Names of the cases whose prediction from every node count (validation/report.json, the last validate) errs
    by more than the target's max at some point of `upto` workers or fewer."""
    with open(os.path.join(ROOT, "validation", "report.json")) as f:
        report = json.load(f)
    out = set()
    for c in report["cases"]:
        for p in c["points"]:
            k, err = re.fullmatch(r"(\d+) workers?", p.get("label", "")), p.get("simulated_error")
            if k and err is not None and int(k.group(1)) <= upto and abs(err) * 100 > TARGET_MAX_PCT:
                out.add(c["name"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--upto", type=int, default=5, help="the largest node count calibrated on (default 5)")
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"), help="the binary")
    ap.add_argument("--case", action="append", default=[], help="only cases whose name contains this (repeatable)")
    ap.add_argument("--sgdsim-arg", action="append", default=[], metavar="ARG",
                    help="an argument added to every sgdsim run (repeatable; write --sgdsim-arg=--option)")
    ap.add_argument("--guard", default="", metavar="MEAN,MAX",
                    help="exit 1 if the mean or the max |error| (in %%) exceeds these (the validation test's guard)")
    args = ap.parse_args()
    guard = parse_guard(args.guard, "holdout_nodes", "16,40")
    if args.upto < 3:
        sys.exit("holdout_nodes: --upto must be at least 3 (two node counts give the slope)")
    cases = sorted(glob.glob(os.path.join(ROOT, "validation", "testbed", "cases", "*ring*", "case.json")))
    missed = missed_within(args.upto)
    errors, rt_errors, missed_errors = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        platforms = {}  # platform: (the platform calibrated on node counts <= upto, measured under SCHED_RR)
        out_json = os.path.join(tmp, "run.json")
        for path in cases:
            with open(path) as f:
                case = json.load(f)
            if args.case and not any(c in case["name"] for c in args.case):
                continue
            run = list(case["run"])
            i = run.index("--platform") + 1
            if run[i] not in platforms:
                cmd = calibration_command(run[i])
                platforms[run[i]] = holdout_platform(args.sgdsim, run[i], cmd, args.upto, tmp), real_time(cmd)
            run[i], rt = platforms[run[i]]
            row = []
            for p in case["points"]:
                if int(p["args"][p["args"].index("--workers") + 1]) <= args.upto:
                    continue
                cmd = [args.sgdsim, "run", *run, *p["args"], *args.sgdsim_arg, "--json", out_json, "--force", "-q"]
                r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
                if r.returncode:
                    sys.exit(f"holdout_nodes: {case['name']}, {p['label']}: {r.stderr.strip()}")
                with open(out_json) as f:
                    simulated = json.load(f)["simulated"]["step_time_mean_s"]
                row.append((p["label"], 100 * (simulated - p["measured"]) / p["measured"]))
            (rt_errors if rt else missed_errors if case["name"] in missed else errors).extend(e for _, e in row)
            print(f"{case['name']:64s}", "  ".join(f"{label}: {e:+.1f}%" for label, e in row), flush=True)
    if rt_errors:
        print(f"{len(rt_errors)} points above {args.upto} workers of cases measured under SCHED_RR (not guarded): "
              f"mean |error| {sum(map(abs, rt_errors)) / len(rt_errors):.2f}%, max {max(map(abs, rt_errors)):.2f}%")
    if missed_errors:
        print(f"{len(missed_errors)} points above {args.upto} workers of cases that miss by more than "
              f"{TARGET_MAX_PCT:.0f}% at {args.upto} workers or fewer from every node count (not guarded): mean |error| "
              f"{sum(map(abs, missed_errors)) / len(missed_errors):.2f}%, max {max(map(abs, missed_errors)):.2f}%")
    if not errors:
        sys.exit("holdout_nodes: no point above --upto" + (" under the default scheduler" if rt_errors else ""))
    mean, worst = sum(map(abs, errors)) / len(errors), max(map(abs, errors))
    print(f"{len(errors)} points above {args.upto} workers: mean |error| {mean:.2f}%, max {worst:.2f}%")
    check_guard(guard, mean, worst, "holdout_nodes")


if __name__ == "__main__":
    main()
