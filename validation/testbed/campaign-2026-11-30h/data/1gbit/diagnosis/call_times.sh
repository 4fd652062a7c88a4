#!/bin/sh
# Where ResNet-101's calls spend their time: its training per tensor at K = 4 and 8, without compute and with it,
# ranks pinned, each all-reduce's launch and end recorded (train --call-times), to set beside sgdsim's timeline
# (2026-11-30, after cpu.sh; results beside this file). Run as root from the repository root.
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis}
$M/emulate up --hosts 8 --rate 1gbit
for scale in 0 1; do
  $M/launch --pin --hosts 8 --logs /tmp/call-times-logs -- train --workload workloads/resnet101-k80-b32.xml \
    --arch ring --granularity tensor --overlap on --workers-list 4,8 --steps 5 --warmup 2 --compute-scale $scale \
    --call-times --out $D/resnet101-full-tensor-scale$scale-calls.jsonl --force < /dev/null >> $D/log 2>&1
done
$M/emulate down
# Then: xz -9 the two JSON-lines files; each set beside sgdsim's timeline of the same K (the case's options,
# --timeline T.json; without compute on platform-allreduce-zero.xml, see run.sh):
#   python3 $D/calls.py $D/resnet101-full-tensor-scale0-calls.jsonl.xz T.json 8
