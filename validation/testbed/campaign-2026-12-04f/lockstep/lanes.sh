#!/bin/sh
# 2026-12-04f: lanes.py on the call times of run.sh (ResNet-152, GTX 1080 Ti compute, per layer, K = 2..8) beside
# sgdsim's timeline of the same series on the platform the 2026-12-04b case of this build runs on (platform-128.xml),
# and on those of 2026-12-02h (K = 7, 8) beside that case's platform; ResNet-50 (K80) measured only.
#   validation/testbed/campaign-2026-12-04f/lockstep/lanes.sh > validation/testbed/campaign-2026-12-04f/lockstep/lanes.out
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04f/lockstep
SGDSIM=${SGDSIM:-build/src/sgdsim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
series() { # platform, call times, node counts
  p=$1 ct=$2
  shift 2
  rm -f "$T"/k*.json # sgdsim does not overwrite a timeline
  for k in "$@"; do
    "$SGDSIM" run --platform "$p" --workload workloads/resnet152-gtx1080ti-b32.xml --arch ring --overlap on --steps 5 \
      --warmup 2 --framework pytorch-ddp-gloo --egress-fifo on --allreduce-unit layer --workers "$k" \
      --timeline "$T/k$k.json" > "$T/run.txt" 2>&1
    echo "K = $k: step simulated $(sed -n 's/^  step time *\([0-9.]*\) s mean.*/\1/p' "$T/run.txt") s"
    /usr/bin/python3 $D/lanes.py "$ct" "$k" "$T/k$k.json" | sed "s#$T/k$k.json#sgdsim#"
  done
}
echo "== ResNet-152 (GTX 1080 Ti) per layer, run.sh 20:31-20:37 UTC; simulated on campaign-2026-12-04b/series/platform-128.xml"
series validation/testbed/campaign-2026-12-04b/series/platform-128.xml $D/resnet152-gtx1080ti-b32-layer.jsonl 2 3 4 5 6 7 8
echo "== the same, 2026-12-02h's call times; simulated on that case's platform"
series validation/testbed/campaign-2026-12-02h/data/1gbit/resnet152-gtx1080ti-b32/platform-allreduce.xml \
  validation/testbed/campaign-2026-12-02h/call-times/layer.jsonl 7 8
echo "== ResNet-50 (K80) per layer, run.sh 20:37-20:40 UTC, measured only"
for k in 2 3 4 5 6 7 8; do /usr/bin/python3 $D/lanes.py $D/resnet50-k80-b32-layer.jsonl $k; done
