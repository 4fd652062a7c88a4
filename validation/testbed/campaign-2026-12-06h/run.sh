#!/bin/sh
# Held out, 2026-12-06h: GoogLeNet (173 tensors, 26.5 MB) and ResNet-18 (62 tensors, 46.8 MB) with a GTX 1080 Ti's
# compute, Sync-PS with one PS, K = 1..8 at 1 Gbit/s, under CUBIC; no series of either with this device. The first
# campaign with the pulls' incast (campaign.sh TENSORS: per model, the hub sends N clients the model's tensors,
# client 1's first, as the PS releases its shard; commit of this file), from which make_cases.py takes the Sync-PS
# cases' --first-pull-weight (per N) and --flow-spread-out (the flows after the first), fit_incast.py --first-pull.
# Why: a diagnosis of 2026-12-06g's DenseNet-121 training (its per-worker timeline, tools/measure/train.py
# pull_ends_s, measured 22:36-22:47 UTC today): the first worker the PS releases ends its pull 0.3-0.9 s before the
# others, which end together, where the bulk incast's spread (0.56) spreads every pull at random.
# The question, decided before it ran: each of the two cases is predicted (a) with the pulls' incast's options and
# (b) without them (the bulk incast's --flow-spread-out, no first pull: the recipe of 2026-12-06g). (a) is kept if
# its mean error over the two cases is lower than (b)'s and neither case's mean error grows by more than 1 point.
# AGAIN=none, FEEDCHECK=0 as 2026-12-06g. validation/testbed/README.md, 2026-12-06h.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="googlenet-gtx1080ti-b32 resnet18-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none \
  FEEDCHECK=0 CC=cubic ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-06h
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
