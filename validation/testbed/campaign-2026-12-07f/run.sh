#!/bin/sh
# Held out, 2026-12-07f: Sync-PS with two PS under CUBIC, never measured (the 2-PS series of 2026-11-23, 12-01 and
# 12-01c ran BBR). ResNet-50 with a GTX 1080 Ti's compute (102 MB; its 1-PS series under CUBIC, 2026-12-07b, met at
# 2.4% / 3.9%), Sync-PS with one PS (the same-day control) and with two PS, K = 1..8 at 1 Gbit/s, kit defaults.
# The recipe's two one-PS-only pieces (the first pull's weight, --first-pull-weight, which sgdsim refuses with two
# PS; the late flow's coupling, --ack-coupling-late-in, which make_cases.py gives one PS only) leave the 2-PS series
# with the incast's spreads and coupling alone.
# The rule, decided before it runs: (a) every series as make_cases.py's recipe of this commit predicts it, reported
# as is; (b) a diagnosis: the 2-PS series predicted again with the run's late law too (the same G as the 1-PS
# series). make_cases.py gives the late law to two PS in a later commit only if (b)'s mean error is lower than (a)'s
# by 0.2 point or more and its max not higher by more than 1 point; that change is then a lead for another held-out
# run, not a result of this one. AGAIN=none, FEEDCHECK=0 as 2026-12-07b-e. validation/testbed/README.md, 2026-12-07f.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet50-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1 ps-sync:2" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07f
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
