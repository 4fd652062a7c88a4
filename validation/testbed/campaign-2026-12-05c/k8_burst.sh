#!/bin/sh
# After k8_exact.sh (k8exact/): a call whose Gloo segments are 64 KiB or a little more is slow at K = 6-8. 65536 B is
# both the emulator's HTB burst and the largest GSO packet TCP hands the NIC. The same sizes at K = 8 on three
# emulated clusters, two launches each, interleaved: as the campaigns run it; with an HTB burst of 256 KiB (emulate
# --burst 262144); with GSO packets of at most 32 KiB (emulate --gso-max-size 32768). Run as root on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/k8_burst.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: k8_burst.sh OUT_DIR}
mkdir -p "$out" || exit 2
trap '"$kit/emulate" down; exit 130' INT TERM
for round in 1 2; do
  for variant in default burst256k gso32k; do
    case $variant in
      default) opts= ;;
      burst256k) opts="--burst 262144" ;;
      gso32k) opts="--gso-max-size 32768" ;;
    esac
    "$kit/emulate" up --hosts 8 --rate 1gbit $opts >> "$out/log.txt" 2>&1 || exit 1
    echo "$(date -u +%T) round $round $variant" | tee -a "$out/log.txt"
    "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/$variant-$round.csv" --force \
      --nodes 8 --sizes 768KiB,1016KiB,1MiB,1032KiB,1280KiB --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
    "$kit/emulate" down >> "$out/log.txt" 2>&1
  done
done
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
