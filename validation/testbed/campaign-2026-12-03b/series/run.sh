#!/bin/sh
# ResNet-152 (GTX 1080 Ti compute), one all-reduce per layer, overlap on, K = 1..8, one Gloo thread; then two.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --fastest)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
for th in 1 2; do
  echo "threads $th start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/c3/logs-t$th -- train \
    --workload workloads/resnet152-gtx1080ti-b32.xml --arch ring --granularity layer --overlap on --workers 8 \
    --steps 5 --warmup 2 --gloo-threads $th --out /tmp/c3/ring-layer-overlap-on-threads$th.jsonl --force
  echo "threads $th end $(date -u +%T)"
done
tools/measure/emulate down
echo done $(date -u +%T)
