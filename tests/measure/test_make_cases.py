"""Unit tests of tools/measure/make_cases.py's case writer: the name, the platform and the data paths of a case,
for the first campaign (OUT/data/) and for a later one (--campaign-name: OUT/campaign-NAME/data/, cases suffixed),
so that a second campaign never replaces the first one's files or cases."""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import make_cases  # noqa: E402


def series_line(k, arch="ps-async", steps=20):
    return {"arch": arch, "overlap": "on", "steps": steps, "warmup": 2, "ps": 1, "granularity": "layer",
            "batch": 32, "workers": k, "step_time_mean_s": 1.0 + k}


class WriteCase(unittest.TestCase):
    def write(self, out, campaign_name, series, lines, spreads=(), held_out=None, pulls=()):
        mdir = os.path.join(make_cases.campaign_data_root(out, campaign_name), "1gbit", "m")
        os.makedirs(mdir, exist_ok=True)
        jsonl = os.path.join(mdir, series + ".jsonl")
        with open(jsonl, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(d) + "\n" for d in lines)
        make_cases.write_case(out, campaign_name, "1gbit", "m", jsonl, os.path.join(ROOT, "w.xml"),
                              os.path.join(mdir, "platform-p2p.xml"), os.path.join(mdir, "platform-allreduce.xml"),
                              spreads, held_out, pulls)

    def test_first_pull_reaches_sync_ps_with_one_ps_reading_its_shard_only(self):
        # The pulls' incast replaces the bulk incast's spread out and adds the first pull's weight (docs/models.md
        # §10.6, "The first pull"), for the series it was decided on only: Sync-PS, one PS, shard reads.
        spreads = ["--flow-spread-in", "0.54", "--flow-spread-out", "0.56", "--ack-coupling-in", "0.44"]
        pulls = ["--flow-spread-out", "0.03", "--first-pull-weight", "2:1.20,8:1.90"]

        def run(series, arch, **extra):
            with tempfile.TemporaryDirectory() as out:
                self.write(out, "x", series, [dict(series_line(k, arch=arch), **extra) for k in (1, 2)], spreads,
                           pulls=pulls)
                with open(os.path.join(out, "cases", f"1gbit-m-{series}-x", "case.json"), encoding="utf-8") as f:
                    return json.load(f)
        case = run("ps-sync-ps1-overlap-on", "ps-sync")
        args = case["run"][case["run"].index("--ps") + 2:]
        self.assertEqual(args, ["--flow-spread-in", "0.54", "--flow-spread-out", "0.03", "--ack-coupling-in", "0.44",
                                "--first-pull-weight", "2:1.20,8:1.90"])
        self.assertIn("fit_incast.py --first-pull", case["prediction_uses"])
        case = run("ps-sync-ps2-overlap-on", "ps-sync", ps=2)  # since 2026-12-07g: every PS posts worker 0 first
        self.assertEqual(case["run"][case["run"].index("--ps"):], ["--ps", "2"] + args)
        for series, arch, extra in (("ps-async-ps1-overlap-on", "ps-async", {}),
                                    ("ps-sync-ps1-per-variable-overlap-on", "ps-sync", {"ps_reads": "per-variable"})):
            case = run(series, arch, **extra)
            self.assertNotIn("--first-pull-weight", case["run"], series)
            self.assertEqual(case["run"][case["run"].index("--flow-spread-out") + 1], "0.56", series)

    def test_late_in_reaches_the_architectures_asked_for_only(self):
        # --ack-coupling-late-in (campaign.sh LATE, make_cases.py --late-in): the series of the architectures asked for
        # reading the shard with one PS (Sync-PS: one or two, since 2026-12-07i), and only where the rate's incast gave
        # the coupling it refines.
        late = ["--ack-coupling-late-in", "0.72"]
        coupled = ["--flow-spread-in", "0.5", "--ack-coupling-in", "0.43", "--ack-coupling-out", "0.00"]

        def run(series, arch, archs, spreads=coupled, **extra):
            with tempfile.TemporaryDirectory() as out:
                mdir = os.path.join(make_cases.campaign_data_root(out, "x"), "1gbit", "m")
                os.makedirs(mdir)
                jsonl = os.path.join(mdir, series + ".jsonl")
                with open(jsonl, "w", encoding="utf-8") as f:
                    f.writelines(json.dumps(dict(series_line(k, arch=arch), **extra)) + "\n" for k in (1, 2))
                make_cases.write_case(out, "x", "1gbit", "m", jsonl, os.path.join(ROOT, "w.xml"),
                                      os.path.join(mdir, "platform-p2p.xml"), None, spreads, None, (),
                                      make_cases.TENSORS, late, archs)
                with open(os.path.join(out, "cases", f"1gbit-m-{series}-x", "case.json"), encoding="utf-8") as f:
                    return json.load(f)
        case = run("ps-sync-ps1-overlap-on", "ps-sync", ("ps-sync",))
        self.assertEqual(case["run"][-2:], late)
        self.assertIn("--late-flows 1, incast-late.flows.jsonl) through tools/measure/fit_incast.py "
                      "(--ack-coupling-late-in 0.72)", case["prediction_uses"])
        self.assertEqual(run("ps-async-ps1-overlap-on", "ps-async", ("ps-sync", "ps-async"))["run"][-2:], late)
        self.assertEqual(run("ps-sync-ps2-overlap-on", "ps-sync", ("ps-sync",), ps=2)["run"][-2:], late)
        for series, arch, archs, spreads, extra in (
                ("ps-async-ps1-overlap-on", "ps-async", ("ps-sync",), coupled, {}),
                ("ps-sync-ps1-overlap-on", "ps-sync", (), coupled, {}),
                ("ps-sync-ps3-overlap-on", "ps-sync", ("ps-sync",), coupled, {"ps": 3}),
                ("ps-async-ps2-overlap-on", "ps-async", ("ps-sync", "ps-async"), coupled, {"ps": 2}),
                ("ps-sync-ps1-per-variable-overlap-on", "ps-sync", ("ps-sync",), coupled, {"ps_reads": "per-variable"}),
                ("ps-sync-ps1-overlap-on", "ps-sync", ("ps-sync",), ["--flow-spread-in", "0.5"], {})):
            case = run(series, arch, archs, spreads, **extra)
            self.assertNotIn("--ack-coupling-late-in", case["run"], (series, archs, spreads))
            self.assertNotIn("late-flow incast", case["prediction_uses"])

    def test_late_in_is_fitted_where_both_incasts_were_measured(self):
        data = os.path.join(ROOT, "validation", "testbed", "campaign-2026-12-07b", "data", "1gbit")
        incast, late = os.path.join(data, "incast.flows.jsonl"), os.path.join(data, "incast-late.flows.jsonl")
        option, g = make_cases.late_in(incast, late)
        self.assertEqual(option, "--ack-coupling-late-in")
        self.assertTrue(0 < float(g) <= 4, g)  # fit_incast.py's range for a coupling
        self.assertEqual(make_cases.late_in(incast, late + ".absent"), [])
        with self.assertRaises(SystemExit) as e:  # an incast without staggered-in rows fits no late flow
            make_cases.late_in(incast, incast)
        self.assertIn("no --ack-coupling-late-in", str(e.exception))

    def test_the_first_pull_comes_from_the_hub_only_sending_unless_asked(self):
        # 2026-12-07's held-out rule (validation/testbed/README.md) kept the hub only sending; the hub posting
        # receives first only when asked and measured.
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(make_cases.pulls_source(d, "recvs"), make_cases.TENSORS)
            open(os.path.join(d, make_cases.TENSORS + ".flows.jsonl"), "w").close()
            open(os.path.join(d, make_cases.TENSORS_RECVS + ".flows.jsonl"), "w").close()
            self.assertEqual(make_cases.pulls_source(d), make_cases.TENSORS)
            self.assertEqual(make_cases.pulls_source(d, "recvs"), make_cases.TENSORS_RECVS)
        pulls = ["--flow-spread-out", "0.03", "--first-pull-weight", "2:1.20,8:1.90"]
        for source, says in ((make_cases.TENSORS, "--flow-tensors, incast-tensors.flows.jsonl"),
                             (make_cases.TENSORS_RECVS, "--flow-tensors --hub-recvs, incast-tensors-recvs.flows.jsonl")):
            with tempfile.TemporaryDirectory() as out:
                mdir = os.path.join(make_cases.campaign_data_root(out, "x"), "1gbit", "m")
                os.makedirs(mdir)
                jsonl = os.path.join(mdir, "ps-sync-ps1-overlap-on.jsonl")
                with open(jsonl, "w", encoding="utf-8") as f:
                    f.writelines(json.dumps(series_line(k, arch="ps-sync")) + "\n" for k in (1, 2))
                make_cases.write_case(out, "x", "1gbit", "m", jsonl, os.path.join(ROOT, "w.xml"),
                                      os.path.join(mdir, "platform-p2p.xml"), None, ["--flow-spread-out", "0.5"],
                                      None, pulls, source)
                with open(os.path.join(out, "cases", "1gbit-m-ps-sync-ps1-overlap-on-x", "case.json")) as f:
                    self.assertIn(says, json.load(f)["prediction_uses"])

    def test_later_campaign_is_suffixed_and_points_at_its_own_data(self):
        with tempfile.TemporaryDirectory() as out:
            self.write(out, "2026-11-26b", "ps-async-ps1-overlap-on", [series_line(1), series_line(2)],
                       ["--flow-spread-in", "0.4"])
            name = "1gbit-m-ps-async-ps1-overlap-on-2026-11-26b"
            with open(os.path.join(out, "cases", name, "case.json"), encoding="utf-8") as f:
                case = json.load(f)
            self.assertEqual(case["name"], name)
            platform = case["run"][case["run"].index("--platform") + 1]
            self.assertTrue(platform.endswith("campaign-2026-11-26b/data/1gbit/m/platform-p2p.xml"), platform)
            self.assertEqual(case["run"][case["run"].index("--steps") + 1], "20")
            self.assertIn("(campaign-2026-11-26b/data/1gbit/m/ps-async-ps1-overlap-on.jsonl)", case["description"])
            self.assertEqual(case["seeds"], 8)  # with flow spreads a run is random
            self.assertEqual([p["args"] for p in case["points"]], [["--workers", "1"], ["--workers", "2"]])
            with open(os.path.join(out, "cases", name, "SOURCE.md"), encoding="utf-8") as f:
                self.assertIn("../../campaign-2026-11-26b/data/1gbit/m/ps-async-ps1-overlap-on.jsonl", f.read())

    def test_a_ring_case_says_when_its_platform_took_the_routes_latency(self):
        with tempfile.TemporaryDirectory() as out:
            mdir = os.path.join(make_cases.campaign_data_root(out, "x"), "1gbit", "m")
            os.makedirs(mdir)
            uses = {}
            for command in ("- -bandwidth-from 1MiB - -force", "- -bandwidth-from 1MiB - -latency 34.5us"):
                with open(os.path.join(mdir, "platform-allreduce.xml"), "w", encoding="utf-8") as f:
                    f.write("<?xml version='1.0'?>\n<!--\n  Generated by: sgdsim calibrate %s\n-->\n" % command)
                self.write(out, "x", "ring-layer-overlap-on", [series_line(k, arch="ring") for k in (1, 2)])
                with open(os.path.join(out, "cases", "1gbit-m-ring-layer-overlap-on-x", "case.json"),
                          encoding="utf-8") as f:
                    uses[command] = json.load(f)["prediction_uses"]
            self.assertNotIn(make_cases.LATENCY_TEXT, uses["- -bandwidth-from 1MiB - -force"])
            self.assertIn("--bandwidth-from 1MiB; " + make_cases.LATENCY_TEXT,
                          uses["- -bandwidth-from 1MiB - -latency 34.5us"])

    def test_first_campaign_keeps_its_names(self):
        with tempfile.TemporaryDirectory() as out:
            self.write(out, None, "ring-layer-overlap-on", [series_line(k, arch="ring") for k in (1, 2, 3)])
            name = "1gbit-m-ring-layer-overlap-on"
            with open(os.path.join(out, "cases", name, "case.json"), encoding="utf-8") as f:
                case = json.load(f)
            self.assertIn("(data/1gbit/m/ring-layer-overlap-on.jsonl)", case["description"])
            self.assertTrue(case["run"][1].endswith("data/1gbit/m/platform-allreduce.xml"))
            self.assertNotIn("seeds", case)
            # A ring of one worker all-reduces nothing: K = 1 is not a point.
            self.assertEqual([p["label"] for p in case["points"]], ["2 workers", "3 workers"])

    def test_ring_of_a_rate_with_spreads_runs_once(self):
        # The spreads (from the rate's incast microbenchmark) go to the PS runs only, which they make random; a ring
        # run does not take them and one run is its result: no seeds.
        with tempfile.TemporaryDirectory() as out:
            self.write(out, "x", "ring-tensor-overlap-on", [series_line(k, arch="ring") for k in (2, 3)],
                       ["--flow-spread-in", "0.4"])
            with open(os.path.join(out, "cases", "1gbit-m-ring-tensor-overlap-on-x", "case.json"),
                      encoding="utf-8") as f:
                case = json.load(f)
            self.assertNotIn("seeds", case)
            self.assertNotIn("--flow-spread-in", case["run"])

    def test_a_campaigns_prediction_runs_what_its_case_will(self):
        # ring_run is what a campaign's predict.py simulates before its series is read: the case made afterwards must
        # run the same (its `run` and a point's --workers), per layer and for DDP's buckets alike.
        for granularity, unit in (("layer", "layer"), ("ddp", "bucket")):
            with tempfile.TemporaryDirectory() as out:
                lines = [dict(series_line(k, arch="ring", steps=5), granularity=granularity) for k in (2, 3)]
                self.write(out, "x", f"ring-{granularity}-overlap-on", lines)
                with open(os.path.join(out, "cases", f"1gbit-m-ring-{granularity}-overlap-on-x", "case.json"),
                          encoding="utf-8") as f:
                    case = json.load(f)
                platform = os.path.join(make_cases.ROOT, case["run"][1])
                self.assertEqual(case["run"] + case["points"][1]["args"],
                                 make_cases.ring_run(platform, os.path.join(ROOT, "w.xml"), granularity, 3))
                self.assertEqual(case["run"][case["run"].index("--allreduce-unit") + 1], unit)

    def test_held_out_text_ends_the_description_and_survives_a_remake(self):
        # How a campaign was held out is decided when its cases are made; making them again (a fixed recipe, new
        # platforms) keeps it, as it keeps the guard, and a later --held-out does not replace it.
        with tempfile.TemporaryDirectory() as out:
            lines = [series_line(k, arch="ring") for k in (2, 3)]
            path = os.path.join(out, "cases", "1gbit-m-ring-tensor-overlap-on-x", "case.json")
            self.write(out, "x", "ring-tensor-overlap-on", lines, held_out="measured after the recipe was fixed")
            with open(path, encoding="utf-8") as f:
                first = json.load(f)["description"]
            self.assertTrue(first.endswith("; held out: measured after the recipe was fixed"), first)
            self.write(out, "x", "ring-tensor-overlap-on", lines)
            self.write(out, "x", "ring-tensor-overlap-on", lines, held_out="another text")
            with open(path, encoding="utf-8") as f:
                self.assertEqual(json.load(f)["description"], first)
        with tempfile.TemporaryDirectory() as out:  # without --held-out, nothing is added
            self.write(out, "x", "ring-tensor-overlap-on", [series_line(k, arch="ring") for k in (2, 3)])
            with open(os.path.join(out, "cases", "1gbit-m-ring-tensor-overlap-on-x", "case.json"),
                      encoding="utf-8") as f:
                self.assertNotIn("held out", json.load(f)["description"])

    def test_per_variable_reads_reach_the_run(self):
        # A series measured with --ps-reads per-variable is predicted with it; one without the field (measured
        # before it existed) reads by shard, sgdsim's default.
        with tempfile.TemporaryDirectory() as out:
            pv = [dict(series_line(k, arch="ps-sync"), ps_reads="per-variable") for k in (1, 2)]
            self.write(out, "x", "ps-sync-ps1-per-variable-overlap-on", pv)
            with open(os.path.join(out, "cases", "1gbit-m-ps-sync-ps1-per-variable-overlap-on-x", "case.json"),
                      encoding="utf-8") as f:
                case = json.load(f)
            self.assertEqual(case["run"][case["run"].index("--ps-reads") + 1], "per-variable")
            self.assertIn("parameters read per variable", case["description"])
        with tempfile.TemporaryDirectory() as out:
            self.write(out, "x", "ps-sync-ps1-overlap-on", [series_line(k, arch="ps-sync") for k in (1, 2)])
            with open(os.path.join(out, "cases", "1gbit-m-ps-sync-ps1-overlap-on-x", "case.json"),
                      encoding="utf-8") as f:
                self.assertNotIn("--ps-reads", json.load(f)["run"])


class AllreduceLatency(unittest.TestCase):
    def test_the_route_latency_is_the_ping_pongs_one_way_time_where_there_is_one(self):
        with tempfile.TemporaryDirectory() as d:
            p2p = os.path.join(d, "p2p.csv")
            self.assertEqual(make_cases.allreduce_latency_args(p2p), [])  # no p2p microbenchmark: alpha fitted
            with open(p2p, "w", encoding="utf-8") as f:
                f.write("op,nodes,size_bytes,time_s\np2p,2,1048576,0.009\npingpong,2,4,8.87539991e-05\n")
            self.assertEqual(make_cases.allreduce_latency_args(p2p), ["--latency", "88.754us"])

    def test_the_ring_recipe_calibrates_with_it(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "allreduce.csv.json"), "w", encoding="utf-8") as f:
                json.dump({"provenance": {"ranks": []}}, f)
            with open(os.path.join(d, "p2p.csv"), "w", encoding="utf-8") as f:
                f.write("op,nodes,size_bytes,time_s\npingpong,2,4,3.36e-05\n")
            calls = []
            real = make_cases.calibrate
            make_cases.calibrate = lambda sgdsim, args, log: calls.append(args)
            try:
                make_cases.calibrate_allreduce("sgdsim", d, os.path.join(d, "w.xml"), "1gbit", os.path.join(d, "p.xml"))
            finally:
                make_cases.calibrate = real
        self.assertEqual(calls[0][calls[0].index("--latency") + 1], "33.6us")


class CalibrationLog(unittest.TestCase):
    def test_the_log_names_the_command_that_recalibrate_runs_again(self):
        # make_cases.py writes PLATFORM.log, tools/recalibrate.py reads its first line back to make the platform again
        # (repo.platforms_calibrated): an argument with a space (a --where on a column with spaces) must come back as
        # one. /bin/echo stands for sgdsim: it prints its arguments, the "report", and exits 0.
        args = ["--measurements", "m.csv", "--where", "setting=delay 10ms  bandwidth 1Gbps", "-o", "p.xml"]
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "p.xml.log")
            make_cases.calibrate("/bin/echo", args, log)
            self.assertEqual(make_cases.recalibrate.command_of(log), args)
            with open(log, encoding="utf-8") as f:
                self.assertEqual(f.read().splitlines()[1], "calibrate " + " ".join(args))

    def test_a_failed_calibration_writes_no_log(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "p.xml.log")
            with self.assertRaises(SystemExit):
                make_cases.calibrate("/bin/false", ["-o", "p.xml"], log)
            self.assertFalse(os.path.exists(log))


class Stream(unittest.TestCase):
    def test_the_ps_recipe_takes_the_per_message_cost_from_the_stream_where_measured(self):
        # campaign.sh STREAM (since 2026-12-06g): p2p-stream.csv's p2p_stream rows join p2p.csv's in a derived file
        # (its own rows left out: calibrate reads op=p2p from p2p.csv's), read with calibrate --stream.
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "p2p.csv"), "w", encoding="utf-8") as f:
                f.write("op,nodes,size_bytes,time_s\np2p,2,1048576,0.0084\npingpong,2,4,3.36e-05\n")
            with open(os.path.join(d, "p2p-stream.csv"), "w", encoding="utf-8") as f:
                f.write("op,nodes,size_bytes,time_s\np2p,2,256,9e-05\np2p_stream,2,256,0.0001\n"
                        "p2p_stream,2,4096,0.00011\n")
            calls = []
            real = make_cases.calibrate
            make_cases.calibrate = lambda sgdsim, args, log: calls.append(args)
            try:
                make_cases.calibrate_p2p("sgdsim", d, os.path.join(d, "w.xml"), "1gbit", os.path.join(d, "p.xml"))
                with open(os.path.join(d, "p2p.stream.csv"), encoding="utf-8") as f:
                    merged = f.read().splitlines()
                os.remove(os.path.join(d, "p2p-stream.csv"))
                make_cases.calibrate_p2p("sgdsim", d, os.path.join(d, "w.xml"), "1gbit", os.path.join(d, "q.xml"))
            finally:
                make_cases.calibrate = real
        self.assertEqual(merged, ["op,nodes,size_bytes,time_s", "p2p,2,1048576,0.0084", "pingpong,2,4,3.36e-05",
                                  "p2p_stream,2,256,0.0001", "p2p_stream,2,4096,0.00011"])
        with_stream, without = calls
        self.assertEqual(with_stream[with_stream.index("--stream") + 1], "op=p2p_stream")
        self.assertTrue(with_stream[with_stream.index("--measurements") + 1].endswith("p2p.stream.csv"))
        self.assertEqual(with_stream[with_stream.index("--latency") + 1], "33.6us")
        self.assertNotIn("--stream", without)
        self.assertTrue(without[without.index("--measurements") + 1].endswith("p2p.csv"))

    def test_a_campaigns_stream_is_copied_and_calibrated_with(self):
        # make_cases.py CAMPAIGN copies the rate's p2p-stream.csv beside p2p.csv into the case data (its first run on
        # 2026-12-06g left it out, and the PS platform took no per-message cost).
        with tempfile.TemporaryDirectory() as d:
            rate = os.path.join(d, "campaign", "1gbit")
            os.makedirs(os.path.join(rate, "m"))
            for name, text in (("p2p.csv", "op,nodes,size_bytes,time_s\npingpong,2,4,3.36e-05\n"),
                               ("p2p-stream.csv", "op,nodes,size_bytes,time_s\np2p_stream,2,256,0.0001\n"),
                               ("m/ps-sync-ps1-overlap-on.jsonl", json.dumps(series_line(1, "ps-sync", 5)) + "\n")):
                with open(os.path.join(rate, name), "w", encoding="utf-8") as f:
                    f.write(text)
            calls = []
            saved = make_cases.calibrate, make_cases.write_case, sys.argv
            make_cases.calibrate = lambda sgdsim, args, log: calls.append(args)
            make_cases.write_case = lambda *args, **kwargs: None
            sys.argv = ["make_cases.py", os.path.join(d, "campaign"), "--out", os.path.join(d, "out")]
            try:
                make_cases.main()
            finally:
                make_cases.calibrate, make_cases.write_case, sys.argv = saved
            data = os.path.join(d, "out", "data", "1gbit")
            self.assertTrue(os.path.exists(os.path.join(data, "p2p-stream.csv")))
            self.assertEqual(calls[0][calls[0].index("--stream") + 1], "op=p2p_stream")

    def test_a_stream_file_without_stream_rows_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("p2p.csv", "p2p-stream.csv"):
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write("op,nodes,size_bytes,time_s\np2p,2,256,9e-05\n")
            with self.assertRaisesRegex(SystemExit, "p2p-stream.csv: no p2p_stream row"):
                make_cases.with_stream(os.path.join(d, "p2p.csv"), os.path.join(d, "p2p-stream.csv"),
                                       os.path.join(d, "p2p.stream.csv"))


class SharedCores(unittest.TestCase):
    def write(self, ranks):
        path = os.path.join(self.tmp.name, "allreduce.csv.json")
        with open(path, "w") as f:
            json.dump({"kind": "allreduce", "results": [], "provenance": {"ranks": ranks}}, f)
        return path

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_ranks_on_one_machine_share_its_cores(self):
        ranks = [{"rank": i, "hostname": "vm", "cpus_usable": 2} for i in range(8)]
        self.assertEqual(make_cases.shared_cores(self.write(ranks)), 2)

    def test_pinned_ranks_share_the_cores_they_were_pinned_to(self):
        # launch --pin: each rank may use one core (cpus_usable 1), the 8 of them share 2 (rank % 2).
        ranks = [{"rank": i, "hostname": "vm", "cpus_usable": 1, "pinned_cpu": i % 2} for i in range(8)]
        self.assertEqual(make_cases.shared_cores(self.write(ranks)), 2)

    def test_ranks_on_several_machines_or_unknown_share_nothing(self):
        several = [{"rank": i, "hostname": "node-%d" % i, "cpus_usable": 8} for i in range(4)]
        self.assertIsNone(make_cases.shared_cores(self.write(several)))
        self.assertIsNone(make_cases.shared_cores(self.write([{"rank": 0, "hostname": "vm", "cpus_usable": 2}])))
        self.assertIsNone(make_cases.shared_cores(self.write([{"rank": 0, "hostname": "vm"}, {"rank": 1,
                                                                                              "hostname": "vm"}])))

    def test_the_testbeds_microbenchmarks_ran_on_its_two_cores(self):
        path = os.path.join(ROOT, "validation", "testbed", "data", "1gbit", "allreduce.csv.json")
        self.assertEqual(make_cases.shared_cores(path), 2)


class Precision(unittest.TestCase):
    def test_thirds_of_pooled_steps(self):
        # Two workers, 6 steps: thirds pooled (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3); mean 2; the worst third
        # lies 50% from it.
        steps = [[1, 1, 2, 2, 3, 3], [1, 1, 2, 2, 3, 3]]
        self.assertAlmostEqual(make_cases.thirds_deviation(steps), 0.5)
        self.assertAlmostEqual(make_cases.thirds_deviation([[2, 2, 2, 2, 2, 2]]), 0.0)
        self.assertIsNone(make_cases.thirds_deviation([[1, 2, 3, 4, 5]]))  # under 6 steps

    def test_description_names_the_worst_node_count(self):
        lines = [dict(series_line(1), step_times_s=[[1.0] * 6]),
                 dict(series_line(2), step_times_s=[[1.0, 1.0, 1.0, 1.0, 1.2, 1.2], [1.0] * 6])]
        text = make_cases.precision_text(lines)
        # K = 2: mean 12.4 / 12; the last third 4.4 / 4 = 1.1, 1.1 / (12.4 / 12) - 1 = 6.5% (the first: -3.2%).
        self.assertIn("within 6.5% of the series' mean at every K (the most at K = 2)", text)
        self.assertEqual(make_cases.precision_text([series_line(1)]), "")  # no per-step times


class Pace(unittest.TestCase):
    def test_the_description_counts_what_read_slow(self):
        def cpu(*pace):
            return {"pace_us": list(pace), "pace_reference_us": 13.0}
        with tempfile.TemporaryDirectory() as d:
            sidecar = os.path.join(d, "allreduce.csv.json")
            with open(sidecar, "w", encoding="utf-8") as f:
                json.dump({"cpu_rows": [cpu(13.0, 13.5), cpu(19.0, 18.0), {"outside_s": 0.0}]}, f)
            lines = [dict(series_line(1), cpu=cpu(13.0, 14.0, 30.0)), dict(series_line(2), cpu=cpu(18.0, 17.0)),
                     dict(series_line(3), cpu={"outside_s": 0.0})]
            text = make_cases.pace_text(lines, sidecar)
            self.assertIn("1 of 2 training configurations and 1 of 2 microbenchmark rows read slow", text)
            self.assertIn("above 1.25 times the reference", text)
            self.assertEqual(make_cases.pace_text([series_line(1)], os.path.join(d, "none.csv.json")), "")


class KeptPoints(unittest.TestCase):
    def test_ring_points_from_k2_with_busy_and_slow_named(self):
        quiet = {"outside_cores": 0.0, "outside_s": 0.0, "steal_s": 0.0, "window_s": 10.0, "pace_us": [13.0],
                 "pace_reference_us": 13.0}
        lines = [dict(series_line(1), cpu=quiet), dict(series_line(2), cpu=dict(quiet, outside_cores=0.3, outside_s=3)),
                 dict(series_line(3), cpu=dict(quiet, pace_us=[17.0])), dict(series_line(4), cpu=quiet)]
        with tempfile.TemporaryDirectory() as d:
            jsonl = os.path.join(d, "s.jsonl")
            with open(jsonl, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(x) + "\n" for x in lines)
            points, notes = make_cases.kept_points(jsonl)
        self.assertEqual([(p["args"], p["measured"]) for p in points],
                         [(["--workers", "2"], 3.0), (["--workers", "3"], 4.0), (["--workers", "4"], 5.0)])
        self.assertEqual(notes, ["K = 2 busy", "K = 3 read slow"])


class MedianOverLaunches(unittest.TestCase):
    """campaign.sh SMALL_LAUNCHES: the small sizes measured in more launches, each size's time their median."""

    HEADER = "op,nodes,size_bytes,time_s,time_min_s,time_max_s,repeats\n"

    def write(self, d, name, rows):
        path = os.path.join(d, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))
        return path

    def test_each_size_measured_again_takes_the_median_over_launches(self):
        with tempfile.TemporaryDirectory() as d:
            first = self.write(d, "allreduce-queued.csv", [("allreduce_queued", 2, 4096, 0.00095, 0.00063, 0.00101, 3),
                                                           ("allreduce_queued", 2, 1048576, 0.009, 0.0088, 0.0091, 3),
                                                           ("allreduce_queued", 3, 4096, 0.0012, 0.0011, 0.0013, 3)])
            os.makedirs(os.path.join(d, "small"))
            # Launches 2 and 3 of the sizes below 1 MiB; launch 10 sorts after 3 by number, not by name.
            self.write(d, "small/allreduce-queued-2.csv", [("allreduce_queued", 2, 4096, 0.00025, 0.00023, 0.00027, 3),
                                                          ("allreduce_queued", 3, 4096, 0.0011, 0.001, 0.0012, 3)])
            self.write(d, "small/allreduce-queued-3.csv", [("allreduce_queued", 2, 4096, 0.00027, 0.00026, 0.0003, 3)])
            self.write(d, "small/allreduce-queued-10.csv", [("allreduce_queued", 2, 4096, 0.0003, 0.0002, 0.0004, 3)])
            self.write(d, "small/allreduce-2.csv", [("allreduce", 2, 4096, 1.0, 1.0, 1.0, 5)])
            found = make_cases.launches(os.path.join(d, "small"), "allreduce-queued")
            self.assertEqual([os.path.basename(p) for p in found],
                             ["allreduce-queued-2.csv", "allreduce-queued-3.csv", "allreduce-queued-10.csv"])
            out = make_cases.median_over_launches(first, found, os.path.join(d, "merged.csv"))
            with open(out, encoding="utf-8") as f:
                rows = [line.rstrip("\n").split(",") for line in f][1:]
            by_key = {(r[0], r[1], r[2]): r for r in rows}
            # K = 2, 4 KiB: median of 0.95, 0.25, 0.27, 0.30 ms; the widest range of the four.
            self.assertAlmostEqual(float(by_key["allreduce_queued", "2", "4096"][3]), 0.000285, places=12)
            self.assertEqual([float(x) for x in by_key["allreduce_queued", "2", "4096"][4:6]], [0.0002, 0.00101])
            self.assertAlmostEqual(float(by_key["allreduce_queued", "3", "4096"][3]), 0.00115, places=12)
            # A size no other launch measured keeps its row as it was; the rows keep their order.
            self.assertEqual(rows[1], ["allreduce_queued", "2", "1048576", "0.009", "0.0088", "0.0091", "3"])
            self.assertEqual([r[2] for r in rows], ["4096", "1048576", "4096"])
            # Its provenance beside it, as every CSV's: the first launch's (none here) naming the launches.
            with open(out + ".json", encoding="utf-8") as f:
                prov = json.load(f)["median_over_launches"]
            self.assertEqual(prov["first"], "allreduce-queued.csv")
            self.assertEqual(prov["others"], ["small/allreduce-queued-2.csv", "small/allreduce-queued-3.csv",
                                              "small/allreduce-queued-10.csv"])

    def test_provenance_of_the_first_launch_is_kept(self):
        with tempfile.TemporaryDirectory() as d:
            first = self.write(d, "allreduce.csv", [("allreduce", 2, 4096, 0.0003, 0.0002, 0.0004, 5)])
            with open(first + ".json", "w", encoding="utf-8") as f:
                json.dump({"provenance": {"ranks": [{"scheduler": "other"}]}, "cpu_rows": [{"nodes": 2}],
                           "sample_rows": [{"nodes": 2, "size_bytes": 4096, "times_s": [0.0003]}]}, f)
            other = self.write(d, "allreduce-2.csv", [("allreduce", 2, 4096, 0.0005, 0.0004, 0.0006, 5)])
            out = make_cases.median_over_launches(first, [other], os.path.join(d, "m.csv"))
            with open(out + ".json", encoding="utf-8") as f:
                prov = json.load(f)
            self.assertEqual(prov["provenance"], {"ranks": [{"scheduler": "other"}]})
            self.assertNotIn("cpu_rows", prov)  # the first launch's CPU record is its own file's (quiet.py)
            self.assertNotIn("sample_rows", prov)  # and so are its repeats' times
            self.assertEqual(prov["median_over_launches"]["others"], ["allreduce-2.csv"])

    def test_measured_copy_leaves_out_what_is_derived(self):
        # The microbenchmarks as measured, for a diagnosis to calibrate again from: not the files derived from them
        # (the launches' medians, the long queue over the short one), not the trainings; small/ only when asked.
        with tempfile.TemporaryDirectory() as d:
            rate = os.path.join(d, "1gbit")
            for name in ("allreduce.csv", "allreduce.csv.json", "p2p.csv", "allreduce.launches.csv",
                         "allreduce.launches.csv.json", "allreduce-queued.long.csv", "small/allreduce-2.csv",
                         "resnet18-k80-b32/ring-layer-overlap-on.jsonl"):
                os.makedirs(os.path.dirname(os.path.join(rate, name)), exist_ok=True)
                with open(os.path.join(rate, name), "w", encoding="utf-8") as f:
                    f.write(name)

            def listed(top):
                return sorted(os.path.relpath(os.path.join(r, f), top) for r, _, fs in os.walk(top) for f in fs)
            out = make_cases.measured_copy(rate, os.path.join(d, "with"))
            self.assertEqual(out, os.path.join(d, "with"))
            self.assertEqual(listed(out), ["allreduce.csv", "allreduce.csv.json", "p2p.csv", "small/allreduce-2.csv"])
            out = make_cases.measured_copy(rate, os.path.join(d, "without"), small=False)
            self.assertEqual(listed(out), ["allreduce.csv", "allreduce.csv.json", "p2p.csv"])
            with open(os.path.join(out, "p2p.csv"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "p2p.csv")

    def test_no_other_launch_leaves_the_first_as_it_is(self):
        with tempfile.TemporaryDirectory() as d:
            first = self.write(d, "allreduce.csv", [("allreduce", 2, 4096, 0.0003, 0.0002, 0.0004, 5)])
            os.makedirs(os.path.join(d, "small"))
            self.assertEqual(make_cases.launches(os.path.join(d, "small"), "allreduce"), [])
            self.assertEqual(make_cases.median_over_launches(first, [], os.path.join(d, "m.csv")), first)
            self.assertFalse(os.path.exists(os.path.join(d, "m.csv")))

    def test_the_long_queue_over_launches_too(self):
        # campaign.sh since 2026-12-05: the long queue's small sizes in the more launches; its median, not its first
        # launch's slow 4 KiB row (2026-12-05: 0.76 ms at K = 2), replaces the 16 calls' row.
        with tempfile.TemporaryDirectory() as d:
            self.write(d, "allreduce.csv", [("allreduce", 2, 4096, 0.0003, 0.0002, 0.0004, 5)])
            with open(os.path.join(d, "allreduce.csv.json"), "w", encoding="utf-8") as f:
                json.dump({"provenance": {"ranks": []}}, f)
            self.write(d, "allreduce-queued.csv", [("allreduce_queued", 2, 4096, 0.00022, 0.0002, 0.00025, 3),
                                                   ("allreduce_queued", 2, 33554432, 0.3, 0.29, 0.31, 3)])
            self.write(d, "allreduce-queued-long.csv", [("allreduce_queued", 2, 4096, 0.00076, 0.0007, 0.0008, 3)])
            os.makedirs(os.path.join(d, "small"))
            self.write(d, "small/allreduce-queued-long-2.csv", [("allreduce_queued", 2, 4096, 0.0002, 0.00018, 0.00022, 3)])
            self.write(d, "small/allreduce-queued-long-3.csv", [("allreduce_queued", 2, 4096, 0.00024, 0.0002, 0.0003, 3)])
            calls = []
            real = make_cases.calibrate
            make_cases.calibrate = lambda sgdsim, args, log: calls.append(args)
            try:
                make_cases.calibrate_allreduce("sgdsim", d, os.path.join(d, "w.xml"), "1gbit", os.path.join(d, "p.xml"))
            finally:
                make_cases.calibrate = real
            queued = os.path.join(make_cases.ROOT, calls[0][calls[0].index("--queued") + 1])
            with open(queued, encoding="utf-8") as f:
                rows = [line.rstrip("\n").split(",") for line in f][1:]
        self.assertEqual([(r[2], float(r[3])) for r in rows], [("4096", 0.00024), ("33554432", 0.3)])

    def test_the_long_queue_takes_over_the_sizes_it_measured(self):
        with tempfile.TemporaryDirectory() as d:
            short = self.write(d, "allreduce-queued.csv", [("allreduce_queued", 8, 4096, 0.0063, 0.006, 0.0065, 3),
                                                           ("allreduce_queued", 8, 33554432, 0.6, 0.59, 0.61, 3),
                                                           ("allreduce_queued", 2, 4096, 0.0002, 0.0002, 0.0003, 3)])
            longer = self.write(d, "allreduce-queued-long.csv", [("allreduce_queued", 8, 4096, 0.0083, 0.008, 0.009, 3),
                                                                 ("allreduce_queued", 7, 4096, 0.0057, 0.0055, 0.006, 3)])
            out = make_cases.long_queue_over(short, longer, os.path.join(d, "m.csv"))
            with open(out, encoding="utf-8") as f:
                rows = [line.rstrip("\n").split(",") for line in f][1:]
            # K = 8, 4 KiB from the long queue; 32 MiB (not in it) and K = 2 from the 16 calls; K = 7 added.
            self.assertEqual([r[1:4] for r in rows], [["8", "4096", "0.0083"], ["8", "33554432", "0.6"],
                                                      ["2", "4096", "0.0002"], ["7", "4096", "0.0057"]])
            with open(out + ".json", encoding="utf-8") as f:
                self.assertEqual(json.load(f)["long_queue_over"]["long"], "allreduce-queued-long.csv")


if __name__ == "__main__":
    unittest.main()
