#!/usr/bin/env python3
"""A diagnosis of campaign 2026-12-05b (validation/testbed/README.md), not a prediction of its own: each case's points
predicted by `sgdsim validate` on the case's platform (the more launches' median, the kit's recipe since 2026-12-05)
and on a copy of the case whose platform the same recipe calibrated from the first launch alone (the rate folder
without small/, what the campaign gave before SMALL_LAUNCHES; make_cases.predict_with), beside the measured step.

    validation/testbed/campaign-2026-12-05b/launches.py > launches.out
    validation/testbed/campaign-2026-12-05b/launches.py RATE_FOLDER SUFFIX > OUT   # another campaign's, e.g.
        validation/testbed/campaign-2026-12-05b/launches.py validation/testbed/campaign-2026-12-05e/data/1gbit \
            -2026-12-05e > validation/testbed/campaign-2026-12-05e/launches.out

Python 3 standard library; the first launch's platforms go to a temporary folder."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402  (measured_copy, predict_with)

RATE = os.path.join(HERE, "data", "1gbit")
CASES = os.path.join(ROOT, "validation", "testbed", "cases")


def main(rate=RATE, suffix="-2026-12-05b"):
    """The cases named ...SUFFIX, their first launch taken from the rate folder RATE (2026-12-05d's and 05e's
    launches.out give theirs on the command line)."""
    sgdsim = os.path.join(ROOT, "build", "src", "sgdsim")
    names = sorted(n for n in os.listdir(CASES) if n.endswith(suffix))
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        first = make_cases.measured_copy(rate, os.path.join(tmp, "1gbit"), small=False)
        plats = {}
        totals = {"launches": [], "first": []}
        for name in names:
            print(name)
            print("   K  measured_s  launches_s  error  first_s  error")
            for label, (m, a, b) in make_cases.predict_with(os.path.join(CASES, name), first, "1gbit", plats, tmp,
                                                            "-first", sgdsim).items():
                totals["launches"].append(abs(a / m - 1))
                totals["first"].append(abs(b / m - 1))
                k = int(label.split()[0])  # "K workers"
                print(f"  {k:2d}  {m:10.4f}  {a:10.4f} {a / m - 1:+6.1%}  {b:7.4f} {b / m - 1:+6.1%}", flush=True)
        for key, errs in totals.items():
            print(f"{key}: {len(errs)} points, mean {sum(errs) / len(errs):.2%}, max {max(errs):.2%}")


if __name__ == "__main__":
    if len(sys.argv) not in (1, 3):
        sys.exit("usage: launches.py [RATE_FOLDER SUFFIX]")
    main(*sys.argv[1:])
