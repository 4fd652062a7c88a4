"""tools/measure/fit_incast.py: the weighted-sharing spread and the fit (docs/models.md §10.6)."""

import contextlib
import io
import json
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "measure"))
import fit_incast  # noqa: E402


def run_main(lines, args, flows_first=True):
    """fit_incast.main on a flows file of `lines` and `args` (the file before them, or after with flows_first
    False): (exit code, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps(r) + "\n" for r in lines))
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = fit_incast.main([f.name] + args if flows_first else args + [f.name])
    finally:
        os.unlink(f.name)
    return rc, out.getvalue(), err.getvalue()


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

    def test_late_table_divides_means_by_the_same_way_alone(self):
        lines = [{"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [2.0, 2.0], "roles": ["in", "in"]},
                 {"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [2.0, 2.0], "roles": ["in", "in"]},
                 {"pattern": "duplex-late-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.0, 2.0, 2.0],
                  "roles": ["alone-out", "alone-out", "late-in", "late-in"]},
                 {"pattern": "duplex-late-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.0, 4.0, 4.0],
                  "roles": ["alone-out", "alone-out", "late-in", "late-in"]}]
        # A repeat at the time alone and one at twice it: the mean, 1.5 (the median of two is the same; with three
        # repeats 2, 2, 4 the mean would be 1.33 and the median 1).
        self.assertAlmostEqual(fit_incast.late_table(lines, "duplex-late-in")[(2, 2, 8)], 1.5)
        self.assertEqual(fit_incast.late_table(lines, "duplex-late-out"), {})

    def test_staggered_rows_divide_by_their_own_time_alone(self):
        # One late flow in beside 3 established out: the late flow over the same repeat's flow in alone.
        rec = {"pattern": "staggered-in", "clients": 3, "size_bytes": 8, "late_flows": 1, "established_flows": 3,
               "times_s": [1.0, 3.0, 3.0, 3.0, 1.6, 7.0, 7.0, 7.0],
               "roles": ["alone-in", "alone-out", "alone-out", "alone-out", "late-in", "established-out",
                         "established-out", "established-out"]}
        self.assertAlmostEqual(fit_incast.late_table([rec], "staggered-in")[(1, 3, 8)], 1.6)
        # The established flows: 2 A = 6, L = 1.6, E = 7: s = 1 / (1 - 1 / 1.6) = 2.67, keyed (E, L, size).
        self.assertAlmostEqual(fit_incast.established_slowdowns([rec], "staggered-in")[(3, 1, 8)], 1 / (1 - 1 / 1.6))

    def test_established_slowdown_solves_for_the_overlap(self):
        # Alone A = 1 s per S bytes; the late flows (L = 1 s) start at 0.5 s; the established flows (2 S) slowed 2x
        # while they ran lose L (1 - 1/2) = 0.5 s: they end at 2.5 s.
        rec = {"pattern": "duplex-late-out", "clients": 2, "size_bytes": 8, "late_fraction": 0.5,
               "times_s": [1.0, 1.0, 1.0, 1.0, 2.5, 2.5],
               "roles": ["alone-in", "alone-in", "late-out", "late-out", "established-in", "established-in"]}
        self.assertAlmostEqual(fit_incast.established_slowdowns([rec], "duplex-late-out")[(2, 2, 8)], 2.0)
        unslowed = dict(rec, times_s=[1.0, 1.0, 1.0, 1.0, 2.0, 2.0])
        self.assertAlmostEqual(fit_incast.established_slowdowns([unslowed], "duplex-late-out")[(2, 2, 8)], 1.0)
        # Rows from before the established flows were timed give nothing.
        old = dict(rec, times_s=[1.0, 1.0, 1.0, 1.0], roles=["alone-in", "alone-in", "late-out", "late-out"])
        self.assertEqual(fit_incast.established_slowdowns([old], "duplex-late-out"), {})

    def test_start_order_fit_recovers_the_g(self):
        points = [(n, n, fit_incast.coupled_slowdown(1.3, n, n)) for n in (2, 4, 8)]
        g, rms = fit_incast.fit_start_order(points)
        self.assertAlmostEqual(g, 1.3)
        self.assertLess(rms, 1e-9)

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


class Roles(unittest.TestCase):
    def run_of_one_client(self, size=8):
        # N = 1: alone in 2 s, alone out 1 s; together in 3 s (1.5), out 1 s (1.0); late in 2.4 s (1.2), established
        # out 2.6 s (E / 2A 1.3); late out 1.5 s (1.5), established in 4 s (1.0).
        def rec(pattern, roles, times):
            return {"pattern": pattern, "clients": 1, "size_bytes": size, "times_s": times, "roles": roles}
        return [rec("incast-duplex", ["in", "out"], [3.0, 1.0]),
                rec("duplex-late-in", ["alone-out", "late-in", "established-out"], [1.0, 2.4, 2.6]),
                rec("duplex-late-out", ["alone-in", "late-out", "established-in"], [2.0, 1.5, 4.0])]

    def test_each_role_over_its_direction_alone(self):
        row = fit_incast.role_slowdowns(self.run_of_one_client())[(1, 8)]
        for got, want in zip(row, (1.5, 1.0, 1.2, 1.5, 1.3, 1.0)):
            self.assertAlmostEqual(got, want)

    def test_a_point_without_every_pattern_is_left_out(self):
        lines = self.run_of_one_client()[:2]
        self.assertEqual(fit_incast.role_slowdowns(lines), {})

    def test_roles_option_prints_the_table_alone(self):
        rc, out, _ = run_main(self.run_of_one_client(), ["--roles"], flows_first=False)
        self.assertEqual(rc, 0)
        self.assertIn("N=1          8 B: 1.50 1.00 1.20 1.50 1.30 1.00", out)
        self.assertIn("mean, N = 1: 1.50 (1.50-1.50)", out)
        self.assertNotIn("--flow-spread", out)
        self.assertNotIn("offer", out, "flows not paced: no load")

    def test_a_paced_run_gives_what_its_clients_offer_together(self):
        # Two clients, 1 MiB every 50 ms each at 1 Gbit/s: 2 x 8388608 bit / (0.05 s x 1e9 bit/s) = 33.6%; 500 Mbit/s
        # twice that.
        lines = [{"clients": 2, "rate": "1gbit", "flow_message_bytes": 1048576, "message_gap_s": 0.05}]
        self.assertAlmostEqual(fit_incast.offered_load_together(lines, 2), 2 * 8388608 / 5e7)
        lines[0]["rate"] = "500mbit"
        self.assertAlmostEqual(fit_incast.offered_load_together(lines, 2), 2 * 8388608 / 2.5e7)
        self.assertIsNone(fit_incast.offered_load_together(lines, 4), "no record of that N")
        lines[0]["message_gap_s"] = 0
        self.assertIsNone(fit_incast.offered_load_together(lines, 2), "back to back: not paced")
        lines[0].update(message_gap_s=0.05, rate="fast")
        self.assertIsNone(fit_incast.offered_load_together(lines, 2), "a rate not in tc's syntax")


class Main(unittest.TestCase):
    def test_a_bad_coupling_is_refused(self):
        rc, _, err = run_main([{"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.2],
                                "roles": ["in", "in"]}], ["--coupling", "0.5"])
        self.assertEqual(rc, 2)
        self.assertIn("--coupling 0.5", err)

    def test_start_order_options_stay_off_the_options_line(self):
        # make_cases.py takes the last line as the cases' options; the start-order laws are printed apart.
        rec = {"pattern": "staggered-in", "clients": 2, "size_bytes": 8, "late_flows": 2, "established_flows": 2,
               "late_fraction": 0.5, "times_s": [2.0, 2.0, 2.0, 2.0, 2.6, 2.6, 5.0, 5.0],
               "roles": ["alone-in", "alone-in", "alone-out", "alone-out", "late-in", "late-in", "established-out",
                         "established-out"]}
        lines = [rec, {"pattern": "incast-in", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.2],
                       "roles": ["in", "in"]},
                 {"pattern": "incast-out", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.1],
                  "roles": ["out", "out"]}]
        rc, out, _ = run_main(lines, ["--coupling", "0.5,0.7"])
        self.assertEqual(rc, 0)
        printed = out.strip().splitlines()
        self.assertIn("--ack-coupling-late-in", "\n".join(printed[:-1]))
        self.assertNotIn("late", printed[-1])
        self.assertIn("--ack-coupling-in 0.50", printed[-1])


class FirstPull(unittest.TestCase):
    """--first-pull (docs/models.md §10.6, "The first pull"): the first flow's weight against the others'."""

    def test_weight_inverts_the_closed_form(self):
        # n flows, the first at weight W: it ends at (W + n - 1) / W, the others together at n (S / C = 1).
        for n in (2, 4, 8):
            for w in (1.0, 1.5, 3.0):
                ratio = n / ((w + n - 1) / w)
                self.assertAlmostEqual(fit_incast.first_flow_weight(n, ratio), w)
        # The closed form against the fluid sharing the spread's fit simulates (weighted_spread).
        self.assertAlmostEqual(fit_incast.first_flow_weight(4, fit_incast.weighted_spread([2.0, 1.0, 1.0, 1.0])), 2.0)
        self.assertEqual(fit_incast.first_flow_weight(4, 0.9), 1.0)  # client 1 last: no advantage
        self.assertEqual(fit_incast.first_flow_weight(4, 4.0), fit_incast.MAX_FIRST_WEIGHT)

    def test_per_client_count_from_the_first_posted_client(self):
        def rec(n, times, tensors=True):
            r = {"pattern": "incast-out", "clients": n, "size_bytes": 8, "times_s": times,
                 "ranks": list(range(1, n + 1)), "roles": ["out"] * n}
            if tensors:
                r["flow_tensors"] = {"workload": "w.xml", "messages": 3}
            return r
        # N = 3, W = 2: client 1 ends at 2, clients 2 and 3 at 3 (ratio 1.5); a bulk repeat is not read.
        weights, others = fit_incast.first_pull([rec(3, [2.0, 3.0, 3.0]), rec(3, [2.0, 3.0, 3.0]),
                                                 rec(3, [1.0, 9.0, 9.0], tensors=False)])
        self.assertAlmostEqual(weights[3], 2.0)
        self.assertEqual(others, {(2, 8): 1.0})
        # The weight is client 1's, even where another client ends first.
        weights, _ = fit_incast.first_pull([rec(2, [3.0, 2.0])])
        self.assertEqual(weights[2], 1.0)

    def test_options_line(self):
        lines = [{"pattern": "incast-out", "clients": n, "size_bytes": 8, "times_s": [2.0] + [3.0] * (n - 1),
                  "ranks": list(range(1, n + 1)), "roles": ["out"] * n,
                  "flow_tensors": {"workload": "w.xml", "messages": 3}} for n in (3, 4)]
        rc, out, _ = run_main(lines, ["--first-pull"])
        self.assertEqual(rc, 0)
        # N = 4, ratio 1.5: W = 1.5 x 3 / 2.5 = 1.8; the others end together: no spread.
        self.assertEqual(out.strip().splitlines()[-1],
                         "--flow-spread-out 0.00 --first-pull-weight 3:2.00,4:1.80")

    def test_no_tensor_flows_is_an_error(self):
        rc, _, err = run_main([{"pattern": "incast-out", "clients": 2, "size_bytes": 8, "times_s": [1.0, 1.1],
                                "ranks": [1, 2], "roles": ["out", "out"]}], ["--first-pull"])
        self.assertEqual(rc, 2)
        self.assertIn("no incast-out repeat with --flow-tensors", err)
