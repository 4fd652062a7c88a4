"""Unit tests of tools/calls_in_series.py's closed form: the step's all-reduces one after the other."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "tools"))
import calls_in_series as cis  # noqa: E402


class CallsInSeries(unittest.TestCase):
    def test_a_call_waits_for_the_one_before_and_for_its_gradients(self):
        # ready at 1, 2 and 10 s, 3 s each: ends 4, 7 (waits for the first), 13 (waits for its gradients).
        self.assertAlmostEqual(cis.calls_in_series([1.0, 2.0, 10.0], [3.0, 3.0, 3.0], 11.0, 0.5), 13.5)
        # The compute ends after the last call: the step is the compute and the update.
        self.assertAlmostEqual(cis.calls_in_series([1.0], [1.0], 5.0, 0.25), 5.25)

    def test_time_per_call_between_below_and_above_the_sizes_measured(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("op,nodes,size_bytes,time_s\n")
            for t in (0.010, 0.012, 0.011):  # median 0.011
                f.write(f"allreduce_queued,4,1000,{t}\n")
            f.write("allreduce_queued,4,2000,0.021\nallreduce_queued,4,4000,0.041\n")
            path = f.name
        try:
            table = cis.read_queued(path)
        finally:
            os.unlink(path)
        self.assertEqual(table[4][0], [1000, 2000, 4000])
        self.assertAlmostEqual(cis.time_per_call(table, 4, 500), 0.011)    # below: the smallest size's
        self.assertAlmostEqual(cis.time_per_call(table, 4, 1500), 0.016)   # between 1000 and 2000
        self.assertAlmostEqual(cis.time_per_call(table, 4, 3000), 0.031)
        self.assertAlmostEqual(cis.time_per_call(table, 4, 8000), 0.081)   # above: the last two sizes' line


if __name__ == "__main__":
    unittest.main()
