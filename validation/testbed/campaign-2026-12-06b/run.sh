#!/bin/sh
# Held out, 2026-12-06b: DenseNet-121 with a V100's compute, per layer and per tensor, K = 1..8 at 1 Gbit/s, under
# CUBIC (CC=cubic), as 2026-12-05e and 2026-12-06, whose three cases met on their first run. Under BBR this model's
# rings missed in four campaigns of five (2026-12-01r, 02, 02h; 04c met): per tensor measured 14-26% slower than
# simulated at K = 3 every time, and by up to 16-66% at K = 7-8 (per layer 01r, per tensor 02h). Unlike the two ResNets,
# its K = 8 trainings ran only 0.89-1.16 times as long under CUBIC as under BBR (control of 2026-12-06). The questions:
# does the K = 3 per-tensor excess stay under CUBIC (then it is not the CC), and do K = 7-8 meet?
# First campaign with campaign.sh's ALLOW_CC=1 (emulate up --allow-cc widens the global allowed list for CUBIC and
# puts it back at emulate down): the step 2026-12-05e and 2026-12-06's run.sh did themselves. The model is that of
# 011f9ca (unchanged since), committed before this ran; make_cases.py predicts every point from this campaign's
# microbenchmarks alone afterwards. AGAIN=none and FEEDCHECK=0 as 2026-12-05e.
# Started at a pace median of 12.6 us (probe.py --pace 20). validation/testbed/README.md, 2026-12-06b.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="densenet121-v100-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-06b
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
