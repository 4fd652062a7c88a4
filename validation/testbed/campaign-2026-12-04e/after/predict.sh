#!/bin/sh
# 2026-12-04e: what sgdsim says of the "after" microbenchmark of run.sh before it runs (written and run first): the
# replay's simulated column (tools/measure/replay_concurrent.py after; the measured column printed beside it is
# 2026-11-28c's, the same cells, not this campaign's) on the platform the 2026-12-04c cases run on (eq. (41)'s fitted
# alpha) and on the same calibrated with the route's latency (calibrate --latency, the ping-pong of 2026-12-04d on
# this build). Output: predicted.txt. compare.sh prints both against this campaign's rows once they exist.
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04e/after
S=validation/testbed/campaign-2026-12-04c/series
SGDSIM=${1:-build/src/sgdsim}
L=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, 'tools/measure'); import make_cases
print(make_cases.allreduce_latency_args('validation/testbed/campaign-2026-12-04d/pingpong/p2p.csv')[1])")
# The 2026-12-04c platform's own command (its XML comment) plus --latency, into this folder.
"$SGDSIM" calibrate --measurements $S/allreduce.csv --kind allreduce --where op=allreduce --bandwidth-from 1MiB \
  --line-rate 1Gbps --workload workloads/densenet121-k80-b32.xml --nodes 10 -o $D/platform-route.xml --force \
  --queued $S/allreduce-queued-long.csv --shared-cores 2 --latency "$L" > $D/platform-route.xml.log
for p in $S/platform-densenet121-k80-b32-128.xml $D/platform-route.xml; do
  echo "== $p"
  /usr/bin/python3 tools/measure/replay_concurrent.py after --sgdsim "$SGDSIM" --platform "$p" \
    --data validation/testbed/campaign-2026-11-28c/data/1gbit 2> /dev/null
done
