"""Unit tests of `measure.py incast`'s pure parts (tools/measure/incast.py, docs/measure.md): the within-repeat
spread of concurrent flows' completion times, the reverse flow's slowdown, and the layout of each pattern's flows
(every flow timed by exactly one rank). No root, no network; torch is imported by the kit when it is there, but not used."""

import math
import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import incast  # noqa: E402
import plan  # noqa: E402
from kit import MeasureError  # noqa: E402


class FlowStats(unittest.TestCase):
    def test_spread_is_within_a_repeat(self):
        # Repeat 0: fair (all end together); repeat 1: the slowest flow takes 3x the fastest. Across repeats the
        # times differ by 10x, which must not count as a spread.
        st = incast.flow_stats([[1.0, 1.0, 1.0], [10.0, 20.0, 30.0]])
        self.assertEqual(st["spreads"], [1.0, 3.0])
        self.assertEqual(st["spread_median"], 2.0)
        self.assertEqual(st["spread_max"], 3.0)
        self.assertEqual(st["times"], [1.0, 1.0, 1.0, 10.0, 20.0, 30.0])

    def test_order_of_flows_does_not_matter(self):
        self.assertEqual(incast.flow_stats([[0.4, 0.1, 0.2]])["spreads"], [4.0])

    def test_one_flow_has_no_spread(self):
        st = incast.flow_stats([[0.5], [0.7], [0.6]])
        self.assertEqual(st["spreads"], [1.0, 1.0, 1.0])
        self.assertEqual(st["spread_median"], 1.0)

    def test_median_of_odd_count(self):
        st = incast.flow_stats([[1.0, 2.0], [1.0, 5.0], [1.0, 1.5]])
        self.assertEqual(st["spread_median"], 2.0)

    def test_unmeasured_repeat_is_skipped(self):
        # A zero (a flow no rank timed) would make an infinite spread: that repeat is left out.
        st = incast.flow_stats([[0.0, 1.0], [1.0, 2.0]])
        self.assertEqual(st["spreads"], [2.0])

    def test_empty(self):
        st = incast.flow_stats([])
        self.assertEqual(st["times"], [])
        self.assertTrue(math.isnan(st["spread_median"]))
        self.assertTrue(math.isnan(st["spread_max"]))


class PairedRatios(unittest.TestCase):
    def test_per_repeat(self):
        self.assertEqual(incast.paired_ratios([2.0, 3.0], [1.0, 2.0]), [2.0, 1.5])

    def test_zero_denominator_skipped(self):
        self.assertEqual(incast.paired_ratios([2.0, 3.0], [0.0, 3.0]), [1.0])

    def test_lengths_must_match(self):
        with self.assertRaises(ValueError):
            incast.paired_ratios([1.0], [1.0, 2.0])


class FlowLayout(unittest.TestCase):
    def test_every_flow_timed_by_one_rank(self):
        for pattern in incast.INCAST:
            for n in range(2, 9):
                flows = incast.incast_flows(pattern, n)
                owners = {}
                for rank in range(n + 1):
                    for col in incast.incast_slots(pattern, rank, n):
                        self.assertNotIn(col, owners, f"{pattern} N={n}: column {col} timed twice")
                        owners[col] = rank
                self.assertEqual(sorted(owners), list(range(len(flows))), f"{pattern} N={n}")

    def test_receiver_times_each_flow(self):
        # The receiver of a flow times it: the hub for flows into it, the client for flows out of it.
        for pattern in incast.INCAST:
            n = 4
            flows = incast.incast_flows(pattern, n)
            for rank in range(n + 1):
                for col in incast.incast_slots(pattern, rank, n):
                    role, client = flows[col]
                    into_hub = role == "in" or role.endswith("-in")
                    self.assertEqual(rank, 0 if into_hub else client, f"{pattern} column {col}")

    def test_mixed_layout(self):
        self.assertEqual(incast.incast_flows("incast-mixed", 3), [("in", 1), ("in", 2), ("reverse", 3),
                                                                   ("alone", 3)])
        self.assertEqual(incast.incast_flows("incast-in", 2), [("in", 1), ("in", 2)])
        self.assertEqual(incast.incast_flows("incast-out", 2), [("out", 1), ("out", 2)])

    def test_half_layout(self):
        # N // 2 clients receive from the hub, the others send to it; with N = 2 it is incast-mixed without its
        # flow alone.
        self.assertEqual(incast.incast_flows("incast-half", 5), [("in", 1), ("in", 2), ("in", 3), ("out", 4),
                                                                  ("out", 5)])
        self.assertEqual(incast.incast_flows("incast-half", 2), [("in", 1), ("out", 2)])
        self.assertEqual(incast.incast_slots("incast-half", 0, 5), [0, 1, 2])
        self.assertEqual(incast.incast_slots("incast-half", 3, 5), [])
        self.assertEqual(incast.incast_slots("incast-half", 4, 5), [3])

    def test_duplex_layout(self):
        # N flows each way: the hub times the N flows in (the first N columns), client c the flow out to it.
        self.assertEqual(incast.incast_flows("incast-duplex", 2), [("in", 1), ("in", 2), ("out", 1), ("out", 2)])
        self.assertEqual(incast.incast_slots("incast-duplex", 0, 3), [0, 1, 2])
        self.assertEqual(incast.incast_slots("incast-duplex", 2, 3), [4])
        self.assertEqual(incast.incast_slots("incast-duplex", 3, 3), [5])

    def test_duplex_late_layout(self):
        # The flows out alone (each client times its own), then the flows in started late (the hub times them)
        # beside the established flows out (each client).
        self.assertEqual(incast.incast_flows("duplex-late-in", 2), [("alone-out", 1), ("alone-out", 2),
                                                                     ("late-in", 1), ("late-in", 2),
                                                                     ("established-out", 1), ("established-out", 2)])
        self.assertEqual(incast.incast_slots("duplex-late-in", 0, 2), [2, 3])
        self.assertEqual(incast.incast_slots("duplex-late-in", 2, 2), [1, 5])
        # The mirror: the flows in alone and established (the hub), then the flows out started late (each client).
        self.assertEqual(incast.incast_flows("duplex-late-out", 2), [("alone-in", 1), ("alone-in", 2),
                                                                      ("late-out", 1), ("late-out", 2),
                                                                      ("established-in", 1), ("established-in", 2)])
        self.assertEqual(incast.incast_slots("duplex-late-out", 0, 2), [0, 1, 4, 5])
        self.assertEqual(incast.incast_slots("duplex-late-out", 1, 2), [2])

    def test_staggered_layout(self):
        # One established flow out (client 1) and 3 flows in started late (clients 1..3): the hub times the flows in
        # alone and late, client 1 its flow out alone and established.
        self.assertEqual(incast.incast_flows("staggered-in", 3, 1, 0),
                         [("alone-in", 1), ("alone-in", 2), ("alone-in", 3), ("alone-out", 1), ("late-in", 1),
                          ("late-in", 2), ("late-in", 3), ("established-out", 1)])
        self.assertEqual(incast.incast_slots("staggered-in", 0, 3, 1, 0), [0, 1, 2, 4, 5, 6])
        self.assertEqual(incast.incast_slots("staggered-in", 1, 3, 1, 0), [3, 7])
        self.assertEqual(incast.incast_slots("staggered-in", 2, 3, 1, 0), [])
        # Three established flows in and one flow out started late (client 3): the hub times the flows in.
        self.assertEqual(incast.incast_flows("staggered-out", 3, 0, 1),
                         [("alone-out", 3), ("alone-in", 1), ("alone-in", 2), ("alone-in", 3), ("late-out", 3),
                          ("established-in", 1), ("established-in", 2), ("established-in", 3)])
        self.assertEqual(incast.incast_slots("staggered-out", 0, 3, 0, 1), [1, 2, 3, 5, 6, 7])
        self.assertEqual(incast.incast_slots("staggered-out", 3, 3, 0, 1), [0, 4])
        self.assertEqual(incast.staggered_clients(4, 9, 0), ([1, 2, 3, 4], [1, 2, 3, 4]))  # capped at N

    @unittest.skipIf(incast.torch is None, "needs torch (/usr/bin/python3)")
    def test_duplex_client_buffers(self):
        # A client receives into a buffer of its own while it sends: only where incast-duplex runs.
        self.assertEqual(incast.incast_buffers(1, 3, 64, True)["back"].numel(), 16)
        self.assertEqual(incast.incast_buffers(1, 3, 64, False)["back"].numel(), 1)

    def test_outcast_layout(self):
        # The hub sends to clients 1..N-1 while client N sends to it: the hub times the flow in, each other client
        # its own flow out.
        self.assertEqual(incast.incast_flows("outcast-mixed", 3), [("out", 1), ("out", 2), ("reverse-in", 3),
                                                                   ("alone-in", 3)])
        self.assertEqual(incast.incast_slots("outcast-mixed", 0, 3), [2, 3])
        self.assertEqual(incast.incast_slots("outcast-mixed", 2, 3), [1])
        self.assertEqual(incast.incast_slots("outcast-mixed", 3, 3), [])

    def test_late_layout(self):
        # Client 1's flow alone, then client 1's again, then the late ones; the hub times every flow into it,
        # client 1 both of its own out of the hub.
        self.assertEqual(incast.incast_flows("late-in", 3), [("alone-in", 1), ("first-in", 1), ("late-in", 2),
                                                             ("late-in", 3)])
        self.assertEqual(incast.incast_slots("late-in", 0, 3), [0, 1, 2, 3])
        self.assertEqual(incast.incast_slots("late-out", 0, 3), [])
        self.assertEqual(incast.incast_slots("late-out", 1, 3), [0, 1])
        self.assertEqual(incast.incast_slots("late-out", 3, 3), [3])


class SplitBounds(unittest.TestCase):
    def test_messages_cover_the_buffer_in_order(self):
        self.assertEqual(incast.split_bounds(10, 4), [(0, 4), (4, 8), (8, 10)])

    def test_zero_or_larger_is_one_message(self):
        self.assertEqual(incast.split_bounds(10, 0), [(0, 10)])
        self.assertEqual(incast.split_bounds(10, 10), [(0, 10)])
        self.assertEqual(incast.split_bounds(10, 64), [(0, 10)])

    def test_tensor_sizes(self):
        # --flow-tensors: the workload's tensors in turn; what they leave of the buffer goes as one more message.
        self.assertEqual(incast.split_bounds(10, [3, 3]), [(0, 3), (3, 6), (6, 10)])
        self.assertEqual(incast.split_bounds(10, [3, 7]), [(0, 3), (3, 10)])
        self.assertEqual(incast.split_bounds(10, [4, 4, 4]), [(0, 4), (4, 8), (8, 10)])


class FlowTensors(unittest.TestCase):
    WORKLOAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny-workload.xml")

    def args(self, patterns="incast-out", flow_message="", sizes=incast.SIZES_DEFAULT, tensors=None):
        return types.SimpleNamespace(patterns=patterns, flow_message=flow_message, sizes=sizes,
                                     flow_tensors=self.WORKLOAD if tensors is None else tensors)

    def test_the_workloads_tensors_make_the_flow(self):
        wl = plan.parse_workload(self.WORKLOAD)
        counts, total = incast.flow_tensors(self.args())
        self.assertEqual(counts, [plan.elements(t.bytes) for t in wl.tensors])
        self.assertEqual(total, 4 * sum(counts))
        self.assertEqual(incast.flow_tensors(self.args(tensors="")), ([], 0))

    def test_refused_with_another_cut_other_sizes_or_no_pattern(self):
        with self.assertRaisesRegex(MeasureError, "not with --flow-message 64KiB"):
            incast.flow_tensors(self.args(flow_message="64KiB"))
        with self.assertRaisesRegex(MeasureError, "not --sizes 1MiB"):
            incast.flow_tensors(self.args(sizes="1MiB"))
        with self.assertRaisesRegex(MeasureError, "applies to incast-in, incast-out"):
            incast.flow_tensors(self.args(patterns="incast-mixed"))
        with self.assertRaisesRegex(MeasureError, "--flow-tensors /nonexistent.xml"):
            incast.flow_tensors(self.args(tensors="/nonexistent.xml"))


class MessageOptions(unittest.TestCase):
    def args(self, patterns, lone="", flow=""):
        return types.SimpleNamespace(patterns=patterns, lone_message=lone, flow_message=flow)

    def test_sizes(self):
        self.assertEqual(incast.message_sizes(self.args("incast-mixed,incast-duplex", "128KiB", "1MiB")),
                         (128 << 10, 1 << 20))
        self.assertEqual(incast.message_sizes(self.args("staggered-out", flow="4096")), (0, 4096))
        self.assertEqual(incast.message_sizes(self.args("incast-in")), (0, 0))

    def test_option_without_its_patterns(self):
        with self.assertRaisesRegex(MeasureError, "--flow-message 1MiB: applies to incast-in, incast-out, incast-duplex"):
            incast.message_sizes(self.args("incast-mixed,outcast-mixed", flow="1MiB"))
        # Since 2026-12-07 incast-in and incast-out take it too.
        self.assertEqual(incast.message_sizes(self.args("incast-out", flow="64KiB")), (0, 64 << 10))
        with self.assertRaisesRegex(MeasureError, "--lone-message 128KiB: applies to incast-mixed"):
            incast.message_sizes(self.args("incast-duplex", lone="128KiB"))


class MessageGap(unittest.TestCase):
    def test_milliseconds_to_seconds(self):
        self.assertEqual(incast.message_gap(types.SimpleNamespace(message_gap=10.0, flow_message="1MiB")), 0.01)
        self.assertEqual(incast.message_gap(types.SimpleNamespace(message_gap=0.0, flow_message="")), 0.0)

    def test_needs_messages_and_no_negative(self):
        with self.assertRaisesRegex(MeasureError, "--message-gap 5.0: paces the messages of --flow-message"):
            incast.message_gap(types.SimpleNamespace(message_gap=5.0, flow_message=""))
        with self.assertRaisesRegex(MeasureError, "--message-gap -1.0: milliseconds"):
            incast.message_gap(types.SimpleNamespace(message_gap=-1.0, flow_message="1MiB"))

    def test_the_hubs_gap_is_checked_the_same_way(self):
        hub = ("--hub-message-gap", "the hub's")
        self.assertEqual(incast.message_gap(types.SimpleNamespace(hub_message_gap=20.0, flow_message="1MiB"), *hub),
                         0.02)
        with self.assertRaisesRegex(MeasureError, "--hub-message-gap 5.0: paces the messages of --flow-message"):
            incast.message_gap(types.SimpleNamespace(hub_message_gap=5.0, flow_message=""), *hub)
        with self.assertRaisesRegex(MeasureError, "--hub-message-gap -2.0: milliseconds between the hub's messages"):
            incast.message_gap(types.SimpleNamespace(hub_message_gap=-2.0, flow_message="1MiB"), *hub)


class ClientCounts(unittest.TestCase):
    def test_default_and_list(self):
        self.assertEqual(incast.client_counts("", ["incast-in"], 5), [2, 3, 4])
        self.assertEqual(incast.client_counts("2,4", ["incast-in"], 9), [2, 4])

    def test_one_client_only_with_duplex_patterns(self):
        self.assertEqual(incast.client_counts("1,2", ["incast-duplex", "staggered-out"], 9), [1, 2])
        with self.assertRaisesRegex(MeasureError, "each in 2..8 .*1 only with duplex patterns"):
            incast.client_counts("1,2", ["incast-duplex", "incast-in"], 9)

    def test_beyond_the_world(self):
        with self.assertRaisesRegex(MeasureError, "--nodes 9: clients, each in 2..8"):
            incast.client_counts("9", ["incast-in"], 9)
        with self.assertRaisesRegex(MeasureError, "--nodes 2,x: comma-separated"):
            incast.client_counts("2,x", ["incast-in"], 9)


class FakeWork:
    """A Gloo work as completion_times sees it: wait() returns; a second wait would block (counted here)."""

    def __init__(self):
        self.waits = 0

    def wait(self):
        self.waits += 1


class FlowsReceived(unittest.TestCase):
    def test_each_message_waited_once(self):
        flows = [[FakeWork() for _ in range(3)], [FakeWork()]]
        times = incast.flows_received(flows, incast.now())
        self.assertEqual(len(times), 2)
        self.assertTrue(all(t >= 0 for t in times))
        self.assertEqual([w.waits for f in flows for w in f], [1, 1, 1, 1])


class FakeBuffer(list):
    def numel(self):
        return len(self)


def recorded_isends(post):
    """Runs post() with dist.isend replaced by a recorder: each isend's (date, elements, dst) and its FakeWork."""
    posted, works = [], []

    def isend(buf, dst):
        posted.append((incast.now(), len(buf), dst))
        works.append(FakeWork())
        return works[-1]
    saved = incast.dist
    incast.dist = types.SimpleNamespace(isend=isend)
    try:
        post()
    finally:
        incast.dist = saved
    return posted, works


class PacedSend(unittest.TestCase):
    def test_messages_posted_a_gap_apart_then_waited(self):
        posted, works = recorded_isends(
            lambda: incast.wait_all(incast.push_to_hub(FakeBuffer(range(10)), 4, gap_s=0.02, count=2)))
        self.assertEqual([(n, d) for _, n, d in posted], [(4, 0), (4, 0), (2, 0)] * 2)
        starts = [t for t, _, _ in posted]
        self.assertGreaterEqual(starts[-1] - starts[0], 5 * 0.02 - 1e-3)  # 6 messages, 5 gaps
        self.assertEqual([w.waits for w in works], [1] * 6)

    def test_the_hub_posts_each_message_to_every_client_a_gap_apart(self):
        paced, paced_works = recorded_isends(
            lambda: incast.wait_all(incast.send_flows(FakeBuffer(range(8)), [1, 2], 4, gap_s=0.02, count=2)))
        posted, works = recorded_isends(
            lambda: incast.wait_all(incast.send_flows(FakeBuffer(range(8)), [1, 2], 4, count=2)))
        # Message i to client 1 then 2, i x 20 ms after the first; back to back, client by client, both flows at once.
        self.assertEqual([(n, d) for _, n, d in paced], [(4, 1), (4, 2)] * 4)
        self.assertGreaterEqual(paced[-1][0] - paced[0][0], 3 * 0.02 - 1e-3)
        self.assertLess(paced[1][0] - paced[0][0], 0.02)
        self.assertEqual([(n, d) for _, n, d in posted], [(4, 1), (4, 1), (4, 2), (4, 2)] * 2)
        self.assertEqual([w.waits for w in paced_works + works], [1] * 16)


class HubRecvs(unittest.TestCase):
    """--hub-recvs: the hub posts a client's receives before its sends to it, as train.py's PS releases a worker."""

    def run_rank(self, rank, hub_recvs, n=2, elements=10, message_elements=4, early_recvs=False):
        calls = []

        def work(*call):
            calls.append(call)
            return FakeWork()
        fake = types.SimpleNamespace(
            isend=lambda buf, dst: work("isend", dst, len(buf)), irecv=lambda buf, src: work("irecv", src, len(buf)),
            barrier=lambda group: calls.append(("barrier",)))
        bufs = {"out": FakeBuffer(range(elements)), "own": FakeBuffer(range(elements if rank else 1))}
        saved = incast.dist
        incast.dist = fake
        try:
            times = incast.incast_out(rank, n, bufs, None, message_elements, hub_recvs=hub_recvs,
                                      early_recvs=early_recvs)
        finally:
            incast.dist = saved
        return calls, times

    def test_the_hub_posts_each_clients_receives_before_its_sends(self):
        calls, times = self.run_rank(0, True)
        self.assertEqual(times, [])
        flow = [("isend", c, n) for c in (1, 2) for n in (4, 4, 2)]
        answers = [("irecv", c, 1) for c in (1, 2) for _ in range(3)]  # one float per message of the flow
        self.assertEqual(calls, [("barrier",)] + answers[:3] + flow[:3] + answers[3:] + flow[3:] + [("barrier",)])

    def test_a_client_answers_after_the_second_barrier(self):
        calls, times = self.run_rank(1, True)
        self.assertEqual(len(times), 1)
        self.assertEqual(calls, [("barrier",)] + [("irecv", 0, n) for n in (4, 4, 2)] + [("barrier",)] +
                         [("isend", 0, 1)] * 3)

    def test_without_it_no_receive_and_no_second_barrier(self):
        calls, _ = self.run_rank(0, False)
        self.assertEqual(calls, [("barrier",)] + [("isend", c, n) for c in (1, 2) for n in (4, 4, 2)])
        calls, _ = self.run_rank(2, False)
        self.assertEqual(calls, [("barrier",)] + [("irecv", 0, n) for n in (4, 4, 2)])

    def test_early_receives_are_posted_before_the_barrier(self):
        # --early-recvs: a client's receives before the barrier that starts the repeat; the hub is unchanged.
        calls, times = self.run_rank(1, False, early_recvs=True)
        self.assertEqual(len(times), 1)
        self.assertEqual(calls, [("irecv", 0, n) for n in (4, 4, 2)] + [("barrier",)])
        calls, _ = self.run_rank(1, True, early_recvs=True)
        self.assertEqual(calls, [("irecv", 0, n) for n in (4, 4, 2)] + [("barrier",)] * 2 + [("isend", 0, 1)] * 3)
        self.assertEqual(self.run_rank(0, False, early_recvs=True)[0], self.run_rank(0, False)[0])

    def test_early_receives_need_incast_out(self):
        def args(patterns):
            return types.SimpleNamespace(early_recvs=True, patterns=patterns)
        self.assertTrue(incast.check_early_recvs(args("incast-in,incast-out")))
        self.assertFalse(incast.check_early_recvs(types.SimpleNamespace(patterns="incast-in")))
        with self.assertRaisesRegex(MeasureError, "--early-recvs: applies to incast-out, not in --patterns incast-in"):
            incast.check_early_recvs(args("incast-in"))

    def test_needs_incast_out_and_a_flow_cut_into_messages(self):
        def args(**kw):
            return types.SimpleNamespace(**{"hub_recvs": True, "patterns": "incast-out", "flow_message": "",
                                            "flow_tensors": "w.xml", **kw})
        self.assertTrue(incast.check_hub_recvs(args()))
        self.assertFalse(incast.check_hub_recvs(args(hub_recvs=False, patterns="incast-in")))
        with self.assertRaisesRegex(MeasureError, "--hub-recvs: applies to incast-out, not in --patterns incast-in"):
            incast.check_hub_recvs(args(patterns="incast-in"))
        with self.assertRaisesRegex(MeasureError, "--hub-recvs: posts one receive per message of a flow"):
            incast.check_hub_recvs(args(flow_tensors=""))
        self.assertTrue(incast.check_hub_recvs(args(flow_tensors="", flow_message="64KiB")))


class EstablishedShare(unittest.TestCase):
    # T = 1 s alone; the late flow starts at f = 0.5 s, when half of the first flow's bytes have gone.
    def test_fair_sharing_is_one_half(self):
        # Max-min: the other half at half the link takes 1 s, so the first flow ends at 1.5 s.
        self.assertAlmostEqual(incast.established_share(1.5, 1.0, 0.5), 0.5)

    def test_first_come_first_served_is_one(self):
        self.assertAlmostEqual(incast.established_share(1.0, 1.0, 0.5), 1.0)

    def test_between(self):
        # The other half at 2/3 of the link: 0.75 s, ending at 1.25 s.
        self.assertAlmostEqual(incast.established_share(1.25, 1.0, 0.5), 2 / 3)
        self.assertAlmostEqual(incast.established_share(0.25 + 0.75 / 0.8, 1.0, 0.25), 0.8)

    def test_first_flow_done_before_the_late_one(self):
        self.assertIsNone(incast.established_share(0.5, 1.0, 0.5))
        self.assertIsNone(incast.established_share(1.0, 0.0, 0.5))


if __name__ == "__main__":
    unittest.main()
