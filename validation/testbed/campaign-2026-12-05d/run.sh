#!/bin/sh
# Held out, 2026-12-05d: 2026-12-05c's plan again (stopped then on a slow machine before any training), one model
# only to fit the session: the kit's own campaign.sh with its defaults, the first campaign whose more launches measure
# the calls one at a time up to 4 MiB (SMALL_ALONE_MAX, docs/measure.md "2 and 4 MiB one at a time too"). ResNet-101
# with a T4's compute, never measured on the testbed, per layer and per tensor, K = 1..8 at 1 Gbit/s, BBR as every
# campaign so far (the root namespace's default here). The model is that of 011f9ca (unchanged since), committed
# before this ran; make_cases.py predicts every point from the microbenchmarks alone afterwards. AGAIN=none and
# FEEDCHECK=0 as 2026-12-05c. Started at a pace median of 12.5 us (probe.py --pace 20). validation/testbed/README.md,
# 2026-12-05d.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD)"
MODELS="resnet101-t4-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 \
  tools/measure/campaign.sh -o /tmp/campaign-2026-12-05d
echo "done $(date -u +%T)"
