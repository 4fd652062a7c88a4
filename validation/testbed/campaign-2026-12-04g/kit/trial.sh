#!/bin/sh
# 2026-12-04g: two of 2026-12-04f's rules over every case again, their reports kept, set beside the model's by the
# kit and compute of each series (groups.py; validation/testbed/README.md 2026-12-04g, "Is it the kit?"). Not the
# model: each trial binary is built from a patch of 2026-12-04f and the source restored.
#   validation/testbed/campaign-2026-12-04g/kit/trial.sh OUT_DIR > validation/testbed/campaign-2026-12-04g/kit/groups.out
# 25 min on 2 cores (two `sgdsim validate` runs).
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04g/kit
F=validation/testbed/campaign-2026-12-04f/lockstep
OUT=$1
mkdir -p "$OUT/lockstep" "$OUT/uncovered"
trial_binary() { # patch, binary
  git apply "$1"
  cmake --build build --target sgdsim > /dev/null
  cp build/src/sgdsim "$2"
  git checkout -q src/sim/ring_worker.cpp
}
trial_binary $F/trial.patch "$OUT/sgdsim-trial"
trial_binary $F/trial-uncovered.patch "$OUT/sgdsim-uncovered"
cmake --build build --target sgdsim > /dev/null
# a guard exceeded makes validate exit 1: the report is written all the same
SGDSIM_TRIAL_LOCKSTEP=1 SGDSIM_TRIAL_LOCKSTEP_MIN=1048576 "$OUT/sgdsim-trial" validate -j 2 \
  --report-dir "$OUT/lockstep" > /dev/null 2>&1 || true
SGDSIM_TRIAL_UNCOVERED_RATE=1 "$OUT/sgdsim-uncovered" validate -j 2 --report-dir "$OUT/uncovered" > /dev/null 2>&1 || true
echo "# groups.py validation/report.json LOCKSTEP UNCOVERED_RATE (2026-12-04f's trial patches)"
/usr/bin/python3 $D/groups.py validation/report.json "$OUT/lockstep/report.json" "$OUT/uncovered/report.json" |
  sed "s#$OUT/##g"
