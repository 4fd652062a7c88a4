"""How far apart the K ranks launch the same all-reduce (train --call-times JSON lines), two ways, per call and step:
the spread over the ranks of the launch time from each rank's own step start (the step starts need not be aligned),
and of the launch relative to each rank's own end of the call (which also holds how far apart the ring's members end
it); the mean of each, and by fifth of the step's calls in launch order.

    python3 launch_skew.py densenet121-layer-calls.jsonl.xz
"""
import json
import lzma
import statistics as st
import sys

for line in (lzma.open if sys.argv[1].endswith(".xz") else open)(sys.argv[1], "rt"):
    r = json.loads(line)
    K, sizes, workers = r["workers"], r["allreduce_unit_bytes"], r["per_worker"]
    n = len(sizes)
    raw, rel, by_fifth = [], [], {}
    for s in range(len(workers[0]["call_times"])):
        per_unit = {}
        for w in workers:
            for i, (u, launched, ended) in enumerate(w["call_times"][s]):
                per_unit.setdefault(u, []).append((i, launched, ended))
        for u, calls in per_unit.items():
            if len(calls) != K:
                continue
            a = max(c[1] for c in calls) - min(c[1] for c in calls)
            b = max(c[1] - c[2] for c in calls) - min(c[1] - c[2] for c in calls)
            raw.append(a)
            rel.append(b)
            by_fifth.setdefault(calls[0][0] * 5 // n, []).append((a, b))
    print(f"K = {K}: launch spread over the ranks per call, from each rank's step start: mean {1e3 * st.mean(raw):.2f} "
          f"ms (median {1e3 * st.median(raw):.2f}); relative to each rank's end of the call: mean "
          f"{1e3 * st.mean(rel):.2f} ms (median {1e3 * st.median(rel):.2f}); by fifth of the step: " +
          ", ".join(f"{1e3 * st.mean(x for x, _ in v):.2f} / {1e3 * st.mean(y for _, y in v):.2f}"
                    for _, v in sorted(by_fifth.items())) + " ms")
