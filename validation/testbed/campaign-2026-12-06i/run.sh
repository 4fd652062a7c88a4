#!/bin/sh
# Held out, 2026-12-06i: DenseNet-121 with a GTX 1080 Ti's compute, Sync-PS with one PS, K = 1..8 at 1 Gbit/s, under
# CUBIC: the configuration of 2026-12-06g (missed, 5.28% / 9.07%, short at K >= 2 with the bulk incast's spread out),
# measured again with the pulls' incast (campaign.sh TENSORS), which 2026-12-06g did not have. Predicted by the recipe
# adopted on 2026-12-06h (first pull and spread out from the pulls' incast; commits 85a628c, d4119b4), unchanged:
# nothing is decided on this run; (b), the bulk incast's spread out without the first pull, is reported beside it.
# AGAIN=none, FEEDCHECK=0 as 2026-12-06g/h. validation/testbed/README.md, 2026-12-06i.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="densenet121-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-06i
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
