#!/bin/sh
# Load time and memory of generated platforms (issue: a generated 4,096-node platform). For each: generate it,
# then `sgdsim analytic` on it, which loads the platform in a child process, places 4,095 workers and reads the
# route parameters (no simulation). Prints wall time and peak RSS (largest process). Usage:
# bench/platform_load.sh [build-dir]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
sgdsim=$build/src/sgdsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() { "$sgdsim" platform "$@" 2>/dev/null; }
gen --nodes 4096 --topology star --nic 25Gbps --flow-cap 10Gbps --latency 25us -o "$tmp/star.xml"
gen --nodes 4096 --topology fat-tree --leaf-size 64 --nic 25Gbps --latency 10us -o "$tmp/fattree.xml"
gen --nodes 4096 --topology ring --nic 10Gbps -o "$tmp/ring.xml"
gen --nodes 512 --topology multi-gpu --gpus-per-node 8 --nic 25Gbps --flow-cap 10Gbps -o "$tmp/multigpu.xml"
echo "== generated platforms: load, place 4,095 workers and 1 PS (ring: 4,096 workers), read the routes"
for p in star fattree ring multigpu; do
  # multi-gpu: the PS takes a whole 8-GPU node, so 511 x 8 = 4,088 workers fit.
  case $p in ring) args="--arch ring --workers 4096" ;; multigpu) args="--workers 4088" ;; *) args="--workers 4095" ;; esac
  # shellcheck disable=SC2086
  /usr/bin/time -f "  $p ($(wc -c < "$tmp/$p.xml") bytes of XML): %e s wall, %M KB peak RSS" \
    "$sgdsim" analytic --platform "$tmp/$p.xml" $args --overlap off >/dev/null
done
echo "== one simulated ResNet-50 step of 4,096 ring workers on the 4,096-node star (stream mode, 64 MB fusion)"
/usr/bin/time -o "$tmp/time.txt" -f "  %e s wall, %M KB peak RSS" "$sgdsim" run --platform "$tmp/star.xml" --arch ring \
  --workers 4096 --ring-mode stream --fusion-buffer 64MB --steps 1 --warmup 0 >/dev/null 2>&1 || echo "  (failed)"
cat "$tmp/time.txt"
