#!/bin/sh
# Held out, 2026-12-06: ResNet-152 with a GTX 1080 Ti's compute, per layer and per tensor, K = 1..8 at 1 Gbit/s,
# under CUBIC (CC=cubic), the testbed's congestion control since 2026-12-05e. Under BBR this model's rings missed short
# at K = 7-8 in four campaigns (2026-12-02c, 02e, 02h, 03: measured up to 21% slower than simulated at K = 8); under
# CUBIC 2026-12-05e's ResNet-101 (T4) met on its first run. The questions: do ResNet-152's K = 7-8 misses go too, and
# is the per-layer series long by 6-8% at K = 4-8 again (2026-12-05e), a model bias BBR would have hidden?
# A namespace only accepts CUBIC once the global allowed list names it, so this sets it and puts the old list back at
# the end. The model is that of 011f9ca (unchanged since), committed before this ran; make_cases.py predicts every
# point from this campaign's microbenchmarks alone afterwards. AGAIN=none and FEEDCHECK=0 as 2026-12-05e.
# Started at a pace median of 12.1 us (probe.py --pace 20). validation/testbed/README.md, 2026-12-06.
set -u
cd "$(dirname "$0")/../../.." # the repository
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed cubic" || exit 1
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet152-gtx1080ti-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  tools/measure/campaign.sh -o /tmp/campaign-2026-12-06
rc=$?
sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed"
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
