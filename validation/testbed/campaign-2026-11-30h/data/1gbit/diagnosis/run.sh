#!/bin/sh
# Why is ResNet-101 per tensor (campaign 2026-11-30h) short at every K? Its training again without compute, then its
# 209 tensors of 8 KiB or less alone and its 105 larger ones alone (resnet101-tiny.xml, resnet101-big.xml: the
# workload with the other tensors left out), all without compute, ranks pinned under the default scheduler as in the
# campaign; then the back-to-back microbenchmark with 16 and with 128 calls launched together at every node count,
# 4 KiB and 64 KiB (2026-11-30 14:31-14:37 UTC; results beside this file). Run as root from the repository root.
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis}
mkdir -p $D
$M/emulate up --hosts 8 --rate 1gbit
for w in full tiny big; do
  W=$D/resnet101-$w.xml; [ $w = full ] && W=workloads/resnet101-k80-b32.xml
  $M/launch --pin --hosts 8 --logs $D/logs -- train --workload $W --arch ring --granularity tensor --overlap on \
    --workers 8 --steps 5 --warmup 2 --compute-scale 0 --out $D/resnet101-$w-tensor-zero.jsonl --force \
    < /dev/null >> $D/log 2>&1
done
for q in 16 128; do
  $M/launch --pin --hosts 8 --logs $D/logs -- allreduce --queued $q --nodes 2,3,4,5,6,7,8 --sizes 4KiB,64KiB \
    --repeats 3 --warmup 1 --out $D/q$q.csv --force < /dev/null >> $D/log 2>&1
done
$M/emulate down
# The predictions (no compute: the case's platform with its hosts' speed raised 10^10 times), W each workload:
#   sed 's/speed="4.37e+12f"/speed="4.37e+22f"/' ../resnet101-k80-b32/platform-allreduce.xml > platform-allreduce-zero.xml
#   build/src/sgdsim run --platform $D/platform-allreduce-zero.xml --workload W --arch ring --overlap on --steps 5 \
#     --warmup 2 --framework pytorch-ddp-gloo --egress-fifo on --allreduce-unit tensor --workers K
