#!/usr/bin/env python3
"""A diagnosis (validation/testbed/README.md, 2026-12-05c), not a prediction of its own: is the single-call all-reduce
row of 1 MiB at K = 8, which reads 1.3 times the line through its neighbours or more in most first launches, a state
of the microbenchmark that the trainings do not share? For every campaign with 1 Gbit/s ring cases and its data in
campaign-NAME/data/1gbit: that row (the first launch's and the more launches' in small/) set on the line through the
first launch's 512 KiB and 2 MiB rows at K = 8, the platform calibrated again by make_cases.py's recipe, and each
ring case's points predicted on it by `sgdsim validate` (drift.predict_on), beside the case's own prediction.
Then the same ratio over every first launch committed, per node count and size (the line through the sizes half
and twice as large), single calls and 16 back to back.

    validation/testbed/campaign-2026-12-05c/k8_row.py > k8_row.out

Python 3 standard library; the platforms go to a temporary folder."""

import csv
import glob
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import drift  # noqa: E402  (predict_on)
import make_cases  # noqa: E402  (calibrate_allreduce)

TESTBED = os.path.join(ROOT, "validation", "testbed")
CASES = os.path.join(TESTBED, "cases")
MIB = 2 ** 20


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def times(rows, op="allreduce"):
    return {(int(r["nodes"]), int(float(r["size_bytes"]))): float(r["time_s"]) for r in rows if r["op"] == op}


def set_row(path, value_s):
    """PATH's K = 8, 1 MiB all-reduce row set to VALUE_S; returns the time it had (None: no such row)."""
    fields, rows = read(path)
    old = None
    for r in rows:
        if r["op"] == "allreduce" and int(r["nodes"]) == 8 and int(float(r["size_bytes"])) == MIB:
            old, r["time_s"] = float(r["time_s"]), repr(value_s)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return old


def what_if(campaign, sgdsim, errors):
    rate = os.path.join(TESTBED, "campaign-" + campaign, "data", "1gbit")
    names = sorted(n for n in os.listdir(CASES) if n.startswith("1gbit") and "-ring-" in n
                   and n.endswith("-" + campaign))
    t = times(read(os.path.join(rate, "allreduce.csv"))[1])
    if not names or (8, MIB) not in t or (8, MIB // 2) not in t or (8, 2 * MIB) not in t:
        return
    line = t[8, MIB // 2] + (t[8, 2 * MIB] - t[8, MIB // 2]) / 3
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        folder = os.path.join(tmp, "1gbit")
        # The rate folder's microbenchmarks as measured (no derived file, no training), small/ with them.
        shutil.copytree(rate, folder, ignore=lambda d, fs: [
            f for f in fs if (os.path.isdir(os.path.join(d, f)) and f != make_cases.SMALL)
            or ".launches." in f or ".long." in f])
        olds = [set_row(os.path.join(folder, "allreduce.csv"), line)]
        small = os.path.join(folder, make_cases.SMALL)
        olds += [set_row(p, line) for p in make_cases.launches(small, "allreduce")] if os.path.isdir(small) else []
        print(f"campaign-{campaign}: K = 8, 1 MiB one call at a time "
              f"{', '.join('%.1f' % (o * 1e3) for o in olds if o is not None)} ms -> {line * 1e3:.1f} ms")
        plats = {}
        for name in names:
            with open(os.path.join(CASES, name, "case.json"), encoding="utf-8") as f:
                case = json.load(f)
            run = case["run"]
            workload = run[run.index("--workload") + 1]
            if workload not in plats:
                plats[workload] = os.path.join(tmp, os.path.basename(workload))
                make_cases.calibrate_allreduce(sgdsim, folder, os.path.join(ROOT, workload), "1gbit", plats[workload])
            points = drift.predict_on(os.path.join(CASES, name), case, plats[workload], "-k8", sgdsim, 2)
            cells = []
            for label, (m, a, b) in points.items():
                k = int(label.split()[0])  # "K workers"
                errors.setdefault(k, []).append((a / m - 1, b / m - 1))
                if k >= 7:
                    cells.append(f"K = {k} {a / m - 1:+.1%} -> {b / m - 1:+.1%}")
            print(f"  {name}: {', '.join(cells)}", flush=True)


def ratios(name):
    """{(K, size): [row / line through the half and twice as large sizes]} over every committed first launch."""
    found = {}
    for path in sorted(glob.glob(os.path.join(TESTBED, "campaign-*", "data", "1gbit", name))):
        _, rows = read(path)
        t = times(rows, "allreduce_queued" if "queued" in name else "allreduce")
        for (k, s), v in t.items():
            lo, hi = t.get((k, s // 2)), t.get((k, 2 * s))
            if lo and hi and 128 * 1024 <= s <= 8 * MIB:
                found.setdefault((k, s), []).append(v / (lo + (hi - lo) / 3))
    return found


def main():
    sgdsim = os.path.join(ROOT, "build", "src", "sgdsim")
    errors = {}
    for path in sorted(glob.glob(os.path.join(TESTBED, "campaign-*", "data", "1gbit", "allreduce.csv"))):
        what_if(path.split(os.sep)[-4][len("campaign-"):], sgdsim, errors)
    print("\nper node count, the ring cases' points: mean |error| with the rows as measured -> with K = 8's 1 MiB row "
          "on the line (signed median)")
    for k in sorted(errors):
        a, b = [e[0] for e in errors[k]], [e[1] for e in errors[k]]
        print(f"  K = {k}: {len(a)} points, {statistics.mean(map(abs, a)):.2%} -> {statistics.mean(map(abs, b)):.2%} "
              f"({statistics.median(a):+.2%} -> {statistics.median(b):+.2%}); beyond 15%: "
              f"{sum(abs(x) > 0.15 for x in a)} -> {sum(abs(x) > 0.15 for x in b)}")
    for name in ("allreduce.csv", "allreduce-queued.csv"):
        found = ratios(name)
        sizes = sorted({s for _, s in found})
        print(f"\n{name}, first launches: the row / the line through the sizes half and twice as large, median "
              "(rows at 1.3 or more / rows)")
        print("  K  " + " ".join(f"{s // 1024:>10d}K" for s in sizes))
        for k in sorted({k for k, _ in found}):
            cells = [found.get((k, s), []) for s in sizes]
            print(f"  {k}  " + " ".join(f"{statistics.median(c):5.2f} {sum(x >= 1.3 for x in c):2d}/{len(c):2d}"
                                        if c else " " * 11 for c in cells))


if __name__ == "__main__":
    main()
