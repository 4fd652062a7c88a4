#!/bin/sh
# 2026-12-04f: rules tried for the small calls that last as long as the large call beside them (lanes.py, lanes.out),
# each env-switched in trial.patch (trial-uncovered.patch: the last one, on its own), run over every validation case
# or over eight, and compared with the model as it is (validation/testbed/README.md 2026-12-04f). Not the model:
#   git apply validation/testbed/campaign-2026-12-04f/lockstep/trial.patch && cmake --build build --target sgdsim
#   validation/testbed/campaign-2026-12-04f/lockstep/trial.sh                       # 45 min on 2 cores
#   git checkout src/sim/ring_worker.cpp; git apply .../trial-uncovered.patch; rebuild; trial.sh uncovered; checkout
# SGDSIM_TRIAL_RATE=all: of a call's waits before its steps, all beyond the smallest size's per-step cost at its node
#   count (a single call's excess at the smallest size measured) becomes a slower rate of its bytes, which then hold
#   the host's FIFO egress; =1: only what a single call of its size pays beyond that cost. SGDSIM_TRIAL_SHARE=1: the
#   rate's link time is this call's bytes plus, of each other call in flight, up to as many (§10.8: n times its own).
# SGDSIM_TRIAL_LOCKSTEP=1: a call that starts while a larger one runs on the worker's other lane ends no earlier than
#   it; SGDSIM_TRIAL_LOCKSTEP_MIN=B: only a call under 64 KiB beside one of B bytes or more. SGDSIM_TRIAL_EACH=1:
#   --in-flight-cost paired taken as each.
# SGDSIM_TRIAL_SHAREBYTES=1: a call in flight with others pays each other's back-to-back time less only as many of its
#   bytes as its own (§10.8 "each" takes off all of them).
# SGDSIM_TRIAL_UNCOVERED_RATE=1 (trial-uncovered.patch): what paired adds to each, the gain a shorter partner leaves
#   uncovered, paid as a slower rate of the call's own bytes instead of waits before its steps.
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04f/lockstep
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
EIGHT="1gbit-resnet152-gtx1080ti-b32-ring-layer-overlap-on-2026-12-02h 1gbit-resnet152-gtx1080ti-b32-ring-tensor-overlap-on-2026-12-02h
1gbit-densenet121-v100-b32-ring-layer-overlap-on-2026-12-04c 1gbit-resnet152-k80-b32-ring-layer-overlap-on-2026-12-04c
1gbit-densenet121-k80-b32-ring-layer-overlap-on-2026-11-26 1gbit-resnet152-gtx1080ti-b32-ring-layer-overlap-on-2026-12-02e
1gbit-resnet50-k80-b32-ring-layer-overlap-on 1gbit-resnet152-gtx1080ti-b32-ring-layer-overlap-on-2026-12-04b"
every() { # env: every case, compared with validation/report.json
  env "$@" build/src/sgdsim validate -j 2 --report-dir "$T" > /dev/null 2>&1 || true # guards exceeded: exit 1
  echo "== $*"
  /usr/bin/python3 $D/compare_reports.py validation/report.json "$T/report.json"
  echo
}
eight() { # env: the eight cases, signed errors K = 2..8
  echo "== $* (eight cases)"
  dirs=$(for c in $EIGHT; do printf 'validation/testbed/cases/%s ' "$c"; done)
  # shellcheck disable=SC2086
  env "$@" build/src/sgdsim validate $dirs -j 2 --report-dir "$T" > /dev/null 2>&1 || true
  /usr/bin/python3 -c "import json, sys
for c in json.load(open(sys.argv[1]))['cases']:
    e = ' '.join(f\"{100 * p['simulated_error']:+.0f}\" for p in c['points'])
    s = c['simulation']
    print(f\"{100 * s['mean_abs_error']:5.1f} {100 * s['max_abs_error']:5.1f} {'MET ' if c['target_met'] else 'miss'} {e}  {c['name']}\")" \
    "$T/report.json"
}
if [ "${1:-}" = uncovered ]; then
  every SGDSIM_TRIAL_UNCOVERED_RATE=1
  eight SGDSIM_TRIAL_UNCOVERED_RATE=1
  exit 0
fi
every SGDSIM_TRIAL_RATE=all SGDSIM_TRIAL_SHARE=1
every SGDSIM_TRIAL_RATE=1 SGDSIM_TRIAL_SHARE=1
every SGDSIM_TRIAL_LOCKSTEP=1 SGDSIM_TRIAL_LOCKSTEP_MIN=1048576
every SGDSIM_TRIAL_EACH=1
eight X=0
eight SGDSIM_TRIAL_LOCKSTEP=1 SGDSIM_TRIAL_EACH=1
eight SGDSIM_TRIAL_SHAREBYTES=1
