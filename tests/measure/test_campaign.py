"""tools/measure/campaign.sh's settings, read before anything runs: with -n (the plan only, no root or emulation
needed) a setting that does not parse stops it with exit 2 and one line naming the setting and its value."""

import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CAMPAIGN = os.path.join(ROOT, "tools", "measure", "campaign.sh")


def plan(**settings):
    env = dict(os.environ, RATES="1gbit", MODELS="resnet18-k80-b32", ARCHS="ring:tensor", OVERLAPS="on")
    env.update(settings)
    return subprocess.run(["sh", CAMPAIGN, "-n"], env=env, capture_output=True, text=True, timeout=60)


class Settings(unittest.TestCase):
    def test_bad_settings_name_themselves(self):
        for setting, value, reason in (("MIN_SIZE", "4k", "unknown unit"), ("MIN_SIZE", "-4KiB", "negative"),
                                       ("MIN_SIZE", "0", "1 byte or more"), ("QUEUED", "-1", "0 or more"),
                                       ("QUEUED", "many", "0 or more"), ("QUEUED_LONG", "x", "0 or more"), ("PIN", "yes", "0 or 1"), ("RT", "100", "1 to 99"),
                                       ("RT", "-1", "1 to 99"), ("YIELD", "2", "0 or 1"),
                                       ("INCAST", "yes", "0 or 1"), ("LATE", "2", "0 or 1"), ("STEPS", "0", "1 or more"),
                                       ("ASYNC_STEPS", "ten", "1 or more"), ("ASYNC_STEPS", "-5", "1 or more"),
                                       ("ASYNC_STEPS", "00", "1 or more"), ("AGAIN", "p2p ring", "among p2p"),
                                       ("AGAIN", "all", "none: nothing"), ("SMALL_LAUNCHES", "0", "1 or more"),
                                       ("SMALL_LAUNCHES", "two", "1 or more"), ("SMALL_LAUNCHES", "-2", "1 or more"),
                                       ("SMALL_ALONE_MAX", "512KiB", "1MiB or more"),
                                       ("SMALL_ALONE_MAX", "4m", "unknown unit"),
                                       ("CC", "bbr reno", "congestion control"), ("CC", "Reno!", "congestion control"),
                                       ("ALLOW_CC", "yes", "0 or 1"), ("ALLOW_CC", "1", "needs CC")):
            with self.subTest(setting=setting, value=value):
                r = plan(**{setting: value})
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                lines = r.stderr.splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertTrue(lines[0].startswith(f"campaign.sh: {setting}='{value}'"), lines[0])
                self.assertIn(reason, lines[0])

    def test_congestion_control_named_when_set(self):
        # CC (default: the root namespace's) reaches emulate up as --cc; the plan's summary names it only when set.
        self.assertIn("; congestion control reno", plan(CC="reno").stdout)
        self.assertNotIn("congestion control", plan().stdout)
        # ALLOW_CC=1 (emulate up --allow-cc) is named beside it.
        self.assertIn("; congestion control cubic (allowed for the campaign)", plan(CC="cubic", ALLOW_CC="1").stdout)
        self.assertNotIn("allowed", plan(CC="cubic").stdout)

    def test_sizes_with_and_without_unit(self):
        # The all-reduce microbenchmark's row of the plan names its smallest size in bytes, before the trainings and
        # again after them (AGAIN).
        for value, size in (("64", "64"), ("64B", "64"), ("4KiB", "4096"), ("1kB", "1000")):
            with self.subTest(value=value):
                r = plan(MIN_SIZE=value)
                self.assertEqual(r.returncode, 0, r.stderr)
                rows = [line.split() for line in r.stdout.splitlines() if " allreduce " in line]
                self.assertEqual([(row[1], row[3]) for row in rows], [("micro", size), ("again", size)], r.stdout)

    def test_queued_row_only_when_asked(self):
        with_queued = plan(QUEUED="16").stdout
        self.assertIn("allreduce-queued", with_queued)
        self.assertNotIn("allreduce-queued", plan(QUEUED="0").stdout)

    def test_long_queue_row_with_the_short_one(self):
        # QUEUED_LONG (default 128): a second back-to-back row, up to 4 MiB, only where the 16 calls' row is.
        def rows(**settings):
            return [line.split()[2] for line in plan(**settings).stdout.splitlines() if "allreduce-queued" in line]
        self.assertEqual(rows(), ["allreduce-queued", "allreduce-queued-long"])
        self.assertEqual(rows(QUEUED_LONG="0"), ["allreduce-queued"])
        self.assertEqual(rows(QUEUED="0"), [])
        self.assertEqual(rows(MIN_SIZE="8MiB"), ["allreduce-queued"])  # no size up to 4 MiB

    def test_small_sizes_in_more_launches(self):
        # SMALL_LAUNCHES (default 3): one row for the launches after the first, from MIN_SIZE, saying which
        # back-to-back calls are measured too (the 16 calls', and the long queue's where QUEUED_LONG measures it);
        # none with 1, nor when no size is up to SMALL_ALONE_MAX (default 4 MiB; the queues' sizes stop at 1 MiB, so
        # from 2 MiB on only the calls one at a time); never measured again.
        def rows(**settings):
            return [line.split()[1:5] for line in plan(**settings).stdout.splitlines() if " allreduce-small " in line]
        self.assertEqual(rows(), [["micro", "allreduce-small", "4096", "queued+long"]])
        self.assertEqual(rows(QUEUED_LONG="0"), [["micro", "allreduce-small", "4096", "queued"]])
        self.assertEqual(rows(QUEUED="0"), [["micro", "allreduce-small", "4096", "-"]])
        self.assertEqual(rows(ARCHS="ps-sync:1"), [])  # no all-reduce without a ring (since 2026-12-06g)
        self.assertEqual(rows(SMALL_LAUNCHES="1"), [])
        self.assertEqual(rows(MIN_SIZE="2MiB"), [["micro", "allreduce-small", "2097152", "-"]])  # 2-4 MiB alone
        self.assertEqual(rows(MIN_SIZE="8MiB"), [])
        self.assertEqual(rows(MIN_SIZE="2MiB", SMALL_ALONE_MAX="1MiB"), [])
        self.assertEqual(rows(MIN_SIZE="4MiB", SMALL_ALONE_MAX="8MiB"), [["micro", "allreduce-small", "4194304", "-"]])
        self.assertEqual(rows(MIN_SIZE="1MiB"), [["micro", "allreduce-small", "1048576", "queued+long"]])  # 1 MiB too
        self.assertEqual(rows(AGAIN="p2p allreduce allreduce-queued"),
                         [["micro", "allreduce-small", "4096", "queued+long"]])

        # More launches take longer, and the long queue's calls in them too.
        def est(**settings):
            return float(plan(**settings).stdout.split("allreduce-small")[1].split()[2].lstrip("~"))
        self.assertGreater(est(SMALL_LAUNCHES="5"), 3 * est(SMALL_LAUNCHES="2"))
        self.assertGreater(est(), 2 * est(QUEUED_LONG="0"))
        self.assertGreater(est(), est(SMALL_ALONE_MAX="1MiB"))  # 2 and 4 MiB one at a time
        self.assertGreater(est(SMALL_ALONE_MAX="16MiB"), est())

    def test_incast_row_only_with_a_parameter_server(self):
        # The PS cases' flow spreads and direction coupling come from it (docs/measure.md §3).
        self.assertIn(" incast ", plan(ARCHS="ps-async:1").stdout)
        self.assertIn(" incast ", plan(ARCHS="ring:ddp ps-sync:2").stdout)
        self.assertNotIn(" incast ", plan(ARCHS="ring:ddp").stdout)
        self.assertNotIn(" incast ", plan(ARCHS="ps-async:1", INCAST="0").stdout)

    def test_late_flow_incast_row_only_with_sync_ps(self):
        # The Sync-PS cases' --ack-coupling-late-in comes from it (make_cases.py --late-in, since 2026-12-07b); the row
        # carries N = 2, 4, 8 and the sizes.
        rows = [line.split() for line in plan(ARCHS="ps-sync:1").stdout.splitlines() if " incast-late " in line]
        self.assertEqual([r[3:5] for r in rows], [["2,4,8", "16MiB,64MiB"]])
        self.assertEqual([line.split()[3] for line in plan(ARCHS="ps-sync:1", WORKERS="6").stdout.splitlines()
                          if " incast-late " in line], ["2,4,6"])  # the largest K too
        self.assertNotIn(" incast-late ", plan(ARCHS="ps-sync:1", LATE="0").stdout)
        self.assertNotIn(" incast-late ", plan(ARCHS="ps-async:1").stdout)  # no Async-PS case takes it
        self.assertNotIn(" incast-late ", plan(ARCHS="ring:ddp").stdout)

    def test_pulls_incast_row_per_model_only_with_sync_ps_reading_its_shard(self):
        # The Sync-PS cases' first pull comes from it (make_cases.py, fit_incast.py --first-pull, since 2026-12-07);
        # the row carries the client counts and the model to the launch.
        rows = [line.split() for line in plan(ARCHS="ps-sync:1", MODELS="resnet18-k80-b32 googlenet-k80-b32")
                .stdout.splitlines() if " incast-tensors" in line]
        # TENSORS_HUB sends (the default): the hub only sending; both: then posting each client's receives first.
        self.assertEqual([(r[2], r[4]) for r in rows], [("incast-tensors", m) for m in ("resnet18-k80-b32",
                                                                                         "googlenet-k80-b32")])
        self.assertEqual(rows[0][3], "2,3,4,6,8")
        for hub, names in (("both", ["incast-tensors", "incast-tensors-recvs"]), ("recvs", ["incast-tensors-recvs"])):
            self.assertEqual([line.split()[2] for line in plan(ARCHS="ps-sync:1", TENSORS_HUB=hub).stdout.splitlines()
                              if " incast-tensors" in line], names)
        self.assertEqual(plan(ARCHS="ps-sync:1", TENSORS_HUB="all").returncode, 2)
        self.assertNotIn(" incast-tensors ", plan(ARCHS="ring:ddp").stdout)
        self.assertNotIn(" incast-tensors ", plan(ARCHS="ps-async:1 ps-sync-pv:1").stdout)  # no case would read it
        self.assertNotIn(" incast-tensors ", plan(ARCHS="ps-sync:1", TENSORS="0").stdout)
        self.assertEqual(plan(ARCHS="ps-sync:1", TENSORS="2").returncode, 2)
        self.assertEqual(plan(ARCHS="ps-sync:1", TENSORS_REPEATS="0").returncode, 2)

        def estimate(**settings):  # seconds of the row
            return [int(line.split()[-2].strip("~")) for line in plan(ARCHS="ps-sync:1", **settings)
                    .stdout.splitlines() if " incast-tensors " in line][0]
        self.assertGreater(estimate(TENSORS_REPEATS="20"), estimate())

    def test_stream_row_only_with_a_parameter_server(self):
        # The PS cases' per-message cost comes from it (make_cases.py: calibrate --stream, since 2026-12-06g); the row
        # carries the sizes and the messages per stream to the launch.
        row = [line.split() for line in plan(ARCHS="ps-sync:1").stdout.splitlines() if " p2p-stream " in line]
        self.assertEqual(len(row), 1)
        self.assertEqual(row[0][3:5], ["256,1024,4096,16384,65536,262144,1048576,4194304", "64"])
        self.assertIn(" p2p-stream ", plan(ARCHS="ring:ddp ps-async:1").stdout)
        self.assertNotIn(" p2p-stream ", plan(ARCHS="ring:ddp").stdout)
        self.assertNotIn(" p2p-stream ", plan(ARCHS="ps-sync:1", STREAM="0").stdout)
        self.assertEqual(plan(ARCHS="ps-sync:1", STREAM="2").returncode, 2)

    def test_allreduce_rows_only_with_a_ring(self):
        # A PS's cases read the p2p, stream and incast microbenchmarks only (since 2026-12-06g).
        names = [line.split()[2] for line in plan(ARCHS="ps-sync:1").stdout.splitlines()[2:]]
        self.assertEqual([n for n in names if n.startswith("allreduce")], [])
        names = [line.split()[2] for line in plan(ARCHS="ring:layer ps-sync:1").stdout.splitlines()[2:]]
        self.assertIn("allreduce", names)
        self.assertIn("allreduce-small", names)

    def test_microbenchmarks_again_after_the_trainings(self):
        # AGAIN (default p2p and all-reduce) measures again, after the rate's last training, those it measured before;
        # a microbenchmark the rate does not measure (the back-to-back one without a ring) is not measured again.
        rows = [line.split()[1:3] for line in plan(ARCHS="ring:tensor ps-sync:1").stdout.splitlines()[2:]]
        self.assertEqual(rows[-2:], [["again", "p2p"], ["again", "allreduce"]])
        self.assertEqual([r for r in rows if r[0] == "again"], rows[-2:])
        rows = [line.split()[1:3] for line in plan(ARCHS="ps-sync:1", AGAIN="allreduce-queued incast").stdout
                .splitlines()[2:]]
        self.assertEqual(rows[-1], ["again", "incast"])
        self.assertEqual(sum(r[0] == "again" for r in rows), 1)
        for none in ("none", ""):
            self.assertNotIn(" again ", plan(AGAIN=none).stdout)
        self.assertNotIn(" again ", plan(MICRO="0").stdout)

    def test_async_runs_take_their_own_step_count(self):
        # ps-async runs ASYNC_STEPS measured steps (default 20: 5-step means scatter by more than the target), every
        # other run STEPS; the estimate of a run follows its own count.
        def seconds(**settings):
            rows = [line.split() for line in plan(MICRO="0", **settings).stdout.splitlines()[2:]]
            return {row[2]: int(row[-2].lstrip("~")) for row in rows}  # "... ~1029 s"
        both = "ps-async:1 ring:tensor"
        default, five = seconds(ARCHS=both), seconds(ARCHS=both, ASYNC_STEPS="5")
        self.assertGreater(default["ps-async"], 2.5 * five["ps-async"] - 50)
        self.assertEqual(default["ring"], five["ring"])
        self.assertEqual(five["ps-async"], seconds(ARCHS=both, ASYNC_STEPS="5", STEPS="20")["ps-async"])
        self.assertGreater(seconds(ARCHS=both, STEPS="20")["ring"], 2 * five["ring"])

    def test_help_shows_every_setting(self):
        # --help prints the header comment; a fixed line range had cut its last settings off once.
        r = subprocess.run(["sh", CAMPAIGN, "--help"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(CAMPAIGN) as f:
            settings = re.findall(r"^(\w+)=\$\{\1:-", f.read(), re.M)  # every setting read with a default
        self.assertIn("ASYNC_STEPS", settings)
        self.assertIn("YIELD", settings)
        for setting in settings:
            self.assertRegex(r.stdout, rf"(?m)^#   [A-Z_, ]*\b{setting}\b", setting)
        self.assertNotIn("set -u", r.stdout)

    def test_pinned_campaign_says_so(self):
        # Pinned by default since campaign 2026-11-30f (docs/measure.md §5); PIN=0 leaves the placement to the kernel.
        self.assertIn("ranks pinned (PIN=1)", plan().stdout.splitlines()[0])
        self.assertNotIn("pinned", plan(PIN="0").stdout)

    def test_real_time_campaign_says_so(self):
        self.assertIn("ranks under SCHED_RR (RT=1)", plan(RT="1").stdout.splitlines()[0])
        self.assertNotIn("SCHED_RR", plan(RT="0").stdout)

    def test_yielding_campaign_says_so(self):
        # Try-locks yield by default since campaign 2026-11-30i (docs/measure.md §5); YIELD=0 runs Gloo as it is.
        self.assertIn("try-locks yield (YIELD=1)", plan().stdout.splitlines()[0])
        self.assertNotIn("yield", plan(YIELD="0").stdout)


if __name__ == "__main__":
    unittest.main()
