# Wake-up after idle: the parent sleeps GAP (both cores idle), then one round trip over pipes to a child pinned to
# core B (blocked in read); round-trip percentiles.
import os, sys, time
a, b, gap, n = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), 300
r1, w1 = os.pipe(); r2, w2 = os.pipe()
if os.fork() == 0:
    os.sched_setaffinity(0, {b})
    for _ in range(n):
        os.read(r1, 1); os.write(w2, b"x")
    os._exit(0)
os.sched_setaffinity(0, {a})
ts = []
for i in range(n):
    time.sleep(gap)
    t0 = time.perf_counter(); os.write(w1, b"x"); os.read(r2, 1); ts.append(time.perf_counter() - t0)
os.wait()
ts.sort()
print(f"cores {a},{b} gap {gap*1e3:.1f} ms: round trip us p10 {ts[n//10]*1e6:.0f} p50 {ts[n//2]*1e6:.0f} p90 {ts[9*n//10]*1e6:.0f} p99 {ts[99*n//100]*1e6:.0f} max {ts[-1]*1e6:.0f}; > 1 ms: {sum(t > 1e-3 for t in ts)} of {n}")
