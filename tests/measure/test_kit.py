"""Unit tests of the measurement kit's shared parts (tools/measure/kit.py, docs/measure.md) that need no network:
the sizes of a microbenchmark, the results CSV that `sgdsim calibrate` reads, and the clock of emulated compute.
torch is imported by the kit when it is there, but not used."""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import kit  # noqa: E402


class Sizes(unittest.TestCase):
    def test_a_size_is_bytes_or_a_simgrid_size(self):
        self.assertEqual(kit.size_arg("4096"), 4096)
        self.assertEqual(kit.size_arg("4KiB"), 4096)
        self.assertEqual(kit.size_arg("1MB"), 1000000)
        with self.assertRaises(kit.MeasureError):
            kit.size_arg("four")

    def test_powers_of_two_between_the_bounds_or_the_list(self):
        args = argparse.Namespace(sizes="", min_size="4KiB", max_size="32KiB")
        self.assertEqual(kit.sizes_from(args), [4096, 8192, 16384, 32768])
        args = argparse.Namespace(sizes="1KiB,3MiB", min_size="4KiB", max_size="32KiB")
        self.assertEqual(kit.sizes_from(args), [1024, 3 * 1024 * 1024])
        with self.assertRaises(kit.MeasureError):
            kit.sizes_from(argparse.Namespace(sizes="", min_size="1MiB", max_size="4KiB"))


class ResultsCsv(unittest.TestCase):
    def test_a_row_holds_the_median_and_the_ring_bus_bandwidth(self):
        meta = {"library": "gloo", "torch": "t", "rate": "1Gbit", "mtu": 1500, "cc": "cubic"}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.csv")
            out = kit.CsvOut(path, meta)
            # 1 MB in a median of 8 ms: 1 Gbit/s of algorithm bandwidth; a ring all-reduce on 4 nodes moves
            # 2 (4 - 1) / 4 of it over each link: 1.5 Gbit/s of bus bandwidth.
            self.assertEqual(out.row("allreduce", 4, 1000000, [0.009, 0.008, 0.007], 2), 0.008)
            out.row("p2p", 2, 1000000, [0.008], 1, repeats=5)
            with open(path, encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
        self.assertEqual(list(rows[0].keys()), kit.CSV_COLUMNS)
        self.assertEqual(float(rows[0]["time_s"]), 0.008)
        self.assertEqual(float(rows[0]["time_min_s"]), 0.007)
        self.assertEqual(rows[0]["repeats"], "3")
        self.assertAlmostEqual(float(rows[0]["algbw_Gbps"]), 1.0)
        self.assertAlmostEqual(float(rows[0]["busbw_Gbps"]), 1.5)
        self.assertAlmostEqual(float(rows[1]["busbw_Gbps"]), 1.0)  # a transfer has no ring factor
        self.assertEqual(rows[1]["repeats"], "5")

    def test_every_row_keeps_its_samples_for_the_sidecar(self):
        meta = {"library": "gloo", "torch": "t", "rate": "1Gbit", "mtu": 1500, "cc": "cubic"}
        with tempfile.TemporaryDirectory() as d:
            out = kit.CsvOut(os.path.join(d, "out.csv"), meta)
            # Two modes, as a small call racing a large one's all-gather: the median is one of them.
            self.assertEqual(out.row("allreduce_after", 2, 4096, [0.0055, 0.0095, 0.0054, 0.0093, 0.0056], 2),
                             0.0056)
            out.row("allreduce_after", 2, 65536, [0.0058], 2)
        self.assertEqual(out.samples, [
            {"op": "allreduce_after", "nodes": 2, "size_bytes": 4096,
             "times_s": [0.0055, 0.0095, 0.0054, 0.0093, 0.0056]},
            {"op": "allreduce_after", "nodes": 2, "size_bytes": 65536, "times_s": [0.0058]}])


class MachineProbeInProvenance(unittest.TestCase):
    """kit.record_machine: rank 0's result files get the machine probe once the other ranks have left."""

    def test_every_result_file_gets_the_probe_and_the_rest_stays(self):
        with tempfile.TemporaryDirectory() as d:
            sidecar, prov, jsonl = (os.path.join(d, n) for n in ("ar.csv.json", "t.jsonl.provenance.json", "t.jsonl"))
            with open(sidecar, "w", encoding="utf-8") as f:
                json.dump({"kind": "allreduce", "cpu_rows": [1], "provenance": {"date": "d", "machine": None}}, f)
            with open(prov, "w", encoding="utf-8") as f:
                json.dump({"date": "d", "machine": None}, f)
            with open(jsonl, "w", encoding="utf-8") as f:
                f.write(json.dumps({"workers": 1, "provenance": {"date": "d"}}) + "\n")
                f.write(json.dumps({"workers": 2, "provenance": {"date": "d"}}) + "\n")
            machine = {"probe": "tools/measure/probe.py", "tcp_core_s_per_GiB": 0.5}
            with mock.patch.object(kit.probe, "machine_probe", return_value=dict(machine)):
                got = kit.record_machine([sidecar, prov, jsonl], pids=[])
            self.assertEqual(got, {**machine, "ranks_still_running": 0})
            with open(sidecar, encoding="utf-8") as f:
                doc = json.load(f)
            self.assertEqual((doc["kind"], doc["cpu_rows"], doc["provenance"]["date"]), ("allreduce", [1], "d"))
            self.assertEqual(doc["provenance"]["machine"], got)
            with open(prov, encoding="utf-8") as f:
                self.assertEqual(json.load(f)["machine"], got)
            with open(jsonl, encoding="utf-8") as f:
                lines = [json.loads(line) for line in f]
            self.assertEqual([x["workers"] for x in lines], [1, 2])
            self.assertTrue(all(x["provenance"]["machine"] == got for x in lines))
            self.assertEqual(sorted(os.listdir(d)), sorted(os.path.basename(p) for p in (sidecar, prov, jsonl)))

    def test_it_waits_for_the_other_ranks_but_not_forever(self):
        rank = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "p2p.csv.json")
                with open(path, "w", encoding="utf-8") as f:
                    json.dump({"provenance": {}}, f)
                with mock.patch.object(kit.probe, "machine_probe", return_value={}):
                    t0 = kit.now()
                    got = kit.record_machine([path], pids=[rank.pid], exit_wait_s=0.2)
                    waited = kit.now() - t0
            self.assertEqual(got["ranks_still_running"], 1)  # recorded, so that the probe can be read with care
            self.assertGreaterEqual(waited, 0.2)
        finally:
            rank.kill()
            rank.wait()

    def test_nothing_to_record_without_result_files(self):
        with mock.patch.object(kit.probe, "machine_probe") as p:
            self.assertIsNone(kit.record_machine([], pids=[]))
        p.assert_not_called()


class MachinePace(unittest.TestCase):
    """kit.read_pace / await_pace / PaceSampler / cpu_outside: the machine's pace around and during a configuration
    or row (docs/measure.md "Was the machine quiet?")."""

    def setUp(self):
        self.forget()

    def tearDown(self):
        self.forget()

    @staticmethod
    def forget():
        for held in (kit.PACE_REFERENCE, kit.PACE_IDLE_SEEN):
            held[:] = []

    def test_the_first_reading_primes_the_reference_with_the_lower_quartile_of_a_few(self):
        readings = iter([[18.0, 13.0], [13.5, 14.0], [19.0, 19.0]] + [[16.0, 15.0]] * 10)
        # The priming reads for PACE_PRIME_S of the probe's clock: a clock that moves only when the probe sleeps makes
        # it exactly three readings (at 0, 0.02 and 0.04 s), however slow the machine running the test (the CI of
        # 2026-12-04 slept past the second period on a loaded machine and primed with two).
        clock = mock.Mock()
        clock.now_s = 0.0
        clock.time.side_effect = lambda: clock.now_s
        clock.sleep.side_effect = lambda s: setattr(clock, "now_s", clock.now_s + s)
        with mock.patch.object(kit.probe, "pace_us", side_effect=lambda: next(readings)), \
                mock.patch.object(kit.probe, "time", clock), \
                mock.patch.object(kit, "PACE_PRIME_S", 0.05), mock.patch.object(kit, "PACE_PRIME_PERIOD_S", 0.02):
            first = kit.read_pace()
        self.assertEqual(kit.PACE_REFERENCE, [14.0])  # the slower core of each reading: 18, 14, 19; of three the least
        self.assertEqual(first, 16.0)  # the reading after the priming
        self.forget()
        with mock.patch.object(kit.probe, "pace_us", return_value=[13.0, 13.0]), \
                mock.patch.object(kit, "PACE_PRIME_S", 0.6), mock.patch.object(kit, "PACE_PRIME_PERIOD_S", 0.02):
            _, waited_s = kit.await_pace(0.0)
        self.assertLess(waited_s, 0.3)  # the priming (0.6 s) is not waiting for the pace; a loaded machine has margin
        with mock.patch.object(kit.probe, "pace_us", return_value=[]):
            self.assertIsNone(kit.read_pace())  # sockets failing: no reading, the reference kept
        self.assertEqual(kit.PACE_REFERENCE, [13.0])

    def test_a_primed_reference_comes_down_to_the_quartile_of_the_readings_not_to_one_fast_reading(self):
        kit.PACE_REFERENCE[:] = [14.0]  # primed in a slow spell
        with mock.patch.object(kit.probe, "pace_us", return_value=[9.0, 9.5]):
            self.assertEqual(kit.read_pace(), 9.5)
        self.assertEqual(kit.PACE_REFERENCE, [14.0])  # one fast reading does not set it
        values = iter([12.0, 13.0, 12.5, 13.5, 12.0, 14.0, 13.0])
        with mock.patch.object(kit.probe, "pace_us", side_effect=lambda: [next(values)]):
            for _ in range(7):
                kit.read_pace()
        # Eight readings: 9.5, 12, 13, 12.5, 13.5, 12, 14, 13; the lower quartile (nearest rank below) 12.
        self.assertEqual(kit.PACE_REFERENCE, [12.0])
        with mock.patch.object(kit.probe, "pace_us", return_value=[19.0, 19.0]):
            for _ in range(20):
                kit.read_pace()
        self.assertEqual(kit.PACE_REFERENCE, [12.0])  # a slow spell after does not raise it

    def test_a_campaign_gives_the_reference(self):
        with mock.patch.dict(os.environ, {"SGDSIM_PACE_REFERENCE_US": "12.5"}), \
                mock.patch.object(kit.probe, "pace_us", return_value=[18.0, 13.0]) as pace:
            self.assertEqual(kit.read_pace(), 18.0)
        self.assertEqual(pace.call_count, 1)  # no priming
        self.assertEqual(kit.PACE_REFERENCE, [12.5])
        with mock.patch.object(kit.probe, "pace_us", return_value=[19.0, 19.0]):
            for _ in range(10):
                kit.read_pace()
        self.assertEqual(kit.PACE_REFERENCE, [12.5])  # a slow spell does not raise it
        # Given in a slow spell (2026-12-05: 15.4 us, the day's pace 11.7-12.7), it comes down as a primed one does:
        # the lower quartile of the readings seen, once there are 8 (18, ten 19s, then 12s).
        with mock.patch.object(kit.probe, "pace_us", return_value=[12.0, 11.0]):
            for _ in range(3):
                kit.read_pace()
        self.assertEqual(kit.PACE_REFERENCE, [12.5])  # 3 fast of 14 readings: the quartile is still slow
        with mock.patch.object(kit.probe, "pace_us", return_value=[12.0, 11.0]):
            for _ in range(3):
                kit.read_pace()
        self.assertEqual(kit.PACE_REFERENCE, [12.0])  # 6 of 17: the lower quartile is a fast one
        for bad in ("0", "-3", "fast", "nan"):
            with mock.patch.dict(os.environ, {"SGDSIM_PACE_REFERENCE_US": bad}):
                with self.assertRaisesRegex(kit.MeasureError, "SGDSIM_PACE_REFERENCE_US=.*above 0"):
                    kit.pace_reference_given()
        with mock.patch.dict(os.environ, {"SGDSIM_PACE_REFERENCE_US": ""}):
            self.assertIsNone(kit.pace_reference_given())

    def test_it_waits_for_the_pace_but_not_forever(self):
        kit.PACE_REFERENCE[:] = [13.0]
        readings = iter([[19.0, 13.0], [18.0, 13.0], [14.0, 13.0]])
        with mock.patch.object(kit.probe, "pace_us", side_effect=lambda: next(readings)), \
                mock.patch.object(kit, "PACE_POLL_S", 0.01):
            pace, waited_s = kit.await_pace(5.0)
        self.assertEqual(pace, 14.0)
        self.assertGreater(waited_s, 0.0)
        with mock.patch.object(kit.probe, "pace_us", return_value=[19.0, 19.0]), \
                mock.patch.object(kit, "PACE_POLL_S", 0.01):
            t0 = kit.now()
            pace, waited_s = kit.await_pace(0.1)
            self.assertLess(kit.now() - t0, 2.0)
        self.assertEqual(pace, 19.0)
        self.assertGreaterEqual(waited_s, 0.1)

    def test_the_record_holds_every_reading_and_the_reference(self):
        kit.PACE_REFERENCE[:] = [13.0]
        with mock.patch.object(kit.probe, "pace_us", return_value=[13.2, 14.0]):
            before = kit.cpu_snapshot(pace_wait_s=1.0)
        with mock.patch.object(kit.probe, "pace_us", return_value=[19.0, 13.0]):
            after = kit.cpu_snapshot()
        if before is None:
            self.skipTest("no /proc")
        rec = kit.cpu_outside(before, after, [os.getpid()], sampled_us=[17.0, 18.0])
        self.assertEqual(rec["pace_us"], [14.0, 17.0, 18.0, 19.0])
        self.assertEqual(rec["pace_idle_us"], [14.0, 19.0])  # before and after: what plan.pace_slow judges
        self.assertEqual(rec["pace_reference_us"], 13.0)
        self.assertLess(rec["pace_waited_s"], 1.0)
        self.assertIn("ranks_s", rec)

    def test_the_sampler_reads_while_it_runs_and_stops(self):
        with mock.patch.object(kit, "PACE_PERIOD_S", 0.05):
            with kit.PaceSampler() as sampler:
                kit.time.sleep(0.4)
                values = sampler.readings()
            self.assertIsNotNone(sampler.pid)
        self.assertGreaterEqual(len(values), 2)
        self.assertTrue(all(1.0 < v < 10000.0 for v in values), values)
        self.assertEqual((kit.PACE_REFERENCE, kit.PACE_IDLE_SEEN), ([], []))  # readings under load set nothing
        self.assertFalse(kit.alive(sampler.pid))


class EmulatedCompute(unittest.TestCase):
    def test_an_operation_starts_at_the_later_of_the_previous_end_and_its_readiness(self):
        start = kit.now()
        clock = kit.Clock(start)
        clock.run(0.001)
        self.assertEqual(clock.t, start + 0.001)
        clock.run(0.001, ready=start + 0.010)  # waits for its input
        self.assertAlmostEqual(clock.t, start + 0.011, places=9)
        clock.sync(start + 0.005)  # an earlier date does not move the clock back
        self.assertAlmostEqual(clock.t, start + 0.011, places=9)
        self.assertGreaterEqual(kit.now(), clock.t)  # it slept until then


class AllreduceSettings(unittest.TestCase):
    """measure.py refuses contradicting microbenchmark settings before any rank starts: exit 2, one line."""

    def run_measure(self, *args):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "measure", "measure.py"), "allreduce",
                               *args, "--out", os.path.join(tempfile.gettempdir(), "never-written.csv")],
                              capture_output=True, text=True)

    def test_usage_errors_import_no_pytorch(self):
        # A torch whose import fails loudly, found first on the path: a usage error must come back without importing
        # it (kit.LazyModule imports PyTorch on first use; the import takes over a second).
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "torch"))
            with open(os.path.join(d, "torch", "__init__.py"), "w") as f:
                f.write("raise SystemExit(99)\n")
            r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "measure", "measure.py"), "allreduce",
                                "--with", "4KiB", "--out", os.path.join(d, "never-written.csv")],
                               capture_output=True, text=True, env={**os.environ, "PYTHONPATH": d})
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --with needs --queued N (the groups "
                                                         "launched together)"])

    def test_without_pytorch_one_line(self):
        # Without site-packages (python3 -S) PyTorch cannot be imported: one line, exit 2.
        r = subprocess.run([sys.executable, "-S", os.path.join(ROOT, "tools", "measure", "measure.py"), "p2p",
                            "--out", os.path.join(tempfile.gettempdir(), "never-written.csv")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: PyTorch is not installed for this "
                                                         "interpreter (Debian: apt-get install python3-torch; run "
                                                         "/usr/bin/python3)"])

    def test_among_excludes_the_other_concurrent_modes(self):
        r = self.run_measure("--among", "4KiB", "--after", "1MiB")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--queued, --beside, --after and --among: give one at most", r.stderr)

    def test_among_needs_a_call_before_and_one_after_the_timed_one(self):
        r = self.run_measure("--among", "4KiB", "--among-calls", "1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --among-calls must be at least 2 (one "
                                                         "before the timed call, one after)"])

    def test_among_buffers_are_capped_before_any_rank_starts(self):
        r = self.run_measure("--among", "256MiB", "--among-calls", "64")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --among 256MiB x --among-calls 64: more "
                                                         "than 4 GiB of buffers per rank; --among is for small calls "
                                                         "(a training's batch-norm vectors)"])

    def test_with_needs_calls_launched_together(self):
        r = self.run_measure("--with", "4KiB")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --with needs --queued N (the groups "
                                                         "launched together)"])

    def test_with_needs_one_small_call_at_least(self):
        r = self.run_measure("--queued", "16", "--with", "4KiB", "--with-calls", "0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --with-calls must be at least 1"])

    def test_gloo_threads_are_at_least_one(self):
        r = self.run_measure("--queued", "16", "--gloo-threads", "-2")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --gloo-threads -2: 1 or more (0: torch's "
                                                         "own group)"])


class TrainSettings(unittest.TestCase):
    """measure.py train refuses a Gloo thread count that does not apply before any rank starts: exit 2, one line."""

    def run_train(self, *args):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "measure", "measure.py"), "train",
                               "--workload", os.path.join(HERE, "tiny-workload.xml"), "--workers", "2", *args,
                               "--out", os.path.join(tempfile.gettempdir(), "never-written.jsonl")],
                              capture_output=True, text=True)

    def test_gloo_threads_are_a_ring_setting(self):
        r = self.run_train("--arch", "ps-sync", "--gloo-threads", "1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["measure.py: error: --gloo-threads 1: 1 or more, and for "
                                                         "--arch ring only"])

    def test_gloo_threads_are_at_least_one(self):
        r = self.run_train("--arch", "ring", "--gloo-threads", "-1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--gloo-threads -1: 1 or more", r.stderr)


if __name__ == "__main__":
    unittest.main()
