#!/bin/sh
# Where DenseNet-121's calls per layer spend their time with the loop yielding, at K = 4 and 8 (2026-11-30, after
# campaign 2026-11-30i, whose series is short from K = 5): the training as the campaign ran it (ranks pinned,
# --loop-yield, compute as sleeps), each all-reduce's launch and end recorded (train --call-times), to set beside
# sgdsim's timeline with ../../../../campaign-2026-11-30h/data/1gbit/diagnosis/calls.py. Run as root from the
# repository root.
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30i/data/1gbit/diagnosis}
$M/emulate up --hosts 8 --rate 1gbit
$M/launch --pin --loop-yield --hosts 8 --logs /tmp/call-times-logs -- train \
  --workload workloads/densenet121-k80-b32.xml --arch ring --granularity layer --overlap on --workers-list 4,8 \
  --steps 5 --warmup 2 --call-times --out $D/densenet121-layer-calls.jsonl --force < /dev/null >> $D/log 2>&1
$M/emulate down
# Then: xz -9 the JSON-lines file; python3 $D/launch_skew.py $D/densenet121-layer-calls.jsonl.xz, and per K the
# case's run with --workers K --timeline T.json, then
#   python3 validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis/calls.py $D/densenet121-layer-calls.jsonl.xz T.json K
