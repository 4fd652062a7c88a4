#!/usr/bin/env python3
"""Turns a measurement campaign (tools/measure/campaign.sh) into sgdsim validation cases (docs/measure.md).

    tools/measure/make_cases.py CAMPAIGN_DIR [--out validation/testbed] [--sgdsim build/src/sgdsim]
                                [--campaign-name NAME]

For each rate folder of the campaign (CAMPAIGN_DIR/RATE/): copies the microbenchmarks (p2p.csv, allreduce.csv)
and every training series (MODEL/SERIES.jsonl, with its provenance) into OUT/data/RATE/, calibrates the platforms
the predictions use from the microbenchmarks alone, and writes one case per series into OUT/cases/RATE-MODEL-SERIES/
(case.json and SOURCE.md). Nothing of a training series goes into its prediction: the platform comes from the
microbenchmarks, the compute times from the workload file, the framework's behaviour from sgdsim's profile.
A later campaign of the same rates (--campaign-name NAME) goes beside the first: its data into
OUT/campaign-NAME/data/RATE/, its cases named RATE-MODEL-SERIES-NAME; nothing of the first is replaced.

The recipe (the same for every case, written down in validation/testbed/README.md):
- PS series: the p2p microbenchmark, sizes from 1 MiB on (smaller ones pass the emulator's shaper burst faster than
  the rate), fitted with the one-way latency of the same CSV's ping-pong row as the route latency
  (sgdsim calibrate --kind p2p --latency).
- Ring series: the all-reduce microbenchmark at every node count and size (sgdsim calibrate --kind allreduce:
  bandwidth from the sizes from 1 MiB on, --bandwidth-from 1MiB, then per-message latency alpha and per-call cost c
  from every size with it, for the analytic models; the simulation's network the route's latency from the same
  campaign's ping-pong, --latency, since 2026-12-04e; each node count's measured time from every size), and where
  the rate has it (allreduce-queued.csv, measure.py allreduce --queued) the same all-reduces launched back to back
  (calibrate --queued), with Gloo's framework profile (--framework pytorch-ddp-gloo: 2 collectives in flight) and
  the series' unit (tensor, layer, bucket). Where the campaign measured the small sizes in more launches
  (campaign.sh SMALL_LAUNCHES, RATE/small/: below 1 MiB, up to 1 MiB since 2026-12-05, the long queue's too since
  then, the calls one at a time up to 4 MiB since 2026-12-05c), each such size's time is the median over the launches (allreduce.launches.csv,
  allreduce-queued.launches.csv, allreduce-queued-long.launches.csv beside the others).
- Sync-PS series reading their shard: the model's pulls' incast gives --first-pull-weight and --flow-spread-out
  (fit_incast.py --first-pull; one PS since 2026-12-07, two since 2026-12-07g), and with one PS (two since
  2026-12-07i), where the rate has the late-flow incast (campaign.sh LATE, incast-late.csv), --ack-coupling-late-in
  (fit_incast.py's start-order line; --late-in, since 2026-12-07b).
- Hosts run the workload at its own reference speed (calibrate --workload).
The guard of a new case is left for the caller to set from the first report (--guards REPORT_JSON); a case made
again keeps its guard and its "missing" text."""

import argparse
import csv
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

import drift  # noqa: E402  (the microbenchmarks measured again, next to this file)
import plan  # noqa: E402  (the kit's pure parts, next to this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import recalibrate  # noqa: E402  (a calibrated platform's .log, written as tools/recalibrate.py reads it back)
SERIES_UNIT = {"tensor": "tensor", "layer": "layer", "ddp": "bucket"}
SMALL = "small"  # campaign.sh SMALL_LAUNCHES: the all-reduce microbenchmarks' small sizes in more launches
# A testbed ring case's framework options: emulate's hosts send through one pfifo each, a FIFO egress (docs/models.md
# §10.12).
RING_FRAMEWORK = ["--framework", "pytorch-ddp-gloo", "--egress-fifo", "on"]
# How a ring case's platform takes its route latency (allreduce_latency_args; the recipe since 2026-12-04e:
# validation/testbed/README.md, 2026-12-04d and 04e).
LATENCY_TEXT = ("the route's latency from the same cluster's ping-pong, --latency: docs/models.md \u00a710.7 \"The "
                "route's latency, measured apart\"")


def pingpong_one_way_s(p2p_csv):
    """The median one-way time of the p2p CSV's ping-pong row (op=pingpong)."""
    with open(p2p_csv, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["op"] == "pingpong":
                return float(row["time_s"])
    raise SystemExit(f"make_cases: {p2p_csv}: no pingpong row (measure.py p2p writes one)")


def calibrate_command(platform):
    """The arguments `sgdsim calibrate` wrote PLATFORM with (its XML comment holds the command, '--' as '- -'); None
    where there is no such file or comment."""
    if not os.path.exists(platform):
        return None
    with open(platform, encoding="utf-8") as f:
        m = re.search(r"Generated by: sgdsim calibrate (.*)", f.read(8192))
    return shlex.split(m.group(1).replace("- -", "--")) if m else None


def with_latency(platform):
    """Whether `sgdsim calibrate` wrote PLATFORM with --latency; False where there is no such file yet."""
    return "--latency" in (calibrate_command(platform) or [])


def line_rate(tc_rate):
    """tc's rate syntax (1gbit, 500mbit, 2.5gbit) in sgdsim's units (1Gbps, 500Mbps, 2.5Gbps)."""
    for tc, unit in (("gbit", "Gbps"), ("mbit", "Mbps"), ("kbit", "kbps")):
        if tc_rate.endswith(tc):
            return tc_rate[:-len(tc)] + unit
    raise SystemExit(f"make_cases: rate '{tc_rate}': expected NUMBER followed by gbit, mbit or kbit")


def rel(path):
    return os.path.relpath(path, ROOT)


def calibrate(sgdsim, args, log):
    out = subprocess.run([sgdsim, "calibrate"] + args, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"make_cases: sgdsim calibrate {' '.join(args)} failed: {out.stderr.strip()}")
    recalibrate.write_log(log, args, out)


def shared_cores(provenance_json):
    """The cores the all-reduce microbenchmark's ranks shared where they all ran on one machine (one hostname in its
    provenance, an emulated cluster: calibrate --shared-cores, docs/models.md §10.7 "Ranks sharing cores"), the
    fewest any rank could use, or where each rank was pinned to one core (launch --pin) the cores they were pinned
    to; None where they ran on several machines or the provenance does not say."""
    with open(provenance_json, encoding="utf-8") as f:
        ranks = json.load(f).get("provenance", {}).get("ranks", [])
    hosts = {r.get("hostname") for r in ranks}
    cores = [r.get("cpus_usable") for r in ranks]
    if len(ranks) < 2 or len(hosts) != 1 or None in hosts or None in cores:
        return None
    pinned = [r.get("pinned_cpu") for r in ranks]
    if None not in pinned:
        return len(set(pinned))
    return min(cores)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("campaign")
    ap.add_argument("--out", default=os.path.join(ROOT, "validation", "testbed"))
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    ap.add_argument("--guards", help="report.json of a validate run: set each case's guard from its errors")
    ap.add_argument("--campaign-name", metavar="NAME",
                    help="a campaign beside the first one: its data go to OUT/campaign-NAME/data/ and its cases "
                         "are named RATE-MODEL-SERIES-NAME (nothing of an earlier campaign is replaced)")
    ap.add_argument("--pulls-hub", choices=("sends", "recvs"), default="sends",
                    help="the pulls' incast that gives the Sync-PS cases' first pull: sends (the hub only sent, "
                         "incast-tensors; default, validation/testbed/README.md 2026-12-07) or recvs (the hub posted "
                         "each client's receives before its sends, incast-tensors-recvs, where measured)")
    ap.add_argument("--late-in", metavar="ARCHS", default="ps-sync",
                    help="comma-separated PS architectures (ps-sync, ps-async; '' for none) whose cases reading the "
                         "shard with one PS (Sync-PS: one or two) take --ack-coupling-late-in from the rate's late-flow "
                         "incast (campaign.sh LATE, incast-late.csv) where measured (default ps-sync: 2026-12-07b's held-out rule kept it "
                         "for Sync-PS and not for Async-PS, docs/models.md \u00a710.6 \"Start order under CUBIC\")")
    ap.add_argument("--held-out", metavar="TEXT",
                    help="how the campaign's series were held out (when measured, against which model and recipe): "
                         "ends each new case's description as '; held out: TEXT' (a case made again keeps its own)")
    a = ap.parse_args()
    if a.guards:
        return set_guards(a.out, a.guards)
    late_archs = [x for x in a.late_in.split(",") if x]
    for x in late_archs:
        if x not in LATE_ARCHS:
            raise SystemExit(f"make_cases: --late-in '{a.late_in}': '{x}' is not one of {', '.join(LATE_ARCHS)}")
    if a.campaign_name is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", a.campaign_name):
        raise SystemExit(f"make_cases: --campaign-name '{a.campaign_name}': letters, digits, '.', '_' and '-' only "
                         "(it names a folder and a suffix of case names)")
    data_root = campaign_data_root(a.out, a.campaign_name)
    for rate in sorted(os.listdir(a.campaign)):
        src = os.path.join(a.campaign, rate)
        if not os.path.isfile(os.path.join(src, "p2p.csv")):
            continue
        data = os.path.join(data_root, rate)
        os.makedirs(data, exist_ok=True)
        for name in ("p2p.csv", "p2p.csv.json", "p2p-stream.csv", "p2p-stream.csv.json", "allreduce.csv",
                     "allreduce.csv.json", "allreduce-queued.csv", "allreduce-queued.csv.json", "allreduce-queued-long.csv", "allreduce-queued-long.csv.json",
                     "feedcheck/feedcheck.csv"):
            if os.path.exists(os.path.join(src, name)):
                shutil.copy(os.path.join(src, name), os.path.join(data, os.path.basename(name)))
        for name in ("incast.csv", "incast.csv.json", LATE + ".csv", LATE + ".csv.json"):
            if os.path.exists(os.path.join(src, name)):
                shutil.copy(os.path.join(src, name), os.path.join(data, name))
        # Measured again after the trainings (campaign.sh AGAIN); the small sizes in more launches (SMALL_LAUNCHES).
        for sub in (drift.AGAIN, SMALL):
            if os.path.isdir(os.path.join(src, sub)):
                os.makedirs(os.path.join(data, sub), exist_ok=True)
                for name in sorted(os.listdir(os.path.join(src, sub))):
                    if name.endswith((".csv", ".csv.json")):
                        shutil.copy(os.path.join(src, sub, name), os.path.join(data, sub, name))
        if os.path.exists(os.path.join(src, "incast.csv.flows.jsonl")):
            shutil.copy(os.path.join(src, "incast.csv.flows.jsonl"), os.path.join(data, "incast.flows.jsonl"))
        if os.path.exists(os.path.join(src, LATE + ".csv.flows.jsonl")):
            shutil.copy(os.path.join(src, LATE + ".csv.flows.jsonl"), os.path.join(data, LATE + ".flows.jsonl"))
        spreads = flow_spreads(os.path.join(data, "incast.flows.jsonl"))
        late = (late_in(os.path.join(data, "incast.flows.jsonl"), os.path.join(data, LATE + ".flows.jsonl"))
                if late_archs else [])
        for model in sorted(os.listdir(src)):
            mdir = os.path.join(src, model)
            if not os.path.isdir(mdir) or not any(is_series(f) for f in os.listdir(mdir)):
                continue
            workload = os.path.join(ROOT, "workloads", model + ".xml")
            os.makedirs(os.path.join(data, model), exist_ok=True)
            # The pulls' incast (campaign.sh TENSORS, TENSORS_HUB): the Sync-PS cases' first pull and spread out.
            for base in (TENSORS, TENSORS_RECVS):
                for name, to in ((base + ".csv", base + ".csv"), (base + ".csv.json", base + ".csv.json"),
                                 (base + ".csv.flows.jsonl", base + ".flows.jsonl")):
                    if os.path.exists(os.path.join(mdir, name)):
                        shutil.copy(os.path.join(mdir, name), os.path.join(data, model, to))
            pulls_from = pulls_source(os.path.join(data, model), a.pulls_hub)
            pulls = first_pull(os.path.join(data, model, pulls_from + ".flows.jsonl"))
            p2p_platform = os.path.join(data, model, "platform-p2p.xml")
            ar_platform = os.path.join(data, model, "platform-allreduce.xml")
            calibrate_p2p(a.sgdsim, data, workload, rate, p2p_platform)
            if os.path.exists(os.path.join(data, "allreduce.csv")):
                calibrate_allreduce(a.sgdsim, data, workload, rate, ar_platform)
            else:  # a campaign of PS series only: no all-reduce microbenchmark, no ring case
                ar_platform = None
            # The same recipe from the microbenchmarks measured again after the trainings, for drift.py --case.
            again = os.path.join(data, drift.AGAIN)
            if os.path.exists(os.path.join(again, "p2p.csv")):
                calibrate_p2p(a.sgdsim, again, workload, rate, drift.again_platform(p2p_platform))
            if ar_platform and os.path.exists(os.path.join(again, "allreduce.csv")):
                calibrate_allreduce(a.sgdsim, again, workload, rate, drift.again_platform(ar_platform),
                                    queued_dir=data)
            for fname in sorted(os.listdir(mdir)):
                if not is_series(fname):
                    continue
                shutil.copy(os.path.join(mdir, fname), os.path.join(data, model, fname))
                prov = os.path.join(mdir, fname + ".provenance.json")
                if os.path.exists(prov):
                    shutil.copy(prov, os.path.join(data, model, fname + ".provenance.json"))
                write_case(a.out, a.campaign_name, rate, model, os.path.join(data, model, fname), workload,
                           p2p_platform, ar_platform, spreads, a.held_out, pulls, pulls_from, late, late_archs)
    return 0


TENSORS = "incast-tensors"  # the pulls' incast in a model's folder (campaign.sh TENSORS)
TENSORS_RECVS = "incast-tensors-recvs"  # the same with the hub posting each client's receives first (TENSORS_HUB)


def pulls_source(model_dir, hub="sends"):
    """Which pulls' incast of MODEL_DIR gives the first pull: TENSORS (the hub only sends; the default: 2026-12-07's
    held-out rule kept it, validation/testbed/README.md), or with `hub` "recvs" TENSORS_RECVS (the hub posts each
    client's receives before its sends, as the PS of train.py does) where the campaign measured it."""
    if hub == "recvs" and os.path.exists(os.path.join(model_dir, TENSORS_RECVS + ".flows.jsonl")):
        return TENSORS_RECVS
    return TENSORS


LATE = "incast-late"  # a lone flow in started late beside N established flows out (campaign.sh LATE)
LATE_ARCHS = ("ps-sync", "ps-async")


def late_ps(arch, ps):
    """Whether a PS series of ARCH with PS parameter servers takes the late law: one PS (2026-12-07b's held-out rule),
    and two PS for Sync-PS (2026-12-07i's: validation/testbed/README.md)."""
    return ps == 1 or (arch == "ps-sync" and ps == 2)


def late_in(incast_jsonl, late_jsonl):
    """--ack-coupling-late-in G fitted to the rate's late-flow incast (fit_incast.py's start-order line; the rate's
    incast gives the times of the flows alone), or [] without both files."""
    if not (os.path.exists(incast_jsonl) and os.path.exists(late_jsonl)):
        return []
    for line in fit_incast(incast_jsonl, late_jsonl).splitlines():
        m = re.match(r"start order .*(--ack-coupling-late-in) ([0-9.]+)", line)
        if m:
            return [m.group(1), m.group(2)]
    raise SystemExit(f"make_cases: {late_jsonl}: fit_incast.py fitted no --ack-coupling-late-in (no staggered-in rows?)")


def is_series(fname):
    """A training series' JSON lines in a model's folder (not the pulls' incast flows)."""
    return fname.endswith(".jsonl") and not fname.startswith(TENSORS)


def first_pull(flows_jsonl):
    """--flow-spread-out and --first-pull-weight fitted to the model's pulls' incast (fit_incast.py --first-pull), or
    [] without one."""
    return fitted_options(flows_jsonl, "--first-pull")


def with_first_pull(spreads, pulls):
    """The rate's incast options with the pulls' incast's in place of its --flow-spread-out (docs/models.md §10.6, "The
    first pull": a PS's pulls start one after the other, as that microbenchmark's flows do, not at once)."""
    options = dict(zip(pulls[::2], pulls[1::2]))
    out = []
    for option, value in zip(spreads[::2], spreads[1::2]):
        out += [option, options.pop(option, value)]
    for option, value in options.items():
        out += [option, value]
    return out


def with_stream(p2p_csv, stream_csv, out):
    """P2P_CSV's rows and STREAM_CSV's p2p_stream rows in one file, OUT (calibrate --stream reads both from one)."""
    with open(p2p_csv, newline="") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    with open(stream_csv, newline="") as f:
        stream = [r for r in csv.DictReader(f) if r["op"] == "p2p_stream"]
    if not stream:
        raise SystemExit(f"make_cases: {stream_csv}: no p2p_stream row")
    return write_derived_csv(out, fields, rows + stream, p2p_csv, "with_stream",
                             {"stream": os.path.basename(stream_csv), "rows": len(stream)})


def calibrate_p2p(sgdsim, micro_dir, workload, rate, platform):
    """The PS series' platform from MICRO_DIR/p2p.csv: sizes from 1 MiB on, the ping-pong row's one-way time as
    the route latency; where the campaign measured the small messages' stream (MICRO_DIR/p2p-stream.csv, campaign.sh
    STREAM, since 2026-12-06g), its per-message cost (calibrate --stream, docs/models.md §10.5)."""
    csv_path = os.path.join(micro_dir, "p2p.csv")
    measurements, stream = csv_path, []
    stream_csv = os.path.join(micro_dir, "p2p-stream.csv")
    if os.path.exists(stream_csv):
        measurements = with_stream(csv_path, stream_csv, os.path.join(micro_dir, "p2p.stream.csv"))
        stream = ["--stream", "op=p2p_stream"]
    calibrate(sgdsim, ["--measurements", rel(measurements), "--kind", "p2p", "--where", "op=p2p", "--where",
                       "size_bytes=1048576.."] + stream + latency_args(csv_path)
              + ["--workload", rel(workload), "--nodes", "10", "--line-rate", line_rate(rate), "-o", rel(platform),
                 "--force"], platform + ".log")


def calibrate_allreduce(sgdsim, micro_dir, workload, rate, platform, queued_dir=None):
    """The ring series' platform from MICRO_DIR/allreduce.csv and, where there is one, allreduce-queued.csv
    (MICRO_DIR's, else QUEUED_DIR's: measured again, the one-at-a-time calls need not have their back-to-back
    ones)."""
    csv_path = os.path.join(micro_dir, "allreduce.csv")
    queued = os.path.join(micro_dir, "allreduce-queued.csv")
    if not os.path.exists(queued) and queued_dir:
        queued = os.path.join(queued_dir, "allreduce-queued.csv")
    cores = shared_cores(csv_path + ".json")
    small = os.path.join(micro_dir, SMALL)
    if os.path.isdir(small):
        csv_path = median_over_launches(csv_path, launches(small, "allreduce"),
                                        os.path.join(micro_dir, "allreduce.launches.csv"))
        if os.path.exists(queued) and os.path.dirname(queued) == micro_dir:
            queued = median_over_launches(queued, launches(small, "allreduce-queued"),
                                          os.path.join(micro_dir, "allreduce-queued.launches.csv"))
    long_queue = os.path.join(micro_dir, "allreduce-queued-long.csv")
    if os.path.isdir(small) and os.path.exists(long_queue):
        # The long queue's small sizes over launches too (campaign.sh since 2026-12-05): its rows replace the 16
        # calls' below, so one launch's slow state would come back through them.
        long_queue = median_over_launches(long_queue, launches(small, "allreduce-queued-long"),
                                          os.path.join(micro_dir, "allreduce-queued-long.launches.csv"))
    if os.path.exists(queued) and os.path.exists(long_queue):
        queued = long_queue_over(queued, long_queue, os.path.join(micro_dir, "allreduce-queued.long.csv"))
    # B from the sizes where the bytes decide (as the p2p fit's rows): fitted with every size, the small all-reduces'
    # software costs bend it above the line rate (docs/models.md §10.7).
    calibrate(sgdsim, ["--measurements", rel(csv_path), "--kind", "allreduce", "--where", "op=allreduce",
                       "--bandwidth-from", "1MiB", "--line-rate", line_rate(rate), "--workload", rel(workload),
                       "--nodes", "10", "-o", rel(platform), "--force"]
              + (["--queued", rel(queued)] if os.path.exists(queued) else [])
              + (["--shared-cores", str(cores)] if cores else [])
              + allreduce_latency_args(os.path.join(micro_dir, "p2p.csv")), platform + ".log")


def measured_copy(rate_dir, dest, small=True):
    """DEST (made here) with RATE_DIR's microbenchmark CSVs as measured, and their provenance: not the files derived from
    them here (*.launches.*, *.long.*, *.stream.*), not the trainings' folders; small/ (the more launches) only with SMALL. For
    diagnoses that calibrate again from changed or fewer measurements (validation/testbed/campaign-*)."""
    shutil.copytree(rate_dir, dest, ignore=lambda d, names: [
        n for n in names if ".launches." in n or ".long." in n or ".stream." in n
        or (os.path.isdir(os.path.join(d, n)) and (n != SMALL or not small))])
    return dest


def predict_with(case_dir, micro_dir, rate, platforms, tmp, suffix, sgdsim, jobs=2):
    """drift.predict_on for the ring case in CASE_DIR on the platform this recipe (calibrate_allreduce) makes from
    MICRO_DIR for the case's workload: made once per workload into TMP and kept in PLATFORMS ({workload: path})."""
    with open(os.path.join(case_dir, "case.json"), encoding="utf-8") as f:
        case = json.load(f)
    run = case["run"]
    workload = run[run.index("--workload") + 1]
    if workload not in platforms:
        platforms[workload] = os.path.join(tmp, os.path.basename(workload))
        calibrate_allreduce(sgdsim, micro_dir, os.path.join(ROOT, workload), rate, platforms[workload])
    return drift.predict_on(case_dir, case, platforms[workload], suffix, sgdsim, jobs)


def allreduce_latency_args(p2p_csv):
    """`--latency L` for an all-reduce calibration, L the one-way time of P2P_CSV's ping-pong (none without the
    file): eq. (41)'s alpha fitted over every node count holds the software of the larger ones (on the testbed 81-658
    us against a 34-100 us ping-pong), which a K = 2 call, faster than that network, would pay anyway; given apart,
    the network is the route and each node count's excess holds its software (docs/models.md §10.7 "The route's
    latency, measured apart"). The recipe since 2026-12-04e (calibrate_allreduce passes it; the testbed's earlier
    platforms were made again by validation/testbed/campaign-2026-12-04d/latency/recalibrate.py)."""
    return latency_args(p2p_csv) if os.path.exists(p2p_csv) else []


def latency_args(p2p_csv):
    """`--latency L`, L the one-way time of P2P_CSV's ping-pong row (calibrate's route latency, p2p and all-reduce
    alike)."""
    return ["--latency", f"{pingpong_one_way_s(p2p_csv) * 1e6:.6g}us"]


def case_run(platform, workload, arch, overlap, steps, warmup, granularity=None):
    """A testbed case's `run` (write_case): for a ring, with the framework options and the series' unit."""
    run = ["--platform", rel(platform), "--workload", rel(workload), "--arch", arch, "--overlap", overlap, "--steps",
           str(steps), "--warmup", str(warmup)]
    if arch == "ring":
        run += RING_FRAMEWORK + ["--allreduce-unit", SERIES_UNIT[granularity]]
    return run


def ring_run(platform, workload, granularity, workers, steps=5, warmup=2):
    """`sgdsim run`'s arguments for a testbed ring case's point (write_case's `run` and the point's --workers):
    what a campaign's predict.py simulates before its series is read, and its analyses after."""
    return case_run(platform, workload, "ring", "on", steps, warmup, granularity) + ["--workers", str(workers)]


def simulate(sgdsim, run_args):
    """`sgdsim run RUN_ARGS --json` from the repository: its result (--json's object)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([sgdsim, "run"] + list(run_args) + ["--json", out], cwd=ROOT, capture_output=True, text=True,
                       check=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def long_queue_over(queued_csv, long_csv, out_csv):
    """QUEUED_CSV's rows (16 calls launched together) with each (nodes, size) that LONG_CSV (campaign.sh QUEUED_LONG:
    128 calls, up to 4 MiB) measured taken from LONG_CSV instead: a training's backward queues a step's hundreds of
    calls, and at K = 8 a queue of 128 cost 1.05-1.37 times one of 16 per call (validation/testbed/README.md,
    2026-12-04b "A longer queue"; docs/models.md §10.8). Writes OUT_CSV, with QUEUED_CSV's provenance naming both,
    and returns it."""
    with open(queued_csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    key = lambda r: (int(r["nodes"]), int(float(r["size_bytes"])))  # noqa: E731
    with open(long_csv, newline="", encoding="utf-8") as f:
        longer = {key(r): r for r in csv.DictReader(f)}
    rows = [longer.pop(key(r), r) for r in rows] + list(longer.values())
    return write_derived_csv(out_csv, fields, rows, queued_csv, "long_queue_over", {
        "queued": os.path.relpath(queued_csv, os.path.dirname(out_csv)),
        "long": os.path.relpath(long_csv, os.path.dirname(out_csv)),
        "rule": "each (nodes, size) the long queue measured: its row; the others the 16 calls' (campaign.sh QUEUED_LONG)"})


def launches(small_dir, name):
    """SMALL_DIR/NAME-2.csv, NAME-3.csv, ...: the more launches of campaign.sh SMALL_LAUNCHES, in their order."""
    found = [(int(m.group(1)), f) for f in os.listdir(small_dir) if (m := re.fullmatch(re.escape(name) + r"-(\d+)\.csv", f))]
    return [os.path.join(small_dir, f) for _, f in sorted(found)]


def median_over_launches(first_csv, others, out_csv):
    """FIRST_CSV's rows with each (op, nodes, size) that OTHERS (the same microbenchmark in more launches) measured
    too taking the median over the launches of their medians (time_s) and the widest range (time_min_s,
    time_max_s): one launch's transient state (K = 2's back-to-back 4 KiB call at 0.95 ms in campaign 2026-12-01q,
    0.18-0.39 ms in 12 launches after it) no longer sets a size's time. Writes OUT_CSV and returns it; FIRST_CSV
    itself when there is no other launch."""
    if not others:
        return first_csv
    with open(first_csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    key = lambda r: (r["op"], int(r["nodes"]), int(float(r["size_bytes"])))  # noqa: E731
    more = {}
    for path in others:
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                more.setdefault(key(r), []).append(r)
    for r in rows:
        seen = more.get(key(r), [])
        if not seen:
            continue
        r["time_s"] = repr(statistics.median([float(x["time_s"]) for x in [r] + seen]))
        for col, pick in (("time_min_s", min), ("time_max_s", max)):
            if col in r:
                r[col] = repr(pick(float(x[col]) for x in [r] + seen))
    # Its provenance names the launches the medians came from.
    return write_derived_csv(out_csv, fields, rows, first_csv, "median_over_launches", {
        "first": os.path.basename(first_csv),
        "others": [os.path.relpath(p, os.path.dirname(out_csv)) for p in others],
        "rule": "each (op, nodes, size) measured in other launches: time_s the median of the launches' medians, "
                "time_min_s and time_max_s the widest; other columns the first launch's (campaign.sh SMALL_LAUNCHES)"})


def write_derived_csv(out_csv, fields, rows, source_csv, how, record):
    """Writes ROWS to OUT_CSV and, beside it as every CSV's provenance (tools that read a calibration's input read
    it), SOURCE_CSV's with record HOW saying how the rows were derived; returns OUT_CSV."""
    with open(out_csv, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    prov = {}
    if os.path.exists(source_csv + ".json"):
        with open(source_csv + ".json", encoding="utf-8") as f:
            prov = json.load(f)
    prov.pop("cpu_rows", None)  # the source's CPU record stays with its own file (tools/measure/quiet.py)
    prov.pop("sample_rows", None)  # and its repeats' times: the derived rows are not those
    prov[how] = record
    with open(out_csv + ".json", "w", encoding="utf-8") as f:
        json.dump(prov, f, indent=2)
        f.write("\n")
    return out_csv


def flow_spreads(flows_jsonl):
    """--flow-spread-in/out fitted to the rate's incast microbenchmark (tools/measure/fit_incast.py), or [] without
    one."""
    return fitted_options(flows_jsonl)


def fitted_options(flows_jsonl, *fit_args):
    """The sgdsim options fit_incast.py prints last for FLOWS_JSONL (with `fit_args`), or [] without the file."""
    if not os.path.exists(flows_jsonl):
        return []
    return fit_incast(*fit_args, flows_jsonl).strip().splitlines()[-1].split()


def fit_incast(*args):
    """What tools/measure/fit_incast.py ARGS prints (it fails the run if fit_incast.py fails)."""
    return subprocess.run([sys.executable, os.path.join(HERE, "fit_incast.py"), *args], check=True,
                          capture_output=True, text=True).stdout


def thirds_deviation(step_times):
    """How far the mean of each third of a series' measured steps (pooled over its workers) lies from the mean of
    all of them, at most, relative: what a shorter measurement of the same run could have given. None under 6 steps
    (a third of fewer than 2 steps says nothing)."""
    n = min((len(w) for w in step_times), default=0)
    if n < 6:
        return None
    mean = plan.mean([x for w in step_times for x in w[:n]])
    thirds = [[x for w in step_times for x in w[i * n // 3:(i + 1) * n // 3]] for i in range(3)]
    return max(abs(plan.mean(t) / mean - 1) for t in thirds)


def precision_text(lines):
    """The description's sentence on the series' own precision, or "" without per-step times."""
    devs = [(d["workers"], thirds_deviation(d.get("step_times_s", []))) for d in lines]
    devs = [(k, v) for k, v in devs if v is not None]
    if not devs:
        return ""
    k, worst = max(devs, key=lambda kv: kv[1])
    return (f"; precision: the mean of each third of the measured steps lies within {100 * worst:.1f}% of the "
            f"series' mean at every K (the most at K = {k})")


def pace_text(lines, sidecar):
    """The description's sentence on the machine's pace (docs/measure.md "Is the machine at its pace?"): how many of
    the series' training configurations and of its microbenchmark's rows (`sidecar`, a CSV's .json) read slow, or ""
    where none recorded a pace (campaigns before 2026-12-02g)."""
    configs = [d["cpu"] for d in lines if d.get("cpu") and plan.pace_of(d["cpu"]) is not None]
    try:
        with open(sidecar, encoding="utf-8") as f:
            rows = json.load(f).get("cpu_rows") or []
    except (OSError, ValueError):
        rows = []
    rows = [r for r in rows if plan.pace_of(r) is not None]
    if not configs and not rows:
        return ""
    return (f"; pace (docs/measure.md \"Is the machine at its pace?\"): {sum(map(plan.pace_slow, configs))} of "
            f"{len(configs)} training configurations and {sum(map(plan.pace_slow, rows))} of {len(rows)} "
            f"microbenchmark rows read slow (their pace above {plan.PACE_SLOW:g} times the reference)")


def again_text(rate_dir, name):
    """The description's sentence on the case's microbenchmark measured again after the trainings, or ""."""
    try:
        text = drift.summary(rate_dir, name)
    except ValueError as e:  # measured again at other sizes or node counts than before: nothing to compare
        raise SystemExit(f"make_cases: {e}")
    return f"; {text} (tools/measure/drift.py --case: the prediction from both)" if text else ""


def campaign_data_root(out, campaign_name=None):
    """Where a campaign's data go: OUT/data, or OUT/campaign-NAME/data for a later one (--campaign-name)."""
    return os.path.join(out, f"campaign-{campaign_name}", "data") if campaign_name else os.path.join(out, "data")


HELD_OUT = "; held out: "


def write_case(out, campaign_name, rate, model, jsonl, workload, p2p_platform, ar_platform, spreads=(),
               held_out=None, pulls=(), pulls_from=TENSORS, late=(), late_archs=()):
    with open(jsonl, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    first = lines[0]
    arch, overlap = first["arch"], first["overlap"]
    ring = arch == "ring"
    series = os.path.basename(jsonl)[:-len(".jsonl")]
    if ring and ar_platform is None:
        raise SystemExit(f"make_cases: {jsonl}: a ring series needs the all-reduce microbenchmark of its rate "
                         "(allreduce.csv beside p2p.csv)")
    name = f"{rate}-{model}-{series}" + (f"-{campaign_name}" if campaign_name else "")
    data_root = campaign_data_root(out, campaign_name)
    data_rel = os.path.relpath(data_root, out)
    queued_json = os.path.join(data_root, rate, "allreduce-queued.csv.json")
    queued_calls = 0
    if os.path.exists(queued_json):
        with open(queued_json, encoding="utf-8") as f:
            queued_calls = json.load(f)["queued_calls"]
    run = case_run(ring and ar_platform or p2p_platform, workload, arch, overlap, first["steps"], first["warmup"],
                   first["granularity"] if ring else None)
    # The first pull (--first-pull-weight) applies to Sync-PS reading its shard: decided on one PS (validation/testbed/
    # README.md, 2026-12-07), given to two PS after 2026-12-07f's trainings showed every PS's first pull going to
    # worker 0 (held out on 2026-12-07g).
    pulls = list(pulls) if arch == "ps-sync" and first.get("ps_reads") != "per-variable" else []
    if not ring:
        run += ["--ps", str(first["ps"])] + (with_first_pull(list(spreads), pulls) if pulls else list(spreads))
        if first.get("ps_reads") == "per-variable":  # series measured before the field read by shard
            run += ["--ps-reads", "per-variable"]
    # A push joining running pulls (--ack-coupling-late-in), for the architectures asked for, reading the shard, where
    # the rate's incast gave the coupling it refines: one PS (decided on it, validation/testbed/README.md 2026-12-07b),
    # and two PS for Sync-PS (held out on 2026-12-07i; Async-PS with two PS was never measured under CUBIC).
    late = list(late) if (not ring and arch in late_archs and late_ps(arch, first["ps"])
                          and first.get("ps_reads") != "per-variable" and "--ack-coupling-in" in spreads) else []
    run += late
    points = []
    for d in lines:
        k = d["workers"]
        if ring and k < 2:
            continue  # one worker of a ring all-reduces nothing
        points.append({"label": f"{k} workers", "args": ["--workers", str(k)], "measured": d["step_time_mean_s"]})
    what = (f"ring all-reduce, one per {first['granularity']}" if ring and first["granularity"] != "ddp"
            else "ring all-reduce of PyTorch DDP buckets" if ring
            else f"{arch} with {first['ps']} PS"
            + (", parameters read per variable (--ps-reads per-variable)" if first.get("ps_reads") == "per-variable"
               else ""))
    case = {
        "name": name,
        "description": f"{model}, batch {first['batch']}, {what}, overlap {overlap}, K = "
                       f"{points[0]['args'][1]}..{points[-1]['args'][1]} workers on the emulated cluster at {rate} "
                       f"per NIC (tools/measure, Gloo over TCP, compute as sleeps of the workload's own times); "
                       f"step time, mean of {first['steps']} measured steps after {first['warmup']} warm-up "
                       f"({data_rel}/{rate}/{model}/{series}.jsonl)" + precision_text(lines)
                       + again_text(os.path.join(data_root, rate), "allreduce.csv" if ring else "p2p.csv")
                       + pace_text(lines, os.path.join(data_root, rate, ("allreduce" if ring else "p2p") + ".csv.json"))
                       + (f"; campaign {campaign_name}: its microbenchmarks and training series measured together "
                          f"(validation/testbed/README.md)" if campaign_name else ""),
        "prediction_uses": ("the p2p microbenchmark of the same emulated cluster (sizes from 1 MiB; the ping-pong "
                            "row's one-way time as latency"
                            + ("; each message's cost from the small messages sent back to back, p2p-stream.csv, "
                               "calibrate --stream" if "--stream" in (calibrate_command(p2p_platform) or []) else "")
                            + ") through sgdsim calibrate -o, "
                            + ("the incast microbenchmark of the same cluster (flow spreads and, where it has "
                               "outcast-mixed, the coupling of the two directions; where it has incast-duplex, the "
                               "coupling's exponents) through "
                               "tools/measure/fit_incast.py ("
                               + " ".join(spreads) + "), " if spreads else "")
                            + ("the pulls' incast of the same cluster (the hub sends N clients the model's tensors, "
                               "client 1's first" + (", each client's receives posted before its sends as the PS "
                                                     "posts a worker's gradient receives: incast-out --flow-tensors "
                                                     "--hub-recvs" if pulls_from == TENSORS_RECVS else
                                                     ": incast-out --flow-tensors")
                               + f", {pulls_from}.flows.jsonl) through "
                               "tools/measure/fit_incast.py --first-pull (" + " ".join(pulls) + "), "
                               if pulls else "")
                            + ("the late-flow incast of the same cluster (one flow into the hub started late beside "
                               "N established flows out of it: incast --patterns staggered-in --late-flows 1, "
                               f"{LATE}.flows.jsonl) through tools/measure/fit_incast.py (" + " ".join(late) + "), "
                               if late else "") + "and the workload file"
                            if not ring else
                            "the all-reduce microbenchmark of the same emulated cluster (every node count and size"
                            + (f"; one call at a time and {queued_calls} launched back to back" if queued_calls
                               else "")
                            + ") through sgdsim calibrate -o (the network's bandwidth from the sizes from 1 MiB on, "
                            "--bandwidth-from 1MiB" + ("; " + LATENCY_TEXT if with_latency(ar_platform) else "")
                            + "), the workload file, --framework pytorch-ddp-gloo and "
                            "--egress-fifo on (each emulated host sends through one FIFO queue, tools/measure/"
                            "emulate's pfifo: a message leaves behind what the host's other all-reduce has queued; "
                            "docs/models.md \u00a710.12)"),
        "metric": "step_time_s",
        "run": run,
        # With the flow spreads a PS run is random (each step draws the connections' weights): the case reports the
        # mean of 8 seeds, the expectation of what one measurement samples, not one draw (a mean of 8 spreads a
        # third as much as one run). A ring takes no spreads: one run is its result.
        **({"seeds": 8} if spreads and not ring else {}),
        "guard": {"mean": 10, "max": 10},
        "points": points,
    }
    cdir = os.path.join(out, "cases", name)
    os.makedirs(cdir, exist_ok=True)
    # A case made again keeps what was decided after its first report: its guard, what is missing and how it was
    # held out (the description's tail from HELD_OUT on, which says when its series were measured).
    old = keep_decided(case, os.path.join(cdir, "case.json"))
    kept = old.get("description", "").partition(HELD_OUT)
    if kept[1]:
        case["description"] += HELD_OUT + kept[2]
    elif held_out:
        case["description"] += HELD_OUT + held_out
    save_case(cdir, case, "../../README.md for the machine, the campaign and the recipe of the prediction",
              f"../../{data_rel}/{rate}/{model}/{series}.jsonl and its .provenance.json (kernel, qdiscs, rates, "
              f"congestion control, torch and Gloo versions, load average)",
              f"../../{data_rel}/{rate}/{model}/{os.path.basename(ar_platform if ring else p2p_platform)}, made "
              f"from the microbenchmarks alone")


def kept_points(jsonl):
    """A held-out ring series' points (K >= 2, rank 0's kept attempt of each configuration of a train output) and
    notes naming the configurations whose kept attempt was busy or read slow (docs/measure.md "Is the machine at its
    pace?")."""
    out, notes = [], []
    with open(jsonl, encoding="utf-8") as f:
        for rec in map(json.loads, f):
            k, cpu = rec["workers"], rec["cpu"]
            if k < 2:
                continue  # sgdsim's single worker runs no all-reduce: no prediction of the network to check
            if plan.cpu_busy(cpu):
                notes.append(f"K = {k} busy")
            elif plan.pace_slow(cpu):
                notes.append(f"K = {k} read slow")
            out.append({"label": f"{k} workers", "args": ["--workers", str(k)], "measured": rec["step_time_mean_s"]})
    return out, notes


def save_held_out_case(cases_dir, case, see, data, platform):
    """A campaign script's case (validation/testbed/campaign-*/series/make_cases.py): written into
    CASES_DIR/NAME, keeping the guard and "missing" text decided after its first report (keep_decided); SEE, DATA and
    PLATFORM as save_case."""
    cdir = os.path.join(cases_dir, case["name"])
    os.makedirs(cdir, exist_ok=True)
    keep_decided(case, os.path.join(cdir, "case.json"))
    save_case(cdir, case, see, data, platform)


def save_case(cdir, case, see, data, platform):
    """Writes CDIR/case.json and its SOURCE.md: where to read about the machine and recipe (SEE), the data and
    the prediction's platform (whose .log holds the calibration report)."""
    with open(os.path.join(cdir, "case.json"), "w", encoding="utf-8") as f:
        json.dump(case, f, indent=2)
        f.write("\n")
    with open(os.path.join(cdir, "SOURCE.md"), "w", encoding="utf-8") as f:
        f.write(f"# {case['name']}\n\nMeasured by this project on the emulated cluster of tools/measure (see {see}). "
                f"Data: {data}. The prediction's platform: {platform} (its .log holds the calibration report).\n")


def keep_decided(case, path):
    """Gives `case` the guard and "missing" text of the case.json at `path`, where there is one (what was decided
    after its first report); returns that case.json ({} where none)."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        old = json.load(f)
    for key in ("guard", "missing"):
        if key in old:
            case[key] = old[key]
    return old


def set_guards(out, report_json):
    """Sets each testbed case's guard a little above its current errors: CI then catches a regression, and the
    target (5% / 15%) says whether the case is good enough."""
    with open(report_json, encoding="utf-8") as f:
        report = json.load(f)
    for c in report["cases"]:
        path = os.path.join(out, "cases", c["name"], "case.json")
        if not os.path.exists(path) or "simulation" not in c:
            continue
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        mean, worst = c["simulation"]["mean_abs_error"], c["simulation"]["max_abs_error"]
        case["guard"] = {"mean": round_up(mean + 0.01), "max": round_up(worst + 0.02)}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(case, f, indent=2)
            f.write("\n")
    return 0


def round_up(x):
    """Up to the next half percent."""
    return math.ceil(x * 200) / 200


if __name__ == "__main__":
    sys.exit(main())
