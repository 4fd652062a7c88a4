#!/bin/sh
# A diagnosis of the single-call 1 MiB all-reduce at K = 8 (validation/testbed/README.md, 2026-12-05c; k8_row.out:
# 1.80 times the line in 31 of 37 first launches, no other cell): which sizes around 1 MiB are slow at K = 8 and at
# K = 4, and whether TCP's restart after idle (net.ipv4.tcp_slow_start_after_idle, 1 by default: a connection idle
# for an RTO starts again from the initial window) or the ranks' pinning changes it. Three launches of the kit's
# single-call all-reduce, interleaved: as the campaign runs it; with tcp_slow_start_after_idle=0 in every host's
# namespace; unpinned. Run as root on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/k8_sizes.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: k8_sizes.sh OUT_DIR}
mkdir -p "$out" || exit 2
sizes=512KiB,768KiB,1MiB,1280KiB,1536KiB,2MiB
"$kit/emulate" up --hosts 8 --rate 1gbit || exit 1
trap '"$kit/emulate" down; exit 130' INT TERM
ssai() { # $1: the setting in every emulated host's namespace (emulate's sgdsim-hN)
  for ns in $(ip netns list | awk '{print $1}' | grep '^sgdsim-h'); do
    ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_slow_start_after_idle="$1" || exit 1
  done
}
ip netns list >> "$out/netns.txt"
for round in 1 2; do
  for variant in default no-idle-restart unpinned; do
    pin=--pin
    [ $variant = unpinned ] && pin=
    [ $variant = no-idle-restart ] && ssai 0
    echo "$(date -u +%T) round $round $variant" | tee -a "$out/log.txt"
    "$kit/launch" $pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/$variant-$round.csv" --force \
      --nodes 4,8 --sizes "$sizes" --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
    [ $variant = no-idle-restart ] && ssai 1
  done
done
"$kit/emulate" down
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
