"""The pure parts of the measurement kit: what sgdsim would simulate, computed the way sgdsim computes it.

measure.py emulates training steps of a sgdsim workload; to be a validation case of the simulator, it must read
the workload as sgdsim does (src/workload/workload_parser.cpp, SimGrid's unit grammar), give tensors to parameter
servers as sgdsim does (src/workload/ps_split.cpp), cut gradients into all-reduce units as sgdsim does
(src/workload/grad_units.cpp) and define step times as sgdsim does (src/sim/simulation.cpp summarize()). These are
kept here, free of torch and of any I/O but reading the workload file, so that tests/measure/test_plan.py checks
them without root, network or torch.
"""

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

# SimGrid's unit grammar (xbt/parse_units.cpp, SimGrid 3.32). Times have no prefixes; sizes take decimal (k, M,
# G, ...) and binary (Ki, Mi, ...) prefixes on B (bytes) and b (bits); speeds take decimal prefixes on f.
# "KB" and "kiB" are not units in SimGrid (sgdsim rejects them), so they are rejected here too.
_TIME_UNITS = {"w": 7 * 24 * 3600.0, "d": 24 * 3600.0, "h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6,
               "ns": 1e-9, "ps": 1e-12}
_DECIMAL = ["k", "M", "G", "T", "P", "E", "Z", "Y"]
_BINARY = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"]
_LONG_DECIMAL = ["kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"]


def _scaled(unit, value, prefixes, mult):
    table = {unit: value}
    for p in prefixes:
        value *= mult
        table[p + unit] = value
    return table


_SIZE_UNITS = {}
for _unit, _value in (("b", 0.125), ("B", 1.0)):
    _SIZE_UNITS.update(_scaled(_unit, _value, _BINARY, 1024.0))
    _SIZE_UNITS.update(_scaled(_unit, _value, _DECIMAL, 1000.0))
_SPEED_UNITS = dict(_scaled("f", 1.0, _DECIMAL, 1000.0))
_SPEED_UNITS.update(_scaled("flops", 1.0, _LONG_DECIMAL, 1000.0))
_UNITS = {"time": _TIME_UNITS, "size": _SIZE_UNITS, "speed": _SPEED_UNITS}
_VALID = {"time": "ns, us, ms, s, m, h", "size": "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB",
          "speed": "f, kf, Mf, Gf, Tf, Pf"}
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_quantity(text, kind):
    """A SimGrid quantity ("1.5ms", "37632B", "15.7Tf") in seconds, bytes or flop/s, with sgdsim's checks
    (src/common/units.cpp): a unit is required except for 0; negative, empty and spaced values are errors.
    Raises ValueError with the reason."""
    if kind not in _UNITS:
        raise ValueError(f"unknown kind of quantity '{kind}'")
    if not text:
        raise ValueError(f"'{text}' is empty")
    if " " in text or "\t" in text:
        raise ValueError(f"'{text}' contains a space (write the unit right after the number; use {_VALID[kind]})")
    if not text[-1].isalpha():
        m = _NUMBER.fullmatch(text)
        if m and float(text) == 0.0:
            return 0.0
        raise ValueError(f"'{text}' has no unit (use {_VALID[kind]})")
    m = _NUMBER.match(text)
    if not m:
        raise ValueError(f"'{text}' is not a number with a unit (use {_VALID[kind]})")
    unit = text[m.end():]
    if unit not in _UNITS[kind]:
        raise ValueError(f"'{text}' has an unknown unit (use {_VALID[kind]})")
    value = float(m.group(0)) * _UNITS[kind][unit]
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"'{text}' is not a finite number")
    if value < 0:
        raise ValueError(f"'{text}' is negative")
    return value


@dataclass
class Tensor:
    name: str
    bytes: float
    layer: int


@dataclass
class Layer:
    name: str
    samples: list  # [(fwd_s, bwd_s)], one per <sample>, or the fwd/bwd attributes as one sample
    tensors: list = field(default_factory=list)  # indices into Workload.tensors, in file order

    @property
    def fwd_s(self):
        return sum(s[0] for s in self.samples) / len(self.samples)

    @property
    def bwd_s(self):
        return sum(s[1] for s in self.samples) / len(self.samples)


@dataclass
class Workload:
    name: str
    batch: int
    device: str
    reference_speed: float
    ps_update_s: float
    layers: list
    tensors: list

    def model_bytes(self):
        return sum(t.bytes for t in self.tensors)

    def layer_bytes(self, layer):
        return sum(self.tensors[t].bytes for t in self.layers[layer].tensors)


class WorkloadError(ValueError):
    """A workload file sgdsim would refuse: the message names the file, the element and the field."""


def parse_workload(path):
    """Reads a sgdsim workload file with the same rules as src/workload/workload_parser.cpp."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # pugixml (sgdsim's parser) accepts "--" inside comments, which the XML standard and expat do not (the
        # catalog's headers quote command lines): comments are dropped first, keeping their line breaks.
        text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        root = ET.fromstring(text)
    except (ET.ParseError, OSError, UnicodeDecodeError) as e:
        raise WorkloadError(f"{path}: {e}") from None

    def fail(elem, what):
        name = elem.get("name")
        raise WorkloadError(f"{path}: <{elem.tag}{f' name={name!r}' if name else ''}>: {what}")

    def check(elem, attributes, children):
        for a in elem.attrib:
            if a not in attributes:
                fail(elem, f"unknown attribute '{a}'")
        for c in elem:
            if c.tag not in children:
                fail(elem, f"unknown element <{c.tag}>")

    def required(elem, attr):
        if attr not in elem.attrib:
            fail(elem, f"missing attribute '{attr}'")
        return elem.get(attr)

    def quantity(elem, attr, kind):
        try:
            return parse_quantity(required(elem, attr), kind)
        except ValueError as e:
            fail(elem, f"attribute '{attr}': {e}")

    if root.tag != "workload":
        raise WorkloadError(f"{path}: the root element is <{root.tag}>, expected <workload>")
    check(root, {"name", "batch", "device", "reference_speed", "ps_update"}, {"layer"})
    try:
        batch = int(required(root, "batch"))
    except ValueError:
        fail(root, f"attribute 'batch': '{root.get('batch')}' is not an integer")
    if not 1 <= batch <= 1 << 20:
        fail(root, f"attribute 'batch': {batch} is out of range [1, {1 << 20}]")
    speed = quantity(root, "reference_speed", "speed")
    if speed <= 0:
        fail(root, "attribute 'reference_speed': must be positive")
    wl = Workload(name=required(root, "name"), batch=batch, device=required(root, "device"), reference_speed=speed,
                  ps_update_s=quantity(root, "ps_update", "time") if "ps_update" in root.attrib else 0.0,
                  layers=[], tensors=[])
    layer_names, tensor_names = set(), set()
    for xl in root.findall("layer"):
        check(xl, {"name", "fwd", "bwd"}, {"tensor", "sample"})
        name = required(xl, "name")
        if name in layer_names:
            fail(xl, "duplicate layer name")
        layer_names.add(name)
        samples = []
        for xs in xl.findall("sample"):
            check(xs, {"fwd", "bwd"}, set())
            samples.append((quantity(xs, "fwd", "time"), quantity(xs, "bwd", "time")))
        has_times = "fwd" in xl.attrib or "bwd" in xl.attrib
        if has_times and samples:
            fail(xl, "give either the attributes 'fwd' and 'bwd' or <sample> elements, not both")
        if not has_times and not samples:
            fail(xl, "missing attribute 'fwd' (or <sample fwd=... bwd=...> elements)")
        if has_times:
            samples.append((quantity(xl, "fwd", "time"), quantity(xl, "bwd", "time")))
        layer = Layer(name=name, samples=samples)
        for xt in xl.findall("tensor"):
            check(xt, {"name", "size"}, set())
            tname = required(xt, "name")
            if tname in tensor_names:
                fail(xt, "duplicate tensor name")
            tensor_names.add(tname)
            size = quantity(xt, "size", "size")
            if size < 1:
                fail(xt, "attribute 'size': must be at least 1 byte")
            layer.tensors.append(len(wl.tensors))
            wl.tensors.append(Tensor(name=tname, bytes=size, layer=len(wl.layers)))
        wl.layers.append(layer)
    if not wl.layers:
        fail(root, "the model is empty (no <layer>)")
    if not wl.tensors:
        fail(root, "the model has no parameter tensors (no <tensor> in any <layer>)")
    return wl


def split_round_robin(n_tensors, n_ps):
    """Tensor i goes to PS i mod M, in forward order (src/workload/ps_split.cpp, --ps-split round-robin)."""
    return [t % n_ps for t in range(n_tensors)]


def split_balanced(wl, n_ps):
    """--ps-split balanced: the largest remaining tensor (ties: forward order) to the least loaded PS (ties: the
    lowest rank), as src/workload/ps_split.cpp does."""
    order = sorted(range(len(wl.tensors)), key=lambda t: -wl.tensors[t].bytes)  # stable: ties keep forward order
    load = [0.0] * n_ps
    owner = [0] * len(wl.tensors)
    for t in order:
        least = load.index(min(load))
        owner[t] = least
        load[least] += wl.tensors[t].bytes
    return owner


def ps_shards(owner, n_ps):
    """Each PS's tensors in forward order: the order in which it sends parameters to a worker."""
    return [[t for t, p in enumerate(owner) if p == ps] for ps in range(n_ps)]


def uplink_order(wl, owner, ps):
    """The order in which a worker sends PS `ps` its gradients: layers backward, each layer's tensors reversed
    (src/sim/worker.cpp queues them so after each layer's backward)."""
    return [t for layer in reversed(wl.layers) for t in reversed(layer.tensors) if owner[t] == ps]


@dataclass
class GradUnit:
    """One all-reduce of a step: `tensors` (in the order they join it), `bytes` in all, ready once the backward
    of layer `ready_layer` is done."""
    tensors: list
    bytes: float
    ready_layer: int


# campaign.sh's incast microbenchmark (docs/measure.md "Incast"): the flow sizes of the testbed's PS cases since
# 2026-11-27b, and the client counts there (2, 3, 4, 6, 8) up to the campaign's K, K itself included.
INCAST_SIZES_MIB = (16, 64)
# campaign.sh LATE's client counts (as 2026-11-27f's staggered runs and 2026-12-07b's trial): a lone late flow's
# slowdown grows about in proportion to N, three counts show it.
LATE_NODES = (2, 4, 8)
# campaign.sh's stream of small messages (STREAM, for the PS series): the sizes of 2026-11-26d's, whose stream fitted
# 73 us per message (validation/testbed/README.md 2026-12-06f), and as many messages back to back.
STREAM_SIZES_BYTES = (256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304)
STREAM_MESSAGES = 64


def incast_nodes(k_max):
    """The incast microbenchmark's client counts for a campaign of up to k_max workers."""
    return sorted({n for n in (2, 3, 4, 6, 8) if n <= k_max} | ({k_max} if k_max >= 2 else set()))


DDP_BUCKET_BYTES = 25 * 1024 * 1024      # torch.nn.parallel.DistributedDataParallel(bucket_cap_mb=25)
DDP_FIRST_BUCKET_BYTES = 1024 * 1024     # torch.distributed._DEFAULT_FIRST_BUCKET_BYTES (torch 1.13)


def grad_units(wl, granularity, bucket_bytes=DDP_BUCKET_BYTES, first_bucket_bytes=DDP_FIRST_BUCKET_BYTES):
    """The all-reduces of one step in launch (backward) order, as src/workload/grad_units.cpp plans them.

    tensor: one per tensor, each layer's tensors reversed (as autograd produces them). layer: one per layer with
    parameters, its tensors in one flat buffer. ddp: PyTorch DDP's buckets as its Reducer rebuilds them after the
    first iteration (torch 1.13 reducer.cpp rebuild_buckets / compute_bucket_assignment_by_size): tensors in the
    order their gradients become ready join the current bucket, which closes once it holds at least its limit;
    the first bucket's limit is 1 MiB, every later one 25 MiB. (In its first iteration, DDP with
    find_unused_parameters=False all-reduces one bucket of everything; the warm-up steps cover it.)
    """
    units = []
    if granularity == "layer":
        for l in range(len(wl.layers) - 1, -1, -1):
            if wl.layer_bytes(l) > 0:
                units.append(GradUnit(list(reversed(wl.layers[l].tensors)), wl.layer_bytes(l), l))
        return units
    if granularity not in ("tensor", "ddp"):
        raise ValueError(f"granularity '{granularity}': expected tensor, layer or ddp")
    bucket = GradUnit([], 0.0, 0)
    limit = first_bucket_bytes
    for l in range(len(wl.layers) - 1, -1, -1):
        for t in reversed(wl.layers[l].tensors):
            size = wl.tensors[t].bytes
            if granularity == "tensor":
                units.append(GradUnit([t], size, l))
                continue
            bucket.tensors.append(t)
            bucket.bytes += size
            bucket.ready_layer = l
            if bucket.bytes >= limit:
                units.append(bucket)
                bucket = GradUnit([], 0.0, 0)
                limit = bucket_bytes
    if bucket.bytes > 0:
        units.append(bucket)
    return units


def elements(nbytes):
    """float32 elements that carry `nbytes` (at least 1): the kit moves float32 tensors of bytes / 4 elements."""
    return max(1, int(round(nbytes / 4)))


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def std(values):
    """Population standard deviation, as sgdsim's std_of."""
    if not values:
        return float("nan")
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def median(values):
    s = sorted(values)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def step_times(step_ends, start, warmup, steps):
    """A worker's measured step times as sgdsim defines them (src/sim/simulation.cpp summarize()): step s lasts
    from the end of step s-1 (or the start) to its own end; steps warmup .. warmup+steps-1 are measured."""
    out = []
    for s in range(warmup, warmup + steps):
        begin = start if s == 0 else step_ends[s - 1]
        out.append(step_ends[s] - begin)
    return out


def summarize(per_worker_steps, batch):
    """sgdsim's figures from each worker's measured step times: the step time is the mean over workers of each
    worker's mean step time; the throughput the sum over workers of batch / that worker's mean step time; std,
    min and max over every measured step of every worker."""
    means = [mean(s) for s in per_worker_steps]
    every = [t for s in per_worker_steps for t in s]
    return {
        "step_time_mean_s": mean(means),
        "step_time_std_s": std(every),
        "step_time_min_s": min(every),
        "step_time_max_s": max(every),
        "throughput_examples_per_s": sum(batch / m for m in means),
        "per_worker_step_time_mean_s": means,
        "per_worker_step_time_std_s": [std(s) for s in per_worker_steps],
    }


# ----------------------------------------------------------------------------------------- CPU used outside
# A measurement on the emulated cluster is only as good as the machine is quiet: every rank, its Gloo threads and
# the emulated NICs share the same cores, and a build or test run beside them slows calls that the microbenchmarks
# never saw slowed (docs/measure.md, "Was the machine quiet?"). Rank 0 reads the machine's CPU counters before and
# after each configuration; what the machine spent beyond the ranks' own time is the outside load.
PROC_STAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def parse_proc_stat(text):
    """The machine-wide line of /proc/stat as {field: ticks} (PROC_STAT_FIELDS) plus "cpus", the count of cpuN
    lines. Raises ValueError on a text without a well-formed "cpu " line."""
    totals, cpus = None, 0
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "cpu":
            if len(fields) < 1 + len(PROC_STAT_FIELDS):
                raise ValueError(f"/proc/stat: {len(fields) - 1} counters on the cpu line, "
                                 f"{len(PROC_STAT_FIELDS)} expected")
            totals = {k: int(v) for k, v in zip(PROC_STAT_FIELDS, fields[1:])}
        elif re.fullmatch(r"cpu[0-9]+", fields[0]):
            cpus += 1
    if totals is None:
        raise ValueError("/proc/stat: no cpu line")
    totals["cpus"] = cpus
    return totals


def parse_pid_stat(text):
    """(command name, utime + stime in ticks, whether a kernel thread) of one /proc/PID/stat line: the process's CPU
    over all its threads. The name is between the first "(" and the last ")" (it may hold spaces and parentheses)."""
    left, right = text.index("("), text.rindex(")")
    rest = text[right + 1:].split()
    # After the name, proc(5)'s fields 3.. : state, ppid, pgrp, session, tty_nr, tpgid, flags (rest[6]), ...,
    # utime 14 and stime 15 (rest[11], rest[12]). PF_KTHREAD (0x00200000) marks a kernel thread.
    return text[left + 1:right], int(rest[11]) + int(rest[12]), bool(int(rest[6]) & 0x00200000)


def cpu_outside(before, after, rank_pids, ticks_per_s, window_s, top=3):
    """The machine's CPU time between two snapshots ({"stat": parse_proc_stat, "procs": {pid: parse_pid_stat}})
    split into the ranks' own and the rest. A process's ticks include those its interrupts took (the kernel books a
    tick in softirq both to the process and to the machine's softirq counter), so the machine's total is user +
    nice + system + irq + softirq. busy_s: that total; irq_s: irq + softirq (the emulated NICs' packet work mostly,
    whichever process it interrupted); steal_s: what the hypervisor ran instead (a virtual machine's); ranks_s: the
    processes in rank_pids; kernel_s: kernel threads (ksoftirqd forwarding the emulated packets, among others);
    outside_s: every other process, plus what no process present at both snapshots accounts for (a process that
    started and ended between them); outside_cores: outside_s / window_s; outside_top: the processes outside the
    ranks and the kernel that used the most, by name (summed), at most `top`, each above one tick."""
    def ticks(keys):
        return sum(after["stat"][k] - before["stat"][k] for k in keys)

    total = ticks(("user", "nice", "system", "irq", "softirq"))
    ranks, kernel, others, by_name = 0, 0, 0, {}
    for pid, (name, t1, kthread) in after["procs"].items():
        used = max(0, t1 - before["procs"].get(pid, (name, 0, kthread))[1])
        if pid in rank_pids:
            ranks += used
        elif kthread:
            kernel += used
        else:
            others += used
            if used > 0:
                by_name[name] = by_name.get(name, 0) + used
    outside = others + max(0, total - ranks - kernel - others)
    heavy = sorted(((t, n) for n, t in by_name.items() if t > 1), key=lambda x: (-x[0], x[1]))[:top]
    return {"window_s": window_s, "cpus": after["stat"]["cpus"], "busy_s": total / ticks_per_s,
            "irq_s": ticks(("irq", "softirq")) / ticks_per_s, "steal_s": ticks(("steal",)) / ticks_per_s,
            "ranks_s": ranks / ticks_per_s, "kernel_s": kernel / ticks_per_s, "outside_s": outside / ticks_per_s,
            "outside_cores": outside / ticks_per_s / window_s if window_s > 0 else 0.0,
            "outside_top": [[n, t / ticks_per_s] for t, n in heavy]}


# A tenth of a core, averaged over a configuration or a row: on a quiet machine the rest (the launcher relaying the
# ranks' output, the shell, kernel workers) stays well below it (docs/measure.md "Was the machine quiet?").
MAX_OUTSIDE_CORES = 0.1
# The counters tick 100 times a second (USER_HZ): one tick in a row of 24 ms reads as 0.4 cores. Below five ticks
# outside (or stolen), a configuration or row is not flagged, whatever its average.
MIN_OUTSIDE_S = 0.05
# The machine is a virtual one: its hypervisor may run something else on a core the ranks wanted (steal). Over the
# 98 back-to-back all-reduce rows of campaign 2026-12-02, whose drift stayed within 2% from 1 MiB on, steal averaged
# 0.02 cores and at most 0.10 in a row of 1 s or more. In campaign 2026-12-02b the 9 back-to-back rows of 2 MiB or
# more measured with more than 0.25 cores stolen (and quiet when measured again after the trainings) were 8% slower
# (median; 1-19%) than when measured again, the 25 quiet both times within 0.1% (docs/measure.md). A ring of many
# small calls feels more: on 2026-12-03b ResNet-152's per-layer and 1 MiB-bucket rings at K = 7-8 ran 7-11% slower
# than the same configuration's other launches with 0.11-0.13 cores stolen, 33-35% with 0.18 and 16-86% with
# 0.25-0.56, and within 2.3% of them at 0.05-0.06 (validation/testbed/README.md, 2026-12-03b, "The hypervisor's
# steal"; a ring waits at each step for its slowest rank): a quarter of a core let the 0.18 one through. Until
# 2026-12-03b the limit was 0.25.
MAX_STEAL_CORES = 0.08


def steal_cores(cpu):
    """The cores' worth the hypervisor took on average over a cpu_outside record's window."""
    return cpu["steal_s"] / cpu["window_s"] if cpu["window_s"] > 0 else 0.0


def cpu_busy(cpu, max_outside_cores=MAX_OUTSIDE_CORES, max_steal_cores=MAX_STEAL_CORES):
    """Whether the rest of the machine (its other processes, or its hypervisor) took more than the limits during a
    cpu_outside record's window, with at least MIN_OUTSIDE_S of it."""
    return ((cpu["outside_cores"] > max_outside_cores and cpu["outside_s"] >= MIN_OUTSIDE_S)
            or (steal_cores(cpu) > max_steal_cores and cpu["steal_s"] >= MIN_OUTSIDE_S))


# The machine's pace (tools/measure/probe.py pace_us: an idle same-core wake-up round trip): on the testbed's virtual
# machine each core reads 12-14.5 us most of the time and 16.5-20 us in spells of seconds to minutes, whatever the
# machine itself runs (a core read 17-19 us idle while the other read 13), and a ring's step follows it (ResNet-34
# per layer at K = 8: 1.96-2.08 s at pace, 2.22-2.70 s in slow spells; validation/testbed/campaign-2026-12-02g/
# README.md). Rank 0 reads it (the slower core's) before and after each configuration or row, and every second of a
# training; a configuration or row is slow when its pace (pace_of) exceeds the reference (kit.PACE_REFERENCE) by
# more than this. Fast readings sit up to 1.19 times the fastest, slow ones 1.35-1.66 times (21 attempts of
# 2026-12-02g; its first runs used 1.15, which called some fast readings slow). Since 2026-12-03b the reference is
# the lower quartile of a minute's readings (probe.reference_pace), no longer the fastest: the build of 2026-12-03
# reads 9.6-14.5 us idle without slow spells, and 68% of its idle readings were more than 1.25 times the fastest.
# Since 2026-12-03 the judgment takes the readings around a configuration (before and after, the idle machine's)
# and not those during it: a reading during a training waits for cores the ranks keep busy, and on a faster day
# (the idle machine at 9.6 us) every training's readings had a median of 13-15 us, 1.4-1.6 times the reference,
# so every configuration was judged slow and measured three times (validation/testbed/README.md, 2026-12-03).
# The readings during a training stay in the record.
PACE_SLOW = 1.25
# Before each configuration or row rank 0 waits up to this long for a reading within PACE_SLOW of the reference
# (measure.py --pace-wait).
PACE_WAIT_S = 10.0


def pace_of(cpu):
    """A cpu_outside record's pace (us; None if it has none): the slower of its readings around the configuration or
    row (pace_idle_us, before and after it), where recorded (since 2026-12-03), else the median of all its readings
    (a reading during a training may wait for a core the ranks keep busy: 25-144 us among 13-14 us ones)."""
    idle = cpu.get("pace_idle_us")
    if idle:
        return max(idle)
    readings = cpu.get("pace_us") or []
    return median(readings) if readings else None


def pace_slow(cpu, slow=PACE_SLOW):
    """Whether a cpu_outside record's pace readings say the machine ran slow (PACE_SLOW) around it."""
    pace, ref = pace_of(cpu), cpu.get("pace_reference_us")
    return pace is not None and bool(ref) and pace > slow * ref


def again(cpu):
    """Whether an attempt should be measured again: the machine busy (cpu_busy) or slow (pace_slow) around it."""
    return cpu is not None and (cpu_busy(cpu) or pace_slow(cpu))


def quietest(cpus):
    """The index of the attempt to keep among a row's cpu_outside records (None: not recorded): the first quiet one
    (cpu_busy false) at the machine's pace (pace_slow false); else the quiet one read at the fastest pace; where
    every one was busy, the one whose processes and hypervisor took the least CPU per second of it; where none was
    recorded, the last."""
    for i, cpu in enumerate(cpus):
        if cpu is not None and not again(cpu):
            return i
    quiet = [(pace_of(cpu) or 0.0, i) for i, cpu in enumerate(cpus) if cpu is not None and not cpu_busy(cpu)]
    if quiet:
        return min(quiet)[1]
    recorded = [(load(cpu), i) for i, cpu in enumerate(cpus) if cpu is not None]
    return min(recorded)[1] if recorded else len(cpus) - 1


def load(cpu):
    """What a cpu_outside record's window lost to other processes and the hypervisor, in cores."""
    return cpu["outside_cores"] + steal_cores(cpu)


def set_aside(cpus, times_s, keep):
    """The attempts not kept (index `keep`, plan.quietest) with a CPU record, each {"time_s": its time, **its
    record}: what a row's or configuration's busy_attempts holds."""
    return [{"time_s": t, **cpu} for i, (cpu, t) in enumerate(zip(cpus, times_s)) if i != keep and cpu is not None]


def busy_note(tries):
    """What a result's printed line says of the busy or slow attempts set aside."""
    return f"  ({len(tries)} busy or slow attempt{'s' if len(tries) > 1 else ''} set aside)" if tries else ""
