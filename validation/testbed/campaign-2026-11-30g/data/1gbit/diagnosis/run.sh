#!/bin/sh
# Is the round-robin slice of SCHED_RR (100 ms, kernel.sched_rr_timeslice_ms) what makes the 2026-11-30g trainings
# longer than predicted? DenseNet-121 per tensor, K = 1..8, ranks pinned and under SCHED_RR as in the campaign, with
# the slice at 100 ms and at 1 ms, two rounds interleaved (2026-11-30 12:18 UTC; results beside this file). Run as
# root from the repository root; it sets the global sysctl and puts back 100 ms.
M=tools/measure
D=${OUT:-rr-slice}
mkdir -p $D
$M/emulate up --hosts 8 --rate 1gbit
for r in 1 2; do
  for ts in 100 1; do
    sysctl -q -w kernel.sched_rr_timeslice_ms=$ts
    $M/launch --pin --rt 1 --hosts 8 --logs $D/logs -- train --workload workloads/densenet121-k80-b32.xml --arch ring \
      --granularity tensor --overlap on --workers 8 --steps 5 --warmup 2 --out $D/densenet121-tensor-slice${ts}ms-r$r.jsonl \
      --force < /dev/null >> $D/log 2>&1
  done
done
sysctl -q -w kernel.sched_rr_timeslice_ms=100
$M/emulate down
# Then (12:47-12:49 UTC) DenseNet-121 per tensor without compute (--compute-scale 0), pinned, under SCHED_RR and under
# the default scheduler, and the back-to-back microbenchmark with 16 and with 128 calls launched together under
# SCHED_RR at K = 5 and 8.
$M/emulate up --hosts 8 --rate 1gbit
for mode in rr normal; do
  opt=; [ $mode = rr ] && opt="--rt 1"
  $M/launch --pin $opt --hosts 8 --logs $D/logs -- train --workload workloads/densenet121-k80-b32.xml --arch ring \
    --granularity tensor --overlap on --workers 8 --steps 5 --warmup 2 --compute-scale 0 \
    --out $D/densenet121-tensor-zero-$mode.jsonl --force < /dev/null >> $D/log 2>&1
done
for q in 16 128; do
  $M/launch --pin --rt 1 --hosts 8 --logs $D/logs -- allreduce --queued $q --nodes 5,8 --sizes 4KiB,64KiB --repeats 3 \
    --warmup 1 --out $D/q$q-rr.csv --force < /dev/null >> $D/log 2>&1
done
$M/emulate down
# Last (12:54 UTC): 128 calls launched together at every node count, 4 KiB to 1 MiB, under SCHED_RR.
$M/emulate up --hosts 8 --rate 1gbit
$M/launch --pin --rt 1 --hosts 8 --logs $D/logs -- allreduce --queued 128 --nodes 2,3,4,5,6,7,8 --min-size 4KiB \
  --max-size 1MiB --repeats 3 --warmup 1 --out $D/q128-all-rr.csv --force < /dev/null >> $D/log 2>&1
$M/emulate down
