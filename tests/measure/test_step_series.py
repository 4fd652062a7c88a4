"""Unit tests of tools/step_series.py: the measured and simulated steps of a case, one by one."""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "tools"))
import step_series as ss  # noqa: E402
from scripts import write_executable  # noqa: E402

CASE = {"name": "c", "run": ["--arch", "ps-async", "--steps", "3"],
        "points": [{"label": "1 worker", "args": ["--workers", "1"]},
                   {"label": "2 workers", "args": ["--workers", "2"]}]}


class StepSeries(unittest.TestCase):
    def test_seeds(self):
        self.assertEqual(ss.parse_seeds("1-3"), [1, 2, 3])
        self.assertEqual(ss.parse_seeds("2,5,7-8"), [2, 5, 7, 8])
        with self.assertRaises(ValueError):
            ss.parse_seeds("0-2")

    def test_step_means_over_the_steps_every_worker_reached(self):
        self.assertEqual(ss.step_means([[1.0, 3.0, 5.0], [3.0, 5.0]]), [2.0, 4.0])

    def test_the_point_of_a_node_count(self):
        self.assertEqual(ss.case_point(CASE, 2)["label"], "2 workers")
        with self.assertRaises(SystemExit):
            ss.case_point(CASE, 3)

    def test_measured_rows_by_node_count(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps({"kind": "train", "workers": 1, "step_times_s": [[0.5, 0.5]]}) + "\n")
                f.write(json.dumps({"kind": "train", "workers": 2, "step_times_s": [[1, 2], [3, 4]]}) + "\n")
            self.assertEqual(ss.measured_series(path, 2), [[1, 2], [3, 4]])
            with self.assertRaises(SystemExit):
                ss.measured_series(path, 4)

    def test_the_simulation_runs_with_the_case_point_and_seed(self):
        # A stand-in for sgdsim that checks the arguments it gets and writes steps made of the seed it was given.
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "sgdsim")
            write_executable(fake, "import json, sys\na = sys.argv[1:]\n"
                             "out = a[a.index('--json') + 1]\nseed = float(a[a.index('--seed') + 1])\n"
                             "assert a[:5] == ['run', '--arch', 'ps-async', '--steps', '3'], a\n"
                             "assert a[5:7] == ['--workers', '2'], a\n"
                             "json.dump({'simulated': {'per_worker': [{'step_times_s': [seed, 2 * seed]},"
                             " {'step_times_s': [3 * seed]}]}}, open(out, 'w'))\n")
            series = ss.simulated_series(fake, CASE, ss.case_point(CASE, 2), 5, d)
        self.assertEqual(series, [[5.0, 10.0], [15.0]])


if __name__ == "__main__":
    unittest.main()
