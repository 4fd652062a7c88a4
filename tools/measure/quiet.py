#!/usr/bin/env python3
"""Was the machine quiet? The CPU the machine spent outside the ranks while a campaign measured (docs/measure.md
"Was the machine quiet?").

    tools/measure/quiet.py CAMPAIGN/1gbit                # every training configuration and microbenchmark row
    tools/measure/quiet.py --max-cores 0.1 --check DIR   # exit 1 if any went above, or read the pace slow

Rank 0 of `measure.py train` and `allreduce` reads the machine's CPU counters (/proc/stat and every process's
/proc/PID/stat) before and after each training configuration (one K) and each all-reduce row (one node count and
size) and records what the machine spent beyond the ranks' own CPU time (the `cpu` field of a JSON line, `cpu_rows`
of a CSV's .json; tools/measure/plan.py cpu_outside). On the emulated cluster every rank, its Gloo threads and the
emulated NICs share the machine's cores, so a build or a test run beside a campaign slows its calls; this prints, per
file, the configuration or row where the rest of the machine took the most (in cores, averaged over it) and which
processes, and flags those above --max-cores (with at least 0.05 s outside: the counters tick every 10 ms) or where the
hypervisor took more than plan.MAX_STEAL_CORES (steal: the machine is a virtual one), and, since 2026-12-02g, those
whose pace (probe.py --pace, read around and during each; plan.pace_of: the slower reading around it, before
2026-12-03 the readings' median) was more than plan.PACE_SLOW times the reference the record holds (the fastest
reading until 2026-12-03, a lower quartile since 2026-12-03b: probe.reference_pace).
Measurements made before 2026-12-02 carry no such record: for them it prints the marks a busy machine leaves on a
single-worker ring series (its step spreads, its sleeps wake late). Python 3 standard library only.
"""

import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the thresholds, shared with the microbenchmarks' repeats)

MAX_CORES = plan.MAX_OUTSIDE_CORES
MAX_STEAL_CORES = plan.MAX_STEAL_CORES


def files(rate_dir, pattern):
    """The rate folder's files matching `pattern`, in it and one folder down (a model's series; again/, small/)."""
    return sorted(glob.glob(os.path.join(rate_dir, pattern))) + sorted(glob.glob(os.path.join(rate_dir, "*", pattern)))


def records(rate_dir):
    """(file, label, cpu) for every training configuration and all-reduce row that recorded its CPU, in file order."""
    out = []
    for path in files(rate_dir, "*.jsonl"):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                rec = json.loads(line)
                if rec.get("kind") == "train" and rec.get("cpu"):
                    repeat = f" repeat {rec['repeat']}" if rec.get("repeat") else ""
                    out.append((path, f"K={rec['workers']}{repeat}", rec["cpu"]))
    for path in files(rate_dir, "*.csv.json"):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for row in doc.get("cpu_rows") or []:
            op = f"{row['op']} " if row.get("op") else ""  # p2p's rows name theirs (p2p, p2p_stream, pingpong)
            out.append((path, f"{op}{row['nodes']} nodes {row['size_bytes']} B", row))
    return out


# Before the record: a single-worker ring step is emulated compute only, sleeps against deadlines, so it should not
# spread and its sleeps should wake on time. Of the 156 such series measured to 2026-12-01, 3 spread more than 1 ms
# and 3 overshot 100 us or more on average (median 24 us), two of them both: VGG-13's DDP of 2026-12-01o and
# DenseNet-121's DDP of 2026-12-01r, whose trainings ran 22-37% slow (validation/testbed/README.md "Held out:
# DenseNet-121 with a V100's compute, measured again").
MARK_SPREAD_S = 1e-3
MARK_OVERSHOOT_US = 100.0


def single_worker_marks(rate_dir):
    """(file, step spread s, mean overshoot us) of every single-worker ring configuration without a CPU record."""
    out = []
    for path in files(rate_dir, "*.jsonl"):
        with open(path, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line) if line.strip() else {}
                if (rec.get("kind") == "train" and rec.get("arch") == "ring" and rec.get("workers") == 1
                        and not rec.get("cpu") and rec.get("per_worker")):
                    clock = rec["per_worker"][0].get("clock") or {}
                    out.append((path, rec["step_time_std_s"], clock.get("overshoot_mean_us", 0.0)))
    return out


def busy(cpu, max_cores, max_steal_cores=MAX_STEAL_CORES):
    """Whether the rest of the machine (its processes, or its hypervisor) took more than the limits."""
    return plan.cpu_busy(cpu, max_cores, max_steal_cores)


def describe(cpu):
    top = ", ".join(f"{name} {s:.2f} s" for name, s in cpu.get("outside_top", [])) or "none listed"
    return (f"{cpu['outside_cores']:.3f} cores outside the ranks, {plan.steal_cores(cpu):.3f} stolen "
            f"({cpu['outside_s']:.2f} s and {cpu['steal_s']:.2f} s of {cpu['window_s']:.2f} s; "
            f"ranks {cpu['ranks_s']:.2f} s, irq {cpu['irq_s']:.2f} s; top: {top})")


def describe_pace(cpu):
    pace = plan.pace_of(cpu)
    return (f"pace {pace:.1f} us, x{pace / cpu['pace_reference_us']:.2f} the reference "
            f"({len(cpu['pace_us'])} readings, {cpu.get('pace_waited_s', 0.0):.1f} s waited before)")


def print_marks(rate_dir):
    """Prints each single-worker ring series' marks (single_worker_marks); returns how many look busy."""
    marks = single_worker_marks(rate_dir)
    marked = 0
    for path, spread_s, overshoot_us in marks:
        busy_mark = spread_s > MARK_SPREAD_S or overshoot_us >= MARK_OVERSHOOT_US
        marked += busy_mark
        print(f"{os.path.relpath(path, rate_dir)}: single worker, step spread {spread_s * 1e3:.2f} ms, sleeps "
              f"{overshoot_us:.0f} us late on average" + (": the marks of a busy machine" if busy_mark else ""))
    if marks:
        print(f"quiet.py: {marked} of {len(marks)} single-worker ring series with the marks of a busy machine "
              f"(spread above {MARK_SPREAD_S * 1e3:g} ms or sleeps {MARK_OVERSHOOT_US:g} us late or more)")
    return marked


def print_again(recs):
    """The configurations and microbenchmark rows measured again because an attempt was busy (measure.py
    --quiet-retries): how many, and each set-aside attempt's time (a training's mean step) against the kept one's,
    with both attempts' load."""
    again = [(path, label, cpu) for path, label, cpu in recs if cpu.get("busy_attempts")]
    if not again:
        return
    still = sum(plan.cpu_busy(cpu) for _, _, cpu in again)
    print(f"quiet.py: {len(again)} configurations and rows measured again after a busy attempt ({still} still busy "
          "at the last, the least busy kept); the attempts set aside, against the kept one:")
    for path, label, cpu in again:
        kept = f"kept: {cpu['time_s'] * 1e3:.3f} ms at {plan.load(cpu):.2f} cores lost"
        tries = "; ".join(f"{a['time_s'] * 1e3:.3f} ms at {plan.load(a):.2f} cores lost" for a in cpu["busy_attempts"])
        print(f"  {os.path.basename(path)} {label}: {tries} ({kept})")


def main(argv):
    parser = argparse.ArgumentParser(prog="quiet.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rate_dir", help="a campaign's rate folder (CAMPAIGN/1gbit) or the data folder of one")
    parser.add_argument("--max-cores", type=float, default=MAX_CORES,
                        help=f"flag a configuration or row whose outside CPU averaged more cores (default {MAX_CORES})")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if any configuration or row was flagged, or read at a slow pace")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.rate_dir):
        print(f"quiet.py: error: {args.rate_dir}: not a folder", file=sys.stderr)
        return 2
    if not args.max_cores > 0:
        print(f"quiet.py: error: --max-cores {args.max_cores}: must be above 0", file=sys.stderr)
        return 2
    try:
        recs = records(args.rate_dir)
    except (OSError, ValueError, KeyError) as e:
        print(f"quiet.py: error: {e}", file=sys.stderr)
        return 2
    if not recs:
        print(f"quiet.py: {args.rate_dir}: no CPU record (measured before 2026-12-02, or not with tools/measure)")
        try:
            marked = print_marks(args.rate_dir)
        except (OSError, ValueError, KeyError) as e:
            print(f"quiet.py: error: {e}", file=sys.stderr)
            return 2
        return 1 if args.check and marked else 0
    flagged, slow_total, paced = 0, 0, 0
    by_file = {}
    for path, label, cpu in recs:
        by_file.setdefault(path, []).append((label, cpu))
    for path, rows in by_file.items():
        worst_label, worst = max(rows, key=lambda r: (busy(r[1], args.max_cores), r[1]["outside_s"]))
        over = [(label, cpu) for label, cpu in rows if busy(cpu, args.max_cores)]
        slow = [(label, cpu) for label, cpu in rows if plan.pace_slow(cpu)]
        flagged += len(over)
        slow_total += len(slow)
        paced += sum(plan.pace_of(cpu) is not None for _, cpu in rows)
        name = os.path.relpath(path, args.rate_dir)
        verdict = f"{len(over)} of {len(rows)} flagged" if over else "quiet"
        verdict += f", {len(slow)} slow" if slow else ""
        print(f"{name}: {verdict}; most at {worst_label}: {describe(worst)}")
        for label, cpu in over:
            if label != worst_label:
                print(f"  {label}: {describe(cpu)}")
        for label, cpu in slow:
            print(f"  {label}: slow, {describe_pace(cpu)}")
    print_again(recs)
    total = len(recs)
    print(f"quiet.py: {flagged} of {total} configurations and rows above {args.max_cores:g} cores outside the ranks "
          f"or {MAX_STEAL_CORES:g} stolen" + ("" if flagged else ": the machine was quiet"))
    if paced:
        print(f"quiet.py: {slow_total} of {paced} configurations and rows with the pace read slow (more than "
              f"{plan.PACE_SLOW:g} times the reference, plan.pace_of)")
    return 1 if args.check and (flagged or slow_total) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
