#!/usr/bin/env python3
"""GoogLeNet (T4) per layer, the series and the three launches of layer.sh side by side: per K, the step, the idle
pace readings around it (before, after; the machine's fast pace is 11.7-12.7 us that day, its spells 15.5-17.4), and
the prediction's error against it (series/simulated.txt, --uncovered-gain rate).

    validation/testbed/campaign-2026-12-05/again/layer.py > layer.out

Python 3 standard library."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SERIES = os.path.join(os.path.dirname(HERE), "series")
FAST_MAX_US = 14.0  # between the day's fast readings (11.7-12.7) and its spells' (15.5-17.4)


def main():
    with open(os.path.join(SERIES, "simulated.txt"), encoding="utf-8") as f:
        sim = {int(k): float(r) for m, u, k, r, _ in (line.split() for line in list(f)[1:])
               if m == "googlenet-t4-b32" and u == "layer"}
    runs = [("series", os.path.join(SERIES, "googlenet-t4-b32-ring-layer-overlap-on.jsonl"))]
    runs += [(f"again {i}", os.path.join(HERE, f"googlenet-t4-b32-ring-layer-overlap-on-{i}.jsonl")) for i in (1, 2, 3)]
    errs = {"fast": [], "spell": []}
    print("run K step_s idle_pace_us pace error")
    for label, path in runs:
        with open(path, encoding="utf-8") as f:
            for rec in (json.loads(line) for line in f):
                k = rec["workers"]
                if k < 2:
                    continue
                idle = rec["cpu"]["pace_idle_us"]
                pace = "fast" if max(idle) <= FAST_MAX_US else "spell"
                err = sim[k] / rec["step_time_mean_s"] - 1
                errs[pace].append((k, err))
                print(f"{label} {k} {rec['step_time_mean_s']:.4f} {' '.join(f'{x:.1f}' for x in idle)} {pace} {err:+.1%}")
    for pace, e in errs.items():
        if e:
            print(f"{pace}: {len(e)} points, mean |error| {sum(abs(x) for _, x in e) / len(e):.1%}; K = 6-8: "
                  + " ".join(f"{x:+.0%}" for k, x in e if k >= 6))


if __name__ == "__main__":
    main()
