#!/bin/sh
# Held out, 2026-12-05b: the kit's own campaign.sh with its defaults, the first campaign since its three changes of
# 2026-12-05 (the more launches measure 1 MiB and the long queue up to 1 MiB, make_cases.py takes each size's median
# over them; each launch lowers the pace reference to its own idle readings). Two workload/compute pairs never
# measured on the testbed, ResNet-34 with a GTX 1080 Ti's compute and ResNet-18 with a T4's, per layer and per tensor,
# K = 1..8 at 1 Gbit/s. The model is that of 011f9ca, committed before this ran; make_cases.py predicts every point
# from the microbenchmarks alone afterwards. AGAIN=none: nothing measured again after the trainings, to keep the
# campaign within the session (campaign.sh -n: 32 min for one attempt each). FEEDCHECK=0, as every 1 Gbit/s campaign
# ran: the first attempt (12:15 UTC) stopped at the feed check (lone transfer 94.4% of TCP's payload rate, 8-rank
# all-reduce 86.4% of the line's speed, against 95 and 90%), the 2 cores the ranks share, which the model takes from
# the microbenchmarks (docs/models.md §10.7 "Ranks sharing cores"). validation/testbed/README.md, 2026-12-05b.
set -u
cd "$(dirname "$0")/../../.." # the repository
echo "start $(date -u +%T) kernel $(uname -r) commit $(git rev-parse --short HEAD)"
MODELS="resnet34-gtx1080ti-b32 resnet18-t4-b32" RATES=1gbit ARCHS="ring:layer ring:tensor" OVERLAPS=on AGAIN=none FEEDCHECK=0 \
  tools/measure/campaign.sh -o validation/testbed/campaign-2026-12-05b/data
echo "done $(date -u +%T)"
