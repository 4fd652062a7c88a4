#!/usr/bin/env python3
"""Tables of the placement diagnosis (run.sh): per round, the median ms per call (min-max over the repeats) of the
K = 2 rows back to back (16 launched together) and alone, and the step of GoogLeNet's 115 small tensors without
compute (mean, min-max of the steps); then K = 2..4 and the congestion controls. Usage: summary.py [DIR]"""
import csv
import glob
import json
import os
import sys

D = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def cells(path):
    return {(int(r["nodes"]), int(r["size_bytes"])): "%.2f (%.2f-%.2f)" % tuple(1e3 * float(r[c]) for c in (
        "time_s", "time_min_s", "time_max_s")) for r in csv.DictReader(open(path))}


print("| K = 2, round | back to back 1 KiB | 4 KiB | alone 1 KiB | 4 KiB | small tensors' step, s |")
print("|---|---|---|---|---|---|")
order = {"plain": 0, "busy": 1, "onecore": 2, "split": 3}
tags = sorted({os.path.basename(p)[4:-4] for p in glob.glob(f"{D}/k2/q16-*.csv")},
              key=lambda t: (order[t.split("-r")[0]], t))
for t in tags:
    q, a = cells(f"{D}/k2/q16-{t}.csv"), cells(f"{D}/k2/alone-{t}.csv")
    d = json.loads(open(f"{D}/k2/tiny-{t}.jsonl").readline())
    steps = [x for w in d["step_times_s"] for x in w]
    print(f"| {t} | {q[2, 1024]} | {q[2, 4096]} | {a[2, 1024]} | {a[2, 4096]} | "
          f"{d['step_time_mean_s']:.3f} ({min(steps):.3f}-{max(steps):.3f}) |")
print()
print("| K = 2..4, round | K | back to back 4 KiB | 64 KiB | alone 4 KiB | 64 KiB |")
print("|---|---|---|---|---|---|")
for t in ("plain-r1", "split-r1", "plain-r2", "split-r2"):
    q, a = cells(f"{D}/k2-4/q16-{t}.csv"), cells(f"{D}/k2-4/alone-{t}.csv")
    for k in (2, 3, 4):
        print(f"| {t} | {k} | {q[k, 4096]} | {q[k, 65536]} | {a[k, 4096]} | {a[k, 65536]} |")


def k2_sizes_table(title, folder, tags):
    """K = 2 at 1 KiB, 4 KiB and 64 KiB, back to back and alone, one row per round of FOLDER."""
    print()
    print(f"| {title} | back to back 1 KiB | 4 KiB | 64 KiB | alone 1 KiB | 4 KiB | 64 KiB |")
    print("|---|---|---|---|---|---|---|")
    for t in tags:
        q, a = cells(f"{D}/{folder}/q16-{t}.csv"), cells(f"{D}/{folder}/alone-{t}.csv")
        print(f"| {t} | " + " | ".join(x[2, s] for x in (q, a) for s in (1024, 4096, 65536)) + " |")


k2_sizes_table("K = 2, congestion control, round", "cc", ("bbr-r1", "bbr-r2", "reno-r1", "reno-r2"))
k2_sizes_table("pinned, scheduler, round", "rt", ("normal-r1", "normal-r2", "rr-r1", "rr-r2"))
print()
print("| 8 ranks pinned, scheduler | K | back to back 4 KiB | 256 KiB | alone 4 KiB | 256 KiB | 4 MiB |")
print("|---|---|---|---|---|---|---|")
for t in ("normal-r1", "rr-r1"):
    q, a = cells(f"{D}/rt/k8-q16-{t}.csv"), cells(f"{D}/rt/k8-alone-{t}.csv")
    for k in (2, 4, 8):
        print(f"| {t} | {k} | {q[k, 4096]} | {q[k, 262144]} | {a[k, 4096]} | {a[k, 262144]} | {a[k, 4194304]} |")
