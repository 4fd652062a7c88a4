#!/bin/sh
# Held out, 2026-12-07k: 2026-12-07j's question on DenseNet-121. Under CUBIC ResNet-50's K80 Async-PS series met
# (1.31% / 3.23%) where its four BBR series missed, long at K = 6-8: under CUBIC the incast's flows out are not slowed
# by the flows in (--ack-coupling-out 0.00; under BBR 0.66-0.82). DenseNet-121's BBR series (K80, 32 MB) were short at
# most K with the BBR coupling (two of four miss), so a smaller coupling shortens its prediction further unless its
# trainings run faster under CUBIC too: a test of 2026-12-07j's explanation where it could fail. DenseNet-121 with a
# K80's compute, Async-PS with one PS, K = 1..8 at 1 Gbit/s, 20 measured steps, CUBIC, kit defaults; the model and
# recipe of this commit unchanged. The rule, decided before it runs: the explanation (the BBR-era K80 Async-PS misses
# are BBR's, the recipe holds under CUBIC) is supported on DenseNet-121 if this series meets the target (mean <= 5%,
# max <= 15%); refuted if it misses. AGAIN=none, FEEDCHECK=0 as 2026-12-07b-j. validation/testbed/README.md,
# 2026-12-07k.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD) allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
MODELS="densenet121-k80-b32" RATES=1gbit ARCHS="ps-async:1" OVERLAPS=on AGAIN=none FEEDCHECK=0 CC=cubic ALLOW_CC=1 \
  tools/measure/campaign.sh -o /tmp/campaign-2026-12-07k
rc=$?
echo "done $(date -u +%T) rc $rc allowed: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
