#!/bin/sh
# 2026-12-04c, after the series: ResNet-152 (K80 compute) per layer at K = 7 and 8 with each call's launch and end
# recorded on rank 0 (train --call-times), as campaign-2026-12-02h/call-times/ did with a GTX 1080 Ti's compute: where
# the K = 7 -> 8 jump of the K80 series sits (validation/testbed/README.md, 2026-12-04c).
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04c/call-times
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/call-times-logs -- train \
  --workload workloads/resnet152-k80-b32.xml --arch ring --granularity layer --overlap on --workers-list 7,8 \
  --steps 5 --warmup 2 --call-times --out $D/layer.jsonl --force 2>&1 | grep -E "error|done"
tools/measure/emulate down
echo done $(date -u +%T)
