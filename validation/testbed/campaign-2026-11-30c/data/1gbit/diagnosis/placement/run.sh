#!/bin/sh
# K = 2 small calls and where the two ranks run (2026-11-30, session 32; results beside this file). Run as root from
# the repository root on a quiet machine: sh validation/testbed/campaign-2026-11-30c/data/1gbit/diagnosis/placement/run.sh
# (OUT=DIR for the results; about 5 min). Placements, interleaved round by round:
#   plain    the kernel places and moves the ranks' threads (every campaign before 2026-11-30f)
#   busy     as plain, with two SCHED_IDLE busy loops so that no core ever idles (are idle states the cause?)
#   onecore  both ranks on core 0 (taskset -c 0)
#   split    rank r on core r % 2 (launch --pin; these rounds ran with a --python wrapper doing the same taskset)
# then K = 2..4 plain against split (k2-4/), the congestion control reno against bbr (cc/), and at the end the
# scheduler (rt/).
M=tools/measure
D=${OUT:-placement}
T=validation/testbed/campaign-2026-11-30c/data/1gbit/diagnosis/googlenet-tiny.xml
mkdir -p $D/k2 $D/k2-4 $D/cc
k2() { # tag, then the command's prefix or launch's options
  tag=$1; pre=$2; opt=$3
  $pre $M/launch $opt --hosts 2 --logs $D/logs -- allreduce --queued 16 --nodes 2 --sizes 1KiB,4KiB --repeats 10 \
    --warmup 1 --out $D/k2/q16-$tag.csv --force < /dev/null >> $D/log 2>&1
  $pre $M/launch $opt --hosts 2 --logs $D/logs -- allreduce --nodes 2 --sizes 1KiB,4KiB --repeats 10 \
    --warmup 1 --out $D/k2/alone-$tag.csv --force < /dev/null >> $D/log 2>&1
  $pre $M/launch $opt --hosts 2 --logs $D/logs -- train --workload $T --arch ring --granularity tensor --overlap on \
    --workers-list 2 --steps 20 --warmup 2 --compute-scale 0 --out $D/k2/tiny-$tag.jsonl --force < /dev/null >> $D/log 2>&1
}
$M/emulate up --hosts 4 --rate 1gbit
for r in 1 2 3; do
  k2 plain-r$r
  chrt --idle 0 sh -c 'while :; do :; done' & b1=$!
  chrt --idle 0 sh -c 'while :; do :; done' & b2=$!
  k2 busy-r$r
  kill $b1 $b2
  k2 onecore-r$r "taskset -c 0"
done
for r in 4 5 6; do
  k2 plain-r$r
  k2 split-r$r "" --pin
done
for r in 1 2; do
  for p in plain split; do
    opt=; [ $p = split ] && opt=--pin
    $M/launch $opt --hosts 4 --logs $D/logs -- allreduce --queued 16 --nodes 2,3,4 --sizes 4KiB,64KiB --repeats 7 \
      --warmup 1 --out $D/k2-4/q16-$p-r$r.csv --force < /dev/null >> $D/log 2>&1
    $M/launch $opt --hosts 4 --logs $D/logs -- allreduce --nodes 2,3,4 --sizes 4KiB,64KiB --repeats 7 \
      --warmup 1 --out $D/k2-4/alone-$p-r$r.csv --force < /dev/null >> $D/log 2>&1
  done
done
$M/emulate down
for r in 1 2; do
  for cc in reno bbr; do
    $M/emulate up --hosts 2 --rate 1gbit --cc $cc >> $D/log 2>&1
    $M/launch --hosts 2 --logs $D/logs -- allreduce --queued 16 --nodes 2 --sizes 1KiB,4KiB,64KiB --repeats 7 \
      --warmup 1 --out $D/cc/q16-$cc-r$r.csv --force < /dev/null >> $D/log 2>&1
    $M/launch --hosts 2 --logs $D/logs -- allreduce --nodes 2 --sizes 1KiB,4KiB,64KiB --repeats 15 \
      --warmup 1 --out $D/cc/alone-$cc-r$r.csv --force < /dev/null >> $D/log 2>&1
    $M/emulate down >> $D/log 2>&1
  done
done
# Without Gloo: one byte over pipes between two processes (core 0 and 0, or 0 and 1) after an idle gap, and a TCP
# ping-pong between two emulated hosts (TCP_NODELAY as Gloo sets it); results.txt holds their output.
P=$(dirname "$0")
for g in 0.0002 0.002 0.01; do python3 $P/pp2.py 0 0 $g; python3 $P/pp2.py 0 1 $g; done >> $D/results.txt
$M/emulate up --hosts 2 --rate 1gbit
port=5000
for cores in "0 0" "0 1"; do
  set -- $cores
  for size in 1024 4096 65536; do
    for gap in 0 0.001; do
      port=$((port + 1))
      taskset -c $2 ip netns exec sgdsim-h1 python3 $P/tcppp.py server $port $size 1000 & sleep 0.5
      echo "cores $1,$2 $(taskset -c $1 ip netns exec sgdsim-h0 python3 $P/tcppp.py client 198.18.0.2 $port $size 1000 $gap)"
      wait
    done
  done
done >> $D/results.txt
$M/emulate down
# Then the scheduler (11:48-11:50 UTC): ranks pinned, under the default scheduler against SCHED_RR (launch --rt 1;
# these rounds ran as `chrt -r 1 launch`, which the ranks inherit the same way), K = 2 (rt/alone-*, rt/q16-*) and
# K = 2, 4, 8 of 8 ranks on the 2 cores (rt/k8-*).
mkdir -p $D/rt
$M/emulate up --hosts 2 --rate 1gbit
for r in 1 2; do
  for mode in normal rr; do
    opt=; [ $mode = rr ] && opt="--rt 1"
    $M/launch --pin $opt --hosts 2 --logs $D/logs -- allreduce --nodes 2 --sizes 1KiB,4KiB,64KiB --repeats 15 \
      --warmup 1 --out $D/rt/alone-$mode-r$r.csv --force < /dev/null >> $D/log 2>&1
    $M/launch --pin $opt --hosts 2 --logs $D/logs -- allreduce --queued 16 --nodes 2 --sizes 1KiB,4KiB,64KiB \
      --repeats 7 --warmup 1 --out $D/rt/q16-$mode-r$r.csv --force < /dev/null >> $D/log 2>&1
  done
done
$M/emulate down
$M/emulate up --hosts 8 --rate 1gbit
for mode in normal rr; do
  opt=; [ $mode = rr ] && opt="--rt 1"
  $M/launch --pin $opt --hosts 8 --logs $D/logs -- allreduce --nodes 2,4,8 --sizes 4KiB,256KiB,4MiB --repeats 7 \
    --warmup 1 --out $D/rt/k8-alone-$mode-r1.csv --force < /dev/null >> $D/log 2>&1
  $M/launch --pin $opt --hosts 8 --logs $D/logs -- allreduce --queued 16 --nodes 2,4,8 --sizes 4KiB,256KiB \
    --repeats 5 --warmup 1 --out $D/rt/k8-q16-$mode-r1.csv --force < /dev/null >> $D/log 2>&1
done
$M/emulate down
