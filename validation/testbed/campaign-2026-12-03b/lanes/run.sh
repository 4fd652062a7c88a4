#!/bin/sh
# One Gloo thread against two: ResNet-152 (GTX 1080 Ti compute) at K = 7, 8, DDP buckets of 1 MiB and per layer.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=9.6
W=workloads/resnet152-gtx1080ti-b32.xml
for rep in 1 2; do
for cfg in ddp1 layer; do
  case $cfg in
    layer) extra="--granularity layer";;
    ddp*) extra="--granularity ddp --bucket-cap-mb ${cfg#ddp}";;
  esac
  for th in 1 2; do
  echo "$cfg threads $th start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/cb/logs-$cfg-t$th-$rep -- train --workload $W --arch ring $extra \
    --overlap on --workers-list 7,8 --steps 5 --warmup 2 --quiet-retries 0 --gloo-threads $th --call-times --out /tmp/cb/$cfg-t$th-$rep.jsonl --force 2>&1 | grep step
  done
done
done
echo done $(date -u +%T)
