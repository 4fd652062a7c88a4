#!/bin/sh
# After k8_cork.sh (k8cork/): autocorking off left the 64 KiB-segment step as it was (1 MiB and 1032 KiB 40-51 ms
# against 17-18 ms for 1016 KiB). The next hypothesis: BBR's pacing, the testbed's congestion control (inherited from
# the root namespace). BBR paces every packet: after a full 64 KiB GSO packet the segment's small tail waits one
# pacing interval, 65160 B at the pacing rate, which BBR estimates low on a connection the application keeps idle
# most of the time; a segment that fits one packet waits for nothing, since its next segment comes later anyway.
# Reno does not pace (nor does CUBIC, Linux's default elsewhere, which this machine allows in a namespace only
# after a global sysctl; a first run that asked for it stopped there). The same sizes at K = 8 with BBR and with
# Reno (emulate --cc reno), two launches each, interleaved. Run as root on a quiet machine.
#
#   validation/testbed/campaign-2026-12-05c/k8_cc.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../../tools/measure" && pwd)
out=${1:?usage: k8_cc.sh OUT_DIR}
mkdir -p "$out" || exit 2
trap '"$kit/emulate" down; exit 130' INT TERM
for round in 1 2; do
  for cc in bbr reno; do
    "$kit/emulate" up --hosts 8 --rate 1gbit --cc $cc >> "$out/log.txt" 2>&1 || exit 1
    echo "$(date -u +%T) round $round $cc" | tee -a "$out/log.txt"
    "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- allreduce --out "$out/$cc-$round.csv" --force \
      --nodes 8 --sizes 768KiB,1016KiB,1MiB,1032KiB,1280KiB --repeats 7 < /dev/null >> "$out/log.txt" 2>&1
    "$kit/emulate" down >> "$out/log.txt" 2>&1
  done
done
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
