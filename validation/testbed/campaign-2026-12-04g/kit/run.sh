#!/bin/sh
# 2026-12-04g: does the small call's lockstep with a large call beside it (2026-12-04f, lanes.py) depend on Gloo's event
# loop yielding its core (launch --loop-yield, the kit's default since 2026-11-30i) or spinning (every campaign before)?
# Each call's launch and end on rank 0 (train --call-times) at K = 2..8, ResNet-50 (K80 compute) and ResNet-152 (GTX
# 1080 Ti compute) per layer, pinned, with the loop spinning and yielding in turn, in one session. Not a prediction:
# no case is made from these records (validation/testbed/README.md 2026-12-04g).
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04g/kit
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
for w in resnet50-k80-b32 resnet152-gtx1080ti-b32; do
  for kit in spin yield; do
    y=
    [ $kit = yield ] && y=--loop-yield
    echo "$w $kit start $(date -u +%T)"
    tools/measure/launch --pin $y --hosts 8 --logs /tmp/kit-logs -- train --workload workloads/$w.xml --arch ring \
      --granularity layer --overlap on --workers-list 2,3,4,5,6,7,8 --steps 5 --warmup 2 --call-times \
      --out $D/$w-layer-$kit.jsonl --force < /dev/null 2>&1 | grep -E "error|done"
  done
done
tools/measure/emulate down
echo done $(date -u +%T)
