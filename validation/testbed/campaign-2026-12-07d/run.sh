#!/bin/sh
# Held out, 2026-12-07d: the bandwidth of a calibration whose free constant is negative (docs/models.md §10.7 "A
# negative constant"). ResNet-101 with a GTX 1080 Ti's compute (178 MB, 314 tensors), Sync-PS with one PS, K = 1..8
# at 1 Gbit/s under CUBIC, never measured before, with the kit's defaults (campaign.sh: p2p, stream, incast, pulls'
# and late-flow incast) and predicted by make_cases.py's recipe.
# The rule, decided before it runs: (a) the case as the recipe gives it with sgdsim calibrate as of this commit (B the
# slope of the fit with c free, c written as 0) and (b) the same with B refitted at c = 0 (calibrate before it:
# the platform made again by the previous sgdsim, nothing else changed). Expected: (a) longer by about 1%, its
# K = 1 error closer to 0 than (b)'s. (a) stays the rule unless its mean error exceeds (b)'s by more than 0.5 point;
# then calibrate goes back to the refit and both cases say so. AGAIN=none, FEEDCHECK=0 as 2026-12-07b/c.
# validation/testbed/README.md, 2026-12-07d.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet101-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07d
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
