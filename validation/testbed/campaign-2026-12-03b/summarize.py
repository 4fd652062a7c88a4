#!/usr/bin/env python3
"""Prints the tables of validation/testbed/README.md, 2026-12-03b, from this folder.

    validation/testbed/campaign-2026-12-03b/summarize.py

ResNet-152 (GTX 1080 Ti compute), overlap on, 5 steps after 2 warm-up, 1 Gbit/s emulated hosts (tools/measure/emulate),
ranks pinned and yielding (launch --pin --loop-yield), on the testbed machine of 2026-12-03 (kernel 6.18.44-fc-v1098):

- calls-or-bytes/: K = 7 and 8 with the same bytes in 10 to 311 all-reduces a step: DDP buckets of 25, 4, 1, 0.25
  and 0.0625 MiB (--bucket-cap-mb) and one all-reduce per layer (run.sh, as run);
- lanes/: K = 7 and 8 with the all-reduces on a Gloo group of one worker thread or two (--gloo-threads), 1 MiB
  buckets and per layer, each twice (run.sh; t1: one thread, 1 MiB buckets, K = 8, a first try);
- tcp/: K = 8 relaunched with each host's TCP counters and qdisc drops read after (snap.sh, counters.py);
- series/: the per-layer series K = 1..8 with one Gloo thread, then two (run.sh).

Per configuration at K = 7 and 8: the all-reduces a step, the Gloo threads, the step, and the hypervisor's steal over
the configuration (cpu.steal_s / window_s, in cores: plan.steal_cores); a configuration with more than
plan.MAX_STEAL_CORES stolen is marked. Then, for one thread, what each call took alone: from its launch or the end of
the call before it, whichever is later, to its end (call_times, worker 0), median per size class and step.
Python 3 standard library."""

import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "measure"))
import plan  # noqa: E402  (the kit's steal_cores and MAX_STEAL_CORES)

FOLDERS = ["calls-or-bytes", "lanes", "tcp", "series"]


def records(folder):
    path = os.path.join(HERE, folder)
    if not os.path.isdir(path):
        return
    for name in sorted(os.listdir(path)):
        if name.endswith(".jsonl"):
            with open(os.path.join(path, name)) as f:
                for line in f:
                    yield name[:-len(".jsonl")], json.loads(line)


def label(rec):
    if rec["granularity"] == "ddp":
        words = rec["provenance"]["command"].split()  # the record keeps the cap only in the command line
        cap = float(words[words.index("--bucket-cap-mb") + 1]) if "--bucket-cap-mb" in words else 25.0
        return f"DDP {cap:g} MiB buckets"
    return f"per {rec['granularity']}"


def configurations():
    print("| folder | file | unit | calls a step | Gloo threads | K | step s | steal, cores |")
    print("|---|---|---|---|---|---|---|---|")
    for folder in FOLDERS:
        for name, rec in records(folder):
            if rec["workers"] < 7:
                continue
            steal = plan.steal_cores(rec["cpu"])
            mark = " (over the limit)" if steal > plan.MAX_STEAL_CORES else ""
            print(f"| {folder} | {name} | {label(rec)} | {rec['allreduces_per_step']} | {rec['gloo_threads']} | "
                  f"{rec['workers']} | {rec['step_time_mean_s']:.3f} | {steal:.2f}{mark} |")


def size_class(size_bytes):
    if size_bytes < 256 << 10:
        return "under 256 KiB"
    return "1-4 MiB" if size_bytes < 4 << 20 else "4 MiB and more"


def one_thread_calls():
    print()
    print("| file | K | step s | steal, cores | per class: calls, median ms alone (over the 5 steps) |")
    print("|---|---|---|---|---|")
    for folder in ("lanes", "series"):
        for name, rec in records(folder):
            if rec["gloo_threads"] != 1 or rec["workers"] < 7 or "call_times" not in rec["per_worker"][0]:
                continue
            sizes = rec["allreduce_unit_bytes"]
            alone = {}
            for step in rec["per_worker"][0]["call_times"]:
                free = 0.0
                for unit, launched, ended in sorted(step, key=lambda c: c[2]):
                    alone.setdefault(size_class(sizes[unit]), []).append(ended - max(launched, free))
                    free = ended
            cells = ", ".join(f"{c}: {len(v) // len(rec['per_worker'][0]['call_times'])} x "
                              f"{1e3 * statistics.median(v):.1f}" for c, v in sorted(alone.items()))
            print(f"| {name} | {rec['workers']} | {rec['step_time_mean_s']:.3f} | "
                  f"{plan.steal_cores(rec['cpu']):.2f} | {cells} |")


def main():
    configurations()
    one_thread_calls()


if __name__ == "__main__":
    main()
