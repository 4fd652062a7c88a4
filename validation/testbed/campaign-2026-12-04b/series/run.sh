#!/bin/sh
# Held out, 2026-12-04b: the day's all-reduce microbenchmarks (one call at a time; 16 launched back to back, what
# calibration reads; 128 back to back up to 4 MiB, a queue as long as a step's) and ResNet-152 (GTX 1080 Ti compute)
# trained per layer and per tensor, K = 1..8, right after (validation/testbed/README.md, 2026-12-04b, "A longer queue").
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04b/series
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
L="tools/measure/launch --pin --loop-yield --hosts 8 --logs $D/logs --"
echo "allreduce start $(date -u +%T)"
$L allreduce --out $D/allreduce.csv --force --min-size 4KiB --repeats 5 2>&1 | grep -E "error|done"
echo "queued 16 start $(date -u +%T)"
$L allreduce --queued 16 --out $D/allreduce-queued.csv --force --min-size 4KiB --max-size 32MiB --repeats 3 \
  --warmup 1 2>&1 | grep -E "error|done"
echo "queued 128 start $(date -u +%T)"
$L allreduce --queued 128 --out $D/allreduce-queued-128.csv --force --min-size 4KiB --max-size 4MiB --repeats 3 \
  --warmup 1 2>&1 | grep -E "error|done"
for unit in layer tensor; do
  echo "train $unit start $(date -u +%T)"
  $L train --workload workloads/resnet152-gtx1080ti-b32.xml --arch ring --granularity $unit --overlap on \
    --workers 8 --steps 5 --warmup 2 --out $D/ring-$unit-overlap-on.jsonl --force 2>&1 | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
