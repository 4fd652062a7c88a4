#!/usr/bin/env python3
"""Prints the tables of validation/testbed/README.md, 2026-12-04c, "Is the longer queue's gain general?".

    validation/testbed/campaign-2026-12-04c/summarize.py

1. series/: the time per call of 16 and of 128 all-reduces launched together, K = 2..8 (this morning's machine
   gave 2026-12-04b's table; this one is the same microbenchmark measured again, 3 hours later).
2. series/: each training, measured (the kit's kept attempt) against the two predictions of series/predict.py
   (simulated.txt), signed errors and mean / max. Python 3 standard library; the table code is 2026-12-04b's.
"""

import importlib.util
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "summarize_04b", os.path.join(HERE, "..", "campaign-2026-12-04b", "summarize.py"))
b = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(b)  # per_call, queue_table, kept


def series_tables(s):
    sim = {}
    with open(os.path.join(s, "simulated.txt"), encoding="utf-8") as f:
        next(f)
        for line in f:
            model, unit, k, s16, s128 = line.split()
            sim[model, unit, int(k)] = (float(s16), float(s128))
    print("\nstep s: measured, simulated with 16 / 128 calls back to back (signed errors %)\n")
    print("| series | K | measured | queue of 16 | queue of 128 |")
    print("|---|---|---|---|---|")
    for model in dict.fromkeys(m for m, _, _ in sim):
        for unit in ("layer", "tensor"):
            path = os.path.join(s, f"{model}-ring-{unit}-overlap-on.jsonl")
            if not os.path.exists(path):
                continue
            meas = b.kept(path)
            errs = ([], [])
            for k in range(2, 9):
                if k not in meas or (model, unit, k) not in sim:
                    continue
                cells = []
                for i, x in enumerate(sim[model, unit, k]):
                    e = (x - meas[k]) / meas[k]
                    errs[i].append(abs(e))
                    cells.append(f"{x:.3f} ({100 * e:+.1f})")
                print(f"| {model} {unit} | {k} | {meas[k]:.3f} | " + " | ".join(cells) + " |")
            print(f"| {model} {unit} | mean / max | | " + " | ".join(
                f"{100 * statistics.mean(e):.1f}% / {100 * max(e):.1f}%" for e in errs) + " |")


def main():
    s = os.path.join(HERE, "series")
    if os.path.exists(os.path.join(s, "allreduce-queued-128.csv")):
        b.queue_table(b.per_call([os.path.join(s, "allreduce-queued.csv")]),
                      b.per_call([os.path.join(s, "allreduce-queued-128.csv")]),
                      "series/: ms per call, 16 / 128 launched together")
    if os.path.exists(os.path.join(s, "simulated.txt")):
        series_tables(s)


if __name__ == "__main__":
    main()
