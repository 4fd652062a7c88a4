#!/bin/sh
# Held out, 2026-12-07e: the lead of docs/models.md §10.7 "A negative constant" (under CUBIC the transfers' marginal
# rate at 128-256 MiB lies below the slope from 1 MiB; B from the sizes of 32 MiB on moved the nine CUBIC Sync-PS
# series 2.98% -> 2.71%, a diagnosis on cases measured before it). ResNet-18 with a GTX 1080 Ti's compute (46 MB),
# Sync-PS with one PS, K = 1..8 at 1 Gbit/s under CUBIC (the configuration of 2026-12-06h, measured again), kit
# defaults, predicted by make_cases.py's recipe.
# The rule, decided before it runs: (a) the case as the recipe gives it (calibrate p2p from 1 MiB, B the free fit's
# slope); (b) the same platform with B from the sizes of 32 MiB on (calibrate --bandwidth-from 32MiB, nothing else
# changed). (b) becomes the recipe's, in a later session with every campaign's platform made again, only if its mean
# error is lower than (a)'s by 0.2 point or more and its max not higher by more than 1 point; otherwise the lead is
# closed as not carried by held-out data. AGAIN=none, FEEDCHECK=0 as 2026-12-07b-d.
# validation/testbed/README.md, 2026-12-07e.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="resnet18-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-07e
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
