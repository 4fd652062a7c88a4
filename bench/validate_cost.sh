#!/bin/sh
# What `sgdsim validate` costs on a few cases of each kind (a public ring, a Sync-PS case of 8 seeds, a 60-step
# Async-PS case, three testbed rings), for one or more binaries run alternately, ROUNDS times: wall, user and system
# seconds of the whole process tree (GNU time). Compare the binaries within one run (the machine is shared).
#   bench/validate_cost.sh [ROUNDS] BINARY...     e.g. bench/validate_cost.sh 3 /tmp/before/build/src/sgdsim build/src/sgdsim
set -eu
cd "$(dirname "$0")/.."
rounds=$1
shift
cases="validation/cases/aws-p3-allreduce-gloo
validation/testbed/cases/1gbit-densenet121-gtx1080ti-b32-ps-sync-ps1-overlap-on-2026-12-07c
validation/testbed/cases/1gbit-resnet50-k80-b32-ps-async-ps1-overlap-on-2026-11-26g
validation/testbed/cases/1gbit-alexnet-k80-b32-ring-ddp-overlap-on
validation/testbed/cases/1gbit-alexnet-k80-b32-ring-ddp-overlap-on-2026-11-26b
validation/testbed/cases/1gbit-alexnet-k80-b32-ring-ddp-overlap-on-2026-11-30k"
round=1
while [ "$round" -le "$rounds" ]; do
  for b in "$@"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "round $round $b: %e s wall, %U s user, %S s system" "$b" validate -j 2 $cases >/dev/null
  done
  round=$((round + 1))
done
