#!/bin/sh
# Held out, 2026-12-05c: the kit's own campaign.sh with its defaults, the first campaign since the more launches
# measure the calls one at a time up to 4 MiB (SMALL_ALONE_MAX, docs/measure.md "2 and 4 MiB one at a time too").
# Two workload/compute pairs never measured on the testbed, ResNet-101 and ResNet-152 with a T4's compute, per layer
# and per tensor, K = 1..8 at 1 Gbit/s. The model is that of 011f9ca (unchanged since), committed before this ran;
# make_cases.py predicts every point from the microbenchmarks alone afterwards. AGAIN=none: nothing measured again
# after the trainings, to keep the campaign within the session (campaign.sh -n: 38 min for one attempt each).
# FEEDCHECK=0, as every 1 Gbit/s campaign ran (2026-12-05b's feed check read 94.4% / 86.4% against 95 / 90%: the
# 2 cores the ranks share, which the model takes from the microbenchmarks, docs/models.md §10.7 "Ranks sharing
# cores"). validation/testbed/README.md, 2026-12-05c.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD)"
MODELS="resnet101-t4-b32 resnet152-t4-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 \
  tools/measure/campaign.sh -o /tmp/campaign-2026-12-05c
echo "done $(date -u +%T)"
