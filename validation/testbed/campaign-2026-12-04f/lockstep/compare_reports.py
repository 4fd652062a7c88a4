#!/usr/bin/env python3
"""Two `sgdsim validate` reports side by side: all points' and the testbed's mean |error|, cases met, the cases that
changed sides, those beyond their guard in the second, and the largest moves of a case's mean.

    validation/testbed/campaign-2026-12-04f/lockstep/compare_reports.py BEFORE/report.json AFTER/report.json

Python 3 standard library."""

import json
import sys


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        a = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        b = json.load(f)
    ca = {c["name"]: c for c in a["cases"] if "simulation" in c}
    cb = {c["name"]: c for c in b["cases"] if "simulation" in c}

    def errors(r, testbed_only=False):
        return [abs(p["simulated_error"]) for c in r["cases"] if "simulation" in c
                and (not testbed_only or c["name"].startswith(("1gbit", "500mbit"))) for p in c["points"]]

    for label, only in (("all points", False), ("testbed points", True)):
        ea, eb = errors(a, only), errors(b, only)
        print(f"{label}: {len(ea)}, mean |error| {100 * sum(ea) / len(ea):.3f}% -> {100 * sum(eb) / len(eb):.3f}%")
    met = lambda cases: sum(1 for c in cases.values() if c.get("target_met"))  # noqa: E731
    print(f"cases met: {met(ca)} -> {met(cb)}")

    def fig(c):
        return f"{100 * c['simulation']['mean_abs_error']:.1f}% / {100 * c['simulation']['max_abs_error']:.1f}%"

    for name in sorted(n for n in ca if n in cb and ca[n].get("target_met") != cb[n].get("target_met")):
        print(f"  {'met ' if cb[name]['target_met'] else 'lost'} {fig(ca[name])} -> {fig(cb[name])} {name}")
    over = [n for n in cb if not cb[n].get("within_guard", True)]
    print(f"beyond their guard: {len(over)}")
    moves = sorted((cb[n]["simulation"]["mean_abs_error"] - ca[n]["simulation"]["mean_abs_error"], n)
                   for n in ca if n in cb)
    print("largest gains: " + "; ".join(f"{n} {100 * d:+.2f}" for d, n in moves[:5]))
    print("largest losses: " + "; ".join(f"{n} {100 * d:+.2f}" for d, n in moves[-5:][::-1]))


if __name__ == "__main__":
    main()
