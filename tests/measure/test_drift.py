"""tools/measure/drift.py: the microbenchmarks measured again after a campaign's trainings against those measured
before (the ratios, the split at 1 MiB, the sizes outside the repeats' range), the sentence make_cases.py puts in a
case's description, and --case's plumbing (a copy of the case on the platform measured again, both predictions read
back from one validate run; sgdsim is a stand-in here)."""

import csv
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import drift  # noqa: E402
from scripts import write_executable  # noqa: E402
import make_cases  # noqa: E402

COLUMNS = ["op", "nodes", "size_bytes", "time_s", "time_min_s", "time_max_s"]


def write_csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(rows)


def row(op, nodes, size, t, spread=0.01):
    return [op, nodes, size, t, t * (1 - spread), t * (1 + spread)]


class Compare(unittest.TestCase):
    def test_ratios_split_at_one_mib(self):
        with tempfile.TemporaryDirectory() as d:
            before, after = os.path.join(d, "b.csv"), os.path.join(d, "a.csv")
            write_csv(before, [row("allreduce", 2, 4096, 1e-3), row("allreduce", 2, 65536, 2e-3),
                               row("allreduce", 2, 2 ** 20, 0.01), row("allreduce", 2, 2 ** 24, 0.16),
                               row("allreduce", 4, 2 ** 20, 0.02), row("allreduce", 8, 4096, 1e-3)])
            # K = 2: small sizes 2x and 0.5x (geometric mean 1), large ones 1.21x and 1.0x (geometric mean 1.1);
            # K = 8 measured only before: not compared.
            write_csv(after, [row("allreduce", 2, 4096, 2e-3), row("allreduce", 2, 65536, 1e-3),
                              row("allreduce", 2, 2 ** 20, 0.0121), row("allreduce", 2, 2 ** 24, 0.16),
                              row("allreduce", 4, 2 ** 20, 0.02)])
            out = drift.compare(before, after)
        self.assertEqual(sorted(out), [("allreduce", 2), ("allreduce", 4)])
        k2 = out[("allreduce", 2)]
        self.assertAlmostEqual(k2["small"], 1.0)
        self.assertAlmostEqual(k2["large"], 1.1)
        self.assertEqual(k2["sizes"], 4)
        self.assertEqual(k2["outside"], 3)  # 2x, 0.5x and 1.21x leave the +-1% range; the unchanged size does not
        self.assertIsNone(out[("allreduce", 4)]["small"])
        self.assertEqual(out[("allreduce", 4)]["outside"], 0)

    def test_nothing_in_common_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            write_csv(os.path.join(d, "b.csv"), [row("p2p", 2, 4096, 1e-3)])
            write_csv(os.path.join(d, "a.csv"), [row("p2p", 2, 8192, 1e-3)])
            with self.assertRaises(ValueError):
                drift.compare(os.path.join(d, "b.csv"), os.path.join(d, "a.csv"))


class Summary(unittest.TestCase):
    def test_sentence_gives_the_span_over_node_counts(self):
        with tempfile.TemporaryDirectory() as d:
            write_csv(os.path.join(d, "allreduce.csv"), [row("allreduce", k, 2 ** 22, 0.1) for k in (2, 3, 8)])
            write_csv(os.path.join(d, "again", "allreduce.csv"),
                      [row("allreduce", 2, 2 ** 22, 0.098), row("allreduce", 3, 2 ** 22, 0.1),
                       row("allreduce", 8, 2 ** 22, 0.112)])
            text = drift.summary(d, "allreduce.csv")
            self.assertIn("all-reduce microbenchmark measured again", text)
            self.assertIn("K = 2..8", text)
            self.assertIn("-2..+12% from 1 MiB on", text)
            self.assertNotIn("below", text)  # no size under 1 MiB was measured
            self.assertIn("2 of 3 medians outside", text)
            # make_cases.py's description carries it, and nothing without a microbenchmark measured again
            self.assertIn(text, make_cases.again_text(d, "allreduce.csv"))
            self.assertEqual(make_cases.again_text(d, "p2p.csv"), "")

    def test_nothing_in_common_stops_make_cases_with_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            write_csv(os.path.join(d, "p2p.csv"), [row("p2p", 2, 4096, 1e-3)])
            write_csv(os.path.join(d, "again", "p2p.csv"), [row("p2p", 2, 8192, 1e-3)])
            with self.assertRaises(SystemExit) as e:
                make_cases.again_text(d, "p2p.csv")
            self.assertTrue(str(e.exception).startswith("make_cases: "), str(e.exception))
            self.assertIn("no row (op, nodes, size) in common", str(e.exception))

    def test_rate_without_again_folder_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            write_csv(os.path.join(d, "p2p.csv"), [row("p2p", 2, 4096, 1e-3)])
            with self.assertRaises(SystemExit) as e:
                drift.print_rate(d)
            self.assertIn("campaign.sh AGAIN", str(e.exception))


class Case(unittest.TestCase):
    def make_case(self, d, again=True):
        data = os.path.join(d, "data")
        os.makedirs(data)
        for name in ["platform-allreduce.xml"] + (["platform-allreduce-again.xml"] if again else []):
            open(os.path.join(data, name), "w").close()
        cdir = os.path.join(d, "cases", "c")
        os.makedirs(cdir)
        case = {"name": "c", "metric": "step_time_s", "guard": {"mean": 0.05, "max": 0.1}, "missing": "x",
                "run": ["--platform", os.path.join(data, "platform-allreduce.xml"), "--arch", "ring"],
                "points": [{"label": "2 workers", "args": ["--workers", "2"], "measured": 2.0},
                           {"label": "4 workers", "args": ["--workers", "4"], "measured": 4.0}]}
        with open(os.path.join(cdir, "case.json"), "w", encoding="utf-8") as f:
            json.dump(case, f)
        return cdir

    def test_both_predictions_from_one_validate(self):
        # The stand-in reads each case folder it is given and predicts 0.9x the measured step on the case's own
        # platform, 1.1x on the one measured again; it fails unless the copy keeps every other argument.
        with tempfile.TemporaryDirectory() as d:
            cdir = self.make_case(d)
            fake = os.path.join(d, "sgdsim")
            write_executable(fake, "import json, os, sys\na = sys.argv[1:]\n"
                             "assert a[:3] == ['validate', '-j', '3'], a\n"
                             "out = a[a.index('--report-dir') + 1]\ncases = []\n"
                             "for c in a[3:a.index('--report-dir')]:\n"
                             "    case = json.load(open(os.path.join(c, 'case.json')))\n"
                             "    run = case['run']\n"
                             "    assert run[2:] == ['--arch', 'ring'] and 'missing' not in case or c.endswith('/c'), run\n"
                             "    f = 1.1 if run[1].endswith('-again.xml') else 0.9\n"
                             "    cases.append({'name': case['name'], 'points': [dict(label=p['label'], "
                             "measured=p['measured'], simulated=f * p['measured']) for p in case['points']]})\n"
                             "json.dump({'cases': cases}, open(os.path.join(out, 'report.json'), 'w'))\n")
            case, points = drift.predict_both(cdir, fake, 3)
        self.assertEqual(case["name"], "c")
        self.assertEqual(list(points), ["2 workers", "4 workers"])
        for (measured, before, again), m in zip(points.values(), (2.0, 4.0)):
            self.assertEqual(measured, m)
            self.assertAlmostEqual(before, 0.9 * m)
            self.assertAlmostEqual(again, 1.1 * m)

    def test_case_of_a_campaign_without_again_names_the_setting(self):
        with tempfile.TemporaryDirectory() as d:
            cdir = self.make_case(d, again=False)
            with self.assertRaises(SystemExit) as e:
                drift.predict_both(cdir, "/nonexistent/sgdsim", 2)
            self.assertIn("did not measure allreduce.csv again (campaign.sh AGAIN)", str(e.exception))

    def test_folder_without_case_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                drift.predict_both(d, "/nonexistent/sgdsim", 2)
            self.assertIn("no case.json", str(e.exception))

    def test_platform_names(self):
        self.assertEqual(drift.again_platform("a/b/platform-p2p.xml"), "a/b/platform-p2p-again.xml")
        with self.assertRaises(SystemExit):
            drift.again_platform("a/b/cluster.xml")


if __name__ == "__main__":
    unittest.main()
