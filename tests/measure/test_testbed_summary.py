"""Unit tests of tools/testbed_summary.py: which column and row a testbed case lands in."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "tools"))
import testbed_summary as ts  # noqa: E402


def case(name, mean, met=True):
    return {"name": name, "target_met": met, "simulation": {"mean_abs_error": mean, "max_abs_error": 2 * mean}}


class TestbedSummary(unittest.TestCase):
    def test_a_device_other_than_the_k80_has_its_own_column(self):
        table = ts.table({"cases": [
            case("1gbit-resnet50-k80-b32-ring-ddp-overlap-on-2026-11-26", 0.01),
            case("1gbit-resnet50-t4-b32-ring-ddp-overlap-on-2026-12-01j", 0.02),
            case("1gbit-resnet50-v100-b32-ring-tensor-overlap-on-2026-12-01j", 0.04, met=False)]})
        head, _, *rows = table.splitlines()
        self.assertEqual(head, "| series | ResNet-50 1 Gbit/s | ResNet-50 (T4) 1 Gbit/s | ResNet-50 (V100) 1 Gbit/s |")
        ddp = next(r for r in rows if r.startswith("| ring, DDP buckets"))
        self.assertEqual(ddp, "| ring, DDP buckets | 11-26: 1.0% / 2.0% | 12-01j: 2.0% / 4.0% |  |")
        tensor = next(r for r in rows if r.startswith("| ring, one per tensor"))
        self.assertEqual(tensor, "| ring, one per tensor |  |  | 12-01j: **4.0% / 8.0%** |")

    def test_device_and_batch_both_in_the_heading(self):
        self.assertEqual(ts.heading("500mbit", "gpt2", "v100", "8"), "GPT-2 (V100, batch 8) 500 Mbit/s")
        self.assertEqual(ts.heading("1gbit", "gpt2", "k80", "8"), "GPT-2 (batch 8) 1 Gbit/s")

    def test_a_testbed_name_it_cannot_read_stops_it(self):
        with self.assertRaises(SystemExit):
            ts.table({"cases": [case("1gbit-resnet50-h100-b32-ring-ddp-overlap-on", 0.01)]})


if __name__ == "__main__":
    unittest.main()
