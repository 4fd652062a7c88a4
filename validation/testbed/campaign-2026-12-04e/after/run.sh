#!/bin/sh
# 2026-12-04e: the "after" microbenchmark (one call of 256 KiB, 1 MiB or 4 MiB, then a 4 KiB or 64 KiB call on Gloo's
# other thread; the small call's time) measured again with the kit of today (ranks pinned, Gloo's loop yielding) on
# the machine build of the 2026-12-04b/c/d series, 15 repeats a row instead of 5, every repeat's time kept in the
# sidecar (sample_rows): are its K = 2 rows races with two modes (validation/testbed/README.md 2026-12-04e), and how
# do the two platforms of predict.sh, written before this ran, compare on them.
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04e/after
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
L="tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/after-logs --"
for first in 256KiB 1MiB 4MiB; do
  echo "after $first start $(date -u +%T)"
  $L allreduce --after $first --sizes 4KiB,64KiB --nodes 2,3,4,8 --repeats 15 --warmup 2 \
    --out $D/allreduce-after-$first.csv --force < /dev/null 2>&1 | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
