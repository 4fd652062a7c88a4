#!/bin/sh
# 2026-12-06d: calls_by_size.py on 2026-12-02h's call times (ResNet-152, GTX 1080 Ti's compute, per layer and per
# tensor, K = 8) beside sgdsim's timeline of the same series on that case's platform, and on 2026-12-04f's per-layer
# call times at K = 4 and 6 beside 2026-12-04b's platform (as ../campaign-2026-12-04f/lockstep/lanes.sh).
#   validation/testbed/campaign-2026-12-06d/calls_by_size.sh > validation/testbed/campaign-2026-12-06d/calls_by_size.out
set -eu
cd "$(dirname "$0")/../../.." # the repository
D=validation/testbed/campaign-2026-12-06d
SGDSIM=${SGDSIM:-build/src/sgdsim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
one() { # platform, call times, unit, K
  rm -f "$T/t.json" # sgdsim does not overwrite a timeline
  "$SGDSIM" run --platform "$1" --workload workloads/resnet152-gtx1080ti-b32.xml --arch ring --overlap on --steps 5 \
    --warmup 2 --framework pytorch-ddp-gloo --egress-fifo on --allreduce-unit "$3" --workers "$4" \
    --timeline "$T/t.json" > /dev/null 2>&1
  echo "== $3, $2"
  /usr/bin/python3 $D/calls_by_size.py "$2" "$4" "$T/t.json"
}
H=validation/testbed/campaign-2026-12-02h
one $H/data/1gbit/resnet152-gtx1080ti-b32/platform-allreduce.xml $H/call-times/layer.jsonl layer 8
one $H/data/1gbit/resnet152-gtx1080ti-b32/platform-allreduce.xml $H/call-times/tensor.jsonl tensor 8
F=validation/testbed/campaign-2026-12-04f/lockstep
one validation/testbed/campaign-2026-12-04b/series/platform-128.xml $F/resnet152-gtx1080ti-b32-layer.jsonl layer 4
one validation/testbed/campaign-2026-12-04b/series/platform-128.xml $F/resnet152-gtx1080ti-b32-layer.jsonl layer 6
