#!/bin/sh
# Held out, 2026-12-05: the model of 2026-12-04g (--uncovered-gain rate) on workloads and compute never measured on
# the testbed: ResNet-101 with a GTX 1080 Ti's compute (per layer and per tensor, many 1-2 MB convolutions beside
# batch-norm vectors, as ResNet-152's), GoogLeNet with a T4's (per layer and per tensor, many small calls) and
# Inception-v3 with a T4's (per layer). The day's all-reduce microbenchmarks first (one call at a time; 16 launched
# back to back, to 32 MiB; 128 back to back up to 4 MiB: the kit's recipe), then predict.py simulates every series
# from them alone and writes simulated.txt, then the trainings, K = 1..8 (validation/testbed/README.md, 2026-12-05).
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-05/series
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
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
# The prediction, from the microbenchmarks alone, before any training runs (no measurement runs meanwhile).
echo "predict start $(date -u +%T)"
/usr/bin/python3 $D/predict.py > $D/predict.log 2>&1 || echo "predict failed (predict.log)"
for s in resnet101-gtx1080ti-b32:layer resnet101-gtx1080ti-b32:tensor googlenet-t4-b32:layer \
  googlenet-t4-b32:tensor inception_v3-t4-b32:layer; do
  model=${s%:*}
  unit=${s#*:}
  echo "train $model $unit start $(date -u +%T)"
  $L train --workload workloads/$model.xml --arch ring --granularity $unit --overlap on \
    --workers 8 --steps 5 --warmup 2 --out $D/$model-ring-$unit-overlap-on.jsonl --force 2>&1 | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
