#!/usr/bin/env python3
"""Prints the tables of validation/testbed/README.md, 2026-12-04b, "A longer queue".

    validation/testbed/campaign-2026-12-04b/summarize.py

1. long-queue/: the time per call of 16 and of 128 all-reduces launched together, K = 6-8, two runs each (ms, the
   two runs' medians' mean, and 128 over 16).
2. series/: the same at K = 2..8 from the series' own microbenchmarks (one run each).
3. series/: ResNet-152 (GTX 1080 Ti compute) per layer and per tensor, measured (the kit's kept attempt) against the
   two predictions of series/predict.py (simulated.txt), signed errors and mean / max. Python 3 standard library.
"""

import csv
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def per_call(paths):
    """{(K, size): mean over the files of each one's median time per call}."""
    runs = {}
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                runs.setdefault((int(r["nodes"]), int(r["size_bytes"])), []).append(float(r["time_s"]))
    return {key: statistics.mean(v) for key, v in runs.items()}


def size_text(b):
    return f"{b >> 20} MiB" if b >= 1 << 20 else f"{b >> 10} KiB"


def queue_table(short, long_, title):
    keys = sorted(k for k in long_ if k in short)
    sizes = sorted({s for _, s in keys})
    print(f"\n{title}\n")
    print("| K | " + " | ".join(size_text(s) + ": 16 / 128 (ratio)" for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for k in sorted({k for k, _ in keys}):
        cells = [f"{1e3 * short[k, s]:.1f} / {1e3 * long_[k, s]:.1f} ({long_[k, s] / short[k, s]:.2f})"
                 for s in sizes if (k, s) in short and (k, s) in long_]
        print(f"| {k} | " + " | ".join(cells) + " |")


def kept(path):
    """{K: step time of rank 0's kept attempt} of a train output."""
    with open(path, encoding="utf-8") as f:
        return {rec["workers"]: rec["step_time_mean_s"] for rec in map(json.loads, f)}


def series_table():
    sim = {}
    with open(os.path.join(HERE, "series", "simulated.txt"), encoding="utf-8") as f:
        next(f)
        for line in f:
            unit, k, s16, s128 = line.split()
            sim[unit, int(k)] = (float(s16), float(s128))
    print("\nResNet-152 (GTX 1080 Ti compute), step s: measured, simulated with 16 / 128 calls back to back "
          "(signed errors %)\n")
    print("| unit | K | measured | queue of 16 | queue of 128 |")
    print("|---|---|---|---|---|")
    for unit in ("layer", "tensor"):
        path = os.path.join(HERE, "series", f"ring-{unit}-overlap-on.jsonl")
        if not os.path.exists(path):
            continue
        meas = kept(path)
        errs = ([], [])
        for k in range(2, 9):
            if k not in meas or (unit, k) not in sim:
                continue
            cells = []
            for i, s in enumerate(sim[unit, k]):
                e = (s - meas[k]) / meas[k]
                errs[i].append(abs(e))
                cells.append(f"{s:.3f} ({100 * e:+.1f})")
            print(f"| {unit} | {k} | {meas[k]:.3f} | " + " | ".join(cells) + " |")
        print(f"| {unit} | mean / max | | " + " | ".join(
            f"{100 * statistics.mean(e):.1f}% / {100 * max(e):.1f}%" for e in errs) + " |")


def main():
    lq = os.path.join(HERE, "long-queue")
    queue_table(per_call([os.path.join(lq, f"queued-16-{r}.csv") for r in (1, 2)]),
                per_call([os.path.join(lq, f"queued-128-{r}.csv") for r in (1, 2)]),
                "long-queue/: ms per call, 16 / 128 launched together (two runs' mean)")
    s = os.path.join(HERE, "series")
    if os.path.exists(os.path.join(s, "allreduce-queued-128.csv")):
        queue_table(per_call([os.path.join(s, "allreduce-queued.csv")]),
                    per_call([os.path.join(s, "allreduce-queued-128.csv")]),
                    "series/: ms per call, 16 / 128 launched together (the series' microbenchmarks)")
    if os.path.exists(os.path.join(s, "simulated.txt")):
        series_table()


if __name__ == "__main__":
    main()
