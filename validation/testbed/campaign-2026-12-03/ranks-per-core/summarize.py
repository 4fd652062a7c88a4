#!/usr/bin/env python3
"""Prints the table of validation/testbed/README.md, 2026-12-03 "Four ranks on one core" from this folder.

    validation/testbed/campaign-2026-12-03/ranks-per-core/summarize.py

ResNet-152 (GTX 1080 Ti compute), one all-reduce per layer, overlap on, 5 steps after 2 warm-up, 1 Gbit/s emulated
hosts (tools/measure/emulate), ranks pinned (launch --pin) and the try-locks yielding (--loop-yield):
k2-4-two-cores.jsonl K = 2, 4 on both cores (1 and 2 ranks per core), k2-4-one-core.jsonl the same under
`taskset -c 0` (every rank on core 0: 2 and 4 ranks per core), k6-8-two-cores.jsonl K = 6, 7, 8 on both cores (3-4
ranks per core), each with its provenance (the core each rank was pinned to). Per configuration: the step, the
cores its K ranks were pinned to, the machine's busy share over the launch's window (cpu.busy_s over
window_s times the 2 cores, warm-up and set-up included), and the ranks' CPU seconds per step and rank
(cpu.ranks_s over the window's steps, 7, and K). Python 3 standard library."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["k2-4-two-cores.jsonl", "k2-4-one-core.jsonl", "k6-8-two-cores.jsonl"]


def rows():
    for name in FILES:
        with open(os.path.join(HERE, name + ".provenance.json")) as f:
            pinned = [r["pinned_cpu"] for r in sorted(json.load(f)["ranks"], key=lambda r: r["rank"])]
        with open(os.path.join(HERE, name)) as f:
            for line in f:
                rec = json.loads(line)
                cpu, k = rec["cpu"], rec["workers"]
                cores = set(pinned[:k])
                steps = rec["steps"] + rec["warmup"]
                yield (k, "both" if len(cores) > 1 else f"core {min(cores)}", k / len(cores), rec["step_time_mean_s"],
                       cpu["busy_s"] / (cpu["window_s"] * cpu["cpus"]), cpu["ranks_s"] / steps / k)


def main():
    print("| K | cores | ranks per core | step s | machine busy | ranks' CPU s per step and rank |")
    print("|---|---|---|---|---|---|")
    for k, cores, per_core, step_s, busy, cpu_s in rows():
        print(f"| {k} | {cores} | {per_core:g} | {step_s:.3f} | {busy:.0%} | {cpu_s:.2f} |")


if __name__ == "__main__":
    main()
