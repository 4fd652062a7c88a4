#!/usr/bin/env python3
"""Which machine measured this? A short probe of the CPU's costs, recorded in every result's provenance
(docs/measure.md "Which machine measured it?").

    tools/measure/probe.py                      # probe this machine (about 3 s), print it as JSON
    tools/measure/probe.py --compare FILE...    # the probes the result files recorded, the first as reference
    tools/measure/probe.py --pace 60            # the machine's pace (us per core) every second for 60 s
    tools/measure/probe.py --pace 60 --pace-period 0.25 --reference # their lower quartile: a campaign's reference
    tools/measure/probe.py --pace 60 --pace-period 0.25 --fastest   # the fastest of those readings

On the emulated cluster the ranks' CPU is the network's: two virtual machines of the same size and kernel version
but another build cost 1.5-3 times the CPU per all-reduce call (validation/testbed/README.md, 2026-12-02e), which
only a comparison of whole campaigns showed. Rank 0 of every microbenchmark and training runs this probe once the
other ranks have exited (kit.record_machine), in its own network namespace, and records it as the provenance's
`machine` field: TCP over the loopback (the kernel's copies and its TCP path: a core's time per GiB in large writes
and per small write), a wake-up round trip between two threads (what a ring step pays each time a rank waits for a
message) on one core and across two, the same with a busy loop on the first core (a wake-up onto a core another
call keeps busy: the share of round trips that wait a millisecond or more for it), and the element-wise sum Gloo's
reductions run. Each thread is placed on a named core, whatever the caller's placement. A FILE is a result's .json
sidecar, a training's .provenance.json or .jsonl, or a probe printed by this command. Python 3 standard library;
the sum needs PyTorch (recorded as null without it).
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (median)

# Sizes: large enough that Python's per-call cost is a small part (a 1 MiB write is ~100 us of kernel copies,
# Python adds ~2 us), small enough that the whole probe takes about 3 s on the 2-core testbed machine.
STREAM_BYTES = 64 * 1024 * 1024
STREAM_WRITE_BYTES = 1024 * 1024
SMALL_BYTES = 4 * 1024 * 1024
SMALL_WRITE_BYTES = 4096  # the all-reduce microbenchmarks' smallest size (campaign.sh MIN_SIZE)
ROUND_TRIPS = 2000
IDLE_S = 10.0  # a bound on the idle round trips, which take 13-50 us each: never reached on a working machine
# Beside a busy loop most round trips take what they take on an idle core, but a few wait milliseconds (a scheduler
# slice): 3.4% of 3,000 across two cores on the testbed machine of 2026-12-02f. 2,000 round trips (or 0.5 s) per
# placement count such a tail to about a point.
BUSY_ROUND_TRIPS = 2000
BUSY_S = 0.5
SLOW_S = 1e-3  # a round trip this long waited for a core: the idle one takes 13-50 us
# The pace: the machine's current speed, cheap enough to read before and after every configuration and row. On the
# testbed's virtual machine the same-core wake-up round trip, idle, read 13.8-14.3 us in 16 of 24 probes 13 s apart
# and 18.4-19.7 us in 6 (validation/testbed/campaign-2026-12-02g/README.md): a core runs slower at times, no steal
# booked, for a cause not known. 300 round trips take 4-6 ms; their median ignores a few that waited for a rank
# finishing its call.
PACE_ROUND_TRIPS = 300
PACE_S = 1.0  # a bound, never reached on a working machine
ADD_ELEMENTS = 4 * 1024 * 1024  # 16 MiB of float32: Gloo reduces segments of at most 1 MiB, many in a call
ADD_REPEATS = 8
REPEATS = 3
GIB = 1024 ** 3

# The figures the comparison prints, with their column labels.
FIGURES = [("tcp_core_s_per_GiB", "TCP core s/GiB"), ("tcp_small_core_us_per_write", "TCP us/4KiB write"),
           ("wakeup_same_core_us", "RTT 1 core us"), ("wakeup_cross_core_us", "RTT 2 cores us"),
           ("wakeup_busy_cross_mean_us", "RTT busy, 2 cores us"), ("wakeup_busy_cross_over_1ms", "busy >1ms"),
           ("add_GBps", "sum GB/s")]


class ProbeError(Exception):
    """A comparison input that cannot be read: one line, no traceback."""


def kernel():
    """The kernel as the kit records it: system, release, version, machine (os.uname without the host name)."""
    return " ".join(os.uname()[i] for i in (0, 2, 3, 4))


def machine_cores():
    """The cores this probe places its threads on: the first two of the machine (one if it has one). A rank of
    `launch --pin` may run on either; a thread may still be placed on any core the machine has."""
    cores = sorted(os.sched_getaffinity(0) | set(range(os.cpu_count() or 1)))
    return cores[0], cores[1] if len(cores) > 1 else None


def pin(core):
    """Places the calling thread (only it: Linux's affinity is per thread) on `core`."""
    os.sched_setaffinity(0, {core})


class Placed:
    """The calling thread on `core` for the block, its affinity as it was afterwards (threads started meanwhile
    inherit the core)."""

    def __init__(self, core):
        self.core = core

    def __enter__(self):
        self.saved = os.sched_getaffinity(0)
        pin(self.core)
        return self

    def __exit__(self, *exc):
        os.sched_setaffinity(0, self.saved)


def tcp_stream(total_bytes, write_bytes, core):
    """Sends total_bytes over a loopback TCP connection in writes of write_bytes to a thread of this process that
    reads them, both on `core`: (wall s, writes). With both ends on one core the wall time is that core's time
    (the process's CPU time, getrusage, is sampled at the scheduler's tick on this kernel: +-25% over 64 MiB)."""
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
    try:
        with Placed(core):
            reader = threading.Thread(target=read)
            t0 = time.perf_counter()
            reader.start()
            for _ in range(writes):
                sender.sendall(payload)
            reader.join()
            t1 = time.perf_counter()
    finally:
        sender.close()
        receiver.close()
    if received[0] != writes * write_bytes:
        raise OSError(f"loopback TCP delivered {received[0]} of {writes * write_bytes} bytes")
    return t1 - t0, writes


def round_trips(core, peer_core, duration_s, count, busy=False):
    """1-byte round trips between this thread on `core` and an echo thread on `peer_core` over a socket pair: each
    end sleeps in recv until the other writes, so a round trip is two wake-ups (and Python's few microseconds per
    call). busy: a busy loop (another process) on `core` too, so that each wake-up waits for the scheduler to take
    the core from it, as a ring step of a small all-reduce does while another call's work keeps its rank's core
    busy. Stops after `count` round trips or `duration_s`; returns their times in seconds, sorted."""
    a, b = socket.socketpair()
    times = []

    def echo():
        pin(peer_core)
        while True:
            byte = b.recv(1)
            if not byte or byte == b"q":
                return
            b.sendall(byte)

    hog = None
    try:
        with Placed(core):
            if busy:
                hog = subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
            peer = threading.Thread(target=echo)
            peer.start()
            if busy:
                time.sleep(0.05)  # the loop running before the first round trip
            end = time.perf_counter() + duration_s
            while len(times) < count and time.perf_counter() < end:
                t0 = time.perf_counter()
                a.sendall(b"x")
                a.recv(1)
                times.append(time.perf_counter() - t0)
            a.sendall(b"q")
            peer.join()
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
        a.close()
        b.close()
    return sorted(times)


def pace_us(cores=None, count=PACE_ROUND_TRIPS):
    """The machine's pace: per core (machine_cores() unless given), the median of `count` idle wake-up round trips
    between two threads on that core, in us (the slower core's is what a rank there pays). [] where the sockets
    fail."""
    if cores is None:
        cores = [c for c in machine_cores() if c is not None]
    try:
        return [1e6 * plan.median(round_trips(c, c, PACE_S, count)) for c in cores]
    except OSError:
        return []


def pace_readings(duration_s, period_s):
    """The paces read over `duration_s`, a reading every `period_s`, each reading the slower core's (us); None where
    the sockets fail (a failing reading ends the series: it fails again)."""
    end = time.time() + duration_s
    readings = []
    while time.time() < end:
        t = time.time()
        pace = pace_us()
        if not pace:
            return None
        readings.append(max(pace))
        time.sleep(max(0.0, period_s - (time.time() - t)))
    return readings


def lower_quartile(values):
    """The value a quarter of `values` are at or below (the nearest rank below; the least of three or fewer)."""
    ordered = sorted(values)
    return ordered[int(0.25 * (len(ordered) - 1))]


def fastest_pace(duration_s, period_s):
    """The fastest of pace_readings(duration_s, period_s); None where they fail."""
    readings = pace_readings(duration_s, period_s)
    return min(readings) if readings else None


def reference_pace(duration_s, period_s):
    """The pace a machine keeps a quarter of the time or better: the lower quartile of pace_readings(duration_s,
    period_s), what a campaign judges its launches against (docs/measure.md "Is the machine at its pace?"); None where
    the readings fail. Not the fastest: on the testbed's build of 2026-12-03 the idle machine read 9.6-14.5 us with no
    slow spell, and 68% of those readings were more than 25% above the fastest (none above the lower quartile's 1.25
    times); on the build of 2026-12-02g, idle 12.9-14.3 us and in spells 16-20 us, 1.25 times the lower quartile
    (13.3) flags 41 of the 42 spell readings and no other."""
    readings = pace_readings(duration_s, period_s)
    return lower_quartile(readings) if readings else None


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


def machine_probe(repeats=REPEATS, stream_bytes=STREAM_BYTES, small_bytes=SMALL_BYTES, count=ROUND_TRIPS,
                  busy_s=BUSY_S):
    """The probe: the machine's identity (kernel, CPU model, clock source, mitigations) and the median over
    `repeats` of each cost, every thread placed on a named core whatever the caller's affinity (the same-core and
    cross-core wake-ups differ by 4x on the testbed's virtual machine). A measurement that fails is recorded as
    null with the reason in `errors`."""
    c0, c1 = machine_cores()
    out = {"probe": "tools/measure/probe.py", "repeats": repeats,
           "kernel": kernel(), "cpu_model": cpu_model(),
           "cpu_count": os.cpu_count(),
           "clocksource": read_first("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
           "vulnerabilities": vulnerabilities(), "loadavg_before": list(os.getloadavg()), "cores": [c0, c1]}
    errors = []
    big, small, same, cross, add = [], [], [], [], []
    for _ in range(repeats):
        try:
            wall_s, _ = tcp_stream(stream_bytes, STREAM_WRITE_BYTES, c0)
            big.append((wall_s * GIB / stream_bytes, stream_bytes / wall_s))
            wall_s, writes = tcp_stream(small_bytes, SMALL_WRITE_BYTES, c0)
            small.append(wall_s / writes)
            same.append(plan.mean(round_trips(c0, c0, IDLE_S, count)))
            if c1 is not None:
                cross.append(plan.mean(round_trips(c0, c1, IDLE_S, count)))
        except OSError as e:
            errors.append(f"sockets: {e}")
            break
        with Placed(c0):
            rate = add_rate()
        if rate is not None:
            add.append(rate)
    busy = {}
    if not errors:
        for name, peer in (("same", c0), ("cross", c1)):
            if peer is None:
                continue
            try:
                busy[name] = round_trips(c0, peer, busy_s, BUSY_ROUND_TRIPS, busy=True)
            except OSError as e:
                errors.append(f"busy wake-up: {e}")
                break
    out.update({
        "tcp_core_s_per_GiB": plan.median([c for c, _ in big]) if big else None,
        "tcp_GBps": plan.median([r for _, r in big]) / 1e9 if big else None,
        "tcp_small_core_us_per_write": 1e6 * plan.median(small) if small else None,
        "wakeup_same_core_us": 1e6 * plan.median(same) if same else None,
        "wakeup_cross_core_us": 1e6 * plan.median(cross) if cross else None,
        **busy_figures("same", busy.get("same")), **busy_figures("cross", busy.get("cross")),
        "add_GBps": plan.median(add) / 1e9 if add else None,
        "errors": errors})
    return out


def busy_figures(name, times):
    """The round trips beside a busy loop (sorted seconds) as the probe records them: mean, median and 99th
    percentile in us, the share that waited for the core (SLOW_S or more) and their count; nulls without them."""
    keys = [f"wakeup_busy_{name}_{k}" for k in ("mean_us", "median_us", "p99_us", "over_1ms", "round_trips")]
    if not times:
        return dict.fromkeys(keys)
    values = [1e6 * plan.mean(times), 1e6 * plan.median(times), 1e6 * times[int(0.99 * (len(times) - 1))],
              sum(t >= SLOW_S for t in times) / len(times), len(times)]
    return dict(zip(keys, values))


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
    ap.add_argument("--pace", type=int, metavar="S", help="print the pace (pace_us, per core) for S s, a line each "
                    "--pace-period")
    ap.add_argument("--pace-period", type=float, default=1.0, metavar="S", help="between --pace's lines [1]")
    ap.add_argument("--fastest", action="store_true",
                    help="with --pace: print only the fastest of its readings (each the slower core's), in us")
    ap.add_argument("--reference", action="store_true",
                    help="with --pace: print only the lower quartile of its readings (each the slower core's), in "
                         "us: the reference a campaign gives every launch ($SGDSIM_PACE_REFERENCE_US)")
    ap.add_argument("--repeats", type=int, default=REPEATS, help=f"runs of each measurement, median [{REPEATS}]")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        print(f"probe.py: error: --repeats {args.repeats}: must be at least 1", file=sys.stderr)
        return 2
    if args.pace is not None:
        if args.pace < 1 or not args.pace_period > 0:
            print(f"probe.py: error: --pace {args.pace} --pace-period {args.pace_period}: seconds, at least 1 and "
                  "above 0", file=sys.stderr)
            return 2
        if args.fastest or args.reference:
            if args.fastest and args.reference:
                print("probe.py: error: --fastest and --reference: give one", file=sys.stderr)
                return 2
            value = (fastest_pace if args.fastest else reference_pace)(args.pace, args.pace_period)
            if value is None:
                print("probe.py: error: no pace read (the loopback sockets failed)", file=sys.stderr)
                return 1
            print(f"{value:.1f}")
            return 0
        end = time.time() + args.pace
        while time.time() < end:
            t = time.time()
            print(time.strftime("%H:%M:%S", time.gmtime(t)), " ".join(f"{us:.1f}" for us in pace_us()), flush=True)
            time.sleep(max(0.0, args.pace_period - (time.time() - t)))
        return 0
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
