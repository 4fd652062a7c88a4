#!/bin/sh
# After campaign 2026-12-05e: its trainings at K = 7-8 ran 14-33% faster under CUBIC than 2026-12-05d's under BBR,
# but the two campaigns ran three hours apart, and the machine's pace drifts over hours. A control: the same
# trainings at K = 8 (ResNet-101 with a T4's compute, per tensor and per layer, campaign.sh's settings: pinned,
# loop yielding, 5 steps after 2 warm-up) under BBR and CUBIC, two rounds, interleaved, so drift shows as a
# difference between rounds and the congestion control as one within them. Run as root on a quiet machine; adds
# CUBIC to the kernel's allowed list and puts the old list back.
#
#   validation/testbed/campaign-2026-12-05e/k8_train_cc.sh OUT_DIR
#   WORKLOAD=densenet121-v100-b32 validation/testbed/campaign-2026-12-05e/k8_train_cc.sh OUT_DIR   # another model
#                                                                                         (2026-12-06's control)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
kit=$root/tools/measure
out=${1:?usage: [WORKLOAD=NAME] k8_train_cc.sh OUT_DIR}
workload=$root/workloads/${WORKLOAD:-resnet101-t4-b32}.xml
[ -f "$workload" ] || { echo "k8_train_cc.sh: WORKLOAD: no $workload" >&2; exit 2; }
mkdir -p "$out" || exit 2
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed cubic" || exit 1
trap '"$kit/emulate" down; sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed"; exit 130' INT TERM
for round in 1 2; do
  for cc in bbr cubic; do
    "$kit/emulate" up --hosts 8 --rate 1gbit --cc $cc >> "$out/log.txt" 2>&1 || exit 1
    for g in tensor layer; do
      echo "$(date -u +%T) round $round $cc $g" | tee -a "$out/log.txt"
      "$kit/launch" --pin --loop-yield --hosts 8 --logs "$out/logs" -- train \
        --workload "$workload" --arch ring --granularity $g --overlap on \
        --workers-list 8 --steps 5 --warmup 2 --repeat 1 --compute-scale 1 --out "$out/$g-$cc-$round.jsonl" --force \
        < /dev/null >> "$out/log.txt" 2>&1
    done
    "$kit/emulate" down >> "$out/log.txt" 2>&1
  done
done
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed"
echo "$(date -u +%T) done" | tee -a "$out/log.txt"
