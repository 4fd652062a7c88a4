#!/usr/bin/env python3
"""Simulates measure.py's concurrent all-reduce microbenchmarks as they ran and prints them beside the measurement.

    tools/measure/replay_concurrent.py beside|after|among|with [--sgdsim build/src/sgdsim] [--platform PLATFORM]
                                             [--data DIR] [--among-csv NAME] [--with-csv NAME] [--plain-csv NAME]
                                             [--guard MEAN,MAX] [--statistic median|mean] [--sgdsim-arg=ARG ...]

`beside` (measure.py allreduce --beside 256MiB): a 256 MiB all-reduce whose gradient comes first in the backward and
six calls of each measured size after it, on Gloo's other thread; per node count and size, the six calls' median
time. `after` (measure.py allreduce --after SIZE, SIZE = 256 KiB, 1 MiB, 4 MiB): one call of SIZE, then one small
call on the other thread; the small call's time. `among` (measure.py allreduce --among 4KiB --among-calls 64): one
4 KiB call, the timed call of SIZE (256 KiB, 1 MiB, 4 MiB), then 63 more 4 KiB calls that run one after another on
the other thread while it runs; the timed call's time (a training's large call among its small ones; --among-csv
names the CSV), and, where the CSV has rows allreduce_among_all (since 2026-12-01), a second table: the whole, from
the first call's launch to the last one's end (worker 0's in the simulation). `with` (measure.py allreduce --queued
16 --with 4KiB --with-calls 2, and --queued 16 on the same sizes: --with-csv and --plain-csv): per node count and
size, the time per call of the 16 calls launched together, the time per group of the 16 groups (each call followed
by its two small ones), and what the small calls add (worker 0's first start to last end, over 16; the calls and
groups as sized in the CSV's sidecar). `partners` (measure.py allreduce --among P for several P, each run twice: --data
is a folder of among-*.csv, as validation/testbed/campaign-2026-12-03c/among/): per partner size, node count and size,
the timed call's time (docs/models.md §10.8 "A call beside shorter ones"). Each run: --framework pytorch-ddp-gloo --egress-fifo on --allreduce-unit
tensor, overlap on, on the platform calibrated from the same cluster's all-reduce microbenchmark.
Prints a Markdown table, simulated ms (measured median ms), and the mean and max relative error (docs/models.md
§10.12 and §10.8 show these tables). --statistic mean compares with the repeats' mean (the CSV's time_mean_s)
instead: where a cell's repeats fall in two modes, a race between the two calls' messages (after at K = 2,
validation/testbed/README.md 2026-12-04e), the median of five picks a mode by the count of repeats on each side,
and the mean is what many such calls average to; the guards are on the median. Nothing of the rows is fitted: the
platform comes from the microbenchmark of calls alone. --guard MEAN,MAX (in %): exit 1 beyond it (ctest
validation.replay_concurrent_*). --sgdsim-arg=ARG (repeatable) adds ARG to every run, after the options above, e.g.
--sgdsim-arg=--ring-min-slices --sgdsim-arg=2."""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

from guard import check_guard, parse_guard

DEFAULT_PLATFORM = "validation/testbed/campaign-2026-11-26/data/1gbit/densenet121-k80-b32/platform-allreduce.xml"
DEFAULT_DATA = "validation/testbed/campaign-2026-11-28c/data/1gbit"
SIZES = {"4KiB": 4096, "64KiB": 65536, "256KiB": 262144, "1MiB": 1048576, "4MiB": 4194304, "16MiB": 16777216,
         "64MiB": 67108864, "256MiB": 268435456}
BESIDE_SIZES = ["4KiB", "64KiB", "256KiB", "1MiB", "4MiB"]
BESIDE_CALLS = 6  # measure.py --beside times calls one after the other while the large one runs; six cover it
AFTER_FIRST = ["256KiB", "1MiB", "4MiB"]
AFTER_SIZES = ["4KiB", "64KiB"]
AFTER_NODES = [2, 3, 4, 8]
AMONG_SIZES = ["256KiB", "1MiB", "4MiB"]
AMONG_SMALL = "4KiB"
AMONG_CALLS = 64  # measure.py --among-calls' default: 64 small calls in all, one launched before the timed call
AMONG_CSV = "among-4KiB.csv"  # as among.sh wrote it (campaign-2026-11-30h's diagnosis folder, the first measured)
WITH_CSV = "queued-with.csv"  # measure.py allreduce --queued 16 --with 4KiB --with-calls 2
PLAIN_CSV = "queued-plain.csv"  # measure.py allreduce --queued 16, the same sizes, in the same session


def workload_xml(first, others):
    """A workload whose backward all-reduces `first` and then `others` in order (the backward runs the layers last to
    first), each layer one tensor, compute negligible (1 us at the reference speed)."""
    layers = [("s%d" % i, size) for i, size in enumerate(others)][::-1] + [("first", first)]
    x = '<workload name="replay" batch="1" device="replay" reference_speed="1Gf">\n'
    for name, size in layers:
        x += '  <layer name="%s" fwd="1us" bwd="1us"><tensor name="%s" size="%s"/></layer>\n' % (name, name, size)
    return x + "</workload>\n"


def among_order(size):
    """The calls of `measure.py allreduce --among 4KiB` in launch order: one small call, the timed call of `size`,
    then the other 63 small ones (64 small calls in all); the timed call is the second."""
    return [AMONG_SMALL, size] + [AMONG_SMALL] * (AMONG_CALLS - 1)


def sequence_xml(sizes):
    """A workload whose backward all-reduces `sizes` in that order, each layer one tensor, compute negligible."""
    x = '<workload name="replay" batch="1" device="replay" reference_speed="1Gf">\n'
    for i, size in reversed(list(enumerate(sizes))):
        x += '  <layer name="c%d" fwd="1us" bwd="1us"><tensor name="c%d" size="%dB"/></layer>\n' % (i, i, size)
    return x + "</workload>\n"


def whole_ms(sgdsim, platform, tmp, sizes, nodes, extra=()):
    """Worker 0's time (ms) from its first all-reduce's start to its last one's end, the calls `sizes` in order."""
    path = os.path.join(tmp, "seq-%d-%d-%d.xml" % (len(sizes), sum(sizes), nodes))
    timeline, mine = worker0_calls(sgdsim, platform, path, sequence_xml(sizes), nodes, extra)
    if len(mine) != len(sizes):
        sys.exit("replay_concurrent: error: %s: %d calls in worker 0's measured step, expected %d"
                 % (timeline, len(mine), len(sizes)))
    return span_ms(mine)


def worker0_calls(sgdsim, platform, path, xml, nodes, extra=()):
    """Writes the workload `xml` to `path`, runs it, and returns the timeline's path and worker 0's all-reduce events
    of the measured step (Chrome trace: microseconds)."""
    timeline = path + ".trace.json"
    with open(path, "w") as f:
        f.write(xml)
    subprocess.run(run_command(sgdsim, platform, path, nodes, timeline, extra), check=True, stdout=subprocess.DEVNULL)
    with open(timeline) as f:
        return timeline, [e for e in json.load(f)["traceEvents"] if e.get("pid") == 1 and e.get("cat") == "allreduce"]


def span_ms(events):
    """From the first event's start to the last one's end, ms."""
    return (max(e["ts"] + e["dur"] for e in events) - min(e["ts"] for e in events)) / 1e3


def run_command(sgdsim, platform, workload, nodes, timeline, extra=()):
    """The sgdsim run that replays one microbenchmark cell, `extra` after the options measure.py's run implies."""
    return [sgdsim, "run", "--platform", platform, "--workload", workload, "--arch", "ring", "--overlap", "on",
            "--steps", "1", "--warmup", "1", "--framework", "pytorch-ddp-gloo", "--egress-fifo", "on",
            "--allreduce-unit", "tensor", "--workers", str(nodes), "--timeline", timeline] + list(extra)


def call_times_ms(sgdsim, platform, tmp, first, other, calls, nodes, extra=(), then=(), whole=False):
    """Worker 0's all-reduce times (ms) of the `other` calls in the measured step; `then` (sizes) follow them. With
    `whole`, also the time from the first call's start to the last one's end (ms), as (times, whole)."""
    path = os.path.join(tmp, "replay-%s-%s-%d-%d-%d.xml" % (first, other, calls, len(then), nodes))
    timeline, mine = worker0_calls(sgdsim, platform, path, workload_xml(first, [other] * calls + list(then)), nodes,
                                   extra)
    name = "%d B" % SIZES[other]
    out = [e["dur"] / 1e3 for e in mine if e.get("name") == name]
    if len(out) != calls:
        sys.exit("replay_concurrent: error: %s: %d calls of %s in worker 0's measured step, expected %d"
                 % (timeline, len(out), name, calls))
    if whole:
        return out, span_ms(mine)
    return out


STATISTIC_COLUMN = {"median": "time_s", "mean": "time_mean_s"}  # measure.py's CSV (tools/measure/kit.py)


def measured_ms(path, op=None, statistic="median"):
    """(nodes, size_bytes) -> the measured time in ms of a measure.py CSV, the repeats' median (or mean): its rows of
    `op`, or every row (a CSV of one op)."""
    column = STATISTIC_COLUMN[statistic]
    with open(path, newline="") as f:
        return {(int(r["nodes"]), int(r["size_bytes"])): float(r[column]) * 1e3 for r in csv.DictReader(f)
                if op is None or r["op"] == op}


def cell(sim_ms, meas_ms, errors):
    errors.append(abs(sim_ms / meas_ms - 1))
    return "%.1f (%.1f)" % (sim_ms, meas_ms)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["beside", "after", "among", "with", "partners"])
    ap.add_argument("--sgdsim", default="build/src/sgdsim")
    ap.add_argument("--platform", default=DEFAULT_PLATFORM)
    ap.add_argument("--data", default=DEFAULT_DATA, help="the campaign's rate folder with the allreduce-*.csv")
    ap.add_argument("--guard", default="", metavar="MEAN,MAX",
                    help="exit 1 if the mean or the max |error| (in %%) exceeds these (the validation test's guard)")
    ap.add_argument("--among-csv", default=AMONG_CSV, metavar="NAME",
                    help="among: the measure.py CSV in --data (default %s)" % AMONG_CSV)
    ap.add_argument("--with-csv", default=WITH_CSV, metavar="NAME",
                    help="with: the measure.py CSV in --data (default %s)" % WITH_CSV)
    ap.add_argument("--plain-csv", default=PLAIN_CSV, metavar="NAME",
                    help="with: the CSV of the same sizes without the small calls (default %s)" % PLAIN_CSV)
    ap.add_argument("--statistic", choices=sorted(STATISTIC_COLUMN), default="median",
                    help="the repeats' statistic each cell is compared with (default median, as the guards)")
    ap.add_argument("--sgdsim-arg", action="append", default=[], metavar="ARG",
                    help="an argument added to every sgdsim run (repeatable; write --sgdsim-arg=--option)")
    args = ap.parse_args(argv)
    guard = parse_guard(args.guard, "replay_concurrent")
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.mode == "beside":
            meas = measured_ms(os.path.join(args.data, "allreduce-beside-256MiB.csv"), statistic=args.statistic)
            print("| K | " + " | ".join(BESIDE_SIZES) + " |\n|---|" + "---|" * len(BESIDE_SIZES))
            for k in sorted({n for n, _ in meas}):
                row = [cell(statistics.median(call_times_ms(args.sgdsim, args.platform, tmp, "256MiB", s,
                                                            BESIDE_CALLS, k, args.sgdsim_arg)), meas[(k, SIZES[s])], errors)
                       for s in BESIDE_SIZES]
                print("| %d | %s |" % (k, " | ".join(row)))
        elif args.mode == "among":
            path = os.path.join(args.data, args.among_csv)
            meas = measured_ms(path, "allreduce_among", statistic=args.statistic)
            meas_all = measured_ms(path, "allreduce_among_all", statistic=args.statistic)
            sim_all = {}
            print("| K | " + " | ".join(AMONG_SIZES) + " |\n|---|" + "---|" * len(AMONG_SIZES))
            for k in sorted({n for n, _ in meas}):
                row = []
                for s in AMONG_SIZES:
                    times, sim_all[(k, s)] = call_times_ms(args.sgdsim, args.platform, tmp, AMONG_SMALL, s, 1, k,
                                                           args.sgdsim_arg, among_order(s)[2:], whole=True)
                    row.append(cell(times[0], meas[(k, SIZES[s])], errors))
                print("| %d | %s |" % (k, " | ".join(row)))
            if meas_all:
                print("\nThe whole, the %d calls from the first launch to the last end:\n\n| K | " % (AMONG_CALLS + 1)
                      + " | ".join(AMONG_SIZES) + " |\n|---|" + "---|" * len(AMONG_SIZES))
                for k in sorted({n for n, _ in meas_all}):
                    print("| %d | %s |" % (k, " | ".join(cell(sim_all[(k, s)], meas_all[(k, SIZES[s])], errors)
                                                          for s in AMONG_SIZES)))
        elif args.mode == "with":
            with_mode(args, tmp, errors)
        elif args.mode == "partners":
            partners_mode(args, tmp, errors)
        else:
            print("| after | size | " + " | ".join("K = %d" % k for k in AFTER_NODES) + " |\n|---|---|"
                  + "---|" * len(AFTER_NODES))
            for first in AFTER_FIRST:
                meas = measured_ms(os.path.join(args.data, "allreduce-after-%s.csv" % first), statistic=args.statistic)
                for s in AFTER_SIZES:
                    row = [cell(call_times_ms(args.sgdsim, args.platform, tmp, first, s, 1, k, args.sgdsim_arg)[0],
                                meas[(k, SIZES[s])], errors) for k in AFTER_NODES]
                    print("| %s | %s | %s |" % (first, s, " | ".join(row)))
    mean, worst = 100 * statistics.mean(errors), 100 * max(errors)
    print("\n%d cells: mean |error| %.1f%%, max %.1f%%" % (len(errors), mean, worst))
    check_guard(guard, mean, worst, "replay_concurrent")


def partners_mode(args, tmp, errors):
    """measure.py allreduce --among P --among-calls N for several partner sizes P, each run twice (--data's
    among-*-1.csv and -2.csv, P and N from each CSV's sidecar): per partner, node count and size, the timed call's
    time, simulated (the mean of the two runs' measured medians), ms."""
    runs = {}
    for name in sorted(os.listdir(args.data)):
        if not (name.startswith("among-") and name.endswith(".csv")):
            continue
        with open(os.path.join(args.data, name + ".json")) as f:
            side = json.load(f)
        if "among_bytes" not in side:
            continue  # the calls alone, run beside them
        key = (side["among_bytes"], side["among_calls"])
        for cell_key, ms in measured_ms(os.path.join(args.data, name), "allreduce_among",
                                        statistic=args.statistic).items():
            runs.setdefault(key, {}).setdefault(cell_key, []).append(ms)
    if not runs:
        sys.exit("replay_concurrent: error: %s: no among-*.csv with among_bytes in its sidecar" % args.data)
    names = {v: k for k, v in SIZES.items()}
    timed = sorted({s for cells in runs.values() for _, s in cells})
    print("| among | K | " + " | ".join(names[s] for s in timed) + " |\n|---|---|" + "---|" * len(timed))
    for (partner, calls), cells in sorted(runs.items()):
        for k in sorted({n for n, _ in cells}):
            row = []
            for s in timed:
                sizes = [partner, s] + [partner] * (calls - 1)  # one partner, the timed call, then the others
                path = os.path.join(tmp, "partners-%d-%d-%d.xml" % (partner, s, k))
                _, mine = worker0_calls(args.sgdsim, args.platform, path, sequence_xml(sizes), k, args.sgdsim_arg)
                mine.sort(key=lambda e: e["ts"])
                row.append(cell(mine[1]["dur"] / 1e3, statistics.mean(cells[(k, s)]), errors))
            print("| %s | %d | %s |" % (names.get(partner, "%d B" % partner), k, " | ".join(row)))


def with_mode(args, tmp, errors):
    """measure.py allreduce --queued N (--plain-csv) and --queued N --with SMALL --with-calls M (--with-csv): per node
    count and size, the time per call of N calls launched together, per group of N groups (each call of the size
    followed by M small ones), and what the M small calls add, simulated (measured), ms."""
    path = os.path.join(args.data, args.with_csv)
    plain = measured_ms(os.path.join(args.data, args.plain_csv), "allreduce_queued", statistic=args.statistic)
    mixed = measured_ms(path, "allreduce_queued_with", statistic=args.statistic)
    with open(path + ".json") as f:
        meta = json.load(f)
    n, small, m = meta["queued_calls"], meta["with_bytes"], meta["with_calls"]
    sizes = sorted({d for _, d in mixed})
    print("| K | size | %d calls, per call | %d groups (+ %d x %d B), per group | the %d small calls add |\n"
          "|---|---|---|---|---|" % (n, n, m, small, m))
    for k in sorted({kk for kk, _ in mixed}):
        for d in sizes:
            sim_plain = whole_ms(args.sgdsim, args.platform, tmp, [d] * n, k, args.sgdsim_arg) / n
            sim_mixed = whole_ms(args.sgdsim, args.platform, tmp, ([d] + [small] * m) * n, k, args.sgdsim_arg) / n
            add = "%.1f (%.1f)" % (sim_mixed - sim_plain, mixed[(k, d)] - plain[(k, d)])
            print("| %d | %d | %s | %s | %s |" % (k, d, cell(sim_plain, plain[(k, d)], errors),
                                                  cell(sim_mixed, mixed[(k, d)], errors), add))


if __name__ == "__main__":
    main()
