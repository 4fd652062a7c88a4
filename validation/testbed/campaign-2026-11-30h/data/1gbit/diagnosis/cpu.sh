#!/bin/sh
# Are the two cores busy while ResNet-101's calls run (K = 4 and 8, no compute, ranks pinned)? /proc/stat sampled
# every 0.2 s beside each training (cpu-*.txt: time, then the busy share of each core over the interval; 2026-11-30
# 14:55-14:57 UTC, after run.sh). Run as root from the repository root.
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis}
sample() { # until the file $1 exists: one line per 0.2 s, the busy share of cpu0 and cpu1
  python3 - "$1" "$2" <<'PY'
import os, sys, time
stop, out = sys.argv[1], open(sys.argv[2], "w")
def read():
    v = {}
    for line in open("/proc/stat"):
        if line.startswith("cpu") and line[3].isdigit():
            f = line.split(); n = list(map(int, f[1:9])); idle = n[3] + n[4]
            v[f[0]] = (sum(n), idle)
    return v
prev = read(); t0 = time.time()
while not os.path.exists(stop):
    time.sleep(0.2); cur = read()
    out.write("%.2f %s\n" % (time.time() - t0, " ".join(
        "%.3f" % (1 - (cur[c][1] - prev[c][1]) / max(1, cur[c][0] - prev[c][0])) for c in sorted(cur))))
    prev = cur
PY
}
$M/emulate up --hosts 8 --rate 1gbit
for w in full tiny big; do
  W=$D/resnet101-$w.xml; [ $w = full ] && W=workloads/resnet101-k80-b32.xml
  rm -f /tmp/cpu.stop; sample /tmp/cpu.stop $D/cpu-$w.txt &
  $M/launch --pin --hosts 8 --logs /tmp/cpu-logs -- train --workload $W --arch ring --granularity tensor --overlap on \
    --workers-list 4,8 --steps 5 --warmup 2 --compute-scale 0 --out $D/resnet101-$w-tensor-zero-cpu.jsonl --force \
    < /dev/null >> $D/log 2>&1
  touch /tmp/cpu.stop; wait
done
$M/emulate down
