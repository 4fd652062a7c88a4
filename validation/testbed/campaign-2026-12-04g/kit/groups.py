#!/usr/bin/env python3
"""The testbed's per-layer and per-tensor ring series by the kit that measured them and by their compute, in one
`sgdsim validate` report or several (validation/testbed/README.md 2026-12-04g, "Is it the kit?").

    validation/testbed/campaign-2026-12-04g/kit/groups.py REPORT.json [TRIAL.json ...]

A series' kit is read from its training record's provenance (the ranks' `loop_yield`: Gloo's event loop yielding its
core on a failed try-lock, the kit's default since campaign 2026-11-30i; else spinning, pinned or not); its compute
is a K80's or a faster GPU's (T4, V100, GTX 1080 Ti), from the case's name. Per group and report: the mean |error|
of its points, the cases that meet the target, and the signed error per node count (mean over the group). With a
TRIAL report, also what the trial gives where it is taken for the yielding series only and the report elsewhere.
Python 3 standard library."""

import collections
import json
import os
import re
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
CASES = os.path.join(REPO, "validation", "testbed", "cases")


def loop_yields(name):
    """Whether the series' training ran with the loop yielding (its record's provenance)."""
    with open(os.path.join(CASES, name, "case.json"), encoding="utf-8") as f:
        description = json.load(f)["description"]
    m = re.search(r"(campaign-[^\s();,]*?\.jsonl)", description)
    if not m:
        return False  # the first campaign (2026-11-23): its data/ folder, the loop spinning
    with open(os.path.join(REPO, "validation", "testbed", m.group(1) + ".provenance.json"), encoding="utf-8") as f:
        ranks = json.load(f)["ranks"]
    return any(r.get("loop_yield") for r in (ranks if isinstance(ranks, list) else [ranks]))


def load(path):
    with open(path, encoding="utf-8") as f:
        return {c["name"]: c for c in json.load(f)["cases"]}


def summary(cases, names):
    errors = [abs(p["simulated_error"]) for n in names for p in cases[n]["points"] if p.get("measured")]
    by_k = collections.defaultdict(list)
    for n in names:
        for p in cases[n]["points"]:
            by_k[int(p["label"].split()[0])].append(100 * p["simulated_error"])
    signed = " ".join(f"{sum(v) / len(v):+.1f}" for _, v in sorted(by_k.items()))
    met = sum(bool(cases[n].get("target_met")) for n in names)
    return f"{100 * sum(errors) / len(errors):.2f}% mean |error|, {met} met; signed by K = 2..8: {signed}"


def main():
    reports = [load(p) for p in sys.argv[1:]]
    base = reports[0]
    groups = collections.defaultdict(list)
    yielding = set()
    for name in sorted(base):
        if not os.path.isdir(os.path.join(CASES, name)):
            continue
        if loop_yields(name):
            yielding.add(name)
        if "-ring-layer-" in name or "-ring-tensor-" in name:
            kit = "loop yielding" if name in yielding else "loop spinning"
            compute = "K80" if "-k80-" in name else "faster GPU"
            groups[(kit, compute)].append(name)
    for (kit, compute), names in sorted(groups.items()):
        print(f"== {kit}, {compute} compute: {len(names)} series")
        for path, cases in zip(sys.argv[1:], reports):
            print(f"  {path}: {summary(cases, names)}")
    for path, trial in zip(sys.argv[2:], reports[1:]):
        points, met = [], 0
        for name, case in base.items():
            use = trial[name] if name in yielding else case
            points += [abs(p["simulated_error"]) for p in use["points"] if p.get("measured")]
            met += bool(use.get("target_met"))
        print(f"{path} for the yielding series only: {100 * sum(points) / len(points):.3f}% over {len(points)} "
              f"points, {met} cases met")


if __name__ == "__main__":
    main()
