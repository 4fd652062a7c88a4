#!/usr/bin/env python3
"""Each all-reduce size's lane time, measured and simulated, and each call's partner when it starts (a diagnosis,
2026-12-06d; validation/testbed/README.md "Calls in flight, counted as they are").

    validation/testbed/campaign-2026-12-06d/calls_by_size.py CALL_TIMES.jsonl K TIMELINE.json

CALL_TIMES.jsonl and TIMELINE.json as ../campaign-2026-12-04f/lockstep/lanes.py takes them (a training's call times
from `measure.py train --call-times`, `sgdsim run --timeline` of the same series), whose lane reconstruction this
uses. Prints, for the sizes called at least 3 times a step, the calls a step and the median lane time measured and
simulated; then the calls by their class (S < 64 KiB, M < 1 MiB, L) and the class of the call running on the other
lane when they start ('-': none): calls a step, median and sum a step. Python 3 standard library."""

import collections
import importlib.util
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "lanes_04f", os.path.join(HERE, "..", "campaign-2026-12-04f", "lockstep", "lanes.py"))
lanes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lanes)  # measured_steps, simulated_steps


def size_class(size_bytes):
    return "S" if size_bytes < 64 << 10 else ("M" if size_bytes < 1 << 20 else "L")


def by_size(steps):
    out = collections.defaultdict(list)
    for calls in steps:
        for size, start, end in calls:
            out[int(size)].append(end - start)
    return out


def by_partner(steps):
    out = collections.defaultdict(list)
    for calls in steps:
        for size, start, end in calls:
            at_start = [b for b, s, e in calls if (s, e) != (start, end) and s <= start < e]
            out[(size_class(size), size_class(at_start[0]) if at_start else "-")].append(end - start)
    return out


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    k = int(sys.argv[2])
    step_s, measured = lanes.measured_steps(sys.argv[1], k)
    simulated = lanes.simulated_steps(sys.argv[3])
    print(f"K = {k}: measured step {step_s:.3f} s")
    print("size B | calls a step | lane time ms, measured | simulated")
    m, s = by_size(measured), by_size(simulated)
    for size in sorted(m):
        if size in s and len(m[size]) / len(measured) >= 3:
            print(f"{size} | {len(m[size]) / len(measured):.0f} | {1e3 * statistics.median(m[size]):.1f} | "
                  f"{1e3 * statistics.median(s[size]):.1f}")
    for label, steps in (("measured", measured), ("simulated", simulated)):
        d = by_partner(steps)
        cells = [f"{c} beside {p}: {len(v) / len(steps):.0f} a step, {1e3 * statistics.median(v):.1f} ms, "
                 f"{sum(v) / len(steps):.2f} s" for (c, p), v in sorted(d.items())]
        print(f"{label}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
