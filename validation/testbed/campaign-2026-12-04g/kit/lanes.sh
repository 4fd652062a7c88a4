#!/bin/sh
# 2026-12-04g: lanes.py (2026-12-04f) on run.sh's records, the loop spinning and yielding side by side, per model.
#   validation/testbed/campaign-2026-12-04g/kit/lanes.sh > validation/testbed/campaign-2026-12-04g/kit/lanes.out
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04g/kit
L=validation/testbed/campaign-2026-12-04f/lockstep/lanes.py
for w in resnet50-k80-b32 resnet152-gtx1080ti-b32; do
  for kit in spin yield; do
    echo "== $w per layer, loop $kit (run.sh)"
    for k in 2 3 4 5 6 7 8; do
      /usr/bin/python3 $L $D/$w-layer-$kit.jsonl $k | sed "s#$D/##"
    done
  done
done
