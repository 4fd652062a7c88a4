#!/usr/bin/env python3
"""Prints the table of validation/testbed/README.md, 2026-12-04, from this folder.

    validation/testbed/campaign-2026-12-04/summarize.py

All-reduce microbenchmarks (tools/measure/measure.py allreduce) at K = 6, 7, 8 on 1 Gbit/s emulated hosts
(tools/measure/emulate), ranks pinned and yielding (launch --pin --loop-yield), on the testbed machine of 2026-12-03
(kernel 6.18.44-fc-v1098), each configuration run twice (repeat 1, then 2, interleaved), 3 measured repeats a row:
large/ holds a call of 256 KiB or 1 MiB alone and among calls of 4 MiB (8 in all), 16 MiB (4) or 64 MiB (3) run one
after another on Gloo's other thread (--among SIZE --among-calls N; large/run.sh).

Each cell is the mean of the two runs' medians, ms per call (the two medians in brackets where they differ by more
than 25%); "all" is the whole, from the first call's launch to the last one's end. Python 3 standard library."""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NODES = (6, 7, 8)
PARTNERS = [("4 MiB", "a4M"), ("16 MiB", "a16M"), ("64 MiB", "a64M")]


def _load_2026_12_03c():
    """The 2026-12-03c summary's helpers (medians, cell, size_label): one home for how a cell is read and printed."""
    path = os.path.join(HERE, "..", "campaign-2026-12-03c", "summarize.py")
    spec = importlib.util.spec_from_file_location("summarize_2026_12_03c", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_C = _load_2026_12_03c()
cell, size_label = _C.cell, _C.size_label


def both(stem, op):
    """(nodes, size_bytes) -> the two runs' medians."""
    runs = [_C.medians(os.path.join(HERE, "large", "%s-%d.csv" % (stem, rep)), op) for rep in (1, 2)]
    return {key: [run[key] for run in runs if key in run] for key in runs[0]}


def main():
    alone = both("among-alone", "allreduce")
    among = {stem: both("among-" + stem, "allreduce_among") for _, stem in PARTNERS}
    whole = {stem: both("among-" + stem, "allreduce_among_all") for _, stem in PARTNERS}
    timed = sorted({s for _, s in alone})
    print("large/: the timed call's time, ms, alone and among calls of each size on the other thread (all: the whole)")
    print("| K | call | alone | " + " | ".join("among %s | all" % label for label, _ in PARTNERS) + " |")
    print("|---|---|---|" + "---|---|" * len(PARTNERS))
    for k in NODES:
        for s in timed:
            cells = ["%s | %s" % (cell(among[stem].get((k, s))), cell(whole[stem].get((k, s)))) for _, stem in PARTNERS]
            print("| %d | %s | %s | %s |" % (k, size_label(s), cell(alone.get((k, s))), " | ".join(cells)))


if __name__ == "__main__":
    main()
