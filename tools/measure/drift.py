#!/usr/bin/env python3
"""The testbed's drift over a campaign: each microbenchmark a rate measured before its trainings beside the same one
measured again after them (campaign.sh AGAIN, RATE/again/), and what the difference does to a case's prediction
(docs/measure.md "Measured again").

    tools/measure/drift.py RATE_DIR                         # per microbenchmark and node count: after / before
    tools/measure/drift.py --case CASE_DIR [--sgdsim build/src/sgdsim] [-j 2]

RATE_DIR is a campaign's rate folder (CAMPAIGN/1gbit) or the data folder make_cases.py copied it to; its again/
folder holds the CSVs measured after the trainings. A row's time is its median over the repeats; a node count's
drift is the geometric mean of after / before over its sizes, from 1 MiB on (where the bytes decide) and below it
(where per-call costs do), and how many sizes' medians after lie outside the range of the repeats before.

--case runs `sgdsim validate` on the case as it is and on a copy whose platform is the one make_cases.py calibrated
from the microbenchmarks measured again (platform-*-again.xml beside the case's own), and prints both predictions
beside the measured steps. Both are predictions (microbenchmarks and the workload file only); the case's is the
one measured before, as every campaign's. Where the measured point lies outside both, the testbed's drift as the
microbenchmarks see it does not explain the error. Python 3 standard library only.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MIB = 2 ** 20
AGAIN = "again"  # the folder of a rate's microbenchmarks measured after its trainings (campaign.sh AGAIN)
# Which microbenchmark a case's platform was calibrated from, by the platform's file name (make_cases.py).
MICROBENCHMARK = {"p2p.csv": "p2p", "allreduce.csv": "all-reduce", "allreduce-queued.csv": "back-to-back all-reduce",
                  "incast.csv": "incast"}
PLATFORM_SOURCE = {"platform-p2p.xml": "p2p.csv", "platform-allreduce.xml": "allreduce.csv"}


def read_rows(path):
    """{(op, nodes, size_bytes): (median, min, max)} of a microbenchmark CSV (measure.py's columns)."""
    rows = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            key = (row["op"], int(row["nodes"]), int(row["size_bytes"]))
            rows[key] = (float(row["time_s"]), float(row["time_min_s"]), float(row["time_max_s"]))
    return rows


def geo_mean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None


def compare(before_csv, after_csv):
    """Per (op, nodes), the drift of the sizes both CSVs measured: {"small": ratio or None, "large": ratio or None,
    "sizes": n, "outside": n}, ratio = geometric mean of after / before (small: under 1 MiB, large: from 1 MiB on),
    outside = sizes whose median after lies outside the range of the repeats before. Raises ValueError when the two
    share no row."""
    before, after = read_rows(before_csv), read_rows(after_csv)
    common = sorted(set(before) & set(after))
    if not common:
        raise ValueError(f"{after_csv}: no row (op, nodes, size) in common with {before_csv}")
    out = {}
    for op, nodes, size in common:
        b, a = before[(op, nodes, size)], after[(op, nodes, size)]
        if b[0] <= 0 or a[0] <= 0:
            continue  # a time must be positive; a row that is not says nothing about a ratio
        d = out.setdefault((op, nodes), {"small": [], "large": [], "sizes": 0, "outside": 0})
        d["large" if size >= MIB else "small"].append(a[0] / b[0])
        d["sizes"] += 1
        d["outside"] += not b[1] <= a[0] <= b[2]
    for d in out.values():
        d["small"], d["large"] = geo_mean(d["small"]), geo_mean(d["large"])
    return out


def pct(ratio):
    return "-" if ratio is None else f"{100 * (ratio - 1):+.1f}%"


def span(values):
    """'-2..+4%' (or '+3%' for one value) of the ratios, rounded to whole percents."""
    values = sorted(100 * (v - 1) for v in values if v is not None)
    if not values:
        return None
    lo, hi = round(values[0]), round(values[-1])
    return f"{lo:+d}%" if lo == hi else f"{lo:+d}..{hi:+d}%"


def summary(rate_dir, name):
    """One sentence on microbenchmark `name` (p2p.csv, allreduce.csv, ...) measured again, or None without it."""
    before, after = os.path.join(rate_dir, name), os.path.join(rate_dir, AGAIN, name)
    if not (os.path.exists(before) and os.path.exists(after)):
        return None
    drift = compare(before, after)
    nodes = sorted({n for _, n in drift})
    large = span(d["large"] for d in drift.values())
    small = span(d["small"] for d in drift.values())
    sizes = sum(d["sizes"] for d in drift.values())
    outside = sum(d["outside"] for d in drift.values())
    where = f"K = {nodes[0]}..{nodes[-1]}" if len(nodes) > 1 else f"{nodes[0]} nodes"
    parts = [f"{large} from 1 MiB on" if large else None, f"{small} below" if small else None]
    return (f"the {MICROBENCHMARK.get(name, name)} microbenchmark measured again after the trainings ({where}, "
            f"median time after / before, geometric mean over sizes per node count): "
            f"{', '.join(p for p in parts if p)}; {outside} of {sizes} medians outside the repeats' range before")


def print_rate(rate_dir):
    again = os.path.join(rate_dir, AGAIN)
    names = sorted(f for f in os.listdir(again) if f.endswith(".csv")) if os.path.isdir(again) else []
    names = [n for n in names if os.path.exists(os.path.join(rate_dir, n))]
    if not names:
        raise SystemExit(f"drift: {rate_dir}: no microbenchmark measured again (again/*.csv beside the CSVs measured "
                         "before; campaign.sh AGAIN)")
    for name in names:
        try:
            drift = compare(os.path.join(rate_dir, name), os.path.join(again, name))
        except ValueError as e:
            raise SystemExit(f"drift: {e}")
        print(f"{name}: time after the trainings / before (geometric mean over sizes)")
        print(f"  {'op':<18} {'nodes':>5} {'< 1 MiB':>9} {'>= 1 MiB':>9}  outside before's range")
        for (op, nodes), d in sorted(drift.items()):
            print(f"  {op:<18} {nodes:>5} {pct(d['small']):>9} {pct(d['large']):>9}  {d['outside']} of {d['sizes']}")


def again_platform(platform):
    """The platform calibrated from the microbenchmarks measured again, beside the case's own."""
    base = os.path.basename(platform)
    if base not in PLATFORM_SOURCE:
        raise SystemExit(f"drift: platform {platform}: not one of make_cases.py's ({', '.join(PLATFORM_SOURCE)})")
    return os.path.join(os.path.dirname(platform), base[:-len(".xml")] + "-again.xml")


def absolute(arg):
    """A case argument that names a file of the repository, as an absolute path (the copy lives elsewhere)."""
    path = os.path.join(ROOT, arg)
    return path if not arg.startswith("-") and os.path.exists(path) else arg


def predict_both(case_dir, sgdsim, jobs):
    """(case, {label: (measured, before, again)}) from one `sgdsim validate` of the case and its copy."""
    path = os.path.join(case_dir, "case.json")
    if not os.path.isfile(path):
        raise SystemExit(f"drift: {case_dir}: no case.json there (give a case's folder)")
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    run = case["run"]
    if "--platform" not in run:
        raise SystemExit(f"drift: {case_dir}: the case names no --platform")
    i = run.index("--platform") + 1
    again = again_platform(run[i])
    if not os.path.exists(os.path.join(ROOT, again)):
        raise SystemExit(f"drift: {again}: no such platform; its campaign did not measure "
                         f"{PLATFORM_SOURCE[os.path.basename(run[i])]} again (campaign.sh AGAIN)")
    return case, predict_on(case_dir, case, os.path.join(ROOT, again), "-again", sgdsim, jobs)


def predict_on(case_dir, case, platform, suffix, sgdsim, jobs):
    """{label: [measured, the case's prediction, the prediction on PLATFORM]} from one `sgdsim validate` of the case
    in CASE_DIR (CASE, its case.json, naming a --platform) and of a copy of it (named with SUFFIX) whose platform is
    PLATFORM."""
    run = case["run"]
    i = run.index("--platform") + 1
    with tempfile.TemporaryDirectory() as tmp:
        copy = dict(case, name=case["name"] + suffix, guard={"mean": 10, "max": 10})
        copy["run"] = [absolute(a) for a in run[:i]] + [platform] + [absolute(a) for a in run[i + 1:]]
        copy.pop("missing", None)
        cdir = os.path.join(tmp, "cases", copy["name"])
        os.makedirs(cdir)
        with open(os.path.join(cdir, "case.json"), "w", encoding="utf-8") as f:
            json.dump(copy, f, indent=2)
        report_dir = os.path.join(tmp, "report")
        os.makedirs(report_dir)
        r = subprocess.run([sgdsim, "validate", "-j", str(jobs), os.path.abspath(case_dir), cdir, "--report-dir",
                            report_dir], cwd=ROOT, capture_output=True, text=True)
        path = os.path.join(report_dir, "report.json")
        if not os.path.exists(path):
            raise SystemExit(f"drift: sgdsim validate failed (exit {r.returncode}): {r.stderr.strip()}")
        with open(path, encoding="utf-8") as f:
            report = {c["name"]: c for c in json.load(f)["cases"]}
    points = {}
    for which in (case["name"], copy["name"]):
        if which not in report:
            raise SystemExit(f"drift: sgdsim validate reported no case {which}: {r.stderr.strip()}")
        for p in report[which]["points"]:
            points.setdefault(p["label"], [p.get("measured")]).append(p.get("simulated"))
    return points


def print_case(case_dir, sgdsim, jobs):
    case, points = predict_both(case_dir, sgdsim, jobs)
    print(f"{case['name']}: measured, predicted from the microbenchmarks measured before the trainings (the case's) "
          "and from those measured again after them")
    print(f"  {'point':<12} {'measured':>9} {'before':>9} {'error':>7} {'again':>9} {'error':>7}  measured between")
    errors = ([], [])
    for label, (measured, before, again) in points.items():
        if measured is None or before is None or again is None:
            continue
        e = [sim / measured - 1 for sim in (before, again)]
        for acc, x in zip(errors, e):
            acc.append(abs(x))
        between = "yes" if min(before, again) <= measured <= max(before, again) else "no"
        print(f"  {label:<12} {measured:>9.4g} {before:>9.4g} {100 * e[0]:>+6.1f}% {again:>9.4g} "
              f"{100 * e[1]:>+6.1f}%  {between}")
    if errors[0]:
        n = len(errors[0])
        print(f"  mean |error| {100 * sum(errors[0]) / n:.2f}% before, {100 * sum(errors[1]) / n:.2f}% again; "
              f"max {100 * max(errors[0]):.2f}% before, {100 * max(errors[1]):.2f}% again")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rate_dir", nargs="?", help="a campaign's rate folder, or its copy under validation/testbed")
    ap.add_argument("--case", metavar="CASE_DIR", help="a testbed case: its prediction from both microbenchmarks")
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if (a.rate_dir is None) == (a.case is None):
        ap.error("give a RATE_DIR or --case CASE_DIR (one of them)")
    if a.case:
        print_case(a.case, a.sgdsim, a.jobs)
    else:
        print_rate(a.rate_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
