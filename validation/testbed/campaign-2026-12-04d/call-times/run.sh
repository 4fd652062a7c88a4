#!/bin/sh
# 2026-12-04d: DenseNet-121 (V100 compute) per tensor and per layer at K = 2 and 3 with each call's launch and end
# recorded on rank 0 (train --call-times), on the machine build of the 2026-12-04c series (kernel 6.18.44-fc-v1252):
# which calls make the simulation's K = 2 per tensor step 16-20% long on three machines, where the measured per tensor
# step is shorter than the per layer one (validation/testbed/README.md, 2026-12-04d). compare.py prints it.
set -u
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04d/call-times
export SGDSIM_PACE_REFERENCE_US=$(/usr/bin/python3 tools/measure/probe.py --pace 20 --pace-period 0.25 --reference)
echo "reference $SGDSIM_PACE_REFERENCE_US $(date -u +%T) kernel $(uname -r)"
tools/measure/emulate down >/dev/null 2>&1
tools/measure/emulate up --hosts 8 --rate 1gbit
for g in tensor layer; do
  tools/measure/launch --pin --loop-yield --hosts 8 --logs /tmp/call-times-logs-$g -- train \
    --workload workloads/densenet121-v100-b32.xml --arch ring --granularity $g --overlap on --workers-list 2,3 \
    --steps 5 --warmup 2 --call-times --out $D/$g.jsonl --force 2>&1 | grep -E "error|done"
done
tools/measure/emulate down
echo done $(date -u +%T)
