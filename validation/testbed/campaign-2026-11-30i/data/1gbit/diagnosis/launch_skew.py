"""How far apart the K ranks launch the same all-reduce (train --call-times JSON lines): per call and step, the spread
over the ranks of (launch - end), the calls of a ring ending within a step of each other on every rank.

    python3 launch_skew.py densenet121-layer-calls.jsonl.xz
"""
import json
import lzma
import statistics as st
import sys

for line in (lzma.open if sys.argv[1].endswith(".xz") else open)(sys.argv[1], "rt"):
    r = json.loads(line)
    K, sizes, workers = r["workers"], r["allreduce_unit_bytes"], r["per_worker"]
    skews, small = [], []
    for s in range(len(workers[0]["call_times"])):
        per_unit = {}
        for w in workers:
            for (u, launched, ended) in w["call_times"][s]:
                per_unit.setdefault(u, []).append(launched - ended)
        for u, rel in per_unit.items():
            if len(rel) == K:
                skews.append(max(rel) - min(rel))
                if sizes[u] <= 8192:
                    small.append(skews[-1])
    print(f"K = {K}: launch spread over the ranks per call, median {1e3 * st.median(skews):.2f} ms, mean "
          f"{1e3 * st.mean(skews):.2f} ms, 90th percentile {1e3 * sorted(skews)[int(0.9 * len(skews))]:.2f} ms; "
          f"calls of 8 KiB or less, mean {1e3 * st.mean(small):.2f} ms")
