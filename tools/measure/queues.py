#!/usr/bin/env python3
"""Where a host's outgoing bytes wait during a microbenchmark: samples, on tools/measure/emulate's cluster, each
host's uplink queue (the backlog of its leaf qdisc) and each of its TCP connections' send queue (Send-Q: bytes the
application has written and the peer has not acknowledged; `notsent`: those not yet handed to IP), as `tc` and
`ss` report them, and summarizes the samples.

    tools/measure/queues.py sample --hosts 8 --seconds 60 --out queues.jsonl   (as root, while measure.py runs)
    tools/measure/queues.py summary queues.jsonl[.xz] [--min-sent 10MB]

`sample` writes one JSON line per host and sample (one thread per host, each sampling as fast as `tc` and `ss` answer:
about 50 samples a second per host on an idle machine). `summary` prints, per connection
that sent at least --min-sent bytes, the distribution of its Send-Q over the samples where it was not empty, and
per host the distribution of its qdisc backlog over the samples where a connection of that host had bytes queued.
A byte a framework writes on a connection waits behind that connection's Send-Q (one TCP stream, in order), and
behind the qdisc's backlog only for what TCP has handed to IP: the two figures say which queue a small message
written beside a large one waits in (docs/models.md §10.12). Standard library only.
"""

import argparse
import json
import lzma
import re
import statistics
import subprocess
import sys
import threading
import time

PREFIX = "sgdsim-h"  # tools/measure/emulate's host namespaces
LEAF_PARENT = "1:10"  # emulate's HTB class whose leaf FIFO holds the uplink's queue


def parse_ss(text):
    """Connections from `ss -tinmH state established` (two lines each: addresses, then TCP's info) as dicts:
    local, peer, send_q, bytes_sent, notsent, and from skmem the socket's send buffer (sndbuf, tb) and the bytes
    queued in it (wmem_queued, w) (0 where ss prints none)."""
    conns = []
    lines = [line for line in text.splitlines() if line.strip()]
    i = 0
    while i < len(lines):
        fields = lines[i].split()
        info = lines[i + 1] if i + 1 < len(lines) and lines[i + 1][:1].isspace() else ""
        i += 2 if info else 1
        if len(fields) < 4 or not fields[0].isdigit() or not fields[1].isdigit():
            continue

        def counter(name, info=info):
            m = re.search(r"\b" + name + r":(\d+)", info)
            return int(m.group(1)) if m else 0

        skmem = re.search(r"skmem:\(([^)]*)\)", info)
        mem = dict(re.findall(r"([a-z]+)(\d+)", skmem.group(1))) if skmem else {}
        conns.append({"local": fields[2], "peer": fields[3], "send_q": int(fields[1]),
                      "bytes_sent": counter("bytes_sent"), "notsent": counter("notsent"),
                      "sndbuf": int(mem.get("tb", 0)), "wmem_queued": int(mem.get("w", 0))})
    return conns


def leaf_backlog(qdiscs):
    """The backlog in bytes of the leaf qdisc under emulate's HTB class, from `tc -s -j qdisc show`; None without
    one."""
    for q in qdiscs:
        if q.get("parent") == LEAF_PARENT:
            return int(q.get("backlog", 0))
    return None


def sample_host(i, seconds, out, lock, counts):
    """One host's samples, as fast as `tc` and `ss` answer, for `seconds`."""
    ns = f"{PREFIX}{i}"
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        t = time.monotonic() - start
        tc = subprocess.run(["tc", "-n", ns, "-s", "-j", "qdisc", "show", "dev", "eth0"], capture_output=True, text=True)
        ss = subprocess.run(["ip", "netns", "exec", ns, "ss", "-tinmH", "state", "established"], capture_output=True,
                            text=True)
        if tc.returncode != 0 or ss.returncode != 0:
            counts[i] = f"host {ns}: {(tc.stderr or ss.stderr).strip()} (is emulate up?)"
            return
        line = json.dumps({"t_s": round(t, 6), "host": i, "backlog_bytes": leaf_backlog(json.loads(tc.stdout or "[]")),
                           "connections": parse_ss(ss.stdout)})
        with lock:
            out.write(line + "\n")
        counts[i] += 1


def sample(hosts, seconds, out):
    """All hosts at once, one thread each (a host's samples are then about 20 ms apart, not 20 ms times hosts)."""
    lock = threading.Lock()
    counts = [0] * hosts
    threads = [threading.Thread(target=sample_host, args=(i, seconds, out, lock, counts)) for i in range(hosts)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    errors = [c for c in counts if isinstance(c, str)]
    if errors:
        sys.exit(f"queues: error: {errors[0]}")
    return sum(counts)


def quantiles(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return {"n": len(values), "mean": statistics.fmean(values), "p10": pick(0.10), "median": statistics.median(values),
            "p90": pick(0.90), "max": values[-1]}


def summarize(rows, min_sent):
    """(per connection: {(host, local, peer): quantiles of Send-Q where > 0, with "from_s" and "to_s", the first and
    last sample with bytes queued, "empty", the samples between them with none, "time_mean", the mean Send-Q over
    all samples between them, and "full", the samples where the socket's queue held 90% of its send buffer or more
    (a write would then wait; None where the samples carry no socket memory)}, per host: quantiles of the qdisc
    backlog over the samples where one of its connections that sent >= min_sent had bytes queued)."""
    sent = {}
    for r in rows:
        for c in r["connections"]:
            key = (r["host"], c["local"], c["peer"])
            sent[key] = max(sent.get(key, 0), c["bytes_sent"])
    busy = {k for k, v in sent.items() if v >= min_sent}
    send_q, span, backlog, full = {}, {}, {}, {}
    for r in rows:
        queued = [c for c in r["connections"] if (r["host"], c["local"], c["peer"]) in busy and c["send_q"] > 0]
        for c in queued:
            key = (r["host"], c["local"], c["peer"])
            send_q.setdefault(key, []).append(c["send_q"])
            if c.get("sndbuf", 0) > 0:  # samples taken without ss -m (before 2026-11-30b's second run) have none
                full[key] = full.get(key, 0) + (c.get("wmem_queued", 0) >= 0.9 * c["sndbuf"])
            first, _ = span.get(key, (r["t_s"], r["t_s"]))
            span[key] = (min(first, r["t_s"]), max(span.get(key, (0, 0))[1], r["t_s"]))
        if queued and r["backlog_bytes"] is not None:
            backlog.setdefault(r["host"], []).append(r["backlog_bytes"])
    # Between its first and last sample with bytes queued, the samples where the connection's Send-Q was empty: the
    # time average over the span is the mean times the share of non-empty samples.
    empty = {k: 0 for k in send_q}
    for r in rows:
        for c in r["connections"]:
            key = (r["host"], c["local"], c["peer"])
            if key in span and c["send_q"] == 0 and span[key][0] <= r["t_s"] <= span[key][1]:
                empty[key] += 1
    conns = {}
    for k, v in send_q.items():
        conns[k] = quantiles(v)
        conns[k]["from_s"], conns[k]["to_s"] = span[k]
        conns[k]["empty"] = empty[k]
        conns[k]["time_mean"] = sum(v) / (len(v) + empty[k])
        conns[k]["full"] = full.get(k)
    return conns, {h: quantiles(v) for h, v in backlog.items()}


def parse_bytes(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(B|kB|MB|GB|KiB|MiB|GiB)?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 10MB, 4MiB)")
    scale = {None: 1, "B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
    return float(m.group(1)) * scale[m.group(2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="sample the emulated hosts' queues")
    s.add_argument("--hosts", type=int, required=True)
    s.add_argument("--seconds", type=float, required=True)
    s.add_argument("--out", required=True)
    m = sub.add_parser("summary", help="summarize a sample file")
    m.add_argument("file")
    m.add_argument("--min-sent", type=parse_bytes, default=parse_bytes("10MB"))
    args = ap.parse_args()
    if args.cmd == "sample":
        if args.hosts < 1 or args.seconds <= 0:
            sys.exit("queues: error: --hosts must be >= 1 and --seconds > 0")
        with open(args.out, "x", encoding="utf-8") as out:  # never overwrites
            n = sample(args.hosts, args.seconds, out)
        print(f"queues: {n} samples written to {args.out}")
        return
    with (lzma.open if args.file.endswith(".xz") else open)(args.file, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    send_q, backlog = summarize(rows, args.min_sent)
    print("| host | connection | busy (s) | samples queued / empty / send buffer full | Send-Q time mean | mean when "
          "queued | p10 | median | p90 | max (kB) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (host, local, peer), q in sorted(send_q.items(), key=lambda kv: (kv[1]["from_s"], kv[0])):
        full = "-" if q["full"] is None else q["full"]
        print(f"| h{host} | {local} -> {peer} | {q['from_s']:.1f}-{q['to_s']:.1f} | {q['n']} / {q['empty']} / {full} | "
              f"{q['time_mean'] / 1e3:.0f} | " + " | ".join(
            f"{q[k] / 1e3:.0f}" for k in ("mean", "p10", "median", "p90", "max")) + " |")
    print()
    print("| host | samples | qdisc backlog mean | p10 | median | p90 | max (kB) |")
    print("|---|---|---|---|---|---|---|")
    for host, q in sorted(backlog.items()):
        print(f"| h{host} | {q['n']} | " + " | ".join(
            f"{q[k] / 1e3:.0f}" for k in ("mean", "p10", "median", "p90", "max")) + " |")


if __name__ == "__main__":
    main()
