#!/usr/bin/env python3
"""Prints the tables of validation/testbed/README.md, 2026-12-03c, from this folder.

    validation/testbed/campaign-2026-12-03c/summarize.py

All-reduce microbenchmarks (tools/measure/measure.py allreduce) at K = 6, 7, 8 on 1 Gbit/s emulated hosts
(tools/measure/emulate), ranks pinned and yielding (launch --pin --loop-yield), on the testbed machine of 2026-12-03
(kernel 6.18.44-fc-v1098), each configuration run twice (repeat 1, then 2, interleaved), 3 measured repeats a row:

- threads/: 4 KiB..4 MiB alone (torch's group of 2 Gloo threads; and a group of 1, --gloo-threads 1), 16 calls
  launched together (--queued 16) on 2 threads and on 1, and 2 launched together (--queued 2) on 2 (run.sh);
- among/: a call of 256 KiB, 1 MiB or 4 MiB among calls of 4 KiB, 64 KiB, 256 KiB or 1 MiB run one after another on
  Gloo's other thread (--among SIZE), and alone (run.sh).

Each cell is the mean of the two runs' medians, ms per call (the runs' two medians in brackets where they differ by
more than 25%: the 1 MiB calls at K = 8 alone are bimodal). Python 3 standard library."""

import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
NODES = (6, 7, 8)


def medians(path, op):
    """(nodes, size_bytes) -> the row's median, ms."""
    with open(path, newline="") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): float(r["time_s"]) * 1e3 for r in csv.DictReader(f)
                if r["op"] == op}


def both(folder, stem, op):
    """(nodes, size_bytes) -> the two runs' medians."""
    runs = [medians(os.path.join(HERE, folder, "%s-%d.csv" % (stem, rep)), op) for rep in (1, 2)]
    return {key: [run[key] for run in runs if key in run] for key in runs[0]}


def cell(values):
    if not values:
        return "-"
    text = "%.1f" % statistics.mean(values)
    if max(values) > 1.25 * min(values):
        text += " (%s)" % "/".join("%.0f" % v for v in values)
    return text


def size_label(size):
    return "%d KiB" % (size // 1024) if size < 1 << 20 else "%d MiB" % (size >> 20)


def main():
    configs = [("alone, 2 threads", "alone", "allreduce"), ("alone, 1 thread", "alonet1", "allreduce"),
               ("16 together, 1 thread", "q16t1", "allreduce_queued"),
               ("16 together, 2 threads", "q16t2", "allreduce_queued"), ("2 together, 2 threads", "q2t2",
                                                                          "allreduce_queued")]
    rows = {label: both("threads", stem, op) for label, stem, op in configs}
    sizes = sorted({s for _, s in rows["alone, 2 threads"]})
    print("threads/: ms per call")
    print("| K | size | " + " | ".join(label for label, _, _ in configs) + " |")
    print("|---|---|" + "---|" * len(configs))
    for k in NODES:
        for s in sizes:
            print("| %d | %s | %s |" % (k, size_label(s), " | ".join(cell(rows[l].get((k, s))) for l, _, _ in configs)))
    partners = [("4 KiB", "a4K"), ("64 KiB", "a64K"), ("256 KiB", "a256K"), ("1 MiB", "a1M")]
    alone = both("among", "among-alone", "allreduce")
    among = {label: both("among", "among-" + stem, "allreduce_among") for label, stem in partners}
    timed = sorted({s for _, s in alone})
    print("\namong/: the timed call's time, ms, alone and among calls of each size on the other thread")
    print("| K | call | alone | " + " | ".join("among %s" % label for label, _ in partners) + " |")
    print("|---|---|---|" + "---|" * len(partners))
    for k in NODES:
        for s in timed:
            print("| %d | %s | %s | %s |" % (k, size_label(s), cell(alone.get((k, s))),
                                              " | ".join(cell(among[l].get((k, s))) for l, _ in partners)))


if __name__ == "__main__":
    main()
