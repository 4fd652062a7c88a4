#!/usr/bin/env python3
"""Campaign 2026-12-05e (CUBIC) beside 2026-12-05d (BBR), the same plan and model (validation/testbed/README.md,
2026-12-05e): every all-reduce row both campaigns measured (ms; the first launch, and the median over launches that
the kit's recipe calibrates from), then each case's measured step per K. Standard library only; reads the committed
data and cases.

    validation/testbed/campaign-2026-12-05e/cc_compare.py > cc_compare.out
"""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TESTBED = os.path.dirname(HERE)
CAMPAIGNS = (("bbr", "2026-12-05d"), ("cubic", "2026-12-05e"))


def rows(campaign, name):
    """{(nodes, size_bytes): (time ms, congestion control)} of the campaign's 1gbit/NAME."""
    path = os.path.join(TESTBED, f"campaign-{campaign}", "data", "1gbit", name)
    with open(path, encoding="utf-8") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): (1e3 * float(r["time_s"]), r["cc"]) for r in csv.DictReader(f)}


def table(name, what):
    (a_cc, a), (b_cc, b) = CAMPAIGNS
    ra, rb = rows(a, name), rows(b, name)
    print(f"## {name}: {what} (ms; ratio = {b_cc} / {a_cc})")
    print(f"{'K':>2s} {'size':>8s} {a_cc:>8s} {b_cc:>8s}  ratio")
    for key in sorted(set(ra) & set(rb)):
        (ta, cca), (tb, ccb) = ra[key], rb[key]
        assert (cca, ccb) == (a_cc, b_cc), f"{name} {key}: congestion controls {cca}, {ccb}"
        print(f"{key[0]:2d} {key[1] / 1024:6.0f}Ki {ta:8.2f} {tb:8.2f}  {tb / ta:5.2f}")
    print()


def steps(series):
    print(f"## {series}: measured step (s; ratio = {CAMPAIGNS[1][0]} / {CAMPAIGNS[0][0]})")
    measured = []
    for _, campaign in CAMPAIGNS:
        path = os.path.join(TESTBED, "cases", f"1gbit-resnet101-t4-b32-{series}-overlap-on-{campaign}", "case.json")
        with open(path, encoding="utf-8") as f:
            measured.append({p["label"]: p["measured"] for p in json.load(f)["points"]})
    print(f"{'point':10s} {CAMPAIGNS[0][0]:>8s} {CAMPAIGNS[1][0]:>8s}  ratio")
    for label, ta in measured[0].items():
        tb = measured[1][label]
        print(f"{label:10s} {ta:8.3f} {tb:8.3f}  {tb / ta:5.2f}")
    print()


if __name__ == "__main__":
    table("allreduce.csv", "one call at a time, the first launch")
    table("allreduce.launches.csv", "one call at a time, the median over launches")
    table("allreduce-queued.launches.csv", "16 calls back to back, the median over launches")
    steps("ring-layer")
    steps("ring-tensor")
