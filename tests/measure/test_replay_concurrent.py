"""Unit tests of tools/measure/replay_concurrent.py's pure parts: the workload that replays a concurrent
microbenchmark (its first call must be the backward's first, the layer order reversed) and the reading of a
measure.py CSV (medians in ms, by node count and size)."""

import os
import sys
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import replay_concurrent  # noqa: E402


class Workload(unittest.TestCase):
    def test_first_call_is_the_last_layer_and_the_others_follow_it_in_the_backward(self):
        root = ET.fromstring(replay_concurrent.workload_xml("256MiB", ["4KiB", "64KiB", "1MiB"]))
        layers = root.findall("layer")
        # The backward runs the layers last to first: "first", then s0, s1, s2.
        self.assertEqual([layer.get("name") for layer in layers], ["s2", "s1", "s0", "first"])
        self.assertEqual([layer.find("tensor").get("size") for layer in reversed(layers)],
                         ["256MiB", "4KiB", "64KiB", "1MiB"])
        self.assertEqual(len(root.findall("layer/tensor")), 4)


    def test_among_launches_one_small_call_the_timed_one_then_63_small_ones(self):
        order = replay_concurrent.among_order("1MiB")
        self.assertEqual(order[:3], ["4KiB", "1MiB", "4KiB"])
        self.assertEqual(order.count("4KiB"), 64)  # measure.py --among-calls' default, the first one included
        self.assertEqual(len(order), 65)
        root = ET.fromstring(replay_concurrent.workload_xml(order[0], order[1:]))
        sizes = [layer.find("tensor").get("size") for layer in reversed(root.findall("layer"))]
        self.assertEqual(sizes, order)  # the backward all-reduces them in launch order

    def test_a_sequence_is_all_reduced_in_the_order_given(self):
        # measure.py --queued 2 --with 4KiB --with-calls 2 launches 1 MiB, 4 KiB, 4 KiB, 1 MiB, 4 KiB, 4 KiB.
        sizes = [1048576, 4096, 4096] * 2
        root = ET.fromstring(replay_concurrent.sequence_xml(sizes))
        layers = root.findall("layer")
        self.assertEqual([layer.get("name") for layer in layers], ["c5", "c4", "c3", "c2", "c1", "c0"])
        self.assertEqual([layer.find("tensor").get("size") for layer in reversed(layers)],
                         ["1048576B", "4096B", "4096B", "1048576B", "4096B", "4096B"])


class Command(unittest.TestCase):
    def test_extra_arguments_come_last_so_that_they_override(self):
        cmd = replay_concurrent.run_command("sgdsim", "p.xml", "w.xml", 4, "t.json", ["--ring-min-slices", "2"])
        self.assertEqual(cmd[-2:], ["--ring-min-slices", "2"])
        self.assertEqual(cmd[cmd.index("--workers") + 1], "4")
        self.assertEqual(cmd[cmd.index("--framework") + 1], "pytorch-ddp-gloo")
        self.assertEqual(replay_concurrent.run_command("sgdsim", "p.xml", "w.xml", 4, "t.json")[-2:],
                         ["--timeline", "t.json"])


class Measured(unittest.TestCase):
    def test_reads_the_median_in_ms_by_nodes_and_size(self):
        path = os.path.join(ROOT, "validation", "testbed", "campaign-2026-11-28c", "data", "1gbit",
                            "allreduce-beside-256MiB.csv")
        meas = replay_concurrent.measured_ms(path)
        self.assertAlmostEqual(meas[(2, 4096)], 34.971907, places=6)  # the file's first row, time_s (the median)
        self.assertEqual(sorted({k for k, _ in meas}), [2, 3, 4, 5, 6, 7, 8])

    def test_reads_the_repeats_mean_when_asked(self):
        path = os.path.join(ROOT, "validation", "testbed", "campaign-2026-11-28c", "data", "1gbit",
                            "allreduce-after-4MiB.csv")
        median = replay_concurrent.measured_ms(path)
        mean = replay_concurrent.measured_ms(path, statistic="mean")
        # The row K = 2, 4 KiB after 4 MiB: three repeats ahead of the large call's all-gather, two behind it.
        self.assertAlmostEqual(median[(2, 4096)], 19.30, places=2)  # time_s
        self.assertAlmostEqual(mean[(2, 4096)], 25.67, places=2)  # time_mean_s
        self.assertEqual(median.keys(), mean.keys())

    def test_reads_the_among_microbenchmark(self):
        path = os.path.join(ROOT, "validation", "testbed", "campaign-2026-11-30h", "data", "1gbit", "diagnosis",
                            replay_concurrent.AMONG_CSV)
        meas = replay_concurrent.measured_ms(path)
        self.assertAlmostEqual(meas[(8, 1048576)], 39.7799, places=4)  # the row K = 8, 1 MiB, time_s
        self.assertEqual(len(meas), 7 * len(replay_concurrent.AMONG_SIZES))

    def test_reads_the_queued_microbenchmark_with_small_calls(self):
        data = os.path.join(ROOT, "validation", "testbed", "campaign-2026-12-01", "data", "1gbit", "diagnosis")
        mixed = replay_concurrent.measured_ms(os.path.join(data, replay_concurrent.WITH_CSV), "allreduce_queued_with")
        plain = replay_concurrent.measured_ms(os.path.join(data, replay_concurrent.PLAIN_CSV), "allreduce_queued")
        self.assertAlmostEqual(mixed[(8, 1048576)], 47.5005, places=3)  # the row K = 8, 1 MiB, time_s per group
        self.assertAlmostEqual(plain[(8, 1048576)], 23.1469, places=3)
        self.assertEqual(len(mixed), 7 * 6)  # K = 2..8, 256 KiB to 16 MiB
        self.assertEqual(len(plain), 7 * 7)  # and 4 KiB


if __name__ == "__main__":
    unittest.main()
