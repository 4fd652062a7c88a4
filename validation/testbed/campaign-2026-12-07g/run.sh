#!/bin/sh
# Held out, 2026-12-07g: the first pull with two PS (commit 8ef9ece; docs/models.md §10.6 "The first pull"). On
# 2026-12-07f's two-PS ResNet-50 trainings every PS's first pull went to worker 0, and giving the two-PS series the
# first pull moved it 2.98% -> 2.40% (a diagnosis on seen data; the after-first spread alone 2.24%). ResNet-101 with a
# GTX 1080 Ti's compute (178 MB, 314 tensors; never measured with two PS), Sync-PS with two PS, K = 1..8 at 1 Gbit/s
# under CUBIC, kit defaults but LATE=0 (the late law is given to one PS only).
# The rule, decided before it runs: (a) the case as make_cases.py's recipe of this commit gives it (the first pull's
# weights and the spread of the flows after the first, from the model's pulls' incast); (b) the recipe before
# (make_cases.py of 76cd163: the bulk incast's spread out, no first pull). (a) stays the recipe if its mean error is
# not above (b)'s by more than 0.2 point and its max not above (b)'s by more than 1 point; otherwise make_cases.py
# gives the first pull to one PS again. (c), the after-first spread without the weights, is reported as a diagnosis
# only. AGAIN=none, FEEDCHECK=0 as 2026-12-07b-f. validation/testbed/README.md, 2026-12-07g.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet101-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:2" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic LATE=0 \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07g
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
