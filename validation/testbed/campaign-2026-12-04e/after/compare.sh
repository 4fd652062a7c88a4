#!/bin/sh
# 2026-12-04e: predict.sh's two platforms against run.sh's rows, on the repeats' median and mean; then each K = 2 row's
# repeats (sample_rows of the sidecar), sorted.
set -eu
cd "$(dirname "$0")/../../../.." # the repository
D=validation/testbed/campaign-2026-12-04e/after
SGDSIM=${1:-build/src/sgdsim}
for p in validation/testbed/campaign-2026-12-04c/series/platform-densenet121-k80-b32-128.xml $D/platform-route.xml; do
  for statistic in median mean; do
    echo "== $p, $statistic"
    /usr/bin/python3 tools/measure/replay_concurrent.py after --sgdsim "$SGDSIM" --platform "$p" --data $D \
      --statistic $statistic 2> /dev/null
  done
done
/usr/bin/python3 - "$D" <<'PY'
import json, sys
for first in ("256KiB", "1MiB", "4MiB"):
    with open("%s/allreduce-after-%s.csv.json" % (sys.argv[1], first)) as f:
        rows = json.load(f)["sample_rows"]
    for r in rows:
        if r["nodes"] == 2:
            print("after %-6s %6d B at K = 2: %s ms" % (first, r["size_bytes"],
                                                        " ".join("%.1f" % (t * 1e3) for t in sorted(r["times_s"]))))
PY
