#!/bin/sh
# The measurement campaign of issue #19 on an emulated cluster (docs/measure.md): per rate, a feed check (is this
# machine's CPU fast enough for the rate?), the p2p and (with a ring) all-reduce microbenchmarks (for `sgdsim calibrate`), then
# emulated training of each model with each architecture for K = 1..WORKERS. Prints an estimate of the duration
# first and progress with the time left as it goes. Run it as root on a quiet machine (nothing else running: the
# emulation shares its CPUs with everything else, and a busy CPU shows up as a slow network).
#
#   tools/measure/campaign.sh [-o DIR] [-n]            # -n: print the plan and the estimate, run nothing
#
# Settings (environment variables, defaults in brackets):
#   MODELS   workloads/ names without .xml, or     [resnet18-k80-b32 googlenet-k80-b32 resnet50-k80-b32]
#            paths of workload files
#   RATES    emulated NIC rates, tc syntax        [1gbit 2.5gbit]
#   WORKERS  largest K (K = 1..WORKERS)            [8]
#   ARCHS    ARCH:PS or ring:GRANULARITY           [ps-sync:1 ps-sync:2 ps-async:1 ps-async:2 ring:tensor
#                                                   ring:layer ring:ddp]; ps-sync-pv:PS is ps-sync with
#                                                   --ps-reads per-variable
#   OVERLAPS on and/or off                         [on off]
#   STEPS, WARMUP, REPEAT                          [5, 2, 1]
#   ASYNC_STEPS measured steps of a ps-async run   [20] (5-step means of desynchronized workers scatter by more
#                                                       than the 5% target: 6.2% mean, 19% at K = 8, validation/testbed/
#                                                       README, 'Held out: Async-PS on ResNet-34 and ...')
#   SCALE    --compute-scale                       [1]
#   MICRO    1: run the microbenchmarks            [1]
#   MIN_SIZE smallest all-reduce size measured      [4KiB] (smaller calls are charged its time; measuring down
#                                                   to 64B gained nothing on campaign 2026-11-30d, docs/measure.md §3)
#   QUEUED   calls launched together in the back-  [16] (0: not measured; rows allreduce_queued, for calibrate
#            to-back all-reduce microbenchmark          --queued; only when ARCHS has a ring)
#   QUEUED_LONG calls launched together in a   [128] (0: not measured; sizes MIN_SIZE..4MiB into
#            second back-to-back microbenchmark,        RATE/allreduce-queued-long.csv, whose rows make_cases.py takes
#            as long a queue as a step's                over QUEUED's: at K = 8 128 calls cost 1.05-1.37 times 16 per
#                                                       call, validation/testbed/README.md 2026-12-04b; only with QUEUED)
#   INCAST   1: the incast microbenchmark when     [1] (0: not measured; N clients to and from one hub, 16 and 64
#            ARCHS has a PS                             MiB flows: the PS cases' --flow-spread-in/out and
#                                                       --ack-coupling-* come from it, tools/measure/fit_incast.py)
#   LATE     1: a lone flow into the hub started  [1] (0: not measured; incast --patterns staggered-in --late-
#            late beside N established flows out,       flows 1, N = 2, 4, 8, 16 and 64 MiB, into RATE/incast-
#            when ARCHS has ps-sync                     late.csv: make_cases.py gives the Sync-PS cases --ack-
#                                                       coupling-late-in from it, fit_incast.py; a push joining a
#                                                       PS's running pulls, docs/models.md §10.6 "Start order under
#                                                       CUBIC"; since 2026-12-07b)
#   STREAM   1: the small messages' stream when    [1] (0: not measured; p2p --sizes 256B..4MiB --stream 64 between 2
#            ARCHS has a PS                             hosts into RATE/p2p-stream.csv: make_cases.py takes the PS
#                                                       platforms' per-message cost from it, calibrate --stream;
#                                                       docs/models.md §10.5; since 2026-12-06g)
#   TENSORS  1: the pulls' incast when ARCHS has  [1] (0: not measured; per model, the hub sends N clients the
#            ps-sync                                    workload's tensors as a PS releases its shard, client 1's
#                                                       first: incast-out --flow-tensors, into RATE/MODEL/incast-
#                                                       tensors.csv; make_cases.py takes the ps-sync cases' --first-
#                                                       pull-weight and --flow-spread-out from it, fit_incast.py
#                                                       --first-pull; docs/models.md §10.6 "The first pull";
#                                                       since 2026-12-07)
#   TENSORS_HUB how the hub of the pulls'       [sends] (sends: it only sends, into incast-tensors.csv, which
#            incast posts: sends, recvs or both        make_cases.py takes; recvs: before its sends to a client it
#                                                       posts that client's receives, one per tensor, as a PS posts a
#                                                       worker's gradient receives before its parameters (measure.py
#                                                       incast --hub-recvs), into incast-tensors-recvs.csv; both:
#                                                       one after the other. recvs predicted 2026-12-07's two cases
#                                                       worse, 5.02% mean against 4.16%, validation/testbed/README.md)
#   TENSORS_REPEATS measured repeats of the     [10] (1-99; a first flow's weight scatters more over 5 repeats
#            pulls' incast per N                        than the bulk flows' spread)
#   SMALL_LAUNCHES launches of the all-reduce      [3] (1: one launch, as before 2026-12-01r; the first launch
#            microbenchmarks' sizes up to 1 MiB         measures every size, the others MIN_SIZE..1MiB into
#            (one at a time and back to back, in       RATE/small/ (..512KiB and without the long queue before
#            both queues)                               2026-12-05); make_cases.py takes each size's median over
#                                                       the launches: one launch's transient state, as K = 2's
#                                                       small calls in 2026-12-01q or 2026-12-05 or the 1 MiB calls
#                                                       of 2026-12-02e, no longer sets the prediction)
#   SMALL_ALONE_MAX largest size of the calls one  [4MiB] (1MiB or more; the queues' stay at 1 MiB: at 2-4 MiB
#            at a time in those more launches          they would double the launches' time. 2026-12-05's 2 MiB
#                                                       call at K = 2 read 1.19 times the line through 1 and 4 MiB
#                                                       in its one launch, as 6 of 57 first launches read some
#                                                       2 MiB call; since 2026-12-05c; 1MiB: as before)
#   AGAIN    microbenchmarks measured again after  [p2p allreduce] (none: nothing again; any of p2p allreduce
#            the rate's trainings, into RATE/again/     allreduce-queued incast that the rate measured before):
#                                                       the testbed's drift over the campaign, compared by
#                                                       tools/measure/drift.py (docs/measure.md "Measured again")
#   FEEDCHECK 1: skip a rate the CPU cannot feed   [1] (0: measure it anyway, and say so in the log)
#   PIN      1: each rank pinned to one core       [1] (launch --pin, rank r on core r mod the cores: K = 2's small
#            (round robin); 0: the kernel places them   calls depend on the placement, docs/measure.md §5; campaigns
#                                                       before 2026-11-30f ran with 0)
#   RT       real-time priority of the ranks       [0] (launch --rt: SCHED_RR, a rank woken by a message runs at
#            (1-99; 0: the default scheduler)           once; docs/measure.md §5)
#   YIELD    1: a failed try-lock yields its core  [1] (launch --loop-yield: Gloo's event loop no longer keeps the
#            in every rank; 0: Gloo as it is            lock holder off a shared core for a scheduler tick;
#                                                       docs/measure.md §5; campaigns before 2026-11-30i ran with 0)
#   CC       TCP congestion control of every     [the root namespace's] (emulate --cc: Reno or BBR in a namespace
#            emulated host                           here, CUBIC after a global sysctl -w net.ipv4.tcp_allowed_
#                                                       congestion_control; every campaign to 2026-12-05d ran BBR,
#                                                       whose pacing slows Gloo's segments just over 64 KiB at K = 6-8,
#                                                       docs/measure.md "The congestion control")
#   ALLOW_CC 1: add CC to the global allowed     [0] (emulate up --allow-cc; puts the list back at emulate down,
#            list for the campaign (CUBIC)              on exit or on INT/TERM; before 2026-12-06b the testbed's run.sh
#                                                       scripts did this step themselves)
#   SGDSIM_PACE_REFERENCE_US  the machine's     [read: the lower quartile of a minute of probe.py --pace readings]
#            pace, us: every row and configuration waits for it and is measured again when read 25% slower
#            (docs/measure.md "Is the machine at its pace?"; campaigns before 2026-12-02g read no pace, those
#            before 2026-12-03b took the minute's fastest reading; since 2026-12-05 each launch lowers it to the
#            lower quartile of its own idle readings, as a minute can fall in a slow spell)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out="measure-campaign-$(date +%Y%m%d-%H%M%S)"
dry=0
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -n) dry=1; shift ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p;}' "$0"; exit 0 ;;  # the header comment, however long
    *) echo "campaign.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
MODELS=${MODELS:-"resnet18-k80-b32 googlenet-k80-b32 resnet50-k80-b32"}
RATES=${RATES:-"1gbit 2.5gbit"}
WORKERS=${WORKERS:-8}
ARCHS=${ARCHS:-"ps-sync:1 ps-sync:2 ps-async:1 ps-async:2 ring:tensor ring:layer ring:ddp"}
OVERLAPS=${OVERLAPS:-"on off"}
STEPS=${STEPS:-5}
ASYNC_STEPS=${ASYNC_STEPS:-20}
WARMUP=${WARMUP:-2}
REPEAT=${REPEAT:-1}
SCALE=${SCALE:-1}
MICRO=${MICRO:-1}
MIN_SIZE=${MIN_SIZE:-4KiB}
QUEUED=${QUEUED:-16}
QUEUED_LONG=${QUEUED_LONG:-128}
FEEDCHECK=${FEEDCHECK:-1}
INCAST=${INCAST:-1}
LATE=${LATE:-1}
STREAM=${STREAM:-1}
TENSORS=${TENSORS:-1}
TENSORS_REPEATS=${TENSORS_REPEATS:-10}
TENSORS_HUB=${TENSORS_HUB:-sends}
PIN=${PIN:-1}
RT=${RT:-0}
YIELD=${YIELD:-1}
AGAIN=${AGAIN-"p2p allreduce"}
SMALL_LAUNCHES=${SMALL_LAUNCHES:-3}
SMALL_ALONE_MAX=${SMALL_ALONE_MAX:-4MiB}
CC=${CC:-}
ALLOW_CC=${ALLOW_CC:-0}
hosts=$((WORKERS + 2))
python=/usr/bin/python3
[ -x $python ] || python=python3
case $CC in
  *[!a-z0-9_]*) echo "campaign.sh: CC='$CC': the name of a TCP congestion control (reno, cubic, bbr), or empty for the root namespace's" >&2; exit 2 ;;
esac
case $ALLOW_CC in
  0) allow_cc= ;;
  1) [ -n "$CC" ] || { echo "campaign.sh: ALLOW_CC='1' needs CC: the congestion control to allow" >&2; exit 2; }
     allow_cc=--allow-cc ;;
  *) echo "campaign.sh: ALLOW_CC='$ALLOW_CC': 0 or 1" >&2; exit 2 ;;
esac
case $PIN in
  0) pin= ;;
  1) pin=--pin ;;
  *) echo "campaign.sh: PIN='$PIN': 0 or 1" >&2; exit 2 ;;
esac
case $RT in
  0) rt= ;;
  [1-9]|[1-9][0-9]) rt="--rt $RT" ;;
  *) echo "campaign.sh: RT='$RT': a real-time priority, 1 to 99 (0: the default scheduler)" >&2; exit 2 ;;
esac
case $YIELD in
  0) yield= ;;
  1) yield=--loop-yield ;;
  *) echo "campaign.sh: YIELD='$YIELD': 0 or 1" >&2; exit 2 ;;
esac
case $INCAST in
  0|1) ;;
  *) echo "campaign.sh: INCAST='$INCAST': 0 or 1" >&2; exit 2 ;;
esac
case $LATE in
  0|1) ;;
  *) echo "campaign.sh: LATE='$LATE': 0 or 1" >&2; exit 2 ;;
esac
case $TENSORS_REPEATS in
  [1-9]|[1-9][0-9]) ;;
  *) echo "campaign.sh: TENSORS_REPEATS='$TENSORS_REPEATS': 1 to 99" >&2; exit 2 ;;
esac
case $TENSORS in
  0|1) ;;
  *) echo "campaign.sh: TENSORS='$TENSORS': 0 or 1" >&2; exit 2 ;;
esac
case $TENSORS_HUB in
  sends|recvs|both) ;;
  *) echo "campaign.sh: TENSORS_HUB='$TENSORS_HUB': sends, recvs or both" >&2; exit 2 ;;
esac
case $STREAM in
  0|1) ;;
  *) echo "campaign.sh: STREAM='$STREAM': 0 or 1" >&2; exit 2 ;;
esac
[ "$AGAIN" = none ] && AGAIN=
for m in $AGAIN; do
  case $m in
    p2p|allreduce|allreduce-queued|incast) ;;
    *) echo "campaign.sh: AGAIN='$AGAIN': microbenchmarks among p2p allreduce allreduce-queued incast (none: nothing measured again)" >&2; exit 2 ;;
  esac
done
for setting in "STEPS=$STEPS" "ASYNC_STEPS=$ASYNC_STEPS"; do
  value=${setting#*=}
  case $value in ''|*[!0-9]*) value=0 ;; esac  # not a count: as bad as 0 (00 is 0 too)
  [ "$value" -ge 1 ] || { echo "campaign.sh: ${setting%%=*}='${setting#*=}': a count of steps, 1 or more" >&2; exit 2; }
done
case $QUEUED in
  ''|*[!0-9]*) echo "campaign.sh: QUEUED='$QUEUED': a count of calls, 0 or more (0: not measured)" >&2; exit 2 ;;
esac
case $QUEUED_LONG in
  ''|*[!0-9]*) echo "campaign.sh: QUEUED_LONG='$QUEUED_LONG': a count of calls, 0 or more (0: not measured)" >&2; exit 2 ;;
esac
case $SMALL_LAUNCHES in
  ''|*[!0-9]*|0|00*) echo "campaign.sh: SMALL_LAUNCHES='$SMALL_LAUNCHES': a count of launches, 1 or more" >&2; exit 2 ;;
esac
# A size setting read with the kit's own parser (a size with its unit, as sgdsim reads one); an error names the
# setting. $1: its name, $2: its value, $3: the least it may be, in bytes, $4: that least in words.
size_bytes() {
  $python - "$src" "$@" <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tools", "measure"))
import plan
name, text, least, least_text = sys.argv[2:6]
try:
    size = int(text) if text.isdigit() else int(plan.parse_quantity(text, "size"))
except ValueError as e:
    sys.exit(f"campaign.sh: {name}={e}")
if size < int(least):
    sys.exit(f"campaign.sh: {name}='{text}': must be {least_text} or more")
print(size)
EOF
}
MIN_SIZE_BYTES=$(size_bytes MIN_SIZE "$MIN_SIZE" 1 "1 byte") || exit 2
SMALL_ALONE_MAX_BYTES=$(size_bytes SMALL_ALONE_MAX "$SMALL_ALONE_MAX" 1048576 1MiB) || exit 2

# The plan, one line per run, and its estimated seconds: compute plus the bytes each worker moves at 95% of the
# rate (PS: its shard down and up for each of the K workers a PS serves; ring: 2(K-1)/K of the model), plus 10 s
# per launch, one attempt per row and configuration, overlap ignored. Not a bound: the waits for the machine's
# pace and the attempts measured again (docs/measure.md §2) made 2026-12-02h and 2026-12-03 take 3-4 times it.
plan=$(MODELS=$MODELS RATES=$RATES WORKERS=$WORKERS ARCHS=$ARCHS OVERLAPS=$OVERLAPS STEPS=$STEPS ASYNC_STEPS=$ASYNC_STEPS WARMUP=$WARMUP \
  REPEAT=$REPEAT SCALE=$SCALE MICRO=$MICRO MIN_SIZE_BYTES=$MIN_SIZE_BYTES QUEUED=$QUEUED QUEUED_LONG=$QUEUED_LONG INCAST=$INCAST LATE=$LATE STREAM=$STREAM TENSORS=$TENSORS TENSORS_REPEATS=$TENSORS_REPEATS TENSORS_HUB=$TENSORS_HUB AGAIN=$AGAIN \
  SMALL_LAUNCHES=$SMALL_LAUNCHES SMALL_ALONE_MAX_BYTES=$SMALL_ALONE_MAX_BYTES \
  $python - "$src" <<'EOF'
import os, sys
src = sys.argv[1]
sys.path.insert(0, os.path.join(src, "tools", "measure"))
import plan
env = os.environ
k_max, warmup = int(env["WORKERS"]), int(env["WARMUP"])
import importlib.machinery, importlib.util
loader = importlib.machinery.SourceFileLoader("emulate", os.path.join(src, "tools", "measure", "emulate"))
em = importlib.util.module_from_spec(importlib.util.spec_from_loader("emulate", loader))
loader.exec_module(em)  # for its rate parser
min_size = int(env["MIN_SIZE_BYTES"])
for rate in env["RATES"].split():
    B = 0.95 * em.parse_rate(rate) / 8
    micro = []  # the microbenchmarks' rows, without the rate: printed first, and those of AGAIN again at the end
    if env["MICRO"] == "1":
        sizes = [4096 * 2 ** i for i in range(17)]
        ar_sizes = [s for s in (min_size * 2 ** i for i in range(40)) if s <= 256 * 2 ** 20]
        p2p = sum(7 * s / B + 7 * 1e-3 for s in sizes) + 10

        def alone_s(sizes):  # one launch of the calls one at a time: 7 per size and node count, 10 s to start
            return sum(7 * 2 * (k - 1) / k * s / B + 7 * 2e-3 for k in range(2, k_max + 1) for s in sizes) + 10

        def queued_s(sizes, calls=None):  # one launch of the back-to-back calls: 4 groups of QUEUED per size and K
            calls = calls or queued
            return sum(4 * calls * (2 * (k - 1) / k * s / B + 1e-3) for k in range(2, k_max + 1) for s in sizes) + 10
        queued = int(env["QUEUED"])
        # The all-reduce microbenchmarks where a ring is to be predicted (a PS's cases read p2p's and incast's only:
        # make_cases.py; before 2026-12-06g every campaign measured them).
        ring = any(a.startswith("ring:") for a in env["ARCHS"].split())
        ps = any(a.startswith("ps-") for a in env["ARCHS"].split())
        sync_ps = any(a.startswith("ps-sync:") for a in env["ARCHS"].split())  # Sync-PS reading its shard
        queued_too = queued > 0 and ring
        ar = alone_s(ar_sizes)
        micro.append(f"p2p - - {p2p:.0f}")
        if env["STREAM"] == "1" and ps:
            # Each size alone and STREAM_MESSAGES back to back, 2 + 5 times (microbench.py p2p --stream), 10 s to
            # start; the row carries the sizes and the messages to the launch below.
            n = plan.STREAM_MESSAGES
            stream = sum(7 * (n + 1) * (s / B + 1e-4) for s in plan.STREAM_SIZES_BYTES) + 10
            micro.append(f"p2p-stream {','.join(map(str, plan.STREAM_SIZES_BYTES))} {n} {stream:.0f}")
        if ring:
            micro.append(f"allreduce {min_size} - {ar:.0f}")
        if queued_too:
            q = queued_s([s for s in ar_sizes if s <= 32 * 2 ** 20])
            micro.append(f"allreduce-queued {min_size} - {q:.0f}")
            long_calls = int(env["QUEUED_LONG"])
            long_sizes = [s for s in ar_sizes if s <= 4 * 2 ** 20]
            if long_calls > 0 and long_sizes:
                micro.append(f"allreduce-queued-long {min_size} - {queued_s(long_sizes, long_calls):.0f}")
        # The sizes up to 1 MiB again in SMALL_LAUNCHES - 1 more launches (one at a time up to SMALL_ALONE_MAX, and
        # back to back where measured, in both queues where the long one is): the row's fourth column says which
        # back-to-back ones.
        small = [s for s in ar_sizes if s <= 2 ** 20]
        alone = [s for s in ar_sizes if s <= int(env["SMALL_ALONE_MAX_BYTES"])]
        extra = int(env["SMALL_LAUNCHES"]) - 1
        if ring and extra > 0 and alone:
            small_queued = queued_too and bool(small)  # the back-to-back small calls: sizes up to 1 MiB
            long_too = small_queued and int(env["QUEUED_LONG"]) > 0
            one = (alone_s(alone) + (queued_s(small) if small_queued else 0)
                   + (queued_s(small, int(env["QUEUED_LONG"])) if long_too else 0))
            which = "queued+long" if long_too else "queued" if small_queued else "-"
            micro.append(f"allreduce-small {min_size} {which} {extra * one:.0f}")
        incast_nodes = plan.incast_nodes(k_max)
        if env["INCAST"] == "1" and ps and incast_nodes:
            # Five patterns, each 1 + 5 repeats of N flows of each size (both ways at once for incast-duplex); the
            # row carries the client counts and the sizes to the launch below.
            inc = sum(6 * 5 * n * m * 2 ** 20 / B + 6 * 5 * 0.5 for n in incast_nodes
                      for m in plan.INCAST_SIZES_MIB) + 10
            micro.append(f"incast {','.join(map(str, incast_nodes))} "
                         f"{','.join('%dMiB' % m for m in plan.INCAST_SIZES_MIB)} {inc:.0f}")
        late_nodes = [n for n in incast_nodes if n in plan.LATE_NODES or n == k_max]
        # Only the Sync-PS series take the late flow's coupling (make_cases.py --late-in, 2026-12-07b's rule).
        if env["LATE"] == "1" and sync_ps and late_nodes:
            # staggered-in with one late flow: per N and size, 1 + 5 repeats of the late flow alone (S bytes), the N
            # established flows alone (2 S each), then both; the row carries the client counts and the sizes.
            late = sum(6 * (m + 4 * n * m) * 2 ** 20 / B + 6 * 3 * 0.5 for n in late_nodes
                       for m in plan.INCAST_SIZES_MIB) + 10
            micro.append(f"incast-late {','.join(map(str, late_nodes))} "
                         f"{','.join('%dMiB' % m for m in plan.INCAST_SIZES_MIB)} {late:.0f}")
        # Only the Sync-PS series reading their shard take the first pull (make_cases.py).
        if env["TENSORS"] == "1" and sync_ps and incast_nodes:
            # Per model, incast-out of its tensors: 1 + TENSORS_REPEATS repeats of N flows of the model's bytes;
            # the row carries the client counts and the model to the launch below.
            for model in env["MODELS"].split():
                path = model if model.endswith(".xml") else os.path.join(src, "workloads", model + ".xml")
                mb = plan.parse_workload(path).model_bytes()
                t = sum((1 + int(env["TENSORS_REPEATS"])) * (n * mb / B + 0.5) for n in incast_nodes) + 10
                hub = env["TENSORS_HUB"]
                for name in (["incast-tensors"] if hub != "recvs" else []) + \
                        (["incast-tensors-recvs"] if hub != "sends" else []):
                    micro.append(f"{name} {','.join(map(str, incast_nodes))} {model} {t:.0f}")
    for row in micro:
        print(f"{rate} micro {row}")
    for model in env["MODELS"].split():
        wl = plan.parse_workload(model if model.endswith(".xml") else os.path.join(src, "workloads", model + ".xml"))
        tc = float(env["SCALE"]) * sum(l.fwd_s + l.bwd_s for l in wl.layers) + wl.ps_update_s
        m = wl.model_bytes()
        for arch in env["ARCHS"].split():
            name, param = arch.split(":")
            for overlap in env["OVERLAPS"].split():
                if name == "ring" and overlap == "off" and param != "ddp":
                    continue  # ring without overlap: DDP buckets only, the others add nothing new
                total = 10.0
                steps = warmup + int(env["ASYNC_STEPS" if name == "ps-async" else "STEPS"])
                for k in range(1, k_max + 1):
                    if name == "ring":
                        comm = 2 * (k - 1) / k * m / B
                    else:
                        comm = 2 * k * m / int(param) / B
                    total += steps * (tc + comm) * (1.5 if name == "ps-async" else 1.0) + 2
                print(f"{rate} {model} {name} {param} {overlap} {total * int(env['REPEAT']):.0f}")
    for row in micro:  # in the order measured before
        if row.split()[0] in env["AGAIN"].split():
            print(f"{rate} again {row}")
EOF
) || { echo "campaign.sh: cannot read the plan (workloads, tools/measure/plan.py)" >&2; exit 2; }
total_s=$(echo "$plan" | awk '{s += $NF} END {print s}')
runs=$(echo "$plan" | wc -l)
feed_s=0
[ "$FEEDCHECK" = 1 ] && feed_s=$(( $(echo $RATES | wc -w) * 90 ))
echo "campaign: $runs runs on $hosts emulated hosts, rates: $RATES; models: $MODELS${pin:+; ranks pinned (PIN=1)}${rt:+; ranks under SCHED_RR (RT=$RT)}${yield:+; try-locks yield (YIELD=1)}${CC:+; congestion control $CC}${allow_cc:+ (allowed for the campaign)}"
echo "campaign: estimated $(( (${total_s%.*} + feed_s) / 60 )) min for one attempt each (pace waits and repeated attempts took 3-4 times it on 2026-12-02h and 2026-12-03), output $out"
if [ $dry = 1 ]; then
  echo "$plan" | awk '{printf "  %-8s %-22s %-9s %-7s %-4s ~%d s\n", $1, $2, $3, $4, $5, $6}'
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "campaign.sh: must run as root" >&2; exit 2; }
mkdir -p "$out" || exit 2
log="$out/campaign.log"
echo "$plan" > "$out/plan.txt"
# The machine's pace (docs/measure.md "Is the machine at its pace?"): the lower quartile of a minute of readings,
# four a second, the slower core's each; every launch judges its own readings against it (kit.read_pace).
if [ -z "${SGDSIM_PACE_REFERENCE_US:-}" ]; then
  SGDSIM_PACE_REFERENCE_US=$("$here/probe.py" --pace 60 --pace-period 0.25 --reference)
fi
export SGDSIM_PACE_REFERENCE_US
echo "campaign: the machine's pace, the reference: ${SGDSIM_PACE_REFERENCE_US:-not read} us" | tee -a "$log"
start=$(date +%s)
done_s=0
n=0
progress() { # $1: what just finished, $2: its estimated seconds
  n=$((n + 1)); done_s=$((done_s + $2))
  now=$(date +%s); el=$((now - start))
  left=$(( (${total_s%.*} - done_s) * (el + 1) / (done_s + 1) ))
  echo "campaign: [$n/$runs] $1 done; elapsed $((el / 60)) min, about $((left / 60)) min left"
}
for rate in $RATES; do
  rdir="$out/$rate"
  mkdir -p "$rdir"
  if [ "$FEEDCHECK" != 0 ]; then
    "$here/feedcheck" --rates "$rate" --hosts "$WORKERS" --out "$rdir/feedcheck" < /dev/null | tee -a "$log"
    # The CSV's lines end in CR LF (Python's csv module): strip the CR before matching the verdict.
    if ! tr -d '\r' < "$rdir/feedcheck/feedcheck.csv" 2>/dev/null | grep -q ",yes$"; then
      if [ "$FEEDCHECK" = 1 ]; then
        echo "campaign: $rate is CPU-bound on this machine: skipped (FEEDCHECK=0 measures it anyway)" | tee -a "$log"
        continue
      fi
      echo "campaign: $rate is CPU-bound on this machine: measured anyway (FEEDCHECK=0)" | tee -a "$log"
    fi
  fi
  # One cluster per rate; each measurement is its own launch (the runs below read it from the plan).
  echo "$plan" | grep "^$rate " > "$rdir/plan.txt"
  "$here/emulate" up --hosts "$hosts" --rate "$rate" ${CC:+--cc "$CC"} $allow_cc | tee -a "$log" || exit 1
  trap '"$here/emulate" down; exit 130' INT TERM
  while read -r r model name param overlap est; do
    if [ "$model" = micro ] || [ "$model" = again ]; then
      mdir=$rdir  # where the microbenchmark's CSV goes: RATE/, or RATE/again/ after the trainings
      [ "$model" = again ] && mdir="$rdir/again" && mkdir -p "$mdir"
      if [ "$name" = p2p ]; then
        "$here/launch" $pin $rt $yield --hosts 2 --logs "$rdir/logs" -- p2p --out "$mdir/p2p.csv" --force --repeats 5 < /dev/null >> "$log" 2>&1
      elif [ "$name" = p2p-stream ]; then
        # Small messages back to back on one connection: each one's time beyond the first is the per-message cost
        # a PS's connection pays (make_cases.py: calibrate --stream, docs/models.md §10.5).
        # The plan's row gives the sizes (param) and the messages per stream (its overlap column).
        "$here/launch" $pin $rt $yield --hosts 2 --logs "$rdir/logs" -- p2p --sizes "$param" --stream "$overlap" \
          --out "$mdir/p2p-stream.csv" --force --repeats 5 < /dev/null >> "$log" 2>&1
      elif [ "$name" = allreduce ]; then
        "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce --out "$mdir/allreduce.csv" --force \
          --min-size "$param" --repeats 5 < /dev/null >> "$log" 2>&1
      elif [ "$name" = allreduce-small ]; then
        # The sizes up to 1 MiB in more launches (SMALL_LAUNCHES), launch 2 on, the calls one at a time up to
        # SMALL_ALONE_MAX: make_cases.py takes each size's median over the launches, the first one's included
        # (docs/measure.md §2, "Small sizes over launches").
        mkdir -p "$mdir/small"
        status=0
        i=2
        while [ "$i" -le "$SMALL_LAUNCHES" ]; do
          "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce \
            --out "$mdir/small/allreduce-$i.csv" --force --min-size "$param" \
            --max-size "$SMALL_ALONE_MAX_BYTES" --repeats 5 \
            < /dev/null >> "$log" 2>&1 || status=$?
          if [ "$overlap" != - ]; then
            "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce --queued "$QUEUED" \
              --out "$mdir/small/allreduce-queued-$i.csv" --force --min-size "$param" --max-size 1MiB \
              --repeats 3 --warmup 1 < /dev/null >> "$log" 2>&1 || status=$?
          fi
          if [ "$overlap" = queued+long ]; then
            # The long queue's small sizes too: its rows replace the 16 calls' (2026-12-05's 128 calls of 4 KiB at
            # K = 2 took 0.76 ms each in its one launch, the 16 calls' 0.22; docs/measure.md "Small sizes over launches").
            "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce --queued "$QUEUED_LONG" \
              --out "$mdir/small/allreduce-queued-long-$i.csv" --force --min-size "$param" --max-size 1MiB \
              --repeats 3 --warmup 1 < /dev/null >> "$log" 2>&1 || status=$?
          fi
          i=$((i + 1))
        done
        what="$rate $name microbenchmark, $((SMALL_LAUNCHES - 1)) more launches"
        [ $status = 0 ] || echo "campaign: $what FAILED (exit $status), see $log" | tee -a "$log"
        progress "$what" "$est"
        continue  # the tail below would read the status of the last launch only
      elif [ "$name" = incast ]; then
        # The PS's NIC with N clients in, out and both ways (docs/measure.md "Incast"): WORKERS clients and a hub;
        # the plan's row gives the client counts (param) and the sizes (its overlap column).
        "$here/launch" $pin $rt $yield --hosts $((WORKERS + 1)) --logs "$rdir/logs" -- incast \
          --patterns incast-in,incast-out,incast-duplex,incast-mixed,outcast-mixed \
          --nodes "$param" --sizes "$overlap" --out "$mdir/incast.csv" --force < /dev/null >> "$log" 2>&1
      elif [ "$name" = incast-late ]; then
        # A lone flow into the hub started late beside N established flows out of it, as a push joins a PS's running
        # pulls (docs/models.md §10.6 "Start order under CUBIC"); the row gives the client counts and the sizes.
        "$here/launch" $pin $rt $yield --hosts $((WORKERS + 1)) --logs "$rdir/logs" -- incast \
          --patterns staggered-in --late-flows 1 --nodes "$param" --sizes "$overlap" --out "$mdir/incast-late.csv" \
          --force < /dev/null >> "$log" 2>&1
      elif [ "$name" = incast-tensors ] || [ "$name" = incast-tensors-recvs ]; then
        # The pulls as a PS sends them (docs/models.md §10.6, "The first pull"): the hub sends N clients the model's
        # tensors, client 1's first (incast-tensors-recvs: each client's receives posted before its sends, as the
        # PS does); the row gives the client counts (param) and the model (its overlap column).
        case $overlap in *.xml) wfile=$overlap; tmodel=$(basename "$overlap" .xml) ;; *) wfile="$src/workloads/$overlap.xml"; tmodel=$overlap ;; esac
        mkdir -p "$mdir/$tmodel"
        recvs=
        [ "$name" = incast-tensors-recvs ] && recvs=--hub-recvs
        "$here/launch" $pin $rt $yield --hosts $((WORKERS + 1)) --logs "$rdir/logs" -- incast --patterns incast-out \
          --nodes "$param" --flow-tensors "$wfile" --repeats "$TENSORS_REPEATS" $recvs \
          --out "$mdir/$tmodel/$name.csv" --force < /dev/null >> "$log" 2>&1
      elif [ "$name" = allreduce-queued-long ]; then
        # As many calls launched together as a step queues, up to 4 MiB (docs/measure.md §2, "A longer queue").
        "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce --queued "$QUEUED_LONG" \
          --out "$mdir/allreduce-queued-long.csv" --force --min-size "$param" --max-size 4MiB --repeats 3 --warmup 1 \
          < /dev/null >> "$log" 2>&1
      else
        # Calls launched together, as a backward queues them (docs/measure.md §3); sizes to 32 MiB (from there
        # calibrate takes the calls alone's rows, docs/models.md §10.8).
        "$here/launch" $pin $rt $yield --hosts "$WORKERS" --logs "$rdir/logs" -- allreduce --queued "$QUEUED" \
          --out "$mdir/allreduce-queued.csv" --force --min-size "$param" --max-size 32MiB --repeats 3 --warmup 1 \
          < /dev/null >> "$log" 2>&1
      fi
      status=$?
      what="$rate $name microbenchmark${mdir#$rdir}"
    else
      arch=$name
      case $name in
        ring) ranks=$WORKERS; opts="--granularity $param"; tag="ring-$param" ;;
        ps-sync-pv) arch=ps-sync; ranks=$((WORKERS + param)); opts="--ps $param --ps-reads per-variable"
          tag="ps-sync-ps$param-per-variable" ;;
        *) ranks=$((WORKERS + param)); opts="--ps $param"; tag="$name-ps$param" ;;
      esac
      steps=$STEPS
      [ "$name" = ps-async ] && steps=$ASYNC_STEPS
      case $model in *.xml) wfile=$model; model=$(basename "$model" .xml) ;; *) wfile="$src/workloads/$model.xml" ;; esac
      mkdir -p "$rdir/$model"
      "$here/launch" $pin $rt $yield --hosts "$ranks" --logs "$rdir/logs" -- train --workload "$wfile" \
        --arch "$arch" $opts --overlap "$overlap" --workers "$WORKERS" --steps "$steps" --warmup "$WARMUP" \
        --repeat "$REPEAT" --compute-scale "$SCALE" --out "$rdir/$model/$tag-overlap-$overlap.jsonl" --force \
        < /dev/null >> "$log" 2>&1
      status=$?
      what="$rate $model $tag overlap $overlap"
    fi
    [ $status = 0 ] || echo "campaign: $what FAILED (exit $status), see $log" | tee -a "$log"
    progress "$what" "$est"
  done < "$rdir/plan.txt"
  "$here/emulate" down | tee -a "$log"
  trap - INT TERM
  # Was the machine quiet while this rate measured? (docs/measure.md "Was the machine quiet?")
  "$here/quiet.py" "$rdir" | tee -a "$log"
done
echo "campaign: done in $(( ($(date +%s) - start) / 60 )) min; results in $out (CSV: calibrate; JSON lines: validate)"
