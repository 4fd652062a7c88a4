"""tools/measure/fit_incast.py: the weighted-sharing spread and the fit (docs/models.md §10.6)."""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "measure"))
import fit_incast  # noqa: E402


class WeightedSpread(unittest.TestCase):
    def test_equal_weights_end_together(self):
        self.assertAlmostEqual(fit_incast.weighted_spread([1.0, 1.0, 1.0]), 1.0)

    def test_two_flows_in_closed_form(self):
        # Weights 2 and 1: the first ends at 1.5 (rate 2/3), the second then runs alone: 1 - 0.5 left, ends at 2.
        self.assertAlmostEqual(fit_incast.weighted_spread([2.0, 1.0]), 2.0 / 1.5)

    def test_spread_grows_with_the_weights_spread(self):
        rng = random.Random(3)
        small = fit_incast.model_spread(4, 0.1, rng)
        large = fit_incast.model_spread(4, 0.8, rng)
        self.assertLess(small, large)


class Fit(unittest.TestCase):
    def test_recovers_the_spread_that_made_the_data(self):
        # Medians made by the model itself at s = 0.4 for N = 2..6: the fit must give it back.
        rng = random.Random(7)
        data = {(n, 1): fit_incast.model_spread(n, 0.4, rng) for n in range(2, 7)}
        s, rms = fit_incast.fit(data, seed=11)
        self.assertAlmostEqual(s, 0.4, delta=0.05)
        self.assertLess(rms, 0.02)

    def test_fair_data_fits_zero(self):
        s, _ = fit_incast.fit({(n, 1): 1.0 for n in range(2, 6)})
        self.assertEqual(s, 0.0)

    def test_measured_spreads_take_one_pattern_per_repeat(self):
        lines = [{"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.5], "roles": ["in", "in"]},
                 {"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.1], "roles": ["in", "in"]},
                 {"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [2.0, 2.2], "roles": ["in", "in"]},
                 {"pattern": "incast-out", "clients": 2, "size_bytes": 8, "times_s": [1.0, 3.0], "roles": ["out", "out"]}]
        self.assertEqual(fit_incast.measured_spreads(lines, "incast-in"), {(2, 8): 1.1})
        self.assertEqual(fit_incast.measured_spreads(lines, "incast-out"), {(2, 8): 3.0})


class Duplex(unittest.TestCase):
    def test_maxmin_one_out_beside_two_in(self):
        # Hub in-link: 2 flows + 0.05 of 1 ACK stream -> level 1/2.05; out-link: 1 flow + 0.1 -> 1/1.1. Every flow
        # runs at 1/2.05: the incoming ones 1.025 x their time alone (1/2 each), the outgoing one 2.05 x.
        model_in, model_out = fit_incast.maxmin_duplex(2, 1)
        self.assertAlmostEqual(model_in, 1.025)
        self.assertAlmostEqual(model_out, 2.05)

    def test_maxmin_without_acks_is_independent(self):
        self.assertEqual(fit_incast.maxmin_duplex(3, 2, ack=0.0), (1.0, 1.5))

    def test_table_divides_by_one_direction_alone(self):
        def rec(pattern, clients, roles, times):
            return {"pattern": pattern, "clients": clients, "size_bytes": 8, "times_s": times, "roles": roles}
        lines = [rec("incast-in", 2, ["in", "in"], [2.0, 2.0]),
                 rec("incast-mixed", 2, ["in", "reverse", "alone"], [1.0, 1.5, 1.0]),
                 rec("incast-half", 3, ["in", "in", "out"], [2.2, 2.2, 1.8])]
        (k, m, m_in, s_in, m_out, s_out), = fit_incast.duplex_table(lines).values()
        self.assertEqual((k, m), (2, 1))
        self.assertAlmostEqual(m_in, 1.1)   # 2.2 over incast-in's 2.0
        self.assertAlmostEqual(m_out, 1.8)  # 1.8 over the flow alone's 1.0
        self.assertAlmostEqual(s_out, 2.05)

    def test_duplex_table_divides_by_as_many_flows_one_way(self):
        def rec(pattern, clients, roles, times):
            return {"pattern": pattern, "clients": clients, "size_bytes": 8, "times_s": times, "roles": roles}
        lines = [rec("incast-in", 2, ["in", "in"], [2.0, 2.0]), rec("incast-out", 2, ["out", "out"], [1.6, 1.6]),
                 rec("incast-duplex", 2, ["in", "in", "out", "out"], [2.4, 2.4, 2.0, 2.0])]
        (k, m, m_in, s_in, m_out, s_out), = fit_incast.duplex_table(lines, "incast-duplex").values()
        self.assertEqual((k, m), (2, 2))
        self.assertAlmostEqual(m_in, 1.2)    # 2.4 over incast-in's 2.0 (N = 2)
        self.assertAlmostEqual(m_out, 1.25)  # 2.0 over incast-out's 1.6
        self.assertAlmostEqual(s_in, 1.05)   # max-min: 2 + 0.05 x 2 on each link
        self.assertEqual(fit_incast.duplex_table(lines), {})  # no incast-half rows

    def test_late_in_table_divides_by_incast_in(self):
        lines = [{"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [2.0, 2.0], "roles": ["in", "in"]},
                 {"pattern": "duplex-late-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.0, 2.6, 2.8],
                  "roles": ["alone-out", "alone-out", "late-in", "late-in"]}]
        self.assertEqual(list(fit_incast.late_in_table(lines)), [(2, 8)])
        self.assertAlmostEqual(fit_incast.late_in_table(lines)[(2, 8)], 1.35)  # median 2.7 over 2.0

    def test_exponent_recovers_the_one_that_made_the_data(self):
        # Slowdowns made by the model at g = 0.5, exponent 0.4 for n = 2..8 each way: the fit gives 0.4 back.
        points = [(n, n, fit_incast.coupled_slowdown(0.5, n, n, 0.4)) for n in range(2, 9)]
        e, rms = fit_incast.fit_exponent(points, 0.5)
        self.assertAlmostEqual(e, 0.4)
        self.assertLess(rms, 1e-9)

    def test_exponent_ties_go_to_one(self):
        # No slowdown measured: every exponent from about 0.7 up gives 1 at g = 0.5; the fit keeps the lone-flow form.
        e, _ = fit_incast.fit_exponent([(n, n, 1.0) for n in (2, 4, 8)], 0.5)
        self.assertEqual(e, 1.0)


if __name__ == "__main__":
    unittest.main()
