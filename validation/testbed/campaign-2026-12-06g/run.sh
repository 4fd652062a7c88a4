#!/bin/sh
# Held out, 2026-12-06g: DenseNet-121 (364 tensors, 243 of 4 KiB or less) with a GTX 1080 Ti's compute, Sync-PS with
# one PS, K = 1..8 at 1 Gbit/s, under CUBIC as the campaigns since 2026-12-05e; the first PS campaign with the small
# messages' stream (campaign.sh STREAM, commit ffe3f0d), from which make_cases.py calibrates the PS platform's
# per-message cost (calibrate --stream). No PS series had a GTX 1080 Ti's compute. The question, decided before it
# ran (ffe3f0d): predicted with the stream's per-message cost and without it (the platform of p2p.csv alone), does
# the cost move K = 1's error towards 0 without the series' mean error growing? If so it is kept. The model is that
# of c893276 (the PS receiver with costs no longer holds the wire), committed before this ran. AGAIN=none, FEEDCHECK=0
# as 2026-12-06c. validation/testbed/README.md, 2026-12-06g.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="densenet121-gtx1080ti-b32" RATES=1gbit ARCHS="ps-sync:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic \
  ALLOW_CC=1 tools/measure/campaign.sh -o /tmp/campaign-2026-12-06g
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
