#!/bin/sh
# The measurement kit end to end (docs/measure.md): tools/measure/emulate brings up 4 hosts at 1 Gbit/s,
# tools/measure/launch runs a small p2p and all-reduce microbenchmark (one pinned and real-time, one with the
# failed try-locks yielding), three short
# emulated trainings and an incast,
# `sgdsim calibrate` reads the CSVs as they are, and nothing is left behind (no sgdsim-* namespace, no new link in
# the root namespace), also after a SIGINT. Needs root, ip, tc, PyTorch and 2-5 minutes, so it runs only when
# asked: SGDSIM_MEASURE=1 ctest -L measure (or configure with -DSGDSIM_MEASURE_TESTS=ON); skipped (exit 77)
# otherwise and where something is missing.
# Usage: cluster_test.sh SGDSIM SRCDIR WORKDIR
set -u
sgdsim=$1 src=$2 work=$3
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; cleanup; exit 1; }
cleanup() { "$src/tools/measure/emulate" down >/dev/null 2>&1; }

[ "${SGDSIM_MEASURE:-0}" = 1 ] || skip "the emulated-cluster test runs only when asked (SGDSIM_MEASURE=1 ctest -L measure): it needs root and 2-5 minutes"
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need CAP_NET_ADMIN)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is missing"
command -v tc >/dev/null 2>&1 || skip "tc (iproute2) is missing"
python=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && (cd / && "$p" -c "import torch.distributed" >/dev/null 2>&1); then python=$p; break; fi
done
[ -n "$python" ] || skip "PyTorch is not installed (apt-get install python3-torch)"
ip netns list | grep -q '^sgdsim-' && skip "an emulated cluster is already up (tools/measure/emulate down)"
ip netns add sgdsim-probe 2>/dev/null || skip "cannot create network namespaces here"
ip netns del sgdsim-probe

rm -rf "$work" && mkdir -p "$work"
links_before=$(ip -o link | wc -l)
emulate="$src/tools/measure/emulate"
launch="$src/tools/measure/launch --python $python --logs $work/logs"
W="$src/tests/measure/tiny-workload.xml"
# One reference pace for every launch, as campaign.sh takes it (here from 2 s of readings, not a minute): each launch
# would otherwise read 5 s to set its own (kit.prime_pace, tested in test_kit.py).
SGDSIM_PACE_REFERENCE_US=$("$python" "$src/tools/measure/probe.py" --pace 2 --pace-period 0.25 --reference)
export SGDSIM_PACE_REFERENCE_US
"$emulate" run --hosts 4 --rate 1gbit -- sh -c "
  $launch -- p2p --out $work/p2p.csv --sizes 64KiB,256KiB,1MiB,4MiB --repeats 3 --pingpong-repeats 50 --stream 4 &&
  $launch -- allreduce --out $work/ar.csv --sizes 16KiB,64KiB,1MiB,4MiB --repeats 3 &&
  $launch --pin --rt 1 -- allreduce --queued 4 --out $work/arq.csv --sizes 16KiB,64KiB,1MiB,4MiB --repeats 2 \
    --warmup 1 &&
  $launch -- allreduce --queued 4 --gloo-threads 1 --out $work/arq1.csv --sizes 64KiB --nodes 2,3 --repeats 2 \
    --warmup 1 &&
  $launch -- allreduce --beside 64MiB --out $work/arb.csv --sizes 16KiB,256KiB --nodes 2,4 --repeats 2 --warmup 1 &&
  $launch -- allreduce --after 1MiB --out $work/ara.csv --sizes 16KiB --nodes 2,4 --repeats 2 --warmup 1 &&
  $launch --loop-yield -- allreduce --among 16KiB --among-calls 32 --out $work/arm.csv --sizes 1MiB --nodes 2,4 \
    --repeats 2 --warmup 1 &&
  { sh -c 'while :; do :; done' & busy=\$!; $launch -- allreduce --out $work/arbusy.csv --sizes 4MiB --nodes 2 \
      --repeats 3 --quiet-retries 1 && $launch -- train --workload $W --arch ring --granularity ddp --workers-list 2 \
      --steps 10 --warmup 1 --quiet-retries 1 --out $work/trbusy.jsonl; st=\$?; kill \$busy; [ \$st = 0 ]; } &&
  $launch -- train --workload $W --arch ps-sync --workers 3 --steps 3 --warmup 1 --out $work/ps.jsonl &&
  $launch -- train --workload $W --arch ps-sync --ps-reads per-variable --workers 3 --steps 3 --warmup 1 \
    --out $work/ps-pv.jsonl &&
  $launch -- train --workload $W --arch ring --granularity ddp --workers-list 2,4 --steps 3 --warmup 1 \
    --call-times --out $work/ring.jsonl &&
  $launch -- train --workload $W --arch ring --granularity tensor --workers-list 3 --steps 3 --warmup 1 \
    --gloo-threads 1 --call-times --out $work/ring-1thread.jsonl &&
  $launch -- incast --patterns incast-duplex,duplex-late-out,staggered-in --nodes 2 --sizes 1MiB \
    --flow-message 256KiB --repeats 2 --warmup 1 --out $work/incast.csv" > "$work/run.log" 2>&1 ||
  fail "emulate run failed: $(tail -20 "$work/run.log")"

ip netns list | grep -q '^sgdsim-' && fail "namespaces left after emulate run: $(ip netns list)"
[ "$(ip -o link | wc -l)" = "$links_before" ] || fail "the root namespace's links changed: $(ip -o link)"

# The CSVs: one row per size (+ the ping-pong), and sgdsim calibrate reads them as they are.
[ "$(grep -c '^p2p,gloo,' "$work/p2p.csv")" = 4 ] || fail "p2p.csv: expected 4 p2p rows"
[ "$(grep -c '^pingpong,' "$work/p2p.csv")" = 1 ] || fail "p2p.csv: expected 1 ping-pong row"
[ "$(grep -c '^p2p_stream,gloo,' "$work/p2p.csv")" = 4 ] || fail "p2p.csv: expected 4 p2p_stream rows"
[ "$(grep -c '^allreduce,gloo,' "$work/ar.csv")" = 12 ] || fail "ar.csv: expected 4 sizes x 3 node counts"
[ "$(grep -c '^allreduce_queued,gloo,' "$work/arq.csv")" = 12 ] || fail "arq.csv: expected 4 sizes x 3 node counts"
grep -q '"queued_calls": 4' "$work/arq.csv.json" || fail "arq.csv.json: no queued_calls"
# --gloo-threads 1: the calls ran on a group of one thread, which the sidecar says (the default group's rows do not).
[ "$(grep -c '^allreduce_queued,gloo,' "$work/arq1.csv")" = 2 ] || fail "arq1.csv: expected 1 size x 2 node counts"
grep -q '"gloo_threads": 1' "$work/arq1.csv.json" || fail "arq1.csv.json: no gloo_threads"
grep -q '"gloo_threads"' "$work/arq.csv.json" && fail "arq.csv.json: gloo_threads without --gloo-threads"
# launch --pin --rt 1 (the queued run): rank r on the r-th usable CPU, under SCHED_RR at 1, as each rank's provenance
# says; without them (the single calls) neither.
"$python" - "$work" <<'EOF' || fail "pinned, real-time ranks' provenance"
import json, os, sys
cpus = sorted(os.sched_getaffinity(0))
q = sorted(json.load(open(f"{sys.argv[1]}/arq.csv.json"))["provenance"]["ranks"], key=lambda r: r["rank"])
assert [r["pinned_cpu"] for r in q] == [cpus[i % len(cpus)] for i in range(len(q))], q
assert all(r["scheduler"] == "rr" and r["rt_priority"] == 1 and r["cpus_usable"] == 1 for r in q), q
a = json.load(open(f"{sys.argv[1]}/ar.csv.json"))["provenance"]["ranks"]
assert all(r["pinned_cpu"] is None and r["scheduler"] == "other" and r["rt_priority"] == 0 for r in a), a
print("launch --pin --rt 1: ranks pinned round robin and under SCHED_RR; without the options neither")
# launch --loop-yield (the among run): every rank has tools/measure/loop_yield.c loaded; without it (the rest) none.
m = json.load(open(f"{sys.argv[1]}/arm.csv.json"))["provenance"]["ranks"]
assert m and all(r["loop_yield"] is True for r in m), m
assert all(r["loop_yield"] is False for r in a + q), a + q
print("launch --loop-yield: the library loaded in every rank; without the option in none")
EOF
[ "$(grep -c '^allreduce_beside,gloo,' "$work/arb.csv")" = 4 ] || fail "arb.csv: expected 2 sizes x 2 node counts"
grep -q '"beside_bytes": 67108864' "$work/arb.csv.json" || fail "arb.csv.json: no beside_bytes"
[ "$(grep -c '^allreduce_after,gloo,' "$work/ara.csv")" = 2 ] || fail "ara.csv: expected 1 size x 2 node counts"
# Every row's repeats in the sidecar (sample_rows), as many as the CSV's repeats column, its median among them.
"$python" - "$work" <<'EOF' || fail "ara.csv.json: sample_rows"
import csv, json, statistics, sys
rows = list(csv.DictReader(open(f"{sys.argv[1]}/ara.csv")))
samples = json.load(open(f"{sys.argv[1]}/ara.csv.json"))["sample_rows"]
assert [(s["op"], s["nodes"], s["size_bytes"]) for s in samples] == \
    [(r["op"], int(r["nodes"]), int(r["size_bytes"])) for r in rows], samples
for s, r in zip(samples, rows):
    assert len(s["times_s"]) == int(r["repeats"]), (s, r)
    assert abs(statistics.median(s["times_s"]) - float(r["time_s"])) <= 1e-6 * float(r["time_s"]), (s, r)
print("allreduce --after: every row's repeats in sample_rows")
EOF
[ "$(grep -c '^allreduce_among,gloo,.*,1048576,' "$work/arm.csv")" = 2 ] || fail "arm.csv: expected 1 size x 2 node counts"
grep -q '"among_bytes": 16384' "$work/arm.csv.json" && grep -q '"among_calls": 32' "$work/arm.csv.json" \
  || fail "arm.csv.json: no among_bytes / among_calls"
"$sgdsim" calibrate --measurements "$work/p2p.csv" --kind p2p --where op=p2p --stream op=p2p_stream \
  > "$work/cal-p2p.txt" 2>&1 \
  || fail "sgdsim calibrate --kind p2p: $(cat "$work/cal-p2p.txt")"
"$sgdsim" calibrate --measurements "$work/ar.csv" --kind allreduce --where op=allreduce > "$work/cal-ar.txt" 2>&1 \
  || fail "sgdsim calibrate --kind allreduce: $(cat "$work/cal-ar.txt")"
"$sgdsim" calibrate --measurements "$work/ar.csv" --kind allreduce --where op=allreduce --queued "$work/arq.csv" \
  --speed 1Tf -o "$work/arq.xml" > "$work/cal-arq.txt" 2>&1 || fail "sgdsim calibrate --queued: $(cat "$work/cal-arq.txt")"
grep -q 'sgdsim.allreduce_queued_time" value="2:' "$work/arq.xml" || fail "no sgdsim.allreduce_queued_time: $(cat "$work/arq.xml")"
grep -q "Gbps" "$work/cal-p2p.txt" || fail "no bandwidth in the p2p calibration: $(cat "$work/cal-p2p.txt")"
grep -q "per message on a stream" "$work/cal-p2p.txt" || fail "no per-message cost: $(cat "$work/cal-p2p.txt")"

# The trainings: one JSON line per worker count, step times of every worker, the provenance, no PS mix-up.
"$python" - "$work" <<'EOF' || fail "train output"
import json, os, sys
work = sys.argv[1]
ps = [json.loads(l) for l in open(f"{work}/ps.jsonl")]
pv = [json.loads(l) for l in open(f"{work}/ps-pv.jsonl")]
ring = [json.loads(l) for l in open(f"{work}/ring.jsonl")]
assert [r["workers"] for r in ps] == [1, 2, 3], ps
assert [r["workers"] for r in pv] == [1, 2, 3], pv
assert {r["ps_reads"] for r in ps} == {"shard"} and {r["ps_reads"] for r in pv} == {"per-variable"}
# Shard reads: the PS releases every worker once a step (1 + 3 steps), in worker order, each release's posting
# beginning before it ends and after the previous one's end (train.py releases_s).
for r in ps:
    rel = r["ps_servers"][0]["releases_s"]
    assert [(s, w) for s, w, _, _ in rel] == [(s, w) for s in range(4) for w in range(r["workers"])], rel
    assert all(a <= b for _, _, a, b in rel) and all(p[3] <= q[2] for p, q in zip(rel, rel[1:])), rel
    # And when it saw each worker's first and last gradient of each step arrive (train.py pushes_s): after its release.
    pushes = r["ps_servers"][0]["pushes_s"]
    assert [(s, w) for s, w, _, _ in pushes] == [(s, w) for s, w, _, _ in rel], pushes
    assert all(p[2] <= p[3] and p[2] >= q[3] for p, q in zip(pushes, rel)), (pushes, rel)
ps += pv
assert [r["workers"] for r in ring] == [2, 4], ring
for r in ps + ring:
    assert len(r["step_times_s"]) == r["workers"] and all(len(s) == 3 for s in r["step_times_s"]), r
    assert r["step_time_mean_s"] > 0.011, r["step_time_mean_s"]  # at least the 11.1 ms of compute
    assert r["provenance"]["cluster"]["rate"] == "1gbit" and r["rate"] == "1gbit"
    assert len(r["provenance"]["cluster"]["nics"]) == 8
    assert "error" not in r, r["error"]
    # The machine probe (tools/measure/probe.py), run by rank 0 in its namespace once the other ranks had exited.
    m = r["provenance"]["machine"]
    assert m["errors"] == [] and m["tcp_core_s_per_GiB"] > 0 and m["wakeup_cross_core_us"] > 0, m
    assert m["ranks_still_running"] == 0 and 0 <= m["wakeup_busy_cross_over_1ms"] <= 1, m
for r in ps:
    assert r["ps_servers"][0]["bad_markers"] == 0
# --gloo-threads 1: the group runs one all-reduce at a time, so every worker's calls end in launch order.
one = [json.loads(l) for l in open(f"{work}/ring-1thread.jsonl")]
assert [r["workers"] for r in one] == [3] and one[0]["gloo_threads"] == 1, one
assert one[0]["allreduces_per_step"] > 1, one[0]["allreduces_per_step"]
for w in one[0]["per_worker"]:
    for step in w["call_times"]:
        ends = [end for _, _, end in sorted(step, key=lambda c: c[1])]
        assert ends == sorted(ends), step
# The machine's CPU over each configuration (tools/measure/quiet.py): the ranks' own time is part of the busy time.
# The machine's pace (docs/measure.md "Is the machine at its pace?"): read before and after each configuration and
# row, and by the sampler during a training; every reading a round trip of microseconds, the reference the one given
# ($SGDSIM_PACE_REFERENCE_US: probe.py --reference, kept as it is by every launch).
def paced(c, least):
    p = c["pace_us"]
    assert len(p) >= least and all(0 < x < 1e5 for x in p), c
    # The reference given comes down to the lower quartile of 8+ idle readings, never up (kit.lower_reference).
    assert 0 < c["pace_reference_us"] <= float(os.environ["SGDSIM_PACE_REFERENCE_US"]) and c["pace_waited_s"] >= 0, c
for r in ps + ring:
    c = r["cpu"]
    assert c["window_s"] > 0 and 0 < c["ranks_s"] and c["outside_s"] >= 0 and c["cpus"] >= 1, c
    paced(c, 2)
m = json.load(open(f"{work}/ar.csv.json"))["provenance"]["machine"]
assert m["errors"] == [] and m["tcp_small_core_us_per_write"] > 0 and m["add_GBps"] > 0, m
ar = json.load(open(f"{work}/ar.csv.json"))["cpu_rows"]
assert [(x["nodes"], x["size_bytes"]) for x in ar][:2] == [(2, 16384), (2, 65536)] and len(ar) == 12, ar
for x in ar:
    paced(x, 2)
for r in ring:
    assert r["allreduces_per_step"] == 2 and r["gloo_threads"] == 2, r
    # --call-times: every worker, every measured step, each call once in launch order, launched before it ended.
    for w in r["per_worker"]:
        steps = w["call_times"]
        assert len(steps) == 3 and all([row[0] for row in s] == [0, 1] for s in steps), steps
        assert all(0 <= row[1] <= row[2] < 10 for s in steps for row in s), steps
print("train: ps-sync K=1..3 (shard, per-variable), ring ddp K=2,4:", [round(r["step_time_mean_s"], 4) for r in ps + ring])
EOF

# The p2p rows' CPU record: each size's p2p and p2p_stream rows and the ping-pong.
"$python" - "$work/p2p.csv.json" <<'EOF' || fail "p2p's CPU record: $(cat "$work/p2p.csv.json")"
import json, sys
rows = json.load(open(sys.argv[1]))["cpu_rows"]
assert [r["op"] for r in rows] == ["p2p", "p2p_stream"] * 4 + ["pingpong"], rows
assert all(r["nodes"] == 2 and r["time_s"] > 0 and r["window_s"] > 0 for r in rows), rows
EOF

# A busy loop beside the ranks: the row measured twice and the training run twice (--quiet-retries 1), both busy,
# the less busy kept and the other recorded with its time.
"$python" - "$src/tools/measure" "$work/arbusy.csv.json" "$work/trbusy.jsonl" <<'EOF' || fail "allreduce with a busy loop beside: $(cat "$work/arbusy.csv.json")"
import json, sys
sys.path.insert(0, sys.argv[1])
import plan
rows = json.load(open(sys.argv[2]))["cpu_rows"]
assert len(rows) == 1 and plan.cpu_busy(rows[0]), rows
tries = rows[0]["busy_attempts"]
assert len(tries) == 1 and plan.cpu_busy(tries[0]) and tries[0]["time_s"] > 0, tries
assert plan.load(tries[0]) >= plan.load(rows[0]), rows
print("allreduce beside a busy loop: measured twice, the less busy attempt kept")
lines = [json.loads(l) for l in open(sys.argv[3])]
assert len(lines) == 1 and plan.cpu_busy(lines[0]["cpu"]), lines
cpu = lines[0]["cpu"]
assert cpu["time_s"] == lines[0]["step_time_mean_s"] and len(cpu["busy_attempts"]) == 1, cpu
assert plan.load(cpu["busy_attempts"][0]) >= plan.load(cpu), cpu
print("train beside a busy loop: run twice, the less busy run kept")
EOF

"$src/tools/measure/quiet.py" "$work" > "$work/quiet.txt" 2>&1 && grep -q "^quiet.py: .* of [0-9]* configurations" \
  "$work/quiet.txt" || fail "quiet.py on the runs: $(cat "$work/quiet.txt")"

# The incast flows as streams of 4 messages: every flow timed (positive), as many columns as roles, the message size.
"$python" - "$work" <<'EOF' || fail "incast output"
import json, sys
recs = [json.loads(l) for l in open(f"{sys.argv[1]}/incast.csv.flows.jsonl")]
assert sorted({r["pattern"] for r in recs}) == ["duplex-late-out", "incast-duplex", "staggered-in"], recs
assert len(recs) == 6, len(recs)
for r in recs:
    assert r["flow_message_bytes"] == 256 << 10, r
    assert len(r["times_s"]) == len(r["roles"]) and min(r["times_s"]) > 0, r
print("incast: 3 duplex patterns as 256 KiB messages, every flow timed")
EOF

# Teardown on SIGINT: emulate run stops its command and deletes everything.
"$emulate" run --hosts 2 --rate 1gbit -- sleep 60 > "$work/sigint.log" 2>&1 &
pid=$!
for i in $(seq 1 50); do ip netns list | grep -q '^sgdsim-h1' && break; sleep 0.2; done
sleep 1
kill -INT $pid
wait $pid
status=$?
[ "$status" -ne 0 ] || fail "emulate run returned 0 after SIGINT"
ip netns list | grep -q '^sgdsim-' && fail "namespaces left after SIGINT: $(ip netns list)"
[ "$(ip -o link | wc -l)" = "$links_before" ] || fail "the root namespace's links changed after SIGINT"
grep -q "down (3 namespaces deleted)" "$work/sigint.log" || fail "no teardown message after SIGINT: $(cat "$work/sigint.log")"

echo "measure: p2p, allreduce, ps-sync and ring trainings on 4 emulated hosts; calibrate read both CSVs; clean teardown"
sed -n '1,12p' "$work/cal-p2p.txt"
