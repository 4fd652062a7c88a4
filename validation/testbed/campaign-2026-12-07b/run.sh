#!/bin/sh
# Held out, 2026-12-07b: a push joining a PS's running pulls, under CUBIC. ResNet-50 with a GTX 1080 Ti's compute
# (98 MB, never measured in Sync-PS with this device), Sync-PS with one PS, K = 1..8 at 1 Gbit/s, with the
# microbenchmarks of 2026-12-07 plus the late-flow incast (campaign.sh LATE=1: one flow into the hub started late
# beside N = 2, 4, 8 established flows out of it, 16 and 64 MiB); then GoogLeNet with a GTX 1080 Ti's compute,
# Async-PS with one PS, 20 steps, K = 1..8 (no Async-PS series under CUBIC before), predicted from the same
# microbenchmarks (MICRO=0: the first run's; its folder is copied into the first run's before make_cases.py).
# Why: every Sync-PS series with a GTX 1080 Ti's compute under CUBIC (2026-12-06g, h, i, 07) is short from K = 5 on
# (-2..-9 %): the measured step is about 2 K S / B, pulls and pushes through the PS's NIC hardly overlap, while the
# simulation runs pushes beside the last pulls. A trial of the late-flow incast on this machine (2026-12-07 05:13-05:20
# UTC, no training) fitted --ack-coupling-late-in 0.72 (a lone push beside 8 pulls 5.3 times its time alone at
# 64 MiB); run on those six cases as a diagnosis (their trainings were measured before it), it moved them from 3.57 %
# to 2.71 % mean (12-06g 5.28 -> 4.58 %). Under BBR the start-order laws had made Async-PS worse (docs/models.md §10.6).
# The question, decided before it ran: each case is predicted (a) with --ack-coupling-late-in fitted to this run's
# incast-late (make_cases.py --late-in) and (b) without it, every other option the same. For each architecture on its
# own case (Sync-PS: ResNet-50; Async-PS: GoogLeNet), (a) is kept (make_cases.py's --late-in default takes that
# architecture) if its mean error is lower than (b)'s and its max error is not more than 1 point higher; otherwise
# (b) stays. AGAIN=none, FEEDCHECK=0 as 2026-12-07. validation/testbed/README.md, 2026-12-07b.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet50-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic ALLOW_CC=1 \
  LATE=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07b
rc=$?
echo "sync done $(date -u +%T) rc $rc"
MODELS="googlenet-gtx1080ti-b32" RATES=1gbit ARCHS="ps-async:1" OVERLAPS=on MICRO=0 AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07b-async
rc2=$?
cp -r /tmp/campaign-2026-12-07b-async/1gbit/googlenet-gtx1080ti-b32 /tmp/campaign-2026-12-07b/1gbit/
echo "done $(date -u +%T) rc $rc $rc2 allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
