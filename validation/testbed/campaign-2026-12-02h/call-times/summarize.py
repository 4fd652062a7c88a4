#!/usr/bin/env python3
"""Prints the figures of validation/testbed/README.md "Where ResNet-152's K = 8 step goes" from this folder's data
(a row per size class here, a cell per size class there).

    validation/testbed/campaign-2026-12-02h/call-times/summarize.py

layer.jsonl, tensor.jsonl: ResNet-152 (GTX 1080 Ti compute) with one all-reduce per layer / per tensor, K = 7 and 8,
5 steps after 2 warm-up, each call's launch and end on rank 0 recorded (train --call-times: per step, [unit, launched,
ended], s from the step's start). Gloo runs two calls at once (gloo_threads), so a call's own duration counts the time
it shares with the other lane's; this prints instead each call's completion gap (its end minus the later of its
launch and the previous call's end, calls sorted by end): the gaps of a step add up to its communication, each second
booked to the call that ended it. Beside them, per size class, what the campaign's back-to-back microbenchmark (16
calls launched together, two in flight, ../data/1gbit/allreduce-queued.launches.csv) gives per call, summed over the
same calls (a size between two measured ones charged the next larger one's time; above the largest, in proportion).
Python 3 standard library."""

import collections
import csv
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = [(64 << 10, "< 64 KiB"), (1 << 20, "64 KiB-1 MiB"), (4 << 20, "1-4 MiB"), (1 << 62, ">= 4 MiB")]


def size_class(size_bytes):
    return next(name for limit, name in CLASSES if size_bytes < limit)


def back_to_back():
    """(nodes, size_bytes) -> time per call, s, of the campaign's back-to-back all-reduce microbenchmark."""
    path = os.path.join(HERE, "..", "data", "1gbit", "allreduce-queued.launches.csv")
    with open(path) as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): float(r["time_s"]) for r in csv.DictReader(f)}


def per_call(table, nodes, size_bytes):
    sizes = sorted(s for n, s in table if n == nodes)
    larger = [s for s in sizes if s >= size_bytes]
    if larger:
        return table[(nodes, larger[0])]
    return table[(nodes, sizes[-1])] * size_bytes / sizes[-1]


def per_class(record, table):
    """A train record's calls a step, completion gaps s a step and back-to-back s a step (TABLE) per size class, and
    rank 0's pace (us, the median of its readings)."""
    units = record["allreduce_unit_bytes"]
    steps = record["per_worker"][0]["call_times"]
    gaps, calls, micro = collections.Counter(), collections.Counter(), collections.Counter()
    for step in steps:
        previous_end = 0.0
        for unit, launched, ended in sorted(step, key=lambda c: c[2]):
            c = size_class(units[unit])
            gaps[c] += ended - max(previous_end, launched)
            previous_end = ended
            calls[c] += 1
            micro[c] += per_call(table, record["workers"], units[unit])
    n = len(steps)
    rows = [(c, calls[c] // n, gaps[c] / n, micro[c] / n) for _, c in CLASSES]
    return rows, statistics.median(record["cpu"]["pace_us"])


def main():
    table = back_to_back()
    print("| series | K | step s | pace us | class | calls a step | completion gaps s a step | back to back s a step |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ("layer", "tensor"):
        with open(os.path.join(HERE, name + ".jsonl")) as f:
            records = [json.loads(line) for line in f]
        for r in records:
            rows, pace = per_class(r, table)
            for c, calls, gaps, micro in rows:
                print(f"| per {name} | {r['workers']} | {r['step_time_mean_s']:.2f} | {pace:.1f} | {c} | "
                      f"{calls} | {gaps:.2f} | {micro:.2f} |")


if __name__ == "__main__":
    main()
