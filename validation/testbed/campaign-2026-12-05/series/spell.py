#!/usr/bin/env python3
"""Was 2026-12-05's pace reference read in a slow spell? run.sh gave every launch $SGDSIM_PACE_REFERENCE_US = 15.4 us
(the lower quartile of a minute's readings at 02:20), and a launch keeps a given reference (tools/measure/kit.py
lower_reference), so the kit judged a row or configuration slow only above 1.25 x 15.4 = 19.25 us. This replays each
launch's idle readings (cpu.pace_idle_us, before and after each row and configuration, in order) as if the given
reference came down like a self-primed one (the lower quartile of the readings seen, once there are 8) and counts what
would have been read slow then (none was). A diagnosis after the measurement; nothing here changes a case.

    validation/testbed/campaign-2026-12-05/series/spell.py > spell.out

Python 3 standard library."""

import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "tools", "measure"))
import plan  # noqa: E402  (PACE_SLOW)
import probe  # noqa: E402  (lower_quartile)

GIVEN_US = 15.4  # run.log: "reference 15.4 02:20:28"


def replay(label, records):
    seen, ref = [], GIVEN_US
    slow = []
    for name, idle in records:
        for reading in idle:
            seen.append(reading)
            if len(seen) >= 8:
                ref = min(ref, probe.lower_quartile(seen))
        if max(idle) > plan.PACE_SLOW * ref:
            slow.append(name)
    print(f"{label}: {len(records)}, the reference would come down to {ref:.1f} us; read slow then {len(slow)}"
          + (f": {' '.join(slow)}" if slow else ""))


def main():
    for name in ("allreduce", "allreduce-queued", "allreduce-queued-128"):
        with open(os.path.join(HERE, f"{name}.csv.json"), encoding="utf-8") as f:
            rows = json.load(f)["cpu_rows"]
        replay(f"{name} rows", [(f"K{r['nodes']}/{r['size_bytes']}", r["pace_idle_us"]) for r in rows
                                if r.get("pace_idle_us")])
    for path in sorted(glob.glob(os.path.join(HERE, "*-overlap-on.jsonl"))):
        with open(path, encoding="utf-8") as f:
            recs = [json.loads(line) for line in f]
        replay(os.path.basename(path).replace("-overlap-on.jsonl", ""),
               [(f"K{r['workers']}", r["cpu"]["pace_idle_us"]) for r in recs])


if __name__ == "__main__":
    main()
