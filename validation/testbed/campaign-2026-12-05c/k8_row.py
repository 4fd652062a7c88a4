#!/usr/bin/env python3
"""A diagnosis (validation/testbed/README.md, 2026-12-05c), not a prediction of its own: is the single-call all-reduce
row of 1 MiB at K = 8, which reads 1.3 times the line through its neighbours or more in most first launches, a state
of the microbenchmark that the trainings do not share? For every campaign with 1 Gbit/s ring cases and its data in
campaign-NAME/data/1gbit: that row (the first launch's and the more launches' in small/) set on the line through the
first launch's 512 KiB and 2 MiB rows at K = 8, the platform calibrated again by make_cases.py's recipe, and each
ring case's points predicted on it by `sgdsim validate` (make_cases.predict_with), beside the case's own prediction.
Then the same ratio over every first launch committed, per node count and size (the line through the sizes half
and twice as large), single calls and 16 back to back.

    validation/testbed/campaign-2026-12-05c/k8_row.py > k8_row.out

Python 3 standard library; the platforms go to a temporary folder."""

import csv
import glob
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (measured_copy, predict_with, launches)

TESTBED = os.path.join(ROOT, "validation", "testbed")
CASES = os.path.join(TESTBED, "cases")
MIB = 2 ** 20


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def times(rows, op="allreduce"):
    return {(int(r["nodes"]), int(float(r["size_bytes"]))): float(r["time_s"]) for r in rows if r["op"] == op}


def write(path, fields, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def set_row(path, value_s):
    """PATH's K = 8, 1 MiB all-reduce row set to VALUE_S; returns the time it had (None: no such row)."""
    fields, rows = read(path)
    old = None
    for r in rows:
        if r["op"] == "allreduce" and int(r["nodes"]) == 8 and int(float(r["size_bytes"])) == MIB:
            old, r["time_s"] = float(r["time_s"]), repr(value_s)
    write(path, fields, rows)
    return old


def single_call_launches(folder):
    """FOLDER's single-call all-reduce CSVs: the first launch's and the more launches' (small/)."""
    small = os.path.join(folder, make_cases.SMALL)
    return [os.path.join(folder, "allreduce.csv")] + (
        make_cases.launches(small, "allreduce") if os.path.isdir(small) else [])


def on_the_line(folder, t):
    """The change of this diagnosis: K = 8's 1 MiB rows set on the line through the first launch's 512 KiB and 2 MiB
    rows (T: its times); says what it changed."""
    line = t[8, MIB // 2] + (t[8, 2 * MIB] - t[8, MIB // 2]) / 3
    olds = [set_row(p, line) for p in single_call_launches(folder)]
    return (f"K = 8, 1 MiB one call at a time {', '.join('%.1f' % (o * 1e3) for o in olds if o is not None)} ms -> "
            f"{line * 1e3:.1f} ms")


def what_if(campaign, sgdsim, errors, change=on_the_line, suffix="-k8", shown_from=7):
    """CAMPAIGN's 1 Gbit/s ring cases predicted as they are and on a platform calibrated from a copy of its
    microbenchmarks that CHANGE(folder, first launch's times) edited; prints the points from K = SHOWN_FROM on and
    adds every point's errors to ERRORS ({K: [(as is, changed)]})."""
    rate = os.path.join(TESTBED, "campaign-" + campaign, "data", "1gbit")
    names = sorted(n for n in os.listdir(CASES) if n.startswith("1gbit") and "-ring-" in n
                   and n.endswith("-" + campaign))
    t = times(read(os.path.join(rate, "allreduce.csv"))[1])
    if not names or (8, MIB) not in t or (8, MIB // 2) not in t or (8, 2 * MIB) not in t:
        return
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        folder = make_cases.measured_copy(rate, os.path.join(tmp, "1gbit"))
        print(f"campaign-{campaign}: {change(folder, t)}")
        plats = {}
        for name in names:
            points = make_cases.predict_with(os.path.join(CASES, name), folder, "1gbit", plats, tmp, suffix, sgdsim)
            cells = []
            for label, (m, a, b) in points.items():
                k = int(label.split()[0])  # "K workers"
                errors.setdefault(k, []).append((a / m - 1, b / m - 1))
                if k >= shown_from:
                    cells.append(f"K = {k} {a / m - 1:+.1%} -> {b / m - 1:+.1%}")
            print(f"  {name}: {', '.join(cells)}", flush=True)


def what_if_all(sgdsim, title, **how):
    """what_if on every campaign with its data, then per node count the mean |error| before -> after (TITLE)."""
    errors = {}
    for path in sorted(glob.glob(os.path.join(TESTBED, "campaign-*", "data", "1gbit", "allreduce.csv"))):
        what_if(path.split(os.sep)[-4][len("campaign-"):], sgdsim, errors, **how)
    print(f"\nper node count, the ring cases' points: mean |error| {title} (signed median)")
    for k in sorted(errors):
        a, b = [e[0] for e in errors[k]], [e[1] for e in errors[k]]
        print(f"  K = {k}: {len(a)} points, {statistics.mean(map(abs, a)):.2%} -> {statistics.mean(map(abs, b)):.2%} "
              f"({statistics.median(a):+.2%} -> {statistics.median(b):+.2%}); beyond 15%: "
              f"{sum(abs(x) > 0.15 for x in a)} -> {sum(abs(x) > 0.15 for x in b)}")


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
    what_if_all(os.path.join(ROOT, "build", "src", "sgdsim"),
                "with the rows as measured -> with K = 8's 1 MiB row on the line")
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
