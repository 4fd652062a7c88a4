#!/bin/sh
# The configurations whose kept attempt was busy (the hypervisor's steal above 0.08 cores), measured again.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T)"
tools/measure/emulate up --hosts 8 --rate 1gbit
for spec in "1 1,2,3" "2 2,3,4,5,8"; do
  set -- $spec
  echo "threads $1 K=$2 start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/c3/logs-again-t$1 -- train \
    --workload workloads/resnet152-gtx1080ti-b32.xml --arch ring --granularity layer --overlap on --workers-list $2 \
    --steps 5 --warmup 2 --gloo-threads $1 --out /tmp/c3/again-ring-layer-overlap-on-threads$1.jsonl --force
done
tools/measure/emulate down
echo done $(date -u +%T)
