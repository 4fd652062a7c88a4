"""Unit tests of the machine probe (tools/measure/probe.py, docs/measure.md "Which machine measured it?"): it measures
on the loopback, records a failing measurement instead of stopping, and reads back the probe any result file holds."""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "tools", "measure"))
import probe  # noqa: E402


def fake(tcp, small, rtt, add, kernel="Linux k1"):
    return {"probe": "tools/measure/probe.py", "kernel": kernel, "tcp_core_s_per_GiB": tcp,
            "tcp_small_core_us_per_write": small, "wakeup_same_core_us": rtt, "wakeup_busy_cross_mean_us": None,
            "add_GBps": add, "errors": []}


class Measures(unittest.TestCase):
    def test_the_loopback_carries_every_byte_and_each_figure_is_a_cost(self):
        p = probe.machine_probe(repeats=1, stream_bytes=4 * 1024 * 1024, small_bytes=256 * 1024, count=200,
                                busy_s=0.1)
        self.assertEqual(p["errors"], [])
        # Copying a GiB through the kernel's TCP twice costs between a millisecond and a minute of CPU on any
        # machine this runs on; a round trip of two wake-ups lies between a microsecond and a tenth of a second.
        self.assertTrue(0.001 < p["tcp_core_s_per_GiB"] < 60, p)
        self.assertTrue(0 < p["tcp_small_core_us_per_write"] < 10000, p)
        for key in ("wakeup_same_core_us", "wakeup_cross_core_us", "wakeup_busy_same_mean_us",
                    "wakeup_busy_cross_mean_us"):
            if "cross" not in key or p["cores"][1] is not None:  # a 1-core machine has no cross-core
                self.assertTrue(1 < p[key] < 100000, (key, p))
        self.assertTrue(p["tcp_GBps"] > 0, p)
        self.assertTrue(p["wakeup_busy_same_round_trips"] >= 1 and 0 <= p["wakeup_busy_same_over_1ms"] <= 1, p)
        self.assertEqual(p["kernel"].split()[0], os.uname().sysname)

    def test_a_stream_delivers_whole_writes(self):
        wall_s, writes = probe.tcp_stream(1024 * 1024, 4096, min(os.sched_getaffinity(0)))
        self.assertEqual(writes, 256)
        self.assertTrue(wall_s > 0)

    def test_the_threads_run_where_placed_and_the_busy_loop_is_gone_after(self):
        before = os.sched_getaffinity(0)
        core = min(before)
        seen = []
        real_pin = probe.pin

        def spy(c):
            real_pin(c)
            seen.append(os.sched_getaffinity(0))

        with mock.patch.object(probe, "pin", side_effect=spy):
            times = probe.round_trips(core, core, 0.05, 20, busy=True)
        self.assertEqual(seen, [{core}, {core}])  # this thread, then the echo thread
        self.assertEqual(os.sched_getaffinity(0), before)
        self.assertTrue(1 <= len(times) <= 20 and times == sorted(times) and times[0] > 0, times)
        with self.assertRaises(ChildProcessError):  # the loop was killed and reaped: no child is left
            os.waitpid(-1, os.WNOHANG)

    def test_the_busy_round_trips_give_their_tail(self):
        times = sorted([10e-6] * 97 + [2e-3] * 3)
        f = probe.busy_figures("cross", times)
        self.assertAlmostEqual(f["wakeup_busy_cross_mean_us"], (97 * 10 + 3 * 2000) / 100)
        self.assertAlmostEqual(f["wakeup_busy_cross_median_us"], 10)
        self.assertAlmostEqual(f["wakeup_busy_cross_p99_us"], 2000)  # the 99th of 100 is a slow one
        self.assertAlmostEqual(f["wakeup_busy_cross_over_1ms"], 0.03)
        self.assertEqual(f["wakeup_busy_cross_round_trips"], 100)
        self.assertEqual(set(probe.busy_figures("same", []).values()), {None})

    def test_a_failing_measurement_is_recorded_not_raised(self):
        with mock.patch.object(probe, "tcp_stream", side_effect=OSError("no loopback")):
            p = probe.machine_probe(repeats=2)
        self.assertEqual(p["errors"], ["sockets: no loopback"])
        self.assertIsNone(p["tcp_core_s_per_GiB"])
        self.assertIsNone(p["wakeup_same_core_us"])
        self.assertIsNone(p["wakeup_busy_same_mean_us"])
        self.assertIsNone(p["wakeup_busy_cross_over_1ms"])


class Pace(unittest.TestCase):
    def test_the_pace_is_an_idle_round_trip_per_core(self):
        cores = [c for c in probe.machine_cores() if c is not None]
        pace = probe.pace_us(count=50)
        self.assertEqual(len(pace), len(cores))
        self.assertTrue(all(1.0 < us < 10000.0 for us in pace), pace)
        self.assertEqual(len(probe.pace_us([cores[0]], count=20)), 1)
        with mock.patch.object(probe, "round_trips", side_effect=OSError("no sockets")):
            self.assertEqual(probe.pace_us(), [])

    def test_the_pace_command_prints_a_line_per_period(self):
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(probe.main(["--pace", "1", "--pace-period", "0.3"]), 0)
        lines = out.getvalue().splitlines()
        self.assertGreaterEqual(len(lines), 3)
        for line in lines:
            clock, *cells = line.split()
            self.assertRegex(clock, r"^\d\d:\d\d:\d\d$")
            self.assertTrue(cells and all(float(c) > 0 for c in cells), line)

    def test_the_fastest_is_the_least_of_each_readings_slower_core(self):
        readings = iter([[18.0, 13.0], [14.0, 15.0], [19.0, 12.0]] + [[20.0, 20.0]] * 100)
        out = io.StringIO()
        with mock.patch.object(probe, "pace_us", side_effect=lambda: next(readings)), redirect_stdout(out):
            self.assertEqual(probe.main(["--pace", "1", "--pace-period", "0.3", "--fastest"]), 0)
        self.assertEqual(out.getvalue(), "15.0\n")  # the slower cores: 18, 15, 19 (then 20s)
        err = io.StringIO()
        with mock.patch.object(probe, "pace_us", return_value=[]), redirect_stdout(io.StringIO()), \
                redirect_stderr(err):
            self.assertEqual(probe.main(["--pace", "1", "--pace-period", "0.5", "--fastest"]), 1)
        self.assertEqual(err.getvalue().count("\n"), 1)

    def test_the_reference_is_the_lower_quartile_of_each_readings_slower_core(self):
        out = io.StringIO()
        with mock.patch.object(probe, "pace_readings", return_value=None) as failing, redirect_stdout(out), \
                redirect_stderr(io.StringIO()):
            self.assertEqual(probe.main(["--pace", "1", "--reference"]), 1)
        self.assertEqual(failing.call_count, 1)
        slower = [18.0, 15.0, 19.0, 12.0, 14.0, 13.0, 16.0, 17.0, 20.0]
        with mock.patch.object(probe, "pace_readings", return_value=slower), redirect_stdout(out):
            self.assertEqual(probe.main(["--pace", "1", "--reference"]), 0)
        self.assertEqual(out.getvalue(), "14.0\n")  # 9 readings sorted: 12, 13, 14, ...; the nearest rank below 25%
        readings = iter([[18.0, 13.0], [14.0, 15.0], [19.0, 12.0]] + [[20.0, 20.0]] * 100)
        with mock.patch.object(probe, "pace_us", side_effect=lambda: next(readings)):
            self.assertEqual(probe.pace_readings(1.0, 0.3)[:3], [18.0, 15.0, 19.0])  # each reading's slower core
        self.assertEqual(probe.lower_quartile([5.0]), 5.0)
        self.assertEqual(probe.lower_quartile([20.0, 9.0, 12.0, 10.0, 11.0]), 10.0)
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(probe.main(["--pace", "1", "--fastest", "--reference"]), 2)
        self.assertIn("--fastest and --reference: give one", err.getvalue())


class ReadsBack(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_every_kind_of_result_file_gives_its_probe(self):
        m = fake(0.5, 10, 50, 24)
        sidecar = self.write("ar.csv.json", json.dumps({"kind": "allreduce", "provenance": {"machine": m}}))
        prov = self.write("s.jsonl.provenance.json", json.dumps({"date": "d", "machine": m}))
        jsonl = self.write("s.jsonl", json.dumps({"workers": 1, "provenance": {"machine": m}}) + "\n{}\n")
        printed = self.write("probe.json", json.dumps(m))
        old = self.write("old.csv.json", json.dumps({"kind": "p2p", "provenance": {"date": "d"}}))
        for path in (sidecar, prov, jsonl, printed):
            self.assertEqual(probe.recorded_probe(path), m, path)
        self.assertIsNone(probe.recorded_probe(old))

    def test_the_comparison_gives_each_figure_as_a_ratio_to_the_first_file(self):
        a = self.write("a.json", json.dumps(fake(0.5, 10, 50, 24)))
        b = self.write("b.json", json.dumps(fake(1.0, 15, 40, None, kernel="Linux k2")))
        old = self.write("old.json", json.dumps({"provenance": {}}))
        lines = probe.compare_lines([a, b, old])
        self.assertEqual(len(lines), 4)
        self.assertIn("0.5", lines[1])
        self.assertNotIn("(x", lines[1])  # the reference itself
        for cell in ("1 (x2.00)", "15 (x1.50)", "40 (x0.80)"):
            self.assertIn(cell, lines[2])
        self.assertTrue(lines[2].endswith("Linux k2"))
        self.assertIn("no probe recorded", lines[3])

    def test_an_unreadable_file_is_one_line_and_exit_2(self):
        bad = self.write("bad.json", "{not json")
        for argv, what in ((["--compare", bad], f"{bad}:1: not a JSON"),
                           (["--compare", os.path.join(self.dir.name, "none.json")], "none.json: No such file"),
                           (["--repeats", "0"], "--repeats 0: must be at least 1"),
                           (["--pace", "0"], "--pace 0 --pace-period 1.0: seconds"),
                           (["--pace", "5", "--pace-period", "0"], "--pace 5 --pace-period 0.0: seconds")):
            err, out = io.StringIO(), io.StringIO()
            with redirect_stderr(err), redirect_stdout(out):
                self.assertEqual(probe.main(argv), 2)
            self.assertEqual(err.getvalue().count("\n"), 1, err.getvalue())
            self.assertIn(what, err.getvalue())
            self.assertTrue(err.getvalue().startswith("probe.py: error: "))


if __name__ == "__main__":
    unittest.main()
