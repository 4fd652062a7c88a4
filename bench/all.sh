#!/bin/sh
# Runs every issue #9 benchmark against one build and prints markdown tables (bench/README.md holds the results).
# Usage: bench/all.sh [build-dir]. Takes about a minute on a 2-core machine (54 s at session 17, the 1,024-worker
# Async-PS run 11 s of it through the PS dispatcher; it took an hour before, bench/README.md).
# Set QUICK=1 for the small sizes only (a few minutes).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j2 --target sgdsim analytic_bench >/dev/null
echo "# $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), build $build"
if [ "${QUICK:-0}" = 1 ]; then
  stream="128 1024"; steps="128"; ps="16 128"
else
  stream="128 256 512 1024 4096 16384"; steps="128 256 512 1024"; ps="16 128 512 1024"
fi
echo "## 1. ASTRA-sim workload"
bench/astra.sh "$build" "$stream" "$steps"
echo "## 2. ResNet-50 parameter server, 20 steps"
bench/ps.sh "$build" "$ps" 20
echo "## 2b. Async-PS with a 10 us release quantum (README \"Release quantum\")"
bench/ps.sh "$build" "$ps" 20 ps-async 10us
echo "## 3. Analytic models at K = 1,024"
"$build/bench/analytic_bench"
echo "## 4. Generated platforms"
bench/platform_load.sh "$build"
