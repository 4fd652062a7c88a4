#!/bin/sh
# After k8_burst.sh (k8burst/): the slow 64 KiB-segment calls at K = 6-8 go with TCP's 64 KiB GSO packet. A segment
# of 65536 B is 376 B more than one GSO packet holds (45 x 1448 B = 65160 B), so TCP sends it as a full packet and a
# small tail; 63.5 KiB fits in one. The hypothesis tested here: TCP's autocorking (net.ipv4.tcp_autocorking, on by
# default) holds the small tail while the full packet is still in the host's qdisc, then sends it coalesced with the
# next message's bytes as one GSO packet, which a veth delivers whole only after HTB has shaped all of it (about
# 0.5 ms at 1 Gbit/s), where a real NIC puts the tail's frame on the wire first. The same sizes at K = 8 as the
# campaigns run them and with autocorking off in every host's namespace, two launches each, interleaved. Run as root
# on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/k8_cork.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: k8_cork.sh OUT_DIR}
mkdir -p "$out" || exit 2
trap '"$kit/emulate" down; exit 130' INT TERM
for round in 1 2; do
  for variant in default cork0; do
    "$kit/emulate" up --hosts 8 --rate 1gbit >> "$out/log.txt" 2>&1 || exit 1
    if [ $variant = cork0 ]; then
      for ns in $(ip netns list | awk '{print $1}'); do
        ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_autocorking=0 || exit 1
      done
    fi
    echo "$(date -u +%T) round $round $variant autocorking:" \
      $(for ns in $(ip netns list | awk '{print $1}'); do ip netns exec "$ns" sysctl -n net.ipv4.tcp_autocorking; done) |
      tee -a "$out/log.txt"
    "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/$variant-$round.csv" --force \
      --nodes 8 --sizes 768KiB,1016KiB,1MiB,1032KiB,1280KiB --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
    "$kit/emulate" down >> "$out/log.txt" 2>&1
  done
done
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
