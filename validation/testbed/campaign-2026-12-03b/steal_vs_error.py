#!/usr/bin/env python3
"""The hypervisor's steal beside the simulation's error, over every testbed case measured before 2026-12-03b
(validation/testbed/README.md, 2026-12-03b, "The hypervisor's steal").

    validation/testbed/campaign-2026-12-03b/steal_vs_error.py

For each point of validation/report.json whose case cites its data (SOURCE.md's "Data: ....jsonl") and whose record
has a CPU reading (campaigns since 2026-12-02), the steal over the kept attempt (plan.steal_cores) and the signed
error; then the points per band of steal and every K = 8 point. Python 3 standard library."""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import plan  # noqa: E402

CASES = os.path.join(ROOT, "validation", "testbed", "cases")


def rows():
    with open(os.path.join(ROOT, "validation", "report.json"), encoding="utf-8") as f:
        report = {c["name"]: c for c in json.load(f)["cases"]}
    for case in sorted(os.listdir(CASES)):
        if case.endswith("2026-12-03b") or case not in report:
            continue
        with open(os.path.join(CASES, case, "SOURCE.md"), encoding="utf-8") as f:
            m = re.search(r"Data: (\S+\.jsonl)", f.read())
        path = os.path.normpath(os.path.join(CASES, case, m.group(1))) if m else ""
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            recs = [json.loads(line) for line in f]
        for p in report[case]["points"]:
            hit = [r for r in recs if r["step_time_mean_s"] == p["measured"] and r.get("cpu")]
            if hit and p.get("simulated_error") is not None:
                yield case, hit[0]["workers"], plan.steal_cores(hit[0]["cpu"]), p["simulated_error"]


def main():
    data = list(rows())
    print(f"{len(data)} points with a CPU record")
    print("| steal, cores | points | mean abs error | mean signed error | K = 8 among them |")
    print("|---|---|---|---|---|")
    for lo, hi in [(0, .02), (.02, .05), (.05, .08), (.08, .15), (.15, .25), (.25, 9)]:
        band = [r for r in data if lo <= r[2] < hi]
        if band:
            print(f"| {lo:.2f}-{hi:.2f} | {len(band)} | {100 * sum(abs(r[3]) for r in band) / len(band):.1f}% | "
                  f"{100 * sum(r[3] for r in band) / len(band):+.1f}% | {sum(r[1] == 8 for r in band)} |")
    print()
    for case, k, steal, err in data:
        if k == 8:
            print(f"K = 8 {case}: {steal:.3f} cores stolen, {100 * err:+.1f}%")


if __name__ == "__main__":
    main()
