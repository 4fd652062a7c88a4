#!/bin/sh
# Held out, 2026-12-07: Inception-v3 (a GTX 1080 Ti's compute; 95 MB, its many tensors give the PS's release its
# longest head start) and ResNet-34 (87 MB), Sync-PS with one PS, K = 1..8 at 1 Gbit/s, under CUBIC; neither has a
# Sync-PS series with this device. The pulls' incast is measured twice per model (campaign.sh TENSORS_HUB=both):
# the hub only sending (incast-tensors, as 2026-12-06h and i) and the hub posting each client's receives, one per
# tensor, before its sends to it (incast-tensors-recvs, measure.py incast --hub-recvs), as the PS of train.py posts
# a worker's gradient receives before it sends that worker its parameters.
# Why: on 2026-12-06h the training's first pull weighed 1.5-1.8 (GoogLeNet) at K = 4-8 against the microbenchmark's
# 1.2-1.3, and both cases were still short at K = 8 (-3.6 %, -5.4 %). A trial of the two hubs on GoogLeNet's tensors
# (6 repeats, N = 2, 4, 8; no training) gave first-pull weights 1.10, 1.24, 1.15 with the hub only sending and 1.29,
# 1.39, 1.33 with the receives posted first.
# The question, decided before it ran: each of the two cases is predicted (a) with --first-pull-weight and
# --flow-spread-out from incast-tensors-recvs and (b) from incast-tensors (the 2026-12-06h recipe), every other
# option the same. (a) is kept (make_cases.py takes incast-tensors-recvs where a campaign has it) if its mean error
# over the two cases is lower than (b)'s and neither case's mean error grows by more than 1 point; otherwise (b)
# stays. AGAIN=none, FEEDCHECK=0 as 2026-12-06h. validation/testbed/README.md, 2026-12-07.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="inception_v3-gtx1080ti-b32 resnet34-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none \
  FEEDCHECK=0 CC=cubic ALLOW_CC=1 TENSORS_HUB=both tools/measure/campaign.sh -o /tmp/campaign-2026-12-07
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
