#!/bin/sh
# A call of 256 KiB / 1 MiB / 4 MiB among calls of 4 KiB .. 1 MiB on Gloo's other thread, and alone: K = 6, 7, 8.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US"
tools/measure/emulate up --hosts 8 --rate 1gbit
S=256KiB,1MiB,4MiB
for rep in 1 2; do
for cfg in alone a4K a64K a256K a1M; do
  case $cfg in
    alone) extra="";;
    a4K) extra="--among 4KiB --among-calls 64";;
    a64K) extra="--among 64KiB --among-calls 32";;
    a256K) extra="--among 256KiB --among-calls 32";;
    a1M) extra="--among 1MiB --among-calls 16";;
  esac
  echo "$cfg start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 -- allreduce --nodes 6,7,8 --sizes $S \
    --repeats 3 --warmup 1 $extra --out validation/testbed/campaign-2026-12-03c/among/among-$cfg-$rep.csv --force 2>&1 | grep -E "ranks|error"
done
done
tools/measure/emulate down
echo done $(date -u +%T)
