#!/bin/sh
# Diagnosis, 2026-12-05 (after the series, not used by any case): GoogLeNet (T4) per layer, whose K = 6-8 came out
# 9-17% short where the series ran in a slow spell of the machine's pace from K = 6 on (series/spell.py), measured
# again K = 1..8 in three launches with the pace read as always, to see what the step is at each pace
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
  echo "train googlenet-t4-b32 layer $i start $(date -u +%T)"
  $L train --workload workloads/googlenet-t4-b32.xml --arch ring --granularity layer --overlap on \
    --workers 8 --steps 5 --warmup 2 --out $D/googlenet-t4-b32-ring-layer-overlap-on-$i.jsonl --force 2>&1 \
    | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
