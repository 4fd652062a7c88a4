#!/bin/sh
# A call of 256 KiB / 1 MiB among calls of 4, 16 and 64 MiB on Gloo's other thread, and alone: K = 6, 7, 8
# (validation/testbed/README.md, 2026-12-04: where a partner's wait turns from its whole slice to the queue's average).
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US"
tools/measure/emulate up --hosts 8 --rate 1gbit
S=256KiB,1MiB
for rep in 1 2; do
for cfg in alone a4M a16M a64M; do
  case $cfg in
    alone) extra="";;
    a4M) extra="--among 4MiB --among-calls 8";;
    a16M) extra="--among 16MiB --among-calls 4";;
    a64M) extra="--among 64MiB --among-calls 3";;
  esac
  echo "$cfg start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 -- allreduce --nodes 6,7,8 --sizes $S \
    --repeats 3 --warmup 1 $extra --out validation/testbed/campaign-2026-12-04/large/among-$cfg-$rep.csv --force 2>&1 | grep -E "ranks|error"
done
done
tools/measure/emulate down
echo done $(date -u +%T)
