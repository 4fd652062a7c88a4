#!/bin/sh
# Back-to-back all-reduces, 16 launched at once (what calibration reads) against 128 (a training's step holds
# 150-470): does the time per call grow with the length of the queue? K = 6, 7, 8, each run twice
# (validation/testbed/README.md, 2026-12-04b, "A longer queue").
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04b/long-queue
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US"
tools/measure/emulate up --hosts 8 --rate 1gbit
S=4KiB,64KiB,1MiB,4MiB
for rep in 1 2; do
for n in 16 128; do
  echo "queued $n start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 -- allreduce --nodes 6,7,8 --sizes $S \
    --repeats 3 --warmup 1 --queued $n --out $D/queued-$n-$rep.csv --force 2>&1 | grep -E "ranks|error"
done
done
tools/measure/emulate down
echo done $(date -u +%T)
