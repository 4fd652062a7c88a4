#!/usr/bin/env python3
"""The guards after `--uncovered-gain rate` (validation/testbed/README.md 2026-12-04g): each testbed case beyond its
guard in REPORT.json gets tools/measure/make_cases.py's guard for its new errors (mean + 1%, max + 2%, up to the
next half percent), and each that came out better than in OLD.json by more than half a point of mean is tightened to
it, so that CI keeps the gain; the others keep theirs. Prints every change.

    validation/testbed/campaign-2026-12-04g/kit/guards.py OLD.json REPORT.json

Python 3 standard library."""

import json
import math
import os
import sys

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cases")


def round_up(x):
    return math.ceil(x * 200 - 1e-9) / 200


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        old = {c["name"]: c for c in json.load(f)["cases"]}
    with open(sys.argv[2], encoding="utf-8") as f:
        new = {c["name"]: c for c in json.load(f)["cases"]}
    for name, c in sorted(new.items()):
        path = os.path.join(CASES, name, "case.json")
        if not os.path.exists(path) or "mean_abs_error" not in c.get("simulation", {}):
            continue
        mean, worst = c["simulation"]["mean_abs_error"], c["simulation"]["max_abs_error"]
        fitted = {"mean": round_up(mean + 0.01), "max": round_up(worst + 0.02)}
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        guard = case["guard"]
        beyond = mean > guard["mean"] or worst > guard["max"]
        gained = mean < old[name]["simulation"]["mean_abs_error"] - 0.005
        if beyond:
            why = "raised"
            fitted = {k: max(fitted[k], guard[k]) for k in guard}
        elif gained and (fitted["mean"] < guard["mean"] or fitted["max"] < guard["max"]):
            why = "tightened"
            fitted = {k: min(fitted[k], guard[k]) for k in guard}
        else:
            continue
        print(f"{why:9} {100 * guard['mean']:.1f}% / {100 * guard['max']:.1f}% -> {100 * fitted['mean']:.1f}% / "
              f"{100 * fitted['max']:.1f}% ({100 * mean:.2f}% / {100 * worst:.2f}%) {name}")
        case["guard"] = fitted
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(case, indent=2) + "\n")


if __name__ == "__main__":
    main()
