#!/bin/sh
# 2026-12-04f: each call's launch and end on rank 0 (train --call-times) at K = 2..8 for two per-layer series: ResNet-152
# with a GTX 1080 Ti's compute (as campaign-2026-12-02h/call-times/ at K = 7 and 8 only) and ResNet-50 with a K80's
# (a model whose older campaigns the lockstep trial made long): from which node count on does a small call beside a
# call of 1 MiB or more end with it (lanes.py; validation/testbed/README.md 2026-12-04f)? Not a prediction: no case is
# made from these records.
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04f/lockstep
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
L="tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/lockstep-logs --"
for w in resnet152-gtx1080ti-b32 resnet50-k80-b32; do
  echo "$w start $(date -u +%T)"
  $L train --workload workloads/$w.xml --arch ring --granularity layer --overlap on --workers-list 2,3,4,5,6,7,8 \
    --steps 5 --warmup 2 --call-times --out $D/$w-layer.jsonl --force < /dev/null 2>&1 | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
