#!/bin/sh
# Held out, 2026-12-05e: 2026-12-05d's plan again (ResNet-101 with a T4's compute, per layer and per tensor, K = 1..8
# at 1 Gbit/s, the kit's campaign.sh with its defaults) with one change: CUBIC instead of BBR in every namespace
# (CC=cubic). BBR paces, and its pacing alone made the 1 MiB Gloo call at K = 8 two to three times slower
# (2026-12-05c, "It is BBR's pacing"); CUBIC, Linux's default and what a cloud VM runs, does not pace under HTB.
# The question: do the K = 8 states and the K = 8 trainings slower than simulated (2026-12-02h, 2026-12-05d) go with
# BBR? A namespace only accepts CUBIC once the global allowed list names it, so this sets it and puts the old list
# back at the end. The model is that of 011f9ca (unchanged since), committed before this ran; make_cases.py predicts
# every point from this campaign's microbenchmarks alone afterwards. AGAIN=none and FEEDCHECK=0 as 2026-12-05d.
# Started at a pace median of 13.1 us (probe.py --pace 20). validation/testbed/README.md, 2026-12-05e.
set -u
cd "$(dirname "$0")/../../.." # the repository
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed cubic" || exit 1
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet101-t4-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  tools/measure/campaign.sh -o /tmp/campaign-2026-12-05e
rc=$?
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed"
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
