#!/bin/sh
# After k8_cc.sh (k8cc/): with Reno the 64 KiB-segment step at K = 8 is gone (1 MiB 19.1 and 17.0 ms against 48.5 and
# 51.5 with BBR, 1016 KiB 18.7/16.9 against 19.7/29.3), and 1.25 MiB is faster too (21.4/21.8 against 27.0/28.5). The
# testbed has run BBR since its first campaign (the root namespace's default on this machine), where Linux's default
# elsewhere is CUBIC, which does not pace either. How far does BBR's pacing reach? The all-reduce microbenchmark's
# sizes from 4 KiB to 4 MiB at K = 2, 4 and 8, one call at a time and 16 launched together, with BBR and with Reno,
# two launches each, interleaved. Run as root on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/cc_sizes.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: cc_sizes.sh OUT_DIR}
mkdir -p "$out" || exit 2
trap '"$kit/emulate" down; exit 130' INT TERM
for round in 1 2; do
  for cc in bbr reno; do
    "$kit/emulate" up --hosts 8 --rate 1gbit --cc $cc >> "$out/log.txt" 2>&1 || exit 1
    echo "$(date -u +%T) round $round $cc" | tee -a "$out/log.txt"
    "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/alone-$cc-$round.csv" --force \
      --nodes 2,4,8 --sizes 4KiB,16KiB,64KiB,256KiB,512KiB,1MiB,2MiB,4MiB --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
    "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/queued-$cc-$round.csv" \
      --force --queued 16 --nodes 2,4,8 --sizes 4KiB,64KiB,256KiB,1MiB,4MiB < /dev/null >> "$out/log.txt" 2>&1
    "$kit/emulate" down >> "$out/log.txt" 2>&1
  done
done
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
