#!/usr/bin/env python3
"""A what-if after k8_exact.sh and k8_burst.sh (validation/testbed/README.md, 2026-12-05c), not a recipe: does the
linear interpolation that spreads the slow 1 MiB row at K = 8 over 512 KiB-2 MiB cost the ring cases' K = 8 points?
In each campaign's first launch and more launches, rows added at K = 8 where the line through 512 KiB and 2 MiB
holds (1016 KiB and 1.25 MiB: segments of 63.5 and 80 KiB, which k8exact/ and k8/ measured near their line) and at
1032 KiB with the 1 MiB row's time (64.5 KiB segments, slow as 1 MiB), so that only calls of about 1 MiB pay the
row's excess; the platform calibrated again by make_cases.py's recipe, each ring case's points predicted by
`sgdsim validate` (drift.predict_on), beside the case's own prediction. The added rows are not measurements of those
campaigns: what a kit measuring beside each K's 64 KiB segment would give, if the line holds there.

    validation/testbed/campaign-2026-12-05c/k8_confine.py > k8_confine.out

Python 3 standard library; the platforms go to a temporary folder."""

import glob
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import k8_row  # noqa: E402  (read, times, TESTBED, CASES, MIB, ROOT)
import drift  # noqa: E402  (k8_row put tools/measure on the path)
import make_cases  # noqa: E402

MIB = k8_row.MIB


def add_rows(path, line_s):
    """PATH's rows plus K = 8 rows at 1016 KiB and 1.25 MiB on LINE_S's line and 1032 KiB as its 1 MiB row."""
    fields, rows = k8_row.read(path)
    one = [r for r in rows if r["op"] == "allreduce" and int(r["nodes"]) == 8 and int(float(r["size_bytes"])) == MIB]
    if not one:
        return
    added = []
    for size, time_s in ((1016 * 1024, line_s(1016 * 1024)), (1032 * 1024, float(one[0]["time_s"])),
                         (1280 * 1024, line_s(1280 * 1024))):
        r = dict(one[0], size_bytes=str(size), time_s=repr(time_s))
        added.append(r)
    rows = sorted(rows + added, key=lambda r: (r["op"], int(r["nodes"]), int(float(r["size_bytes"]))))
    import csv
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def what_if(campaign, sgdsim, errors):
    rate = os.path.join(k8_row.TESTBED, "campaign-" + campaign, "data", "1gbit")
    names = sorted(n for n in os.listdir(k8_row.CASES) if n.startswith("1gbit") and "-ring-" in n
                   and n.endswith("-" + campaign))
    t = k8_row.times(k8_row.read(os.path.join(rate, "allreduce.csv"))[1])
    if not names or (8, MIB) not in t or (8, MIB // 2) not in t or (8, 2 * MIB) not in t:
        return
    lo, hi = t[8, MIB // 2], t[8, 2 * MIB]

    def line_s(size):
        return lo + (hi - lo) * (size - MIB // 2) / (2 * MIB - MIB // 2)
    with tempfile.TemporaryDirectory(dir=k8_row.ROOT) as tmp:
        folder = os.path.join(tmp, "1gbit")
        shutil.copytree(rate, folder, ignore=lambda d, fs: [
            f for f in fs if (os.path.isdir(os.path.join(d, f)) and f != make_cases.SMALL)
            or ".launches." in f or ".long." in f])
        add_rows(os.path.join(folder, "allreduce.csv"), line_s)
        small = os.path.join(folder, make_cases.SMALL)
        for p in make_cases.launches(small, "allreduce") if os.path.isdir(small) else []:
            add_rows(p, line_s)
        print(f"campaign-{campaign}: K = 8, 1 MiB {t[8, MIB] * 1e3:.1f} ms; 1016 KiB and 1.25 MiB on the line "
              f"({line_s(1016 * 1024) * 1e3:.1f}, {line_s(1280 * 1024) * 1e3:.1f} ms)")
        plats = {}
        for name in names:
            with open(os.path.join(k8_row.CASES, name, "case.json"), encoding="utf-8") as f:
                case = json.load(f)
            run = case["run"]
            workload = run[run.index("--workload") + 1]
            if workload not in plats:
                plats[workload] = os.path.join(tmp, os.path.basename(workload))
                make_cases.calibrate_allreduce(sgdsim, folder, os.path.join(k8_row.ROOT, workload), "1gbit",
                                               plats[workload])
            points = drift.predict_on(os.path.join(k8_row.CASES, name), case, plats[workload], "-confine", sgdsim, 2)
            cells = []
            for label, (m, a, b) in points.items():
                k = int(label.split()[0])  # "K workers"
                errors.setdefault(k, []).append((a / m - 1, b / m - 1))
                if k == 8:
                    cells.append(f"K = 8 {a / m - 1:+.1%} -> {b / m - 1:+.1%}")
            print(f"  {name}: {', '.join(cells)}", flush=True)


def main():
    sgdsim = os.path.join(k8_row.ROOT, "build", "src", "sgdsim")
    errors = {}
    for path in sorted(glob.glob(os.path.join(k8_row.TESTBED, "campaign-*", "data", "1gbit", "allreduce.csv"))):
        what_if(path.split(os.sep)[-4][len("campaign-"):], sgdsim, errors)
    print("\nper node count, the ring cases' points: mean |error| as predicted -> with the rows added (signed median)")
    for k in sorted(errors):
        a, b = [e[0] for e in errors[k]], [e[1] for e in errors[k]]
        print(f"  K = {k}: {len(a)} points, {statistics.mean(map(abs, a)):.2%} -> {statistics.mean(map(abs, b)):.2%} "
              f"({statistics.median(a):+.2%} -> {statistics.median(b):+.2%}); beyond 15%: "
              f"{sum(abs(x) > 0.15 for x in a)} -> {sum(abs(x) > 0.15 for x in b)}")


if __name__ == "__main__":
    main()
