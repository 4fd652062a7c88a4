#!/bin/sh
# K = 2 small calls: does the back-to-back row vary with the training's small calls, or alone?
# Run as root from the repository root: sh validation/testbed/campaign-2026-11-30c/data/1gbit/diagnosis/k2/run.sh
# (OUT=DIR for the results folder; 2 min). Measured 2026-11-30 09:31 UTC, results beside this file.
M=tools/measure
D=${OUT:-k2}
mkdir -p $D
T=validation/testbed/campaign-2026-11-30c/data/1gbit/diagnosis/googlenet-tiny.xml
$M/emulate up --hosts 4 --rate 1gbit
for r in 1 2 3; do
  $M/launch --hosts 2 --logs $D/logs -- allreduce --queued 16 --nodes 2 --sizes 256,1KiB,4KiB,16KiB --repeats 5 \
    --warmup 1 --out $D/q16-r$r.csv --force < /dev/null >> $D/log 2>&1
  $M/launch --hosts 2 --logs $D/logs -- allreduce --queued 115 --nodes 2 --sizes 1KiB --repeats 5 \
    --warmup 1 --out $D/q115-r$r.csv --force < /dev/null >> $D/log 2>&1
  $M/launch --hosts 2 --logs $D/logs -- train --workload $T --arch ring --granularity tensor --overlap on \
    --workers-list 2 --steps 20 --warmup 2 --compute-scale 0 --out $D/tiny-r$r.jsonl --force < /dev/null >> $D/log 2>&1
  echo "$(date -u +%T) round $r" >> $D/progress
done
$M/emulate down
