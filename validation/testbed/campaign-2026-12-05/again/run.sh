#!/bin/sh
# Diagnosis, 2026-12-05 (after the series, not used by any case): is the 128-call back-to-back all-reduce of 4-8 KiB
# at K = 2 slow on this machine (series/allreduce-queued-128.csv: 0.76 and 0.73 ms a call) or was that one launch's
# state (the 16 calls of the same hour: 0.22 and 0.25; 2026-12-04c's 128 calls 0.22 and 0.19)? Three launches of
# the 128 calls and three of the 16, K = 2 only (8 hosts up and launched, as in the series), 4 KiB..1 MiB,
# alternating; then GoogLeNet (T4) per tensor at K = 2 again, whose step the prediction put 21% long
# (validation/testbed/README.md, 2026-12-05).
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-05/again
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
L="tools/measure/launch --pin --loop-yield --hosts 8 --logs $D/logs --"
for i in 1 2 3; do
  for q in 128 16; do
    echo "queued $q launch $i start $(date -u +%T)"
    $L allreduce --queued $q --out $D/queued-$q-$i.csv --force --nodes 2 --min-size 4KiB --max-size 1MiB --repeats 3 \
      --warmup 1 2>&1 | grep -E "error|done"
  done
done
echo "train googlenet-t4-b32 tensor start $(date -u +%T)"
$L train --workload workloads/googlenet-t4-b32.xml --arch ring --granularity tensor --overlap on \
  --workers-list 2 --steps 5 --warmup 2 --out $D/googlenet-t4-b32-ring-tensor-overlap-on.jsonl --force 2>&1 | grep -E "error|done"
tools/measure/emulate down
echo done $(date -u +%T)
