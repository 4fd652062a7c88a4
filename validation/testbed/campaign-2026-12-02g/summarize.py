#!/usr/bin/env python3
"""Prints the tables of this folder's README from its data: each launch's step time beside the machine's pace.

    validation/testbed/campaign-2026-12-02g/summarize.py

repeats/: six launches of ResNet-34 (T4 compute scaled to 0.001) per layer, K = 1..8, each followed by the machine
probe (provenance.machine: the same-core round trip, wakeup_same_core_us, read once after the launch).
no-wait/ and paced/: launches of K = 8 alone with the pace read around and during the configuration (cpu.pace_us);
no-wait/ without waiting or measuring again (measure.py --pace-wait 0 --quiet-retries 0), paced/ with the kit's
defaults (--pace-wait 10 --quiet-retries 2, the reference from a minute of readings); paced-compute/ the same at
K = 7 and 8 with the workload's compute, and resnet152-paced/ ResNet-152 (GTX 1080 Ti compute) per layer the same way.
Python 3 standard library."""

import glob
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
plan_slow = 1.25  # tools/measure/plan.py PACE_SLOW: slow above 1.25 times the fastest reading


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(x) for x in f if x.strip()]


def repeats():
    print("repeats/: step (s) at K = 5..8, and the probe's same-core round trip (us) read after the launch")
    for path in sorted(glob.glob(os.path.join(HERE, "repeats", "*.jsonl"))):
        recs = lines(path)
        steps = {r["workers"]: r["step_time_mean_s"] for r in recs}
        probe = recs[0]["provenance"]["machine"]
        print(f"  {os.path.basename(path)}: " + " ".join(f"K={k} {steps[k]:.3f}" for k in (5, 6, 7, 8))
              + f"  probe RTT 1 core {probe['wakeup_same_core_us']:.1f}")


def paced(folder):
    """K = 8 launches with their pace readings, each judged against the fastest reference of the folder (a launch
    primed in a slow spell has a slow reference of its own; campaign.sh gives every launch the same one)."""
    recs = [(os.path.basename(p), lines(p)[0]) for p in sorted(glob.glob(os.path.join(HERE, folder, "*.jsonl")))]
    ref = min(r["cpu"]["pace_reference_us"] for _, r in recs)
    print(f"{folder}/: K = 8 step (s) and the pace readings' median (us), against the fastest reference, {ref:.1f} us")
    rows = []
    for name, rec in recs:
        cpu = rec["cpu"]
        med = statistics.median(cpu["pace_us"])
        rows.append((rec["step_time_mean_s"], med / ref))
        tries = "; ".join(f"{a['time_s']:.3f} s at x{statistics.median(a['pace_us']) / ref:.2f}"
                          for a in cpu.get("busy_attempts") or [] if a.get("pace_us"))
        print(f"  {name}: {rec['step_time_mean_s']:.3f} s, pace {med:.1f} us (x{med / ref:.2f}), "
              f"{len(cpu['pace_us'])} readings" + (f"; set aside: {tries}" if tries else ""))
    for label, group in (("at pace (x1.25 or less)", [s for s, r in rows if r <= plan_slow]),
                         ("slow", [s for s, r in rows if r > plan_slow])):
        if group:
            print(f"  {label}: {len(group)} launches, {min(group):.3f}-{max(group):.3f} s, "
                  f"mean {statistics.mean(group):.3f} s")


def paced_compute(folder):
    print(f"{folder}/: K = 7 and 8 with compute, kept step (s) and pace (us), the attempts set aside")
    for path in sorted(glob.glob(os.path.join(HERE, folder, "*.jsonl"))):
        cells = []
        for rec in lines(path):
            cpu = rec["cpu"]
            aside = ", ".join(f"{a['time_s']:.3f} ({statistics.median(a['pace_us']):.1f})"
                              for a in cpu.get("busy_attempts") or [])
            cells.append(f"K={rec['workers']} {rec['step_time_mean_s']:.3f} ({statistics.median(cpu['pace_us']):.1f})"
                         + (f" aside {aside}" if aside else ""))
        print(f"  {os.path.basename(path)}: " + "; ".join(cells))


if __name__ == "__main__":
    repeats()
    paced("no-wait")
    paced("paced")
    paced_compute("paced-compute")
    paced_compute("resnet152-paced")
