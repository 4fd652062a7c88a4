"""Per-call durations, measured (train --call-times JSON lines, one K) against simulated (sgdsim run --timeline).

    python3 calls.py resnet101-full-tensor-scale0-calls.jsonl.xz TIMELINE.json K

A measured call starts when one of Gloo's two threads takes it (launch order, the earliest free thread), not when it
was launched: the start is rebuilt from the launches and ends. "Beside a large": a call of more than 8 KiB of the same
worker and step overlapped it. Simulated: every worker's calls of every measured step, matched to units by size in
launch order."""
import collections, json, lzma, statistics as st, sys
jsonl, timeline, K = sys.argv[1], sys.argv[2], int(sys.argv[3])
SMALL = 8192
opener = lzma.open if jsonl.endswith(".xz") else open
rec = [r for r in (json.loads(l) for l in opener(jsonl, "rt")) if r["workers"] == K][0]
sizes = rec["allreduce_unit_bytes"]
# measured: per unit, durations over workers and steps; beside = a large call in flight during it (same worker, step)
def classify(calls):
    out = []
    for (u, a, b) in calls:
        big_beside = any(sizes[v] > SMALL and a2 < b and b2 > a for (v, a2, b2) in calls if v != u)
        out.append((u, b - a, big_beside, a, b))
    return out
def started(step, lanes=2):
    # Gloo's threads take the calls in launch order, each once free: a call starts at the later of its launch and
    # the earliest end among the calls the threads hold.
    free = [0.0] * lanes
    out = []
    for (u, a, b) in sorted(step):
        i = min(range(lanes), key=lambda j: free[j])
        s0 = max(a, free[i]); free[i] = b
        out.append((u, s0, b))
    return out
meas = []
for w in rec["per_worker"]:
    for step in w["call_times"]:
        meas.append(classify(started(step)))
# simulated: worker 0's allreduce events per step, in launch order = unit order
t = json.load(open(timeline)); ev = t["traceEvents"] if isinstance(t, dict) else t
by_step = collections.defaultdict(list)
for e in ev:
    if e.get("cat") == "allreduce" and e.get("ph") == "X":
        by_step[(e["pid"], e["args"]["step"])].append(e)
sim = []
for (pid, step), es in by_step.items():
    es.sort(key=lambda e: (e["ts"], 0))
    if len(es) != len(sizes): continue
    t0 = min(e["ts"] for e in es)
    # units in launch order: the timeline's order of start; match sizes greedily in unit order
    calls = []
    pool = list(es)
    for u, size in enumerate(sizes):
        for i, e in enumerate(pool):
            if int(e["name"].split()[0]) == size:
                calls.append((u, (e["ts"] - t0) / 1e6, (e["ts"] + e["dur"] - t0) / 1e6)); pool.pop(i); break
    sim.append(classify(calls))
def report(name, runs):
    small_b = [d for r in runs for (u, d, bb, a, b) in r if sizes[u] <= SMALL and bb]
    small_a = [d for r in runs for (u, d, bb, a, b) in r if sizes[u] <= SMALL and not bb]
    large = [d for r in runs for (u, d, bb, a, b) in r if sizes[u] > SMALL]
    span = [max(b for (u, d, bb, a, b) in r) - min(a for (u, d, bb, a, b) in r) for r in runs]
    print(f"{name}: span {st.mean(span):.3f} s; small beside a large: n={len(small_b)/len(runs):.0f}/step mean {1e3*st.mean(small_b):.1f} ms; "
          f"small not beside: n={len(small_a)/len(runs):.0f}/step mean {1e3*st.mean(small_a) if small_a else 0:.1f} ms; large mean {1e3*st.mean(large):.1f} ms "
          f"sum small {sum(small_b+small_a)/len(runs):.2f} s, sum large {sum(large)/len(runs):.2f} s")
report("measured", meas)
report("simulated", sim)
# per size class: mean duration measured vs simulated
def per_unit(runs):
    d = collections.defaultdict(list)
    for r in runs:
        for (u, dur, bb, a, b) in r:
            d[u].append(dur)
    return {u: st.mean(v) for u, v in d.items()}
mu, su = per_unit(meas), per_unit(sim)
classes = [(0, 8192), (8193, 300_000), (300_001, 1_100_000), (1_100_001, 2_500_000), (2_500_001, 10_000_000)]
for lo, hi in classes:
    us = [u for u in range(len(sizes)) if lo <= sizes[u] <= hi and u in mu and u in su]
    if not us: continue
    m = sum(mu[u] for u in us); s_ = sum(su[u] for u in us)
    print(f"  {lo:>9}-{hi:<9} B: {len(us):3d} calls, measured {1e3*m/len(us):6.1f} ms/call (sum {m:.2f} s), simulated {1e3*s_/len(us):6.1f} ms/call (sum {s_:.2f} s), {100*(s_/m-1):+.0f}%")
