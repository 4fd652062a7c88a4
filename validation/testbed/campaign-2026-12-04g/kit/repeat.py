#!/usr/bin/env python3
"""How much of a configuration's change from one campaign to the next its campaign's microbenchmarks explain
(validation/testbed/README.md 2026-12-04g, "The same configuration in several campaigns").

    validation/testbed/campaign-2026-12-04g/kit/repeat.py [REPORT.json]    # default: validation/report.json

Every testbed series measured in three campaigns or more (but 2026-11-30g's, whose ranks ran under SCHED_RR) (the case's name without its campaign's date) is set
beside itself: at each node count, the spread of the measured step over the campaigns (largest over smallest, minus
1) and the spread of measured over simulated (each campaign's prediction from its own microbenchmarks). Where the
second is as large as the first, the microbenchmarks did not follow what changed the trainings; where it is small,
they did. Prints one line per series and node count from 2, then the median over the series per node count and
kind. Python 3 standard library."""

import collections
import json
import re
import statistics
import sys

DATE = re.compile(r"-2026-\d\d-\d\d[a-z]?$")
# Campaigns left out: another system than the testbed's default (validation/testbed/README.md, "Ranks under SCHED_RR").
EXCLUDED = {"2026-11-30g"}


def kind(base):
    for k in ("ring-ddp", "ring-layer", "ring-tensor", "ps-sync", "ps-async"):
        if k in base:
            return k
    return "other"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "validation/report.json"
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    series = collections.defaultdict(list)  # base name -> [(campaign, {label: (measured, simulated)})]
    for c in cases:
        if not c["name"].startswith(("1gbit-", "500mbit-")):
            continue  # the public cases: one measurement each
        m = DATE.search(c["name"])
        base = c["name"][: m.start()] if m else c["name"]
        pts = {p["label"]: (p["measured"], p["simulated"]) for p in c["points"] if p.get("measured")}
        campaign = m.group(0)[1:] if m else "2026-11-23"
        if campaign not in EXCLUDED:
            series[base].append((campaign, pts))
    spread = collections.defaultdict(lambda: ([], []))  # (kind, K) -> (measured spreads, ratio spreads)
    for base, runs in sorted(series.items()):
        if len(runs) < 3:
            continue
        print(f"== {base} ({', '.join(r[0][5:] for r in runs)})")
        for label in runs[0][1]:
            k = int(label.split()[0])
            both = [r[1][label] for r in runs if label in r[1]]
            if k < 2 or len(both) < 3:
                continue
            meas = [m for m, _ in both]
            ratio = [m / s for m, s in both]
            ms, rs = max(meas) / min(meas) - 1, max(ratio) / min(ratio) - 1
            spread[(kind(base), k)][0].append(ms)
            spread[(kind(base), k)][1].append(rs)
            print(f"  K = {k}: measured {min(meas):.3f}-{max(meas):.3f} s (spread {100 * ms:.0f}%), "
                  f"measured / simulated {min(ratio):.3f}-{max(ratio):.3f} (spread {100 * rs:.0f}%)")
    print("== median over the series: spread of the measured step -> of measured / simulated, %")
    for kd in sorted({kd for kd, _ in spread}):
        cells = []
        for k in range(2, 9):
            if (kd, k) in spread:
                ms, rs = spread[(kd, k)]
                cells.append(f"K={k} {100 * statistics.median(ms):.0f} -> {100 * statistics.median(rs):.0f}")
        print(f"  {kd} ({len(spread[(kd, 2)][0])} series): " + "; ".join(cells))


if __name__ == "__main__":
    main()
