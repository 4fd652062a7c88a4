"""Unit tests of tools/measure/queues.py's pure parts: reading `ss -tinH` and `tc -s -j qdisc show`, and the summary
of samples (a connection's Send-Q over its busy span, empty samples counted in its time mean; the qdisc backlog
where a busy connection had bytes queued)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import queues  # noqa: E402

# Two connections as `ss -tinmH state established` prints them (iproute2 6.1; trimmed): the first with bytes in its
# send queue and not yet sent, and its socket memory, the second idle and without it.
SS = """0      792280          198.18.0.2:57838          198.18.0.1:42681
\t skmem:(r0,rb131072,t131984,tb3483648,f2048,w1494368,o0,bl0,d0) bbr wscale:10,10 rto:204 rtt:2.434/0.124 mss:1448 cwnd:228 bytes_sent:94991904 bytes_acked:94666105 notsent:466480 minrtt:0.015
0      0               198.18.0.2:45214          198.18.0.1:40861
\t bbr wscale:10,10 rto:204 rtt:0.04/0.038 mss:1448 cwnd:25 bytes_sent:720 bytes_acked:721
"""


class Parse(unittest.TestCase):
    def test_reads_send_queue_and_counters_per_connection(self):
        conns = queues.parse_ss(SS)
        self.assertEqual(len(conns), 2)
        self.assertEqual(conns[0], {"local": "198.18.0.2:57838", "peer": "198.18.0.1:42681", "send_q": 792280,
                                    "bytes_sent": 94991904, "notsent": 466480, "sndbuf": 3483648,
                                    "wmem_queued": 1494368})
        self.assertEqual((conns[1]["send_q"], conns[1]["bytes_sent"], conns[1]["notsent"], conns[1]["sndbuf"]),
                         (0, 720, 0, 0))

    def test_the_leaf_under_emulates_class_holds_the_backlog(self):
        qdiscs = [{"kind": "htb", "handle": "1:", "root": True, "backlog": 999},
                  {"kind": "pfifo", "handle": "10:", "parent": "1:10", "backlog": 136392}]
        self.assertEqual(queues.leaf_backlog(qdiscs), 136392)
        self.assertIsNone(queues.leaf_backlog(qdiscs[:1]))


def row(t, host, backlog, send_q, sent=50_000_000, sndbuf=4_000_000):
    return {"t_s": t, "host": host, "backlog_bytes": backlog,
            "connections": [{"local": "a:1", "peer": "b:2", "send_q": send_q, "bytes_sent": sent, "notsent": 0,
                             "sndbuf": sndbuf, "wmem_queued": send_q}]}


class Summary(unittest.TestCase):
    def test_time_mean_counts_the_empty_samples_within_the_busy_span(self):
        # Queued 2 MB, 1 MB, empty, 1 MB between 1 s and 4 s; empty before and after (outside the span).
        # At 1 s the socket's queue fills 2 MB of a 2.1 MB send buffer (full: over 90%).
        rows = [row(0.0, 0, 0, 0), row(1.0, 0, 100, 2_000_000, sndbuf=2_100_000), row(2.0, 0, 300, 1_000_000),
                row(3.0, 0, 0, 0), row(4.0, 0, 200, 1_000_000), row(5.0, 0, 0, 0)]
        conns, backlog = queues.summarize(rows, 10e6)
        q = conns[(0, "a:1", "b:2")]
        self.assertEqual((q["n"], q["empty"], q["full"], q["from_s"], q["to_s"]), (3, 1, 1, 1.0, 4.0))
        self.assertAlmostEqual(q["mean"], 4e6 / 3)
        self.assertAlmostEqual(q["time_mean"], 4e6 / 4)
        self.assertEqual(q["median"], 1_000_000)
        # The backlog only where the busy connection had bytes queued: 100, 300, 200.
        self.assertEqual(backlog[0]["n"], 3)
        self.assertAlmostEqual(backlog[0]["mean"], 200)

    def test_connections_that_sent_little_are_left_out(self):
        conns, backlog = queues.summarize([row(1.0, 0, 100, 5000, sent=9_000_000)], 10e6)
        self.assertEqual(conns, {})
        self.assertEqual(backlog, {})

    def test_sizes(self):
        self.assertEqual(queues.parse_bytes("10MB"), 10e6)
        self.assertEqual(queues.parse_bytes("4MiB"), 4 * 2**20)
        with self.assertRaises(Exception):
            queues.parse_bytes("ten")


if __name__ == "__main__":
    unittest.main()
