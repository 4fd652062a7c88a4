#!/bin/sh
# The --among microbenchmark simulated as it ran (among_workload.py: 64 calls of 4 KiB around the timed one, the
# case's options, no compute) against its measured medians. Run from the repository root:
#   sh D/among_compare.sh D/platform-allreduce-zero.xml D/among-4KiB.csv      (D: this folder)
P=$1; CSV=$2; D=$(dirname "$0"); T=$(mktemp -d)
for big in 262144 1048576 4194304; do
  python3 "$D/among_workload.py" 4096 $big 64 > "$T/w.xml"
  for k in 2 3 4 5 6 7 8; do
    build/src/sgdsim run --platform "$P" --workload "$T/w.xml" --arch ring --overlap on --steps 3 --warmup 1 \
      --framework pytorch-ddp-gloo --egress-fifo on --allreduce-unit tensor --workers $k --quiet \
      --timeline "$T/t.json" --force > /dev/null 2>&1
    python3 - $big $k "$CSV" "$T/t.json" <<'PY'
import csv, json, statistics as st, sys
big, k, path, timeline = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
ev = json.load(open(timeline))["traceEvents"]
d = [e["dur"] / 1e3 for e in ev if e.get("cat") == "allreduce" and e["name"].startswith(f"{big} ")]
m = [float(r["time_s"]) * 1e3 for r in csv.DictReader(open(path)) if int(r["nodes"]) == k and int(r["size_bytes"]) == big]
print(f"{big:>8} K={k}: simulated {st.mean(d):6.1f} ms, measured {m[0]:6.1f} ms  {100 * (st.mean(d) / m[0] - 1):+.0f}%")
PY
  done
done
rm -rf "$T"
