#!/bin/sh
# Issue #9 benchmark 1: the ASTRA-sim comparison workload (bench/data/astra-50x2MiB.xml: 50 layers, 1 ms of compute
# then a 2 MiB ring all-reduce each) on a generated star of K nodes (12.5 GB/s links, 5 us per link), one iteration.
# One all-reduce per layer (`--framework none --allreduce-unit layer`, as bench/peers/side_by_side.sh runs sgdsim):
# the issue's 50 all-reduces of 2 MiB, which the messages column counts, and what the runs before session 8 did.
# Without these options `--arch ring` has taken PyTorch DDP's profile since session 8, whose 25 MiB buckets fuse the
# 50 tensors into 5 all-reduces (bench/README.md, session 9).
# Prints wall time, simulated time, messages per second and peak RSS per run.
# Usage: bench/astra.sh [build-dir] [stream sizes] [steps sizes]
#   defaults: "128 256 512 1024 4096 16384" and "128 256 512 1024"
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
stream_sizes=${2:-"128 256 512 1024 4096 16384"}
steps_sizes=${3:-"128 256 512 1024"}
sgdsim=$build/src/sgdsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # mode K
  "$sgdsim" platform --nodes "$2" --nic 12.5GBps --latency 5us --speed 1Tf -o "$tmp/p.xml" --force 2>/dev/null
  /usr/bin/time -o "$tmp/t" -f "%e %M" "$sgdsim" run --platform "$tmp/p.xml" --workload bench/data/astra-50x2MiB.xml \
    --arch ring --ring-mode "$1" --framework none --allreduce-unit layer --workers "$2" --steps 1 --warmup 0 \
    > "$tmp/out" 2>&1
  wall=$(cut -d' ' -f1 "$tmp/t"); rss=$(cut -d' ' -f2 "$tmp/t")
  sim=$(sed -n 's/^  step time *\([0-9.]*\) s mean.*/\1/p' "$tmp/out")
  # Messages: steps mode sends 2(K-1) chunks per worker and all-reduce, stream mode one flow per worker.
  if [ "$1" = steps ]; then msgs=$((50 * 2 * ($2 - 1) * $2)); else msgs=$((50 * $2)); fi
  awk -v m="$1" -v k="$2" -v w="$wall" -v s="$sim" -v n="$msgs" -v r="$rss" 'BEGIN {
    printf "| %s | %d | %.2f | %s | %.0f | %.1f | %.1f |\n", m, k, w, s, (w > 0 ? n / w : 0), r / 1024, r / k }'
}
echo "| mode | nodes | wall s | simulated s | messages/s | peak RSS MB | KB per node |"
echo "|---|---|---|---|---|---|---|"
for k in $stream_sizes; do run stream "$k"; done
for k in $steps_sizes; do run steps "$k"; done
