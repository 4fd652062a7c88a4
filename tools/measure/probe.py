#!/usr/bin/env python3
"""Which machine measured this? A short probe of the CPU's costs, recorded in every result's provenance
(docs/measure.md "Which machine measured it?").

    tools/measure/probe.py                      # probe this machine (about a second), print it as JSON
    tools/measure/probe.py --compare FILE...    # the probes the result files recorded, the first as reference

On the emulated cluster the ranks' CPU is the network's: two virtual machines of the same size and kernel version
but another build cost 1.5-3 times the CPU per all-reduce call (validation/testbed/README.md, 2026-12-02e), which
only a comparison of whole campaigns showed. Rank 0 of every microbenchmark and training runs this probe once, after
its measurement, in its own network namespace, and records it as the provenance's `machine` field: TCP over the
loopback (the kernel's copies and its TCP path, CPU per GiB in large writes, CPU per small write), a wake-up round
trip between two threads (what a ring step pays each time a rank waits for a message), and the element-wise sum
Gloo's reductions run. A FILE is a result's .json sidecar, a training's .provenance.json or .jsonl, or a probe
printed by this command. Python 3 standard library; the sum needs PyTorch (recorded as null without it).
"""

import argparse
import json
import os
import resource
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (median)

# Sizes: large enough that Python's per-call cost is a small part (a 1 MiB write is ~100 us of kernel copies,
# Python adds ~2 us), small enough that the whole probe takes about a second on the 2-core testbed machine.
STREAM_BYTES = 64 * 1024 * 1024
STREAM_WRITE_BYTES = 1024 * 1024
SMALL_BYTES = 4 * 1024 * 1024
SMALL_WRITE_BYTES = 4096  # the all-reduce microbenchmarks' smallest size (campaign.sh MIN_SIZE)
ROUND_TRIPS = 2000
ADD_ELEMENTS = 4 * 1024 * 1024  # 16 MiB of float32: Gloo reduces segments of at most 1 MiB, many in a call
ADD_REPEATS = 8
REPEATS = 3
GIB = 1024 ** 3

# The figures the comparison prints, with how each is read: "lower" means a higher value is a costlier machine.
FIGURES = [("tcp_cpu_s_per_GiB", "TCP CPU s/GiB"), ("tcp_small_cpu_us_per_write", "TCP us/4KiB write"),
           ("wakeup_round_trip_us", "wake-up RTT us"), ("add_GBps", "sum GB/s")]


class ProbeError(Exception):
    """A comparison input that cannot be read: one line, no traceback."""


def cpu_s():
    """This process's CPU time, every thread's, user and system."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def tcp_stream(total_bytes, write_bytes):
    """Sends total_bytes over a loopback TCP connection in writes of write_bytes to a thread of this process that
    reads them: (wall s, CPU s of the process, writes)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        sender = socket.create_connection(listener.getsockname())
        receiver, _ = listener.accept()
    finally:
        listener.close()
    received = [0]

    def read():
        buf = bytearray(STREAM_WRITE_BYTES)
        view = memoryview(buf)
        while received[0] < total_bytes:
            n = receiver.recv_into(view)
            if n == 0:
                break
            received[0] += n

    payload = bytes(write_bytes)
    writes = total_bytes // write_bytes
    reader = threading.Thread(target=read)
    try:
        c0, t0 = cpu_s(), time.perf_counter()
        reader.start()
        for _ in range(writes):
            sender.sendall(payload)
        reader.join()
        t1, c1 = time.perf_counter(), cpu_s()
    finally:
        sender.close()
        receiver.close()
    if received[0] != writes * write_bytes:
        raise OSError(f"loopback TCP delivered {received[0]} of {writes * write_bytes} bytes")
    return t1 - t0, c1 - c0, writes


def wakeup_round_trip(round_trips):
    """Mean seconds of a 1-byte round trip between two threads over a socket pair: each end sleeps in recv until
    the other writes, so a round trip is two wake-ups (and Python's few microseconds per call)."""
    a, b = socket.socketpair()

    def echo():
        for _ in range(round_trips):
            b.sendall(b.recv(1))

    peer = threading.Thread(target=echo)
    try:
        peer.start()
        t0 = time.perf_counter()
        for _ in range(round_trips):
            a.sendall(b"x")
            a.recv(1)
        t1 = time.perf_counter()
        peer.join()
    finally:
        a.close()
        b.close()
    return (t1 - t0) / round_trips


def add_rate():
    """Bytes per second of the element-wise float32 sum on one thread (what Gloo's ring does to each segment it
    receives), counted as one operand's bytes; None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        x = torch.ones(ADD_ELEMENTS, dtype=torch.float32)
        y = torch.ones(ADD_ELEMENTS, dtype=torch.float32)
        x.add_(y)  # first touch of the pages outside the timing
        t0 = time.perf_counter()
        for _ in range(ADD_REPEATS):
            x.add_(y)
        t1 = time.perf_counter()
    finally:
        torch.set_num_threads(threads)
    return ADD_REPEATS * ADD_ELEMENTS * 4 / (t1 - t0)


def read_first(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip() or None
    except OSError:
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def vulnerabilities():
    """The kernel's mitigation state per CPU vulnerability: what changes the cost of system calls and context
    switches between two builds of one kernel version."""
    base = "/sys/devices/system/cpu/vulnerabilities"
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return None
    return {n: read_first(os.path.join(base, n)) for n in names}


def machine_probe(repeats=REPEATS, stream_bytes=STREAM_BYTES, small_bytes=SMALL_BYTES, round_trips=ROUND_TRIPS):
    """The probe: the machine's identity (kernel, CPU model, clock source, mitigations) and the median over
    `repeats` of each cost. A measurement that fails is recorded as null with the reason in `errors`."""
    out = {"probe": "tools/measure/probe.py", "repeats": repeats,
           "kernel": " ".join(os.uname()[i] for i in (0, 2, 3, 4)), "cpu_model": cpu_model(),
           "cpu_count": os.cpu_count(),
           "clocksource": read_first("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
           "vulnerabilities": vulnerabilities(), "loadavg_before": list(os.getloadavg())}
    errors = []
    big, small, rtt, add = [], [], [], []
    for _ in range(repeats):
        try:
            wall_s, used_s, _ = tcp_stream(stream_bytes, STREAM_WRITE_BYTES)
            big.append((used_s * GIB / stream_bytes, stream_bytes / wall_s))
            _, used_s, writes = tcp_stream(small_bytes, SMALL_WRITE_BYTES)
            small.append(used_s / writes)
            rtt.append(wakeup_round_trip(round_trips))
        except OSError as e:
            errors.append(f"sockets: {e}")
            break
        rate = add_rate()
        if rate is not None:
            add.append(rate)
    out.update({
        "tcp_cpu_s_per_GiB": plan.median([c for c, _ in big]) if big else None,
        "tcp_GBps": plan.median([r for _, r in big]) / 1e9 if big else None,
        "tcp_small_cpu_us_per_write": 1e6 * plan.median(small) if small else None,
        "wakeup_round_trip_us": 1e6 * plan.median(rtt) if rtt else None,
        "add_GBps": plan.median(add) / 1e9 if add else None,
        "errors": errors})
    return out


def recorded_probe(path):
    """The probe a file holds: a result's sidecar (.json with "provenance"), a training's .provenance.json, its
    .jsonl (the first line's provenance) or a probe printed by this command. None if it recorded none."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ProbeError(f"{path}: {e.strerror}") from None
    try:
        doc = json.loads(text.splitlines()[0] if path.endswith(".jsonl") and text else text)
    except (json.JSONDecodeError, IndexError):
        raise ProbeError(f"{path}:1: not a JSON result, provenance or probe") from None
    if not isinstance(doc, dict):
        raise ProbeError(f"{path}:1: not a JSON result, provenance or probe")
    if doc.get("probe"):
        return doc
    prov = doc.get("provenance", doc)
    return prov.get("machine") if isinstance(prov, dict) else None


def compare_lines(paths):
    """One line per file: its probe's figures and, from the second file on, their ratio to the first's."""
    probes = [(p, recorded_probe(p)) for p in paths]
    width = max(len(p) for p in paths)
    lines = [f"{'file':<{width}}  " + "  ".join(f"{label:>20}" for _, label in FIGURES) + "  kernel"]
    ref = probes[0][1]
    for path, probe in probes:
        if probe is None:
            lines.append(f"{path:<{width}}  no probe recorded (the kit records one since 2026-12-02)")
            continue
        cells = []
        for key, _ in FIGURES:
            v = probe.get(key)
            r = ref.get(key) if ref else None
            text = "-" if v is None else f"{v:.3g}"
            if probe is not ref and v is not None and r:
                text += f" (x{v / r:.2f})"
            cells.append(f"{text:>20}")
        lines.append(f"{path:<{width}}  " + "  ".join(cells) + f"  {probe.get('kernel')}")
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", nargs="+", metavar="FILE", help="the probes these files recorded, side by side")
    ap.add_argument("--repeats", type=int, default=REPEATS, help=f"runs of each measurement, median [{REPEATS}]")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        print(f"probe.py: error: --repeats {args.repeats}: must be at least 1", file=sys.stderr)
        return 2
    if args.compare:
        try:
            print("\n".join(compare_lines(args.compare)))
        except ProbeError as e:
            print(f"probe.py: error: {e}", file=sys.stderr)
            return 2
        return 0
    json.dump(machine_probe(args.repeats), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
