"""Unit tests of the measurement kit's pure parts (tools/measure/plan.py and emulate's rate arithmetic): no root,
no network, no torch. The expected values of the unit grammar are what `sgdsim run` itself read from the same
strings (a tensor's bytes, a layer's time), so the kit and the simulator agree on every workload."""

import errno
import importlib.util
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import plan  # noqa: E402
from scripts import load_script  # noqa: E402


def write_workload(body, attrs='name="t" batch="4" device="d" reference_speed="1Tf"'):
    f = tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False)
    f.write(f"<?xml version='1.0'?>\n<!-- a comment -- with dashes, as the catalog's headers have -->\n"
            f"<workload {attrs}>{body}</workload>\n")
    f.close()
    return f.name


class UnitGrammar(unittest.TestCase):
    def test_times(self):
        for text, seconds in [("1s", 1), ("1ms", 1e-3), ("1us", 1e-6), ("1ns", 1e-9), ("1ps", 1e-12),
                              ("1m", 60), ("1h", 3600), ("2.5e-3s", 2.5e-3), ("588.79us", 588.79e-6), ("0", 0)]:
            self.assertAlmostEqual(plan.parse_quantity(text, "time"), seconds, delta=seconds * 1e-12, msg=text)

    def test_sizes(self):
        for text, size in [("1B", 1), ("37632B", 37632), ("1kB", 1000), ("1KiB", 1024), ("1MB", 1e6),
                           ("1MiB", 1 << 20), ("1GB", 1e9), ("1GiB", 1 << 30), ("1TB", 1e12), ("1TiB", 1 << 40),
                           ("8b", 1), ("1kb", 125), ("1Kib", 128), ("1e3B", 1000), ("1.5kB", 1500)]:
            self.assertEqual(plan.parse_quantity(text, "size"), size, msg=text)

    def test_speeds(self):
        for text, speed in [("1f", 1), ("1kf", 1e3), ("1Mf", 1e6), ("1Gf", 1e9), ("15.7Tf", 15.7e12),
                            ("1Pf", 1e15), ("614.4Gf", 614.4e9)]:
            self.assertAlmostEqual(plan.parse_quantity(text, "speed"), speed, delta=speed * 1e-12, msg=text)

    def test_rejected_as_sgdsim_rejects(self):
        cases = [("1KB", "size", "unknown unit"), ("1kiB", "size", "unknown unit"), ("1mB", "size", "unknown unit"),
                 ("1Bps", "size", "unknown unit"), ("1", "size", "has no unit"), ("1S", "time", "unknown unit"),
                 ("1Ms", "time", "unknown unit"), ("1Kf", "speed", "unknown unit"), ("1gf", "speed", "unknown unit"),
                 ("-1ms", "time", "negative"), ("1 ms", "time", "contains a space"), ("", "time", "empty"),
                 ("ms", "time", "not a number")]
        for text, kind, reason in cases:
            with self.assertRaises(ValueError, msg=text) as ctx:
                plan.parse_quantity(text, kind)
            self.assertIn(reason, str(ctx.exception), msg=text)


class WorkloadParser(unittest.TestCase):
    def test_tiny(self):
        wl = plan.parse_workload(os.path.join(HERE, "tiny-workload.xml"))
        self.assertEqual((wl.name, wl.batch, wl.reference_speed, wl.ps_update_s), ("tiny", 16, 1e12, 2e-3))
        self.assertEqual([layer.name for layer in wl.layers], ["conv1", "relu", "conv2", "fc1", "fc2"])
        self.assertEqual(len(wl.tensors), 8)
        self.assertEqual(wl.model_bytes(), 37632 + 256 + 589824 + 1024 + 1e6 + 2000 + 81920 + 40)
        self.assertEqual(wl.layers[1].tensors, [])
        self.assertEqual(wl.layers[3].tensors, [4, 5])
        self.assertAlmostEqual(wl.layers[3].fwd_s, 1.1e-3)  # the mean of the samples, as sgdsim's Layer
        self.assertAlmostEqual(wl.layers[3].bwd_s, 1.6e-3)
        self.assertEqual(wl.layers[3].samples, [(1e-3, 1.5e-3), (1.2e-3, 1.7e-3)])

    def test_catalog(self):
        """Every shipped workload parses; ResNet-50's totals are the catalog's (tests/unit/catalog_test.cpp)."""
        folder = os.path.join(ROOT, "workloads")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".xml"):
                plan.parse_workload(os.path.join(folder, name))
        wl = plan.parse_workload(os.path.join(folder, "resnet50-v100-b32.xml"))
        self.assertEqual((len(wl.layers), len(wl.tensors), wl.model_bytes()), (158, 161, 102228128))

    def test_errors(self):
        cases = [
            ('<layer name="a" fwd="1ms" bwd="1ms"><tensor name="x" size="4B"/><tensor name="x" size="4B"/></layer>',
             "duplicate tensor name"),
            ('<layer name="a" fwd="1ms" bwd="1ms"><sample fwd="1ms" bwd="1ms"/><tensor name="x" size="4B"/></layer>',
             "not both"),
            ('<layer name="a"><tensor name="x" size="4B"/></layer>', "missing attribute 'fwd'"),
            ('<layer name="a" fwd="1ms" bwd="1ms" gpu="1"><tensor name="x" size="4B"/></layer>', "unknown attribute"),
            ('<layer name="a" fwd="1ms" bwd="1ms"><tensor name="x" size="4KB"/></layer>', "unknown unit"),
            ('<layer name="a" fwd="1ms" bwd="1ms"/>', "no parameter tensors"),
            ('<layer name="a" fwd="1ms" bwd="1ms"><tensor name="x" size="0"/></layer>', "at least 1 byte"),
        ]
        for body, reason in cases:
            path = write_workload(body)
            try:
                with self.assertRaises(plan.WorkloadError, msg=body) as ctx:
                    plan.parse_workload(path)
                self.assertIn(reason, str(ctx.exception), msg=body)
            finally:
                os.unlink(path)


class PsSplit(unittest.TestCase):
    def setUp(self):
        self.wl = plan.parse_workload(os.path.join(HERE, "tiny-workload.xml"))

    def test_round_robin(self):
        owner = plan.split_round_robin(8, 2)
        self.assertEqual(owner, [0, 1, 0, 1, 0, 1, 0, 1])
        self.assertEqual(plan.ps_shards(owner, 2), [[0, 2, 4, 6], [1, 3, 5, 7]])
        # Gradients go out layer by layer backward, each layer's tensors reversed: fc2 (6, 7), fc1 (4, 5), ...
        self.assertEqual(plan.uplink_order(self.wl, owner, 0), [6, 4, 2, 0])
        self.assertEqual(plan.uplink_order(self.wl, owner, 1), [7, 5, 3, 1])

    def test_balanced(self):
        # Largest first: fc1.weight (1e6) -> PS 0, conv2.weight (589824) -> PS 1, fc2.weight (81920) -> PS 1,
        # conv1.weight (37632) -> PS 1, fc1.bias (2000) -> PS 1, conv2.bias (1024) -> PS 1, conv1.bias -> PS 1 ...
        owner = plan.split_balanced(self.wl, 2)
        self.assertEqual(owner[4], 0)
        self.assertEqual(sorted(t for t, p in enumerate(owner) if p == 0), [4])
        self.assertEqual(plan.split_balanced(self.wl, 1), [0] * 8)


class GradUnits(unittest.TestCase):
    def setUp(self):
        self.wl = plan.parse_workload(os.path.join(HERE, "tiny-workload.xml"))

    def test_tensor(self):
        units = plan.grad_units(self.wl, "tensor")
        self.assertEqual([u.tensors for u in units], [[7], [6], [5], [4], [3], [2], [1], [0]])
        self.assertEqual([u.ready_layer for u in units], [4, 4, 3, 3, 2, 2, 0, 0])

    def test_layer(self):
        units = plan.grad_units(self.wl, "layer")
        self.assertEqual([(u.bytes, u.ready_layer) for u in units],
                         [(81960, 4), (1002000, 3), (590848, 2), (37888, 0)])

    def test_ddp(self):
        # Ready order: fc2.bias, fc2.weight, fc1.bias, fc1.weight: 1,083,960 B >= 1 MiB closes the first bucket
        # (ready once fc1's backward is done); the rest, 628,736 B < 25 MiB, is the last bucket.
        units = plan.grad_units(self.wl, "ddp")
        self.assertEqual([(u.bytes, u.ready_layer) for u in units], [(1083960, 3), (628736, 0)])
        self.assertEqual(units[0].tensors, [7, 6, 5, 4])
        # Smaller caps: the first bucket closes at 1,000 B (with fc2.weight), later ones at 600 kB: fc1 alone,
        # then conv2 (590,848 B) is still under the cap and takes conv1's tensors too.
        units = plan.grad_units(self.wl, "ddp", bucket_bytes=600e3, first_bucket_bytes=1000)
        self.assertEqual([(u.bytes, u.ready_layer) for u in units], [(81960, 4), (1002000, 3), (628736, 0)])

    def test_ddp_resnet50(self):
        wl = plan.parse_workload(os.path.join(ROOT, "workloads", "resnet50-v100-b32.xml"))
        units = plan.grad_units(wl, "ddp")
        self.assertEqual(sum(u.bytes for u in units), wl.model_bytes())
        self.assertGreaterEqual(units[0].bytes, plan.DDP_FIRST_BUCKET_BYTES)
        self.assertLess(units[0].bytes - wl.tensors[units[0].tensors[-1]].bytes, plan.DDP_FIRST_BUCKET_BYTES)
        for u in units[1:-1]:
            self.assertGreaterEqual(u.bytes, plan.DDP_BUCKET_BYTES)
            self.assertLess(u.bytes - wl.tensors[u.tensors[-1]].bytes, plan.DDP_BUCKET_BYTES)
        self.assertEqual(units[-1].ready_layer, 0)

    @unittest.skipUnless(importlib.util.find_spec("torch"), "PyTorch is not installed for this interpreter")
    def test_ddp_matches_torch(self):
        """The buckets are the ones torch's own Reducer computes when it rebuilds them in gradient-ready order
        (torch.distributed._compute_bucket_assignment_by_size with tensor_indices, torch 1.13)."""
        import torch
        import torch.distributed as dist
        for name in ("resnet50-v100-b32.xml", "vgg16-v100-b32.xml", "bert-base-v100-b32.xml"):
            wl = plan.parse_workload(os.path.join(ROOT, "workloads", name))
            order = [t for layer in reversed(wl.layers) for t in reversed(layer.tensors)]
            tensors = [torch.empty(int(wl.tensors[t].bytes) // 4) for t in order]
            buckets, _ = dist._compute_bucket_assignment_by_size(
                tensors, [dist._DEFAULT_FIRST_BUCKET_BYTES, plan.DDP_BUCKET_BYTES], [False] * len(tensors),
                list(range(len(tensors))))
            self.assertEqual([[order[i] for i in b] for b in buckets],
                             [u.tensors for u in plan.grad_units(wl, "ddp")], msg=name)
        self.assertEqual(dist._DEFAULT_FIRST_BUCKET_BYTES, plan.DDP_FIRST_BUCKET_BYTES)

    def test_elements(self):
        self.assertEqual([plan.elements(b) for b in (1, 4, 40, 1001)], [1, 1, 10, 250])


class StepTimes(unittest.TestCase):
    def test_definition(self):
        # Step s lasts from the end of step s-1 (or the start) to its end; warm-up steps are not measured.
        self.assertEqual(plan.step_times([1.0, 3.0, 6.0, 10.0], 0.0, 1, 3), [2.0, 3.0, 4.0])
        self.assertEqual(plan.step_times([1.5, 3.0], 0.5, 0, 2), [1.0, 1.5])

    def test_summary(self):
        s = plan.summarize([[1.0, 1.0], [2.0, 2.0]], batch=32)
        self.assertEqual(s["step_time_mean_s"], 1.5)  # mean over workers of their mean step times
        self.assertEqual(s["throughput_examples_per_s"], 32 + 16)  # sum of batch / each worker's mean
        self.assertEqual((s["step_time_min_s"], s["step_time_max_s"], s["step_time_std_s"]), (1.0, 2.0, 0.5))


class IncastNodes(unittest.TestCase):
    def test_the_testbeds_client_counts_up_to_k_and_k_itself(self):
        self.assertEqual(plan.incast_nodes(8), [2, 3, 4, 6, 8])
        self.assertEqual(plan.incast_nodes(5), [2, 3, 4, 5])
        self.assertEqual(plan.incast_nodes(12), [2, 3, 4, 6, 8, 12])
        self.assertEqual(plan.incast_nodes(2), [2])
        self.assertEqual(plan.incast_nodes(1), [])


class EmulateArithmetic(unittest.TestCase):
    def setUp(self):
        self.emulate = load_script("emulate")

    def test_rates(self):
        parse = self.emulate.parse_rate
        self.assertEqual(parse("1gbit"), 1e9)
        self.assertEqual(parse("2.5gbit"), 2.5e9)
        self.assertEqual(parse("500mbit"), 5e8)
        self.assertEqual(parse("1Gbit"), 1e9)  # as tc prints it
        self.assertEqual(parse("125mbps"), 1e9)  # tc: bps is bytes per second
        for bad in ("fast", "0gbit", "1 gbit"):
            with self.assertRaises(self.emulate.EmulateError):
                parse(bad)

    def test_burst_and_queue(self):
        self.assertEqual(self.emulate.burst_bytes(1e9), 65536)
        self.assertEqual(self.emulate.burst_bytes(10e9), 125000)
        self.assertEqual(self.emulate.queue_bytes(1e9, 4), 1 << 20)
        self.assertEqual(self.emulate.queue_bytes(10e9, 4), 5000000)


class EmulateAllowCc(unittest.TestCase):
    """up --allow-cc widens the global allowed list for --cc and down puts back what it found, on stand-in files for
    /proc/sys/net/ipv4/tcp_allowed_congestion_control and the restore file."""

    def setUp(self):
        self.emulate = load_script("emulate")
        self.tmp = tempfile.TemporaryDirectory()
        self.allowed = os.path.join(self.tmp.name, "allowed")
        self.restore = os.path.join(self.tmp.name, "run", "allowed.restore")
        with open(self.allowed, "w", encoding="utf-8") as f:
            f.write("reno bbr\n")

    def tearDown(self):
        self.tmp.cleanup()

    def read(self):
        with open(self.allowed, encoding="utf-8") as f:
            return f.read()

    def test_widen_then_restore(self):
        self.assertEqual(self.emulate.allow_cc("cubic", self.allowed, self.restore), "reno bbr")
        self.assertEqual(self.read(), "reno bbr cubic\n")
        self.assertTrue(os.path.exists(self.restore))
        self.assertEqual(self.emulate.restore_allowed(self.allowed, self.restore), "reno bbr")
        self.assertEqual(self.read(), "reno bbr\n")
        self.assertFalse(os.path.exists(self.restore))
        # A second down has nothing to put back and leaves the list alone.
        self.assertIsNone(self.emulate.restore_allowed(self.allowed, self.restore))
        self.assertEqual(self.read(), "reno bbr\n")

    def test_already_allowed_changes_nothing(self):
        self.assertIsNone(self.emulate.allow_cc("bbr", self.allowed, self.restore))
        self.assertEqual(self.read(), "reno bbr\n")
        self.assertFalse(os.path.exists(self.restore))
        self.assertIsNone(self.emulate.restore_allowed(self.allowed, self.restore))

    def test_refused_write_keeps_nothing_to_restore(self):
        # As the kernel refuses a name it lacks (EINVAL on the write): the list stays, no restore file is left.
        real_open = open

        def refusing_open(path, mode="r", **kwargs):
            if path == self.allowed and "w" in mode:
                raise OSError(errno.EINVAL, "Invalid argument")
            return real_open(path, mode, **kwargs)

        self.emulate.open = refusing_open  # the module's globals come before the builtins
        with self.assertRaises(self.emulate.EmulateError) as e:
            self.emulate.allow_cc("nosuchcc", self.allowed, self.restore)
        self.assertIn("nosuchcc", str(e.exception))
        self.assertIn("Invalid argument", str(e.exception))
        self.assertEqual(self.read(), "reno bbr\n")
        self.assertFalse(os.path.exists(self.restore))


class CpuOutside(unittest.TestCase):
    STAT = ("cpu  {u} 5 {s} 9000 10 {i} {si} 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\ncpu1 1 2 3 4 5 6 7 8 0 0\n"
            "intr 12345\nctxt 678\n")

    def snap(self, user, system, irq, softirq, procs):
        return {"stat": plan.parse_proc_stat(self.STAT.format(u=user, s=system, i=irq, si=softirq)),
                "procs": procs}

    def test_proc_stat_line(self):
        st = plan.parse_proc_stat(self.STAT.format(u=100, s=50, i=3, si=7))
        self.assertEqual((st["user"], st["nice"], st["system"], st["irq"], st["softirq"], st["cpus"]),
                         (100, 5, 50, 3, 7, 2))
        with self.assertRaises(ValueError):
            plan.parse_proc_stat("intr 1\n")
        with self.assertRaises(ValueError):
            plan.parse_proc_stat("cpu 1 2 3\n")

    def test_pid_stat_name_with_spaces_and_parentheses(self):
        # proc(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
        line = "4242 (tricky (name) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 70 0 0 20 0 3 0 9 0 0\n"
        self.assertEqual(plan.parse_pid_stat(line), ("tricky (name) x", 320, False))
        kthread = "14 (ksoftirqd/0) S 2 0 0 0 -1 69238848 0 0 0 0 0 1317 0 0 20 0 1 0 9 0 0\n"  # PF_KTHREAD set
        self.assertEqual(plan.parse_pid_stat(kthread), ("ksoftirqd/0", 1317, True))

    def test_outside_is_every_other_process(self):
        # 2 s at 100 ticks/s. The machine: 300 user + 100 system + 2 irq + 40 softirq = 442 ticks. The ranks (pids
        # 10, 11) 250, their softirq ticks included; ksoftirqd 30; a compiler 120; bash one tick; the 41 ticks left
        # are a process that came and went between the snapshots.
        before = self.snap(1000, 500, 10, 20, {10: ("python3", 1000, False), 11: ("python3", 900, False),
                                               12: ("cc1plus", 5, False), 13: ("bash", 7, False),
                                               14: ("ksoftirqd/0", 50, True)})
        after = self.snap(1300, 600, 12, 60, {10: ("python3", 1150, False), 11: ("python3", 1000, False),
                                              12: ("cc1plus", 125, False), 13: ("bash", 8, False),
                                              14: ("ksoftirqd/0", 80, True)})
        got = plan.cpu_outside(before, after, {10, 11}, 100, 2.0)
        self.assertAlmostEqual(got["busy_s"], 4.42)
        self.assertAlmostEqual(got["irq_s"], 0.42)
        self.assertAlmostEqual(got["ranks_s"], 2.5)
        self.assertAlmostEqual(got["kernel_s"], 0.3)
        self.assertAlmostEqual(got["outside_s"], 1.21 + 0.41)
        self.assertAlmostEqual(got["outside_cores"], 0.81)
        self.assertEqual(got["cpus"], 2)
        self.assertEqual(got["outside_top"], [["cc1plus", 1.2]])  # bash's one tick is below the listing

    def test_a_quiet_machine_and_new_processes(self):
        # The processes' ticks exceed the machine's (the two counters tick apart): nothing unseen, nothing outside
        # but the processes that started after the first snapshot, counted whole.
        before = self.snap(100, 100, 0, 0, {10: ("python3", 0, False)})
        after = self.snap(150, 100, 0, 0, {10: ("python3", 60, False), 20: ("make", 3, False), 21: ("make", 4, False)})
        got = plan.cpu_outside(before, after, {10}, 100, 1.0)
        self.assertAlmostEqual(got["outside_s"], 0.07)
        self.assertEqual(got["outside_top"], [["make", 0.07]])
        quiet = plan.cpu_outside(before, self.snap(150, 100, 0, 0, {10: ("python3", 60, False)}), {10}, 100, 1.0)
        self.assertEqual((quiet["outside_s"], quiet["outside_top"]), (0.0, []))


class QuietAttempts(unittest.TestCase):
    """Which measurement of a row the microbenchmarks keep (microbench.quiet_attempt)."""

    @staticmethod
    def cpu(outside_s, steal_s, window_s=1.0):
        return {"window_s": window_s, "outside_s": outside_s, "steal_s": steal_s,
                "outside_cores": outside_s / window_s if window_s else 0.0}

    def test_busy_needs_the_limit_and_five_ticks(self):
        self.assertFalse(plan.cpu_busy(self.cpu(0.1, 0.08)))  # at the limits, not above
        self.assertTrue(plan.cpu_busy(self.cpu(0.11, 0.0)))
        self.assertTrue(plan.cpu_busy(self.cpu(0.0, 0.09)))
        # 0.04 s in a window of 0.1 s is 0.4 cores, but four ticks: not flagged.
        self.assertFalse(plan.cpu_busy(self.cpu(0.04, 0.04, window_s=0.1)))
        self.assertTrue(plan.cpu_busy(self.cpu(0.05, 0.0, window_s=0.1)))
        self.assertFalse(plan.cpu_busy(self.cpu(0.3, 0.0), max_outside_cores=0.5))
        self.assertEqual(plan.steal_cores(self.cpu(0, 0.3, window_s=0.0)), 0.0)

    def test_keeps_the_first_quiet_attempt(self):
        busy, quiet = self.cpu(0.0, 0.4), self.cpu(0.02, 0.01)
        self.assertEqual(plan.quietest([quiet]), 0)
        self.assertEqual(plan.quietest([busy, quiet]), 1)
        self.assertEqual(plan.quietest([busy, quiet, self.cpu(0.0, 0.0)]), 1)

    def test_every_attempt_busy_keeps_the_least_busy(self):
        self.assertEqual(plan.quietest([self.cpu(0.0, 0.5), self.cpu(0.3, 0.0), self.cpu(0.1, 0.3)]), 1)
        self.assertEqual(plan.quietest([self.cpu(0.3, 0.0), self.cpu(0.3, 0.0)]), 0)  # a tie: the first

    def test_the_attempts_set_aside_and_the_note(self):
        busy, quiet = self.cpu(0.0, 0.4), self.cpu(0.02, 0.01)
        self.assertEqual(plan.set_aside([busy, None, quiet], [0.3, 0.2, 0.1], 2), [{"time_s": 0.3, **busy}])
        self.assertEqual(plan.set_aside([quiet], [0.1], 0), [])
        self.assertEqual(plan.busy_note([]), "")
        self.assertEqual(plan.busy_note([busy]), "  (1 busy or slow attempt set aside)")
        self.assertEqual(plan.busy_note([busy, busy]), "  (2 busy or slow attempts set aside)")

    def test_slow_is_the_readings_median_against_the_fastest(self):
        at = {**self.cpu(0.0, 0.0), "pace_us": [13.0, 14.0, 144.0], "pace_reference_us": 13.0}  # median 14: 1.08
        slow = {**self.cpu(0.0, 0.0), "pace_us": [13.0, 19.0, 18.0], "pace_reference_us": 13.0}  # median 18: 1.38
        self.assertEqual(plan.pace_of(at), 14.0)
        self.assertFalse(plan.pace_slow(at))
        self.assertTrue(plan.pace_slow(slow))
        self.assertFalse(plan.pace_slow(slow, slow=1.4))
        self.assertTrue(plan.pace_slow({**at, "pace_us": [16.5, 16.5]}))  # 16.5 > 1.25 x 13 = 16.25
        self.assertFalse(plan.pace_slow({**at, "pace_us": [16.0, 16.0]}))
        unread = self.cpu(0.0, 0.0)  # recorded before the pace was read
        self.assertIsNone(plan.pace_of(unread))
        self.assertFalse(plan.pace_slow(unread))
        self.assertFalse(plan.again(None))
        self.assertTrue(plan.again(slow))
        self.assertTrue(plan.again({**self.cpu(0.2, 0.0), "pace_us": [13.0], "pace_reference_us": 13.0}))
        self.assertFalse(plan.again(at))

    def test_slow_is_judged_by_the_readings_around_the_configuration_where_recorded(self):
        # 2026-12-03: the idle machine at 9.6 us, a training's readings 13-15 us while its ranks keep the cores busy
        loaded = {**self.cpu(0.0, 0.0), "pace_us": [9.7, 14.6, 14.0, 15.3, 9.7], "pace_idle_us": [9.7, 9.7],
                  "pace_reference_us": 9.6}
        self.assertEqual(plan.pace_of(loaded), 9.7)
        self.assertFalse(plan.pace_slow(loaded))
        self.assertFalse(plan.again(loaded))
        self.assertTrue(plan.pace_slow({**loaded, "pace_idle_us": [9.7, 12.5]}))  # 12.5 > 1.25 x 9.6 = 12
        self.assertTrue(plan.pace_slow({**loaded, "pace_idle_us": [12.5, 9.7]}))
        self.assertTrue(plan.pace_slow({**loaded, "pace_idle_us": []}))  # none around it: the readings' median
        self.assertEqual(plan.quietest([{**loaded, "pace_idle_us": [12.5, 12.4]}, loaded]), 1)

    def test_keeps_the_first_quiet_attempt_at_pace_else_the_fastest_quiet_one(self):
        def paced(outside_s, *pace):
            return {**self.cpu(outside_s, 0.0), "pace_us": list(pace), "pace_reference_us": 13.0}
        self.assertEqual(plan.quietest([paced(0.0, 19.0), paced(0.0, 13.5), paced(0.0, 13.0)]), 1)
        self.assertEqual(plan.quietest([paced(0.0, 19.0), paced(0.0, 17.0), paced(0.0, 18.0)]), 1)
        # A busy attempt at pace loses to a quiet slow one; every one busy: the least busy, whatever its pace.
        self.assertEqual(plan.quietest([paced(0.3, 13.0), paced(0.0, 18.0)]), 1)
        self.assertEqual(plan.quietest([paced(0.3, 13.0), paced(0.2, 19.0)]), 1)

    def test_without_a_record_the_last(self):
        self.assertEqual(plan.quietest([None]), 0)
        self.assertEqual(plan.quietest([None, None]), 1)
        self.assertEqual(plan.quietest([None, self.cpu(0.0, 0.5)]), 1)


if __name__ == "__main__":
    unittest.main()
