#!/bin/sh
# 2026-12-04d: the p2p microbenchmark (with its ping-pong row) on the machine build of the 2026-12-04b and 04c series
# (kernel 6.18.44-fc-v1252), whose series folders have no p2p.csv: the route's one-way latency their platforms take
# with calibrate --latency (validation/testbed/README.md, 2026-12-04d). As campaign.sh measures p2p.
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04d/pingpong
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
tools/measure/launch --pin --loop-yield --hosts 2 --logs /tmp/pingpong-logs -- p2p --out $D/p2p.csv --force \
  --repeats 5 < /dev/null 2>&1 | grep -E "error|ping-pong|done"
tools/measure/emulate down
echo done $(date -u +%T)
