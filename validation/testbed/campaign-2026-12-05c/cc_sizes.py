#!/usr/bin/env python3
"""The congestion-control diagnoses of 2026-12-05 (k8_cork.sh, k8_cc.sh, cc_sizes.sh), side by side: each cell's
median per launch (ms) under each variant, and the ratio of the variants' means. Reads the committed result folders
next to this file; standard library only.

    validation/testbed/campaign-2026-12-05c/cc_sizes.py > cc_sizes.out
"""
import collections
import csv
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def read(folder):
    """{(op, nodes, size_bytes): {(variant, round): median ms}} from FOLDER's VARIANT-ROUND.csv or MODE-VARIANT-ROUND.csv."""
    cells = collections.defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(HERE, folder, "*.csv"))):
        *_, variant, rnd = os.path.basename(path)[:-4].split("-")
        for row in csv.DictReader(open(path)):
            cells[(row["op"], int(row["nodes"]), int(row["size_bytes"]))][(variant, rnd)] = 1e3 * float(row["time_s"])
    return cells


def table(folder, base, other):
    print(f"## {folder}: {base} against {other} (ms, median of each launch's repeats; ratio = mean {other} / mean {base})")
    print(f"{'op':18s} {'K':>2s} {'size':>8s}  {base + ' 1':>8s} {base + ' 2':>8s}  {other + ' 1':>8s} {other + ' 2':>8s}  ratio")
    for (op, k, size), v in sorted(read(folder).items()):
        b = [v[(base, r)] for r in "12"]
        o = [v[(other, r)] for r in "12"]
        print(f"{op:18s} {k:2d} {size / 1024:6.0f}Ki  {b[0]:8.2f} {b[1]:8.2f}  {o[0]:8.2f} {o[1]:8.2f}  {sum(o) / sum(b):5.2f}")
    print()


if __name__ == "__main__":
    table("k8cork", "default", "cork0")
    table("k8cc", "bbr", "reno")
    table("ccsizes", "bbr", "reno")
