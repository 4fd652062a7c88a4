#!/usr/bin/env python3
"""Gives `--uncovered-gain waits` to every testbed ring case whose training ran with Gloo's event loop spinning
(validation/testbed/README.md 2026-12-04g, "The uncovered gain holds the connection"; docs/models.md §10.8).

    validation/testbed/campaign-2026-12-04g/kit/spinning_cases.py [--check]

A case's kit is read from its training record's provenance (groups.py's loop_yields): every campaign before
2026-11-30i, all on the machine builds of November (kernel 6.18.44-fc-v657 to v782), on which the spinning loop kept a
lock's holder off the core it shared (README "Gloo's event loop on a shared core"). Those series keep the rule they
were predicted with until 2026-12-04 (the uncovered gain as waits before a call's steps); on the same build and day
the yielding series are predicted better by the rate (README 2026-12-04g, chosen after seeing both: not blind). The
option goes after `--egress-fifo on`, and prediction_uses says why. Idempotent; --check exits 1 if a case lacks it.
Python 3 standard library."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from groups import CASES, loop_yields  # noqa: E402

OPTION = ["--uncovered-gain", "waits"]
WHY = ("; --uncovered-gain waits: its training ran with Gloo's event loop spinning on the machine builds of November, "
       "where a lone call's time beyond its back-to-back time was taken as the spinning core's, not its connection's "
       "(docs/models.md \u00a710.8 \"The uncovered gain holds the connection\"; validation/testbed/README.md "
       "2026-12-04g)")


def spinning_ring_cases():
    for name in sorted(os.listdir(CASES)):
        path = os.path.join(CASES, name, "case.json")
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        run = case["run"]
        if run[run.index("--arch") + 1] == "ring" and not loop_yields(name):
            yield path, case


def main():
    check = sys.argv[1:] == ["--check"]
    missing = 0
    for path, case in spinning_ring_cases():
        run = case["run"]
        if "--uncovered-gain" in run:
            continue
        missing += 1
        if check:
            print(f"spinning_cases: {path}: no --uncovered-gain waits")
            continue
        at = run.index("--egress-fifo") + 2
        case["run"] = run[:at] + OPTION + run[at:]
        case["prediction_uses"] += WHY
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(case, indent=2) + "\n")
    if check and missing:
        sys.exit(1)
    print(f"spinning_cases: {missing} case(s) {'lack' if check else 'given'} --uncovered-gain waits")


if __name__ == "__main__":
    main()
