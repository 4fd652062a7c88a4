#!/usr/bin/env python3
"""The prediction of simulated.txt (written by run.sh before the first training) beside the measured steps: per
series and K, measured, simulated with --uncovered-gain rate (the prediction) and waits (the rule before
2026-12-04g), their errors, and each series' mean / max error.

    validation/testbed/campaign-2026-12-05/series/compare.py > compare.out

Python 3 standard library."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (kept_points)
import predict  # noqa: E402  (SERIES)


def main():
    with open(os.path.join(HERE, "simulated.txt"), encoding="utf-8") as f:
        sim = {(m, u, int(k)): (float(r), float(w)) for m, u, k, r, w in (line.split() for line in list(f)[1:])}
    for model, unit in predict.SERIES:
        path = os.path.join(HERE, f"{model}-ring-{unit}-overlap-on.jsonl")
        if not os.path.exists(path):
            print(f"{model} {unit}: not measured")
            continue
        pts, notes = make_cases.kept_points(path)
        errs = {"rate": [], "waits": []}
        print(f"{model} per {unit}" + (f" ({', '.join(notes)})" if notes else ""))
        print("   K  measured_s  rate_s  error  waits_s  error")
        for p in pts:
            k = int(p["args"][1])
            r, w = sim[(model, unit, k)]
            er, ew = r / p["measured"] - 1, w / p["measured"] - 1
            errs["rate"].append(er)
            errs["waits"].append(ew)
            print(f"  {k:2d}  {p['measured']:9.4f}  {r:6.4f} {er:+6.1%}  {w:7.4f} {ew:+6.1%}")
        for rule, e in errs.items():
            a = [abs(x) for x in e]
            print(f"  {rule}: mean {sum(a) / len(a):.1%} max {max(a):.1%}")


if __name__ == "__main__":
    main()
