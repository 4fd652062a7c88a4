#!/usr/bin/env python3
"""k8_train_cc.sh's result folder (k8traincc/, committed next to this file) as a table: each K = 8 training's step
(rank 0's kept attempt, mean of its 5 measured steps) per series, congestion control and round, and CUBIC / BBR per
round. Standard library only.

    validation/testbed/campaign-2026-12-05e/k8_train_cc.py > k8_train_cc.out
    validation/testbed/campaign-2026-12-05e/k8_train_cc.py OTHER_RESULT_FOLDER > OTHER.out
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "k8traincc")


def step(series, cc, rnd):
    with open(os.path.join(FOLDER, f"{series}-{cc}-{rnd}.jsonl"), encoding="utf-8") as f:
        (line,) = [json.loads(s) for s in f if s.strip()]
    return line["step_time_mean_s"]


if __name__ == "__main__":
    print("series  round     bbr_s   cubic_s  cubic/bbr")
    for series in ("tensor", "layer"):
        for rnd in (1, 2):
            b, c = step(series, "bbr", rnd), step(series, "cubic", rnd)
            print(f"{series:6s}  {rnd:5d}  {b:8.3f}  {c:8.3f}  {c / b:9.2f}")
