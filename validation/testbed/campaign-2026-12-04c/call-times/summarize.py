#!/usr/bin/env python3
"""Prints the table of validation/testbed/README.md, 2026-12-04c, "Where the K80 series' K = 8 step goes".

    validation/testbed/campaign-2026-12-04c/call-times/summarize.py

layer.jsonl (run.sh): ResNet-152 (K80 compute), one all-reduce per layer, K = 7 and 8, each call's launch and end on
rank 0. Per size class, as ../../campaign-2026-12-02h/call-times/summarize.py prints them (whose size classes and
rule of a size between two measured ones this uses): each call's completion gap summed over a step's calls, and what
the back-to-back microbenchmark of the morning's series gives per call for the same calls (the 128 calls' rows up to
4 MiB, the 16 calls' above: ../series/allreduce-queued-long.csv, the cases' recipe). Python 3 standard library."""

import csv
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "call_times_02h", os.path.join(HERE, "..", "..", "campaign-2026-12-02h", "call-times", "summarize.py"))
h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h)  # per_class


def main():
    with open(os.path.join(HERE, "..", "series", "allreduce-queued-long.csv"), newline="", encoding="utf-8") as f:
        table = {(int(r["nodes"]), int(r["size_bytes"])): float(r["time_s"]) for r in csv.DictReader(f)}
    print("| K | step s | pace us | class | calls a step | completion gaps s a step | back to back s a step |")
    print("|---|---|---|---|---|---|---|")
    with open(os.path.join(HERE, "layer.jsonl"), encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    for r in records:
        rows, pace = h.per_class(r, table)
        for c, calls, gaps, micro in rows:
            print(f"| {r['workers']} | {r['step_time_mean_s']:.2f} | {pace:.1f} | {c} | {calls} | {gaps:.2f} | "
                  f"{micro:.2f} |")

if __name__ == "__main__":
    main()
