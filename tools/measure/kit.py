"""The measurement kit's shared parts (docs/measure.md): usage errors, the clock of emulated compute, the
provenance every result file carries, sizes and the results CSV. measure.py's commands import them."""

import ctypes
import datetime
import importlib
import importlib.util
import json
import os
import platform
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)
import probe  # noqa: E402  (the machine's CPU costs, recorded in every provenance)

HERE = os.path.dirname(os.path.abspath(__file__))



class LazyModule:
    """A module imported when one of its attributes is first read. PyTorch takes over a second to import, and
    measure.py's usage errors, which need none of it, come back at once; torch_installed() says whether it is there
    without importing it."""

    def __init__(self, name):
        self._name = name
        self._module = None

    def __getattr__(self, attr):
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


torch = LazyModule("torch")
dist = LazyModule("torch.distributed")


def torch_installed():
    """Whether this interpreter can import PyTorch (measure.py reports its absence as a usage error)."""
    return importlib.util.find_spec("torch") is not None

KIB = 1024
MIB = 1024 * 1024


class MeasureError(Exception):
    """A usage or environment error: one line, no traceback."""


def now():
    return time.perf_counter()


class Clock:
    """Emulated compute with time.sleep, against deadlines: an operation ends `duration` after the later of the
    previous operation's end and its own readiness, whatever the sleep overshoots (typically 50-100 us per
    time.sleep on Linux; the timer slack is set to 1 ns below). Overshoots are recorded, not accumulated."""

    def __init__(self, start):
        self.t = start
        self.overshoots = []

    def run(self, duration, ready=None):
        """Computes for `duration` seconds starting when the previous operation ended or at `ready` (later)."""
        self.t = max(self.t, ready if ready is not None else self.t) + duration
        self.sleep_until(self.t)

    def sleep_until(self, deadline):
        remaining = deadline - now()
        if remaining > 0:
            time.sleep(remaining)
            self.overshoots.append(now() - deadline)

    def sync(self, t):
        """Moves the clock to `t` if later: the next operation cannot start before it."""
        self.t = max(self.t, t)

    def stats(self):
        o = self.overshoots
        return {"sleeps": len(o), "overshoot_mean_us": 1e6 * plan.mean(o) if o else 0.0,
                "overshoot_max_us": 1e6 * max(o) if o else 0.0}


PACE_REFERENCE = []  # rank 0: the pace plan.PACE_SLOW judges against (probe.reference_pace), once it is known
PACE_IDLE_SEEN = []  # rank 0: every reading read_pace took (around configurations and rows: the idle machine's)
PACE_POLL_S = 0.5  # between readings while waiting for the machine's pace
PACE_PERIOD_S = 1.0  # between a training's readings (PaceSampler): 5-8 ms of round trips each
# Without $SGDSIM_PACE_REFERENCE_US the reference is the lower quartile of this long's readings (probe.reference_pace;
# a slow spell may outlast it: lower_reference).
PACE_PRIME_S = 5.0
PACE_PRIME_PERIOD_S = 0.25
# lower_reference takes the lower quartile of the readings seen once there are this many (two configurations'
# worth of before and after, or a few rows').
PACE_LOWER_MIN_READINGS = 8


def pace_reference_given():
    """$SGDSIM_PACE_REFERENCE_US (campaign.sh sets it from a minute of readings before its first rate, so that
    every launch judges against the same reference, probe.reference_pace): a positive number of us, or None when
    unset."""
    text = os.environ.get("SGDSIM_PACE_REFERENCE_US", "")
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise MeasureError(f"SGDSIM_PACE_REFERENCE_US={text!r}: a pace in us, above 0 (probe.py --pace)")
    return value


def prime_pace():
    """Sets the reference (PACE_REFERENCE) once: $SGDSIM_PACE_REFERENCE_US, else the lower quartile of PACE_PRIME_S
    of readings (probe.reference_pace; left unset where the readings fail)."""
    if PACE_REFERENCE:
        return
    given = pace_reference_given()
    if given:
        PACE_REFERENCE[:] = [given]
        return
    reference = probe.reference_pace(PACE_PRIME_S, PACE_PRIME_PERIOD_S)
    if reference is not None:
        PACE_REFERENCE[:] = [reference]


def lower_reference(reading_us):
    """Notes an idle reading (PACE_IDLE_SEEN) and, once PACE_LOWER_MIN_READINGS are noted, lowers the reference to
    their lower quartile if that is faster: one read in a slow spell comes down to the machine's pace, a fast reading
    alone does not set it. A reference a campaign gave ($SGDSIM_PACE_REFERENCE_US, the quartile of a minute) comes down
    too since 2026-12-05, whose minute fell in a spell (15.4 us, the day's pace 11.7-12.7) and, kept, let 13 of 35
    training configurations run in spells unjudged (docs/measure.md "Is the machine at its pace?"). Readings during a
    training are not noted: they wait for cores the ranks keep busy."""
    PACE_IDLE_SEEN.append(reading_us)
    if PACE_REFERENCE and len(PACE_IDLE_SEEN) >= PACE_LOWER_MIN_READINGS:
        PACE_REFERENCE[:] = [min(PACE_REFERENCE[0], probe.lower_quartile(PACE_IDLE_SEEN))]


def read_pace():
    """The machine's pace now: the slower core's probe.pace_us, in us (None where it fails); noted for the
    reference (lower_reference)."""
    prime_pace()
    pace = probe.pace_us()
    if not pace:
        return None
    lower_reference(max(pace))
    return max(pace)


def await_pace(wait_s):
    """Reads the pace until it is within plan.PACE_SLOW of the reference, or `wait_s` has passed:
    (the last reading, seconds waited; the reference's first priming not counted)."""
    prime_pace()
    start = now()
    pace = read_pace()
    while pace is not None and pace > plan.PACE_SLOW * PACE_REFERENCE[0] and now() - start < wait_s:
        time.sleep(PACE_POLL_S)
        pace = read_pace()
    return pace, now() - start


class PaceSampler:
    """Reads the pace every PACE_PERIOD_S while a training runs, from a process of its own (a thread of rank 0's
    would take its Python lock from the rank's main thread): `probe.py --pace`, stopped after the CPU counters'
    last snapshot. Its CPU (its start, then 5-8 ms a second) counts as the ranks' (pid). Its lines wait in a pipe
    (64 KiB: about 50 minutes of readings; a longer configuration keeps the first 50 minutes' only)."""

    def __init__(self):
        self.proc = None
        self.pid = None

    def __enter__(self):
        """Starts the sampler and waits for its first line (Python's start, about 0.1 s of a core, before the
        training's barrier rather than in its first steps)."""
        try:
            self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "probe.py"), "--pace", "86400",
                                          "--pace-period", str(PACE_PERIOD_S)],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.pid = self.proc.pid
            self.proc.stdout.readline()  # the first reading, before the training: waited for, not kept
        except OSError:
            self.proc = None
        return self

    def readings(self):
        """Stops the sampler; its readings (the slower core's, us) but the first (taken before the training)."""
        if self.proc is None:
            return []
        self.proc.terminate()
        out, _ = self.proc.communicate()
        self.proc = None
        values = []
        for line in out.splitlines():
            cells = line.split()[1:]
            try:
                values.append(max(float(c) for c in cells))
            except ValueError:
                pass  # a line cut short by the stop
        return values

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()


def cpu_snapshot(pace_wait_s=None):
    """The machine's CPU counters now (plan.cpu_outside): /proc/stat and every process's /proc/PID/stat, and the
    machine's pace (read_pace; with pace_wait_s, after await_pace(pace_wait_s): before a configuration or row);
    None where /proc cannot be read (a rank then records no "cpu")."""
    waited_s = 0.0
    if pace_wait_s is None:
        pace = read_pace()
    else:
        pace, waited_s = await_pace(pace_wait_s)
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            stat = plan.parse_proc_stat(f.read())
    except (OSError, ValueError):
        return None
    procs = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                    procs[int(entry)] = plan.parse_pid_stat(f.read())
            except (OSError, ValueError, IndexError):
                pass  # the process ended meanwhile, or a kernel line that does not parse
    return {"stat": stat, "procs": procs, "t": now(), "pace_us": pace, "pace_waited_s": waited_s}


def cpu_outside(before, after, rank_pids, sampled_us=()):
    """plan.cpu_outside between two cpu_snapshot()s, in this machine's clock ticks, with the pace readings (us:
    before, `sampled_us` between, after), those around it (before, after: what plan.pace_slow judges), the reference
    they are judged against and the seconds waited for the pace before; None if either snapshot is missing."""
    if before is None or after is None:
        return None
    rec = plan.cpu_outside(before, after, set(rank_pids), os.sysconf("SC_CLK_TCK"), after["t"] - before["t"])
    idle = [p for p in [before.get("pace_us"), after.get("pace_us")] if p is not None]
    readings = [p for p in [before.get("pace_us"), *sampled_us, after.get("pace_us")] if p is not None]
    if readings and PACE_REFERENCE:
        rec.update({"pace_us": readings, "pace_idle_us": idle, "pace_reference_us": PACE_REFERENCE[0],
                    "pace_waited_s": before.get("pace_waited_s", 0.0)})
    return rec


def until_quiet(retries, attempt, group=None):
    """Runs attempt(n) on every rank of `group` (n = 0, 1, ...), again while rank 0's CPU record of it says the
    machine was busy or slow (plan.again; docs/measure.md "A busy row is measured again"), at most `retries` more
    times. attempt returns (result, cpu), cpu rank 0's cpu_outside record (None elsewhere or without /proc); rank 0
    decides and tells the group, so that every rank runs the same attempts. Returns the (result, cpu) of every
    attempt."""
    done = []
    for n in range(1 + max(0, retries)):
        result, cpu = attempt(n)
        done.append((result, cpu))
        again = torch.tensor([1.0 if plan.again(cpu) else 0.0])
        dist.broadcast(again, src=0, group=group)
        if again.item() < 1:
            break
    return done


def set_timer_slack():
    """1 ns timer slack (prctl PR_SET_TIMERSLACK) so that time.sleep wakes up on time: the default 50 us slack
    would add up over the hundreds of layers of a step."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(29, 1, 0, 0, 0)  # PR_SET_TIMERSLACK
    except (OSError, AttributeError):
        pass


# ----------------------------------------------------------------------------------------------- provenance
def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


def iface():
    """The interface Gloo uses: GLOO_SOCKET_IFNAME, else the one with the default route."""
    name = os.environ.get("GLOO_SOCKET_IFNAME")
    if name:
        return name.split(",")[0]
    for line in (read_text("/proc/net/route") or "").splitlines()[1:]:
        fields = line.split()
        if len(fields) > 1 and fields[1] == "00000000":
            return fields[0]
    return None


def loop_yield_loaded():
    """Whether launch --loop-yield's library is mapped into this process (tools/measure/loop_yield.c)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as f:
            return any(line.rstrip().endswith("/loop_yield.so") for line in f)
    except OSError:
        return None


def local_info():
    """What one rank knows of its host: its NIC (MTU, qdiscs as tc shows them), TCP congestion control, CPUs."""
    dev = iface()
    info = {
        "hostname": socket.gethostname(),
        "netns": os.environ.get("SGDSIM_NETNS"),
        "kernel": probe.kernel(),
        "iface": dev,
        "mtu": int(read_text(f"/sys/class/net/{dev}/mtu") or 0) if dev else None,
        "congestion_control": read_text("/proc/sys/net/ipv4/tcp_congestion_control"),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)),
        "pinned_cpu": int(os.environ["SGDSIM_PINNED_CPU"]) if os.environ.get("SGDSIM_PINNED_CPU") else None,
        "scheduler": {os.SCHED_OTHER: "other", os.SCHED_RR: "rr", os.SCHED_FIFO: "fifo"}.get(
            os.sched_getscheduler(0), str(os.sched_getscheduler(0))),
        "rt_priority": os.sched_getparam(0).sched_priority,
        "loop_yield": loop_yield_loaded(),
        "loadavg": list(os.getloadavg()),
        "pid": os.getpid(),
    }
    if dev:
        try:
            out = subprocess.run(["tc", "-s", "qdisc", "show", "dev", dev], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, timeout=5).stdout
            info["tc_qdisc"] = out.strip()
        except (OSError, subprocess.TimeoutExpired):
            info["tc_qdisc"] = None
    return info


def gloo_info():
    """Gloo as this torch uses it: the worker-thread pool of ProcessGroupGloo (all-reduces in flight at once) and
    the all-reduce algorithm (gloo::allreduce with no algorithm set runs the ring, in segments of at most 1 MiB)."""
    threads = None
    try:
        threads = dist.ProcessGroupGloo._Options()._threads
    except AttributeError:
        pass
    lib = None
    try:
        lib = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}", "libgloo0"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=5).stdout or None
    except (OSError, subprocess.TimeoutExpired):
        pass
    return {"available": dist.is_gloo_available(), "process_group_threads": threads,
            "allreduce_algorithm": "ring (gloo::allreduce default), reduce-scatter + all-gather, segments <= 1 MiB",
            "library": lib}


def provenance(args, infos_before, infos_after):
    cluster = None
    path = args.cluster_info or os.environ.get("SGDSIM_CLUSTER_INFO")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            cluster = json.load(f)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "rate": rate_label(args),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "gloo": gloo_info(),
        "world_size": dist.get_world_size(),
        "ranks": [{"rank": r, **i} for r, i in enumerate(infos_before)],
        "loadavg_after": [i["loadavg"] for i in infos_after],
        "cluster": cluster,
        # Which machine measured it (probe.py): written by record_machine once every rank has left.
        "machine": None,
    }


# Rank 0's result files, whose provenance gets the machine probe once the group is gone (record_machine), and the
# ranks' processes on this host (gather_infos), which the probe waits for.
RESULT_FILES = []
RANK_PIDS = []
EXIT_WAIT_S = 10.0


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def with_machine(doc, machine):
    """A result document with the probe in its provenance: a sidecar's "provenance", or a provenance itself."""
    target = doc["provenance"] if isinstance(doc.get("provenance"), dict) else doc
    target["machine"] = machine
    return doc


def record_machine(files=None, pids=None, exit_wait_s=EXIT_WAIT_S):
    """On rank 0 after the process group is destroyed: waits (at most exit_wait_s) until the other ranks' processes
    on this host have exited, so that none of them runs beside it (a rank waiting in a collective keeps a core busy
    where launch --loop-yield makes Gloo's loop yield), runs probe.machine_probe and writes it into the provenance
    of every result file (a .json sidecar or provenance, every line of a .jsonl), each replaced whole."""
    files = RESULT_FILES if files is None else files
    pids = [p for p in (RANK_PIDS if pids is None else pids) if p != os.getpid()]
    if not files:
        return None
    deadline = now() + exit_wait_s
    while any(alive(p) for p in pids) and now() < deadline:
        time.sleep(0.02)
    machine = probe.machine_probe()
    machine["ranks_still_running"] = sum(alive(p) for p in pids)
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if path.endswith(".jsonl"):
            out = "".join(json.dumps(with_machine(json.loads(line), machine)) + "\n" for line in text.splitlines()
                          if line.strip())
        else:
            out = json.dumps(with_machine(json.loads(text), machine), indent=2) + "\n"
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(out)
        os.replace(tmp, path)
    return machine


def rate_label(args):
    """The rate as given to emulate (or --rate on real hosts): a label of the measurements."""
    if args.rate:
        return args.rate
    path = args.cluster_info or os.environ.get("SGDSIM_CLUSTER_INFO")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("rate", "")
    return "unknown"


def gather_infos():
    out = [None] * dist.get_world_size()
    dist.all_gather_object(out, local_info())
    host = socket.gethostname()
    RANK_PIDS[:] = [i["pid"] for i in out if i["hostname"] == host]
    return out


def size_arg(text):
    """A size on the command line: a bare number of bytes or a SimGrid size (4KiB, 1MB)."""
    try:
        return int(text) if text.isdigit() else int(plan.parse_quantity(text, "size"))
    except ValueError as e:
        raise MeasureError(f"size {e}") from None


def sizes_from(args):
    if args.sizes:
        return [size_arg(s) for s in args.sizes.split(",")]
    lo, hi = size_arg(args.min_size), size_arg(args.max_size)
    out, s = [], lo
    while s <= hi:
        out.append(s)
        s *= 2
    if not out:
        raise MeasureError(f"no size between --min-size {args.min_size} and --max-size {args.max_size}")
    return out


CSV_COLUMNS = ["op", "library", "torch", "rate", "mtu", "cc", "nodes", "size_bytes", "time_s", "time_min_s",
               "time_max_s", "time_mean_s", "time_std_s", "repeats", "warmup", "algbw_Gbps", "busbw_Gbps"]


class CsvOut:
    """The results CSV, one row per (op, nodes, size) with the median time; written row by row (a long run can be
    watched) by rank 0 only. `samples`: every row's samples in the order written, for the sidecar (sample_rows):
    where a row's repeats fall in two modes (two calls racing, validation/testbed/README.md 2026-12-04e), its median
    says which mode had more of them, and only the samples show both."""

    def __init__(self, path, meta):
        self.path = path
        self.meta = meta
        self.samples = []
        with open(path, "w", encoding="utf-8") as f:
            f.write(",".join(CSV_COLUMNS) + "\n")

    def row(self, op, nodes, size, times, warmup, repeats=None):
        """`times`: the samples of the row (the repeats; for incast, every flow of every repeat); `repeats`: the
        value of the repeats column when it is not len(times)."""
        med = plan.median(times)
        algbw = size * 8 / med / 1e9
        busbw = algbw * (2 * (nodes - 1) / nodes if op.startswith("allreduce") else 1)
        values = {**self.meta, "op": op, "nodes": nodes, "size_bytes": size, "time_s": f"{med:.9g}",
                  "time_min_s": f"{min(times):.9g}", "time_max_s": f"{max(times):.9g}",
                  "time_mean_s": f"{plan.mean(times):.9g}", "time_std_s": f"{plan.std(times):.9g}",
                  "repeats": len(times) if repeats is None else repeats, "warmup": warmup, "algbw_Gbps": f"{algbw:.6g}",
                  "busbw_Gbps": f"{busbw:.6g}"}
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(",".join(str(values[c]) for c in CSV_COLUMNS) + "\n")
        self.samples.append({"op": op, "nodes": nodes, "size_bytes": size,
                             "times_s": [float(f"{t:.9g}") for t in times]})
        return med


def check_out(args):
    """Refuses an existing --out without --force on every rank at once (a refusal on rank 0 alone would leave the
    others waiting in a collective until the timeout)."""
    verdict = [None]
    if dist.get_rank() == 0 and os.path.exists(args.out) and not args.force:
        verdict[0] = f"{args.out} exists (use --force to overwrite it)"
    dist.broadcast_object_list(verdict, src=0)
    if verdict[0]:
        raise MeasureError(verdict[0])


def csv_meta(args, infos):
    return {"library": "gloo", "torch": torch.__version__, "rate": rate_label(args), "mtu": infos[0]["mtu"],
            "cc": infos[0]["congestion_control"]}


def write_sidecar(path, args, infos_before, kind, extra=None):
    infos_after = gather_infos()
    if dist.get_rank() == 0:
        doc = {"kind": kind, "results": path, **(extra or {}), "provenance": provenance(args, infos_before,
                                                                                         infos_after)}
        with open(path + ".json", "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        RESULT_FILES.append(path + ".json")


def gloo_lanes(members, rank, threads, timeout_s):
    """--gloo-threads: a ProcessGroupGloo of these ranks (None on the others) whose pool has `threads` worker
    threads, the all-reduces a rank runs at once (dist.new_group cannot set them in torch 1.13: its pg_options are
    NCCL's). Built as dist.new_group builds a Gloo group: on the default store under a prefix of its own, one device
    per interface of GLOO_SOCKET_IFNAME (else the host's default); every member constructs it at the same time."""
    if rank not in members:
        return None
    store = dist.PrefixStore(f"sgdsim-measure/gloo-lanes/{threads}/{len(members)}",
                             dist.distributed_c10d._get_default_store())
    opts = dist.ProcessGroupGloo._Options()
    names = [n for n in os.environ.get("GLOO_SOCKET_IFNAME", "").split(",") if n]
    opts._devices = ([dist.ProcessGroupGloo.create_device(interface=n) for n in names] if names
                     else [dist.ProcessGroupGloo.create_default_device()])
    opts._threads = threads
    opts._timeout = datetime.timedelta(seconds=timeout_s)
    return dist.ProcessGroupGloo(store, members.index(rank), len(members), opts)
