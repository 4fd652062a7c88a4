#!/usr/bin/env python3
"""A closed form for the --among cells of this folder, from the platform's rows only (validation/testbed/README.md,
2026-12-03c, "Which partner's time a call pays").

    validation/testbed/campaign-2026-12-03c/closed_form.py

A call of D among calls of P on Gloo's other thread is predicted to take T(D) + T_q(P): its own time alone plus one
partner call's back-to-back time, as if the two threads' calls took turns. T and T_q are the rows of the morning
campaign's microbenchmarks that the simulation's platform was calibrated from (campaign-2026-12-03/data/1gbit:
allreduce.csv and allreduce-queued.csv, the median with small/'s launches 2 and 3 where they have the size; the
platform holds fits of them, 1 MiB at K = 8 alone 43.5 ms there against the row's 48.5), so nothing here is fitted to
the --among cells. Each measured cell is the mean of the two runs' medians (among/among-*-1.csv and -2.csv).
Prints a Markdown table, measured / closed form (error), and the mean and max relative error. Python 3 standard
library."""

import csv
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
MORNING = os.path.join(HERE, "..", "campaign-2026-12-03", "data", "1gbit")
NAMES = {4096: "4 KiB", 65536: "64 KiB", 262144: "256 KiB", 1048576: "1 MiB", 4194304: "4 MiB"}


def rows_ms(path):
    """(nodes, size_bytes) -> time_s in ms of a microbenchmark CSV."""
    with open(path, newline="") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): float(r["time_s"]) * 1e3 for r in csv.DictReader(f)}


def launches_ms(kind):
    """(nodes, size_bytes) -> the median over the launches (the campaign's CSV and small/'s launches 2 and 3)."""
    launches = [rows_ms(os.path.join(MORNING, kind + ".csv"))]
    launches += [rows_ms(os.path.join(MORNING, "small", "%s-%d.csv" % (kind, n))) for n in (2, 3)]
    return {key: statistics.median(t[key] for t in launches if key in t) for key in launches[0]}


def among_ms():
    """(partner bytes, nodes, size_bytes) -> the mean of the two runs' medians of the timed call, ms."""
    runs = {}
    folder = os.path.join(HERE, "among")
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("among-") and name.endswith(".csv")):
            continue
        with open(os.path.join(folder, name + ".json")) as f:
            partner = json.load(f).get("among_bytes")
        if partner is None:
            continue  # the calls alone
        with open(os.path.join(folder, name), newline="") as f:
            for r in csv.DictReader(f):
                if r["op"] == "allreduce_among":
                    key = (partner, int(r["nodes"]), int(r["size_bytes"]))
                    runs.setdefault(key, []).append(float(r["time_s"]) * 1e3)
    return {key: statistics.mean(v) for key, v in runs.items()}


def main():
    alone, queued, measured = launches_ms("allreduce"), launches_ms("allreduce-queued"), among_ms()
    sizes = sorted({s for _, _, s in measured})
    print("| among | K | " + " | ".join(NAMES[s] for s in sizes) + " |\n|---|---|" + "---|" * len(sizes))
    errors = []
    for partner, k in sorted({(p, k) for p, k, _ in measured}):
        cells = []
        for s in sizes:
            m = measured[(partner, k, s)]
            form = alone[(k, s)] + queued[(k, partner)]
            errors.append(abs(form / m - 1))
            cells.append("%.1f / %.1f (%+.0f%%)" % (m, form, 100 * (form / m - 1)))
        print("| %s | %d | %s |" % (NAMES[partner], k, " | ".join(cells)))
    print("\n%d cells: mean |error| %.1f%%, max %.1f%%" % (len(errors), 100 * statistics.mean(errors),
                                                           100 * max(errors)))


if __name__ == "__main__":
    main()
