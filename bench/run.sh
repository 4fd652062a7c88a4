#!/bin/sh
# Runs the benchmarks and prints their figures (wall time, peak RSS). Usage: bench/run.sh [build-dir]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j2 --target analytic_bench sgdsim >/dev/null
echo "== analytic models at K = 1024"
"$build/bench/analytic_bench"
echo "== sgdsim run, ResNet-50 on AWS p3.2xlarge (wall time and peak RSS of the whole process tree)"
for arch in ps-sync ps-async; do
  for k in 8 16 128; do
    /usr/bin/time -f "  $arch K=$k: %e s wall, %M KB peak RSS (largest process)" \
      "$build/src/sgdsim" run --arch "$arch" --workers "$k" --steps 5 --warmup 1 >/dev/null
  done
done
