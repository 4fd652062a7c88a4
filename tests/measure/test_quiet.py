"""tools/measure/quiet.py: the CPU the machine spent outside the ranks, read back from a campaign's training lines and
microbenchmark sidecars; a busy configuration or row is flagged, --check fails on it, and a folder measured before
the records existed says so."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import quiet  # noqa: E402


def cpu(outside_s, window_s=10.0, top=()):
    return {"window_s": window_s, "cpus": 2, "busy_s": outside_s + 8.0, "irq_s": 1.0, "steal_s": 0.0,
            "ranks_s": 8.0, "outside_s": outside_s, "outside_cores": outside_s / window_s,
            "outside_top": [list(t) for t in top]}


def write_campaign(d, train_outside, row_outside):
    os.makedirs(os.path.join(d, "model"))
    with open(os.path.join(d, "model", "ring-ddp-overlap-on.jsonl"), "w", encoding="utf-8") as f:
        for k, o in enumerate(train_outside, start=1):
            f.write(json.dumps({"kind": "train", "workers": k, "repeat": 0, "cpu": cpu(o, top=[("cc1plus", o)])})
                    + "\n")
    os.makedirs(os.path.join(d, "again"))
    with open(os.path.join(d, "again", "allreduce.csv.json"), "w", encoding="utf-8") as f:
        json.dump({"kind": "allreduce", "cpu_rows": [{"nodes": 2, "size_bytes": 4096 << i, **cpu(o, 2.0)}
                                                     for i, o in enumerate(row_outside)]}, f)


def run(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = quiet.main(argv)
    return code, out.getvalue()


class Quiet(unittest.TestCase):
    def test_a_quiet_campaign_passes(self):
        with tempfile.TemporaryDirectory() as d:
            write_campaign(d, [0.1, 0.2, 0.05], [0.01, 0.02])
            with open(os.path.join(d, "again", "allreduce.csv.json"), encoding="utf-8") as f:
                doc = json.load(f)
            doc["cpu_rows"].append({"nodes": 2, "size_bytes": 64, **cpu(0.01, 0.024)})  # one tick: 0.42 "cores"
            with open(os.path.join(d, "again", "allreduce.csv.json"), "w", encoding="utf-8") as f:
                json.dump(doc, f)
            code, out = run(["--check", d])
            self.assertEqual(code, 0, out)
            self.assertIn("0 of 6 configurations and rows above 0.1 cores", out)
            self.assertIn("most at K=2: 0.020 cores", out)

    def test_a_busy_configuration_and_row_are_flagged_with_their_processes(self):
        with tempfile.TemporaryDirectory() as d:
            write_campaign(d, [0.1, 3.0, 0.05], [0.01, 0.5])  # K=2: 0.3 cores; the 8 KiB row: 0.25 cores
            code, out = run(["--check", d])
            self.assertEqual(code, 1, out)
            self.assertIn("model/ring-ddp-overlap-on.jsonl: 1 of 3 flagged; most at K=2: 0.300 cores", out)
            self.assertIn("top: cc1plus 3.00 s", out)
            self.assertIn("again/allreduce.csv.json: 1 of 2 flagged; most at 2 nodes 8192 B: 0.250", out)
            self.assertIn("2 of 5 configurations and rows above", out)
            self.assertIn("0.300 cores outside the ranks, 0.000 stolen (3.00 s and 0.00 s of 10.00 s", out)
            self.assertEqual(run([d])[0], 0)  # flagged, but only --check fails
            self.assertEqual(run(["--check", "--max-cores", "0.4", d])[0], 0)

    def test_the_hypervisor_taking_a_core_is_flagged(self):
        with tempfile.TemporaryDirectory() as d:
            write_campaign(d, [0.1], [0.0])
            path = os.path.join(d, "model", "ring-ddp-overlap-on.jsonl")
            with open(path, encoding="utf-8") as f:
                rec = json.loads(f.readline())
            rec["cpu"]["steal_s"] = 2.6  # over 10 s: 0.26 cores
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")
            code, out = run(["--check", d])
            self.assertEqual(code, 1, out)
            self.assertIn("1 of 1 flagged", out)
            self.assertIn("0.260 stolen (0.10 s and 2.60 s of 10.00 s", out)

    def test_a_configuration_read_at_a_slow_pace_is_flagged(self):
        with tempfile.TemporaryDirectory() as d:
            write_campaign(d, [0.1, 0.1], [0.0])
            path = os.path.join(d, "model", "ring-ddp-overlap-on.jsonl")
            with open(path, encoding="utf-8") as f:
                recs = [json.loads(line) for line in f]
            recs[0]["cpu"].update(pace_us=[13.0, 14.0], pace_reference_us=13.0, pace_waited_s=0.0)
            recs[1]["cpu"].update(pace_us=[13.0, 18.0, 19.0, 18.0], pace_reference_us=13.0, pace_waited_s=10.2)
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r) + "\n" for r in recs)
            code, out = run(["--check", d])
            self.assertEqual(code, 1, out)
            self.assertIn("model/ring-ddp-overlap-on.jsonl: quiet, 1 slow;", out)
            self.assertIn("  K=2: slow, pace 18.0 us, x1.38 the reference (4 readings, 10.2 s waited before)", out)
            self.assertIn("1 of 2 configurations and rows with the pace read slow", out)
            self.assertIn("0 of 3 configurations and rows above 0.1 cores", out)  # busy and slow apart
            self.assertEqual(run([d])[0], 0)

    def test_rows_measured_again_are_listed_with_their_attempts(self):
        with tempfile.TemporaryDirectory() as d:
            write_campaign(d, [0.1], [0.01, 0.02])
            path = os.path.join(d, "again", "allreduce.csv.json")
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            stolen = {**cpu(0.0, 2.0), "steal_s": 0.8, "time_s": 0.0571}  # 0.4 cores stolen
            doc["cpu_rows"][0].update(time_s=0.0523, busy_attempts=[stolen])  # then quiet: kept
            doc["cpu_rows"][1].update(time_s=0.0611, steal_s=0.6, busy_attempts=[stolen, stolen])  # busy throughout
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            code, out = run([d])
            self.assertEqual(code, 0, out)
            self.assertIn("2 configurations and rows measured again after a busy attempt (1 still busy at the "
                          "last", out)
            self.assertIn("allreduce.csv.json 2 nodes 4096 B: 57.100 ms at 0.40 cores lost (kept: 52.300 ms at "
                          "0.01 cores lost)", out)
            self.assertIn("2 nodes 8192 B: 57.100 ms at 0.40 cores lost; 57.100 ms at 0.40 cores lost (kept: 61.100 "
                          "ms at 0.31 cores lost)", out)
            self.assertIn("1 of 3 configurations and rows above", out)

    def test_a_campaign_without_records(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "model"))
            with open(os.path.join(d, "model", "x.jsonl"), "w", encoding="utf-8") as f:
                f.write(json.dumps({"kind": "train", "workers": 1}) + "\n")
            code, out = run(["--check", d])
            self.assertEqual(code, 0)
            self.assertIn("no CPU record", out)

    def test_a_campaign_before_the_record_shows_the_single_workers_marks(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "model"))
            for name, std_s, late_us in (("ring-ddp", 2.0e-3, 121.0), ("ring-tensor", 3e-5, 27.0)):
                with open(os.path.join(d, "model", name + ".jsonl"), "w", encoding="utf-8") as f:
                    for k in (1, 2):
                        f.write(json.dumps({"kind": "train", "arch": "ring", "workers": k, "step_time_std_s": std_s,
                                            "per_worker": [{"clock": {"overshoot_mean_us": late_us}}]}) + "\n")
            code, out = run([d])
            self.assertEqual(code, 0, out)
            self.assertIn("model/ring-ddp.jsonl: single worker, step spread 2.00 ms, sleeps 121 us late on average: "
                          "the marks of a busy machine", out)
            self.assertIn("model/ring-tensor.jsonl: single worker, step spread 0.03 ms, sleeps 27 us late on average\n",
                          out)
            self.assertIn("1 of 2 single-worker ring series with the marks", out)
            self.assertEqual(run(["--check", d])[0], 1)

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as d:
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(run([os.path.join(d, "missing")])[0], 2)
                self.assertEqual(run(["--max-cores", "0", d])[0], 2)


if __name__ == "__main__":
    unittest.main()
