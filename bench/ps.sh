#!/bin/sh
# Issue #9 benchmark 2: Sync-PS and Async-PS ResNet-50 (161 tensors, overlap on) on AWS p3.2xlarge, one PS, 20 steps
# without warm-up, at several worker counts. ps-sync's default sharing is hybrid: two simulations (fair and FCFS).
# Prints wall time, simulated step time, transfers per second of wall time and peak RSS per run.
# Usage: bench/ps.sh [build-dir] [worker counts] [steps] [archs] [release quantum]
#   defaults: "16 128 512 1024", 20, "ps-sync ps-async", 0 (exact; e.g. 10us: README "Release quantum")
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
sizes=${2:-"16 128 512 1024"}
steps=${3:-20}
archs=${4:-"ps-sync ps-async"}
quantum=${5:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| arch | workers | steps | release quantum | wall s | simulated step s | transfers/s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|"
for arch in $archs; do
  for k in $sizes; do
    /usr/bin/time -o "$tmp/t" -f "%e %M" "$build/src/sgdsim" run --arch "$arch" --workers "$k" --steps "$steps" \
      --warmup 0 --release-quantum "$quantum" > "$tmp/out" 2>&1 || { echo "| $arch | $k | $steps | $quantum | failed | | | |"; continue; }
    wall=$(cut -d' ' -f1 "$tmp/t"); rss=$(cut -d' ' -f2 "$tmp/t")
    sim=$(sed -n 's/^  step time *\([0-9.]*\) s mean.*/\1/p' "$tmp/out")
    # Transfers: 161 tensors down and up per worker and step (x2 simulations for ps-sync's hybrid sharing).
    sims=1; [ "$arch" = ps-sync ] && sims=2
    awk -v a="$arch" -v k="$k" -v n="$steps" -v q="$quantum" -v w="$wall" -v s="$sim" -v r="$rss" -v m="$sims" 'BEGIN {
      printf "| %s | %d | %d | %s | %.2f | %s | %.0f | %.1f |\n", a, k, n, q, w, s, (w > 0 ? m * 2 * 161 * k * n / w : 0), r / 1024 }'
  done
done
