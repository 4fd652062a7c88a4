"""Unit tests of tools/measure/guard.py: the --guard MEAN,MAX that the validation scripts share."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "tools", "measure"))
import guard  # noqa: E402


class ParseGuard(unittest.TestCase):
    def test_mean_and_max_in_percent(self):
        self.assertEqual(guard.parse_guard("20,70", "t"), [20.0, 70.0])
        self.assertIsNone(guard.parse_guard("", "t"))

    def test_a_bad_guard_is_an_error_line_naming_the_script(self):
        for bad in ("20", "20,x", "0,70", "20,70,1", "-1,5"):
            with self.assertRaises(SystemExit) as e:
                guard.parse_guard(bad, "holdout_nodes", "16,40")
            self.assertEqual(str(e.exception),
                             "holdout_nodes: error: --guard %s: expected MEAN,MAX in percent, e.g. 16,40" % bad)


class CheckGuard(unittest.TestCase):
    def test_within_passes_and_beyond_either_bound_exits(self):
        guard.check_guard([16.0, 40.0], 15.9, 40.0, "t")  # within: returns
        guard.check_guard(None, 99.0, 99.0, "t")  # no guard
        for mean, worst in ((16.1, 10.0), (10.0, 40.1)):
            with self.assertRaises(SystemExit) as e:
                guard.check_guard([16.0, 40.0], mean, worst, "holdout_nodes")
            self.assertEqual(str(e.exception), "holdout_nodes: beyond the guard 16% / 40%")


if __name__ == "__main__":
    unittest.main()
