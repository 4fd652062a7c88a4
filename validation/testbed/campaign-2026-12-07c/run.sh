#!/bin/sh
# A second look, 2026-12-07c: DenseNet-121 with a GTX 1080 Ti's compute (32 MB, 364 tensors), Sync-PS with one PS,
# K = 1..8 at 1 Gbit/s under CUBIC, the configuration of 2026-12-06g (the one Sync-PS miss, 5.3 % / 9.1 %) and
# 2026-12-06i, measured a third time with the kit's defaults since 2026-12-07b (campaign.sh LATE=1: the late-flow
# incast) and predicted by the recipe as adopted then (make_cases.py --late-in ps-sync: --ack-coupling-late-in from
# this run's late-flow incast).
# The rule, decided before it runs: the case is reported as the recipe gives it, and (b), the same without the late
# flow's coupling (--late-in ''), beside it. 2026-12-07b kept the coupling for Sync-PS on one case; if here (a)'s mean
# error exceeds (b)'s by more than 1 point, the default goes back to none (make_cases.py --late-in '', campaign.sh
# LATE=0) and both cases say so; otherwise it stays. AGAIN=none, FEEDCHECK=0 as 2026-12-07b.
# validation/testbed/README.md, 2026-12-07c.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="densenet121-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07c
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
