#!/usr/bin/env python3
"""Which one-call-at-a-time all-reduce rows of 1-8 MiB moved by more than 1.4 times between a campaign's
microbenchmark before its trainings and the same measured again after them (campaign.sh AGAIN), and whether the
slower one's fastest repeat is the other's median (a slow state that held most of one launch's repeats of that size).
The evidence for measuring 1 MiB in the small sizes' more launches (docs/measure.md "Small sizes over launches").

    validation/testbed/campaign-2026-12-05/series/again_rows.py > again_rows.out

Python 3 standard library."""

import csv
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
MIB = 2 ** 20


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): (float(r["time_s"]), float(r["time_min_s"]))
                for r in csv.DictReader(f) if r["op"] == "allreduce"}


def main():
    total, moved = 0, []
    for again in sorted(glob.glob(os.path.join(ROOT, "validation/testbed/campaign-*/data/1gbit/again/allreduce.csv"))):
        campaign = os.path.relpath(again, ROOT).split(os.sep)[2]
        before = rows(os.path.join(os.path.dirname(os.path.dirname(again)), "allreduce.csv"))
        after = rows(again)
        for key in sorted(set(before) & set(after)):
            if not MIB <= key[1] <= 8 * MIB:
                continue
            total += 1
            ratio = before[key][0] / after[key][0]
            if max(ratio, 1 / ratio) > 1.4:
                slow, fast = (before, after) if ratio > 1 else (after, before)
                moved.append(f"{campaign} K = {key[0]} {key[1] // MIB} MiB: before / after {ratio:.2f}; the slower "
                             f"launch's median {slow[key][0] * 1e3:.1f} ms, its fastest repeat "
                             f"{slow[key][1] * 1e3:.1f} ms; the other's median {fast[key][0] * 1e3:.1f} ms")
    print(f"{total} rows of 1-8 MiB measured before and after; {len(moved)} moved by more than 1.4 times:")
    print("\n".join(moved))


if __name__ == "__main__":
    main()
