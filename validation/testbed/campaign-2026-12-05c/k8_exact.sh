#!/bin/sh
# After k8_sizes.sh (k8/): at K = 8 only exactly 1 MiB was slow (31-57 ms; 768 KiB 15-17, 1.25 MiB 23-30), with TCP's
# restart after idle off and unpinned alike. Is it the size or Gloo's segment of 64 KiB (gloo/allreduce.cc: a call
# of S bytes on K ranks moves segments of ceil(S / 2K) bytes)? Sizes a few KiB either side of 1 MiB, and the sizes
# whose segments are 64 KiB at K = 6 and 7 (768 and 896 KiB), on 6, 7 and 8 ranks; two launches, as the campaign runs
# the calls one at a time. Run as root on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/k8_exact.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: k8_exact.sh OUT_DIR}
mkdir -p "$out" || exit 2
"$kit/emulate" up --hosts 8 --rate 1gbit || exit 1
trap '"$kit/emulate" down; exit 130' INT TERM
for round in 1 2; do
  echo "$(date -u +%T) round $round" | tee -a "$out/log.txt"
  "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/exact-$round.csv" --force \
    --nodes 6,7,8 --sizes 768KiB,896KiB,1016KiB,1MiB,1032KiB --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
done
"$kit/emulate" down
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
