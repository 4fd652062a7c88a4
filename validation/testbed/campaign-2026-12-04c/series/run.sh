#!/bin/sh
# Held out, 2026-12-04c: is the longer queue's gain general? The day's all-reduce microbenchmarks (one call at a
# time; 16 launched back to back, to 32 MiB; 128 back to back up to 4 MiB) and, right after, rings of the two other
# families that 2026-12-04b did not measure: DenseNet-121 with a V100's compute (short at K >= 3 on every machine so
# far) and DenseNet-121 and ResNet-152 with a K80's (compute spreads the calls over the backward), per layer and per
# tensor, K = 1..8 (validation/testbed/README.md, 2026-12-04c).
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04c/series
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
for model in densenet121-v100-b32 densenet121-k80-b32 resnet152-k80-b32; do
  for unit in layer tensor; do
    echo "train $model $unit start $(date -u +%T)"
    $L train --workload workloads/$model.xml --arch ring --granularity $unit --overlap on \
      --workers 8 --steps 5 --warmup 2 --out $D/$model-ring-$unit-overlap-on.jsonl --force 2>&1 | grep -E "error|done"
  done
done
tools/measure/emulate down
echo done $(date -u +%T)
