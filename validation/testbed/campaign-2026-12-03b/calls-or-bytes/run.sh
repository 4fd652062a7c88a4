#!/bin/sh
# Calls or bytes? ResNet-152 (GTX 1080 Ti compute) at K = 7, 8: DDP buckets of 25, 4, 1, 0.25, 0.0625 MiB and per layer.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --fastest)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T)"
tools/measure/emulate up --hosts 8 --rate 1gbit
W=workloads/resnet152-gtx1080ti-b32.xml
for cfg in layer ddp25 ddp4 ddp1 ddp0.25 ddp0.0625; do
  case $cfg in
    layer) extra="--granularity layer";;
    ddp*) extra="--granularity ddp --bucket-cap-mb ${cfg#ddp}";;
  esac
  echo "$cfg start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/cb/logs-$cfg -- train --workload $W --arch ring $extra \
    --overlap on --workers-list 7,8 --steps 5 --warmup 2 --quiet-retries 0 --call-times --out /tmp/cb/$cfg.jsonl --force
  echo "$cfg end $(date -u +%T) rc=$?"
done
tools/measure/emulate down
echo done
