#!/bin/sh
# Back to back with one Gloo thread or two, 16 calls or 2, and alone: K = 6, 7, 8, 4 KiB..4 MiB.
set -u
cd "$(dirname "$0")/../../../.." # the repository
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 60 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US"
tools/measure/emulate up --hosts 8 --rate 1gbit
S=4KiB,64KiB,256KiB,1MiB,4MiB
for rep in 1 2; do
for cfg in alone q16t2 q16t1 q2t2 alonet1; do
  case $cfg in
    alone) extra="";;
    alonet1) extra="--gloo-threads 1";;
    q16t2) extra="--queued 16";;
    q16t1) extra="--queued 16 --gloo-threads 1";;
    q2t2) extra="--queued 2";;
  esac
  echo "$cfg start $(date -u +%T)"
  tools/measure/launch --pin --loop-yield --hosts 8 -- allreduce --nodes 6,7,8 --sizes $S \
    --repeats 3 --warmup 1 $extra --out validation/testbed/campaign-2026-12-03c/threads/$cfg-$rep.csv --force 2>&1 | grep -E "ranks|error"
done
done
tools/measure/emulate down
echo done $(date -u +%T)
