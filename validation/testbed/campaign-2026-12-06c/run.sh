#!/bin/sh
# Held out, 2026-12-06c: ResNet-152 with a V100's compute, per layer and per tensor, K = 1..8 at 1 Gbit/s, under
# CUBIC (CC=cubic ALLOW_CC=1), as 2026-12-06b. Under BBR this model's two series missed in 2026-12-01k (13-15% mean,
# up to 27% short at K = 5-8) and met in 2026-12-01l except per layer's max (15.2% at K = 8). The control of
# 2026-12-06 found its K = 8 trainings 0.64-0.76 times as long under CUBIC as under BBR, as ResNet-101's, whose
# campaign under CUBIC (2026-12-05e) met. The question: do both series meet under CUBIC, as that control predicts?
# The model is that of 011f9ca (unchanged since), committed before this ran; make_cases.py predicts every point from
# this campaign's microbenchmarks alone afterwards. AGAIN=none and FEEDCHECK=0 as 2026-12-05e, 06 and 06b.
# Started at a pace median of 11.7 us (probe.py --pace 20). validation/testbed/README.md, 2026-12-06c.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet152-v100-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-06c
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
