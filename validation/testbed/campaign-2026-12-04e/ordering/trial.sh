#!/bin/sh
# 2026-12-04e: the replay of the "after" microbenchmark (a small call launched right after a 1 MiB or 4 MiB one,
# 2026-11-28c) with three orderings tried in the sliced ring and the platform of 2026-11-26 as it is (eq. (41)'s
# fitted alpha) or calibrated again with the route's latency (calibrate --latency, the same cluster's ping-pong):
# validation/testbed/README.md 2026-12-04e. Not the model: SGDSIM must be a build with trial.patch applied
#   git apply validation/testbed/campaign-2026-12-04e/ordering/trial.patch && cmake --build build --target sgdsim
#   validation/testbed/campaign-2026-12-04e/ordering/trial.sh [SGDSIM]      # 1 min; then git checkout src/sim
# (SGDSIM_TRIAL_ALLGATHER_AFTER: Gloo's all-gather waits for its reduce-scatter's last slice; SGDSIM_TRIAL_COST_IN_QUEUE:
# a step's message holds its place in the FIFO egress while the step's cost is paid; --ring-min-slices 2: Gloo's two
# segments a chunk at least; --reduce-cost-per-byte: the summation, 0.05 ns measured by summation.py, 1 ns tried;
# SGDSIM_TRIAL_COST_AFTER: a step's cost paid after its message, the first step's at the call's end.)
set -eu
cd "$(dirname "$0")/../../../.." # the repository
SGDSIM=${1:-build/src/sgdsim}
M=validation/testbed/campaign-2026-11-26/data/1gbit
FITTED=$M/densenet121-k80-b32/platform-allreduce.xml
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
L=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, 'tools/measure'); import make_cases
print(make_cases.allreduce_latency_args('$M/p2p.csv')[1])")
# The fitted platform's own command (its XML comment) plus --latency.
"$SGDSIM" calibrate --measurements $M/allreduce.csv --kind allreduce --where op=allreduce --bandwidth-from 1MiB \
  --line-rate 1Gbps --workload workloads/densenet121-k80-b32.xml --nodes 10 -o "$T/route.xml" \
  --queued $M/allreduce-queued.csv --shared-cores 2 --latency "$L" > "$T/calibrate.log"
replay() { # label, env, sgdsim arguments
  label=$1 envs=$2
  shift 2
  for p in "$FITTED" "$T/route.xml"; do
    r=$(env $envs /usr/bin/python3 tools/measure/replay_concurrent.py after --sgdsim "$SGDSIM" --platform "$p" "$@" \
      2> /dev/null | tail -1)
    printf '%s | %s | %s\n' "$label" "$(basename "$p")" "$r"
  done
}
echo "route latency $L per message"
replay "as the model is" "X=0"
replay "as the model is, against the repeats' mean" "X=0" --statistic mean
replay "all-gather after reduce-scatter" "SGDSIM_TRIAL_ALLGATHER_AFTER=1"
replay "all-gather after, 2 segments a chunk" "SGDSIM_TRIAL_ALLGATHER_AFTER=1" \
  --sgdsim-arg=--ring-min-slices --sgdsim-arg=2
for r in 0.05e-9 0.5e-9 1e-9; do
  replay "all-gather after, 2 segments, summation ${r}s/B" "SGDSIM_TRIAL_ALLGATHER_AFTER=1" \
    --sgdsim-arg=--ring-min-slices --sgdsim-arg=2 --sgdsim-arg=--reduce-cost-per-byte --sgdsim-arg=${r}s
done
replay "cost in queue, all-gather after" "SGDSIM_TRIAL_COST_IN_QUEUE=1 SGDSIM_TRIAL_ALLGATHER_AFTER=1"
replay "cost in queue, all-gather after, 2 segments, summation 1e-9s/B" \
  "SGDSIM_TRIAL_COST_IN_QUEUE=1 SGDSIM_TRIAL_ALLGATHER_AFTER=1" --sgdsim-arg=--ring-min-slices --sgdsim-arg=2 \
  --sgdsim-arg=--reduce-cost-per-byte --sgdsim-arg=1e-9s
replay "cost after each step" "SGDSIM_TRIAL_COST_AFTER=1"
