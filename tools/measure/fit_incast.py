#!/usr/bin/env python3
"""Fits sgdsim's --flow-spread-in and --flow-spread-out to `measure.py incast` (docs/measure.md §3, docs/models.md
§10.6).

    tools/measure/fit_incast.py validation/testbed/data/1gbit/incast.flows.jsonl [MORE.flows.jsonl ...]

In one repeat of incast-in, N flows of the same size start together into the hub; with fair sharing they would end
together, and TCP ends them up to 2x apart. sgdsim's model: each flow has a sharing weight exp(s x u), u uniform in
[-1, 1], and the link is shared in proportion to the weights among the flows still running (weighted max-min on one
link). The spread of a repeat, last end over first end, depends on N and s only. The fit is the s whose median
spread (Monte Carlo, a fixed seed: the same output every run) is closest to the measured medians over every N and
size, in least squares of the logarithms; incast-in gives --flow-spread-in (the flows into a PS), incast-out
--flow-spread-out.

Where the file has outcast-mixed (a flow into the hub beside n flows out of it) and incast-mixed (a flow out beside
n in), it fits --ack-coupling-in and --ack-coupling-out: the G whose slowdown max(1, G n) is closest to the measured
ones (least squares of the logarithms over every n and size), and prints both options only when it has both; where it
also has incast-duplex (n flows each way), it fits each direction's --ack-coupling-exponent-in/out E, given that
direction's G, to the slowdowns max(1, G n / n^E) (printed only below 1, sgdsim's default). Where
the file has incast-half or incast-duplex, it also prints how much each direction slowed the other against SimGrid's
max-min with ACK traffic and against the fitted coupling (docs/models.md §10.6). Where it has duplex-late-in
(duplex-late-out), n flows into (out of) the hub started late beside n established flows the other way, it fits
the coupling by start order, --ack-coupling-late-in G and --ack-coupling-established-out G (--ack-coupling-late-out,
--ack-coupling-established-in), each the G of max(1, G m / n) closest to the mean slowdowns (docs/models.md §10.6
"Start order, measured and modelled"), printed on a line of its own before the options: under BBR they made
predictions of training worse; under CUBIC the Sync-PS cases take --ack-coupling-late-in from that line (make_cases.py,
"Start order under CUBIC"), no case the others. Several files are several runs of the microbenchmark: each run's
rows are divided by that run's own times alone and the points of all runs are fitted together; --coupling
G_IN,G_OUT gives the lone-flow couplings where the files do not measure them (the exponents and the start-order laws
are fitted given them). --roles prints only each file's mean slowdown by role of incast-duplex, duplex-late-in and
duplex-late-out, N = 1 included, and for runs paced by --message-gap what the clients offer together
(validation/testbed/README.md, 2026-11-27g and h). Standard library only."""

import argparse
import json
import math
import random
import statistics
import sys

DRAWS = 1000  # Monte Carlo draws per (N, s): the median spread to about 1%
COARSE = [i / 20 for i in range(0, 41)]  # s from 0 to 2 (sgdsim's bound) by 0.05, then by 0.01 around the best


def weighted_spread(weights):
    """Last end over first end of equal flows sharing one link in proportion to `weights` (> 0)."""
    left = [1.0] * len(weights)
    running = set(range(len(weights)))
    t, first = 0.0, None
    while running:
        total = sum(weights[i] for i in running)
        dt = min(left[i] * total / weights[i] for i in running)
        for i in running:
            left[i] -= dt * weights[i] / total
        t += dt
        if first is None:
            first = t
        running = {i for i in running if left[i] > 1e-12}
    return t / first


def model_spread(n, spread, rng):
    """Median spread of n flows with weights exp(spread x u), u uniform in [-1, 1]."""
    return statistics.median(weighted_spread([math.exp(spread * rng.uniform(-1, 1)) for _ in range(n)])
                             for _ in range(DRAWS))


def measured_spreads(lines, pattern):
    """{(clients, size): median over repeats of (slowest / fastest flow)} for `pattern`'s flows."""
    by_key = {}
    for rec in lines:
        if rec.get("pattern") != pattern:
            continue
        times = [t for t, role in zip(rec["times_s"], rec.get("roles", [])) if role in ("in", "out", pattern)] \
            or rec["times_s"]
        if len(times) < 2 or min(times) <= 0:
            continue
        by_key.setdefault((rec["clients"], rec["size_bytes"]), []).append(max(times) / min(times))
    return {k: statistics.median(v) for k, v in sorted(by_key.items())}


def squared_error(spreads, s, seed):
    rng = random.Random(seed)
    cache = {}
    err = 0.0
    for (n, _), m in spreads.items():
        if n not in cache:
            cache[n] = model_spread(n, s, rng)
        err += (math.log(cache[n]) - math.log(m)) ** 2
    return err


def fit(spreads, seed=1):
    """The s in [0, 2] of least squared log error against {(n, size): spread}, to 0.01: a grid by 0.05, then by
    0.01 around its best. Returns (s, rms log error)."""
    best = min((squared_error(spreads, s, seed), s) for s in COARSE)
    fine = [round(best[1] + i / 100, 2) for i in range(-4, 5) if 0 <= best[1] + i / 100 <= 2]
    best = min([best] + [(squared_error(spreads, s, seed), s) for s in fine])
    return best[1], math.sqrt(best[0] / max(1, len(spreads)))


MAX_FIRST_WEIGHT = 8  # sgdsim's bound on --first-pull-weight


def first_flow_weight(n, ratio):
    """The weight W of the first of n equal flows out of one link against the other n - 1 (weight 1) whose last
    flow ends `ratio` times later than the first: the first ends at S (W + n - 1) / (W C), the others together at
    n S / C, so ratio = n W / (W + n - 1) and W = ratio (n - 1) / (n - ratio). Bounded to [1, 8]: a ratio of n or
    more (the first flow as if alone) gives the bound."""
    if ratio <= 1:
        return 1.0
    if ratio >= n:
        return float(MAX_FIRST_WEIGHT)
    return min(float(MAX_FIRST_WEIGHT), max(1.0, ratio * (n - 1) / (n - ratio)))


def first_pull(lines):
    """From incast-out repeats whose flows are a workload's tensors (--flow-tensors: the hub posts client 1's messages
    first, then client 2's, ..., as a PS releases its shard): per N, the median over repeats of the first client's
    weight (first_flow_weight of the median of the other clients' times over client 1's), and per N >= 3 the median
    spread (slowest / fastest) among the other clients. Returns ({n: W}, {(n - 1, size): spread})."""
    weights, others = {}, {}
    for rec in lines:
        if rec.get("pattern") != "incast-out" or not rec.get("flow_tensors") or rec["clients"] < 2:
            continue
        by_rank = dict(zip(rec["ranks"], rec["times_s"]))
        first, rest = by_rank.get(1), [t for r, t in by_rank.items() if r != 1]
        if not first or first <= 0 or not rest or min(rest) <= 0:
            continue
        n = rec["clients"]
        weights.setdefault(n, []).append(first_flow_weight(n, statistics.median(rest) / first))
        if len(rest) >= 2:
            others.setdefault((n - 1, rec["size_bytes"]), []).append(max(rest) / min(rest))
    return ({n: statistics.median(v) for n, v in sorted(weights.items())},
            {k: statistics.median(v) for k, v in sorted(others.items())})


def print_first_pull(path, lines):
    """--first-pull: prints the weights and the other flows' spread, then sgdsim's options. Returns the exit code."""
    weights, others = first_pull(lines)
    if not weights:
        print(f"fit_incast.py: error: {path}: no incast-out repeat with --flow-tensors and 2 clients or more",
              file=sys.stderr)
        return 2
    for n, w in weights.items():
        print(f"incast-out of tensors N={n}: first flow's weight {w:.2f}")
    options = ["--first-pull-weight", ",".join(f"{n}:{w:.2f}" for n, w in weights.items())]
    if others:
        s, rms = fit(others)
        for (n, size), m in others.items():
            print(f"incast-out of tensors, the {n} flows after the first, {size:>10} B: measured spread {m:.3f}")
        print(f"incast-out of tensors, after the first: --flow-spread-out {s:.2f} (rms log error {rms:.3f})")
        options = ["--flow-spread-out", f"{s:.2f}"] + options
    print(" ".join(options))
    return 0


def maxmin_duplex(n_in, m_out, ack=0.05):
    """SimGrid's max-min with ACK traffic (LV08, network/crosstraffic: each flow loads its reverse route with `ack`
    of its rate) on one hub whose NIC has n_in flows in and m_out flows out, every flow alone on its other links:
    each flow runs at the lower of its two directions' levels, C / (flows + ack x reverse flows). Returns the
    incoming and the outgoing flows' times over their times without the other direction (n_in flows sharing C,
    m_out flows sharing C)."""
    level_in, level_out = 1 / (n_in + ack * m_out), 1 / (m_out + ack * n_in)
    rate = min(level_in, level_out)
    return (1 / n_in) / rate, (1 / m_out) / rate


SPLITS = {"incast-half": lambda n: (n - n // 2, n // 2),  # (flows in, flows out) of each pattern with N clients
          "incast-duplex": lambda n: (n, n)}


def median_time(lines, pattern, clients, role, size, stat=statistics.median):
    """The median (or `stat`) time of every `role` flow of `pattern`'s repeats with `clients` clients (None: any)
    and `size`."""
    v = [t for r in lines if r.get("pattern") == pattern and r["size_bytes"] == size and
         (clients is None or r["clients"] == clients) for t, ro in zip(r["times_s"], r["roles"]) if ro == role]
    return stat(v) if v else float("nan")


def duplex_table(lines, pattern="incast-half"):
    """incast-half or incast-duplex against maxmin_duplex: per (N, size), (n_in, m_out, measured in, model in,
    measured out, model out), each the median flow time over the median time of the same number of flows in one
    direction alone (incast-in or incast-out of that many clients; one flow: incast-mixed's flow alone)."""
    table = {}
    for n, size in sorted({(r["clients"], r["size_bytes"]) for r in lines if r.get("pattern") == pattern}):
        k, m = SPLITS[pattern](n)
        one = median_time(lines, "incast-mixed", None, "alone", size)
        alone_in = median_time(lines, "incast-in", k, "in", size) if k > 1 else one
        alone_out = median_time(lines, "incast-out", m, "out", size) if m > 1 else one
        model_in, model_out = maxmin_duplex(k, m)
        table[(n, size)] = (k, m, median_time(lines, pattern, n, "in", size) / alone_in, model_in,
                            median_time(lines, pattern, n, "out", size) / alone_out, model_out)
    return table


# Per pattern that starts flows late: the late flows' role, where their time alone is measured (a pattern and role;
# None: the same record, role alone-<way>), the established flows' role and their role alone (same record).
LATE = {"duplex-late-in": ("late-in", ("incast-in", "in"), "established-out", "alone-out"),
        "duplex-late-out": ("late-out", ("incast-out", "out"), "established-in", "alone-in"),
        "staggered-in": ("late-in", None, "established-out", "alone-out"),
        "staggered-out": ("late-out", None, "established-in", "alone-in")}


def flow_counts(rec):
    """(late flows, established flows) of a duplex-late-* or staggered-* record (duplex-late-*: N each)."""
    return rec.get("late_flows", rec["clients"]), rec.get("established_flows", rec["clients"])


def role_times(rec, role):
    return [t for t, ro in zip(rec["times_s"], rec["roles"]) if ro == role]


def late_table(lines, pattern):
    """Per (late flows L, established flows E, size): the mean time of the L flows into (out of) the hub started late
    beside E established flows the other way, over the mean time of L flows that way alone (duplex-late-*: incast-in
    or incast-out of the same run; staggered-*: the same repeats' alone-in/out). Means, not medians: a repeat's flows
    settle near one of two states (about their time alone or about 1.5 times it), and a training's mean step time
    samples their mean."""
    late_role, alone_at = LATE[pattern][:2]
    by_key = {}
    for r in lines:
        if r.get("pattern") == pattern:
            lt, est = flow_counts(r)
            late, alone = by_key.setdefault((lt, est, r["size_bytes"], r["clients"]), ([], []))
            late += role_times(r, late_role)
            alone += role_times(r, "alone-" + late_role.split("-")[1]) if alone_at is None else []
    table = {}
    for (lt, est, size, n), (late, alone) in sorted(by_key.items()):
        base = (statistics.mean(alone) if alone else float("nan")) if alone_at is None \
            else median_time(lines, alone_at[0], n, alone_at[1], size, statistics.mean)
        table[(lt, est, size)] = statistics.mean(late) / base if late else float("nan")
    return table


def established_slowdowns(lines, pattern, fraction_default=0.5):
    """Per (established flows E, late flows L, size), the mean over repeats of how much the established flows (2 x S
    bytes from the barrier) were slowed while the late flows (S bytes from fraction x T, T the established
    direction's slowest time alone) ran beside them: with their mean time alone A for S bytes, the late flows' mean
    time L and the established flows' mean completion E, E = 2 A + L (1 - 1 / s) if they outlast the late flows;
    s = 1 / (1 - (E - 2 A) / L). Repeats whose established flows ended first, or whose rows lack them (before
    2026-11-27e), are left out."""
    late_role, _, est_role, alone_role = LATE[pattern]
    by_key = {}
    for r in lines:
        if r.get("pattern") != pattern or est_role not in r.get("roles", []):
            continue
        alone, late, est = role_times(r, alone_role), role_times(r, late_role), role_times(r, est_role)
        a, lt, e = statistics.mean(alone), statistics.mean(late), statistics.mean(est)
        f = r.get("late_fraction", fraction_default)
        x = (e - 2 * a) / lt
        if e > f * max(alone) + lt and x < 1:
            n_late, n_est = flow_counts(r)
            by_key.setdefault((n_est, n_late, r["size_bytes"]), []).append(1 / (1 - x))
    return {k: statistics.mean(v) for k, v in sorted(by_key.items())}


ROLE_COLUMNS = ("together in", "together out", "late in", "late out", "established out", "established in")


def role_slowdowns(lines):
    """Per (N, size) of a run of incast-duplex, duplex-late-in and duplex-late-out together (--roles): each role's
    mean time over the same direction's mean time alone in the same run, in ROLE_COLUMNS order. The flows in are
    divided by duplex-late-out's alone-in, the flows out by duplex-late-in's alone-out (so that a run needs no
    incast-in/out, and N = 1 works); the established flows (2 x S from the barrier) by twice that, E / 2A. Means: a
    repeat's flows settle near one of two states. (N, size) without all three patterns are left out."""
    table = {}
    for n, size in sorted({(r["clients"], r["size_bytes"]) for r in lines if r.get("pattern") == "incast-duplex"}):
        def mean(pattern, role):
            return median_time(lines, pattern, n, role, size, statistics.mean)
        a_in, a_out = mean("duplex-late-out", "alone-in"), mean("duplex-late-in", "alone-out")
        row = (mean("incast-duplex", "in") / a_in, mean("incast-duplex", "out") / a_out,
               mean("duplex-late-in", "late-in") / a_in, mean("duplex-late-out", "late-out") / a_out,
               mean("duplex-late-in", "established-out") / (2 * a_out),
               mean("duplex-late-out", "established-in") / (2 * a_in))
        if not any(math.isnan(v) for v in row):
            table[(n, size)] = row
    return table


TC_RATE_UNITS = (("gbit", 1e9), ("mbit", 1e6), ("kbit", 1e3))  # tc's rate syntax, as measure.py records it


def offered_load_together(lines, n):
    """What the N clients of a paced run offer together over the link (--message-gap: each client's message every
    gap, docs/measure.md): N x message bytes x 8 / (gap x rate in bit/s); None for a run whose flows are not paced
    or whose rate is not in tc's syntax."""
    for r in lines:
        if r.get("clients") != n or not r.get("message_gap_s") or not r.get("flow_message_bytes"):
            continue
        rate = str(r.get("rate", ""))
        for unit, scale in TC_RATE_UNITS:
            if rate.endswith(unit):
                try:
                    bits_per_s = float(rate[:-len(unit)]) * scale
                except ValueError:
                    return None
                return n * r["flow_message_bytes"] * 8 / (r["message_gap_s"] * bits_per_s)
        return None
    return None


def print_roles(path, lines):
    """--roles: role_slowdowns of one run, each (N, size), then the means over N = 1 and over N >= 2; for a paced
    run, each row also gives what its clients offer together (offered_load_together)."""
    table = role_slowdowns(lines)
    if not table:
        print(f"fit_incast.py: error: {path}: no N and size with incast-duplex, duplex-late-in and duplex-late-out",
              file=sys.stderr)
        return 2
    print(f"{path}: mean slowdown over the same direction alone ({', '.join(ROLE_COLUMNS)})")
    for (n, size), row in table.items():
        load = offered_load_together(lines, n)
        paced = "" if load is None else f"  (flows in offer {load:.0%} of the link together)"
        print(f"  N={n} {size:>10} B: " + " ".join(f"{v:.2f}" for v in row) + paced)
    for label, keep in (("N = 1", lambda n: n == 1), ("N >= 2", lambda n: n >= 2)):
        rows = [row for (n, _), row in table.items() if keep(n)]
        if rows:
            print(f"  mean, {label}: " + " ".join(
                f"{statistics.mean(c):.2f} ({min(c):.2f}-{max(c):.2f})" for c in zip(*rows)))
    return 0


def fit_start_order(points):
    """The g (0.01 to 4 by 0.01) of coupled_slowdown(g, n_reverse, n_own), exponent 1, closest to `points`,
    [(n_own, n_reverse, measured)], in least squares of the logarithms; ties go to the smaller. Returns (g, rms log
    error)."""
    best = min(range(1, 401), key=lambda g: (round(exponent_rms(points, g / 100, 1.0), 12), g))
    return best / 100, exponent_rms(points, best / 100, 1.0)


REVERSE_ROLES = {"incast-mixed": ("reverse", "alone"), "outcast-mixed": ("reverse-in", "alone-in")}


def reverse_slowdowns(lines, pattern):
    """{(n, size): median over repeats of the lone flow's time beside n = N - 1 flows the other way over its time
    alone} for incast-mixed (a flow out of the hub beside n flows into it) or outcast-mixed (a flow into the hub
    beside n flows out of it)."""
    beside, alone = REVERSE_ROLES[pattern]
    by_key = {}
    for rec in lines:
        if rec.get("pattern") != pattern:
            continue
        roles = rec.get("roles", [])
        if beside not in roles or alone not in roles:
            continue
        b, a = rec["times_s"][roles.index(beside)], rec["times_s"][roles.index(alone)]
        if a > 0 and b > 0:
            by_key.setdefault((rec["clients"] - 1, rec["size_bytes"]), []).append(b / a)
    return {k: statistics.median(v) for k, v in sorted(by_key.items())}


def coupled_slowdown(g, n_reverse, n_same=1, exponent=1.0):
    """sgdsim's ACK coupling (docs/models.md §10.6): n_same flows one way beside n_reverse the other way through the
    hub's NIC run at most at C / (g x n_reverse x n_same^(1 - exponent)) each (C / n_same each without the reverse
    flows): their time over their time without them, max(1, g n_reverse / n_same^exponent)."""
    return max(1.0, g * n_reverse / n_same ** exponent)


def fit_coupling(slowdowns):
    """The g (0 to 2 by 0.01) whose coupled_slowdown is closest to the measured ones in least squares of the
    logarithms; returns (g, rms log error)."""
    def err(g):
        return sum((math.log(coupled_slowdown(g, n)) - math.log(m)) ** 2 for (n, _), m in slowdowns.items())
    best = min((i / 100 for i in range(0, 201)), key=err)
    return best, math.sqrt(err(best) / len(slowdowns))


def exponent_rms(points, g, e):
    """rms log error of coupled_slowdown(g, n_reverse, n_own, e) against `points`, [(n_own, n_reverse, measured)]."""
    return math.sqrt(sum((math.log(coupled_slowdown(g, r, o, e)) - math.log(m)) ** 2 for o, r, m in points)
                     / len(points))


def fit_exponent(points, g):
    """The exponent (0 to 1 by 0.01) whose coupled_slowdown with the lone-flow fit's g is closest to `points` of
    incast-duplex in least squares of the logarithms; ties go to the larger (1, the lone-flow form, where the rows
    cannot tell). Returns (exponent, rms log error)."""
    best = max((i / 100 for i in range(0, 101)), key=lambda e: (-round(exponent_rms(points, g, e), 12), e))
    return best, exponent_rms(points, g, best)


# Per direction of the flows started late: the patterns that measure it, the options of its late and of its
# established flows (the other direction), and the two directions' names.
START_ORDER = {"in": (("duplex-late-in", "staggered-in"), "--ack-coupling-late-in", "--ack-coupling-established-out",
                      "out"),
               "out": (("duplex-late-out", "staggered-out"), "--ack-coupling-late-out", "--ack-coupling-established-in",
                       "in")}


def start_order_laws(runs, together):
    """Prints the rows of the patterns that start flows late and the G fitted to their late and their established
    flows (exponent 1; the exponent that would fit best beside it), against the law of flows started together
    (`together`: per direction of the late flows, the late and the established direction's (g, exponent));
    returns the options fitted."""
    options = []
    for way, (patterns, late_option, est_option, other) in START_ORDER.items():
        late = {(i, p) + k: v for i, run in enumerate(runs) for p in patterns
                for k, v in late_table(run, p).items() if not math.isnan(v)}
        est = {(i, p) + k: v for i, run in enumerate(runs) for p in patterns
               for k, v in established_slowdowns(run, p).items()}
        (g_late, e_late), (g_est, e_est) = together[way]
        for option, table, what, g0, e0 in ((late_option, late, f"{way} started late beside", g_late, e_late),
                                             (est_option, est, f"{other} established, joined by", g_est, e_est)):
            if not table:
                continue
            for (i, p, n_own, n_rev, size), m in table.items():
                model = f"{coupled_slowdown(g0, n_rev, n_own, e0):.2f}" if g0 is not None else "-"
                print(f"{p} run {i + 1} {size:>10} B: {n_own} {what} {n_rev}: mean slowdown {m:.2f} (the law of "
                      f"flows started together: {model})")
            points = [(n_own, n_rev, m) for (_, _, n_own, n_rev, _), m in table.items()]
            g, rms = fit_start_order(points)
            g2, e2, rms2 = fit_law(points)
            print(f"{option} {g:.2f} (rms log error {rms:.3f}; with an exponent of its own: G {g2:.2f}, E {e2:.2f}, "
                  f"{rms2:.3f})")
            options += [option, f"{g:.2f}"]
    return options


def fit_law(points):
    """The (g, exponent) of coupled_slowdown closest to `points` in least squares of the logarithms: g from 0.01 to
    4 by 0.01, the exponent from 0 to 1 by 0.01; ties go to the larger exponent, then the smaller g. Returns (g,
    exponent, rms log error)."""
    best = min((round(exponent_rms(points, g / 100, e / 100), 12), -e, g) for g in range(1, 401) for e in range(101))
    return best[2] / 100, -best[1] / 100, best[0]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("flows", nargs="+", help="OUT.flows.jsonl of measure.py incast (several: several runs)")
    parser.add_argument("--roles", action="store_true",
                        help="only print each file's mean slowdown by role of incast-duplex, duplex-late-in and "
                             "duplex-late-out (N = 1 included; validation/testbed/README.md, 2026-11-27g)")
    parser.add_argument("--first-pull", action="store_true",
                        help="fit the first pull's weight per N and the spread out of the flows after it on incast-out "
                             "of a workload's tensors (measure.py incast --flow-tensors; docs/models.md §10.6, \"The "
                             "first pull\"); prints sgdsim's --flow-spread-out and --first-pull-weight")
    parser.add_argument("--coupling", metavar="G_IN,G_OUT",
                        help="the lone-flow couplings, where the files do not measure them (outcast-mixed, "
                             "incast-mixed)")
    args = parser.parse_args(argv)
    runs = []
    for path in args.flows:
        try:
            with open(path, encoding="utf-8") as f:
                runs.append([json.loads(line) for line in f if line.strip()])
        except (OSError, ValueError) as e:
            print(f"fit_incast.py: error: {path}: {e}", file=sys.stderr)
            return 2
    if args.roles:
        return max(print_roles(path, run) for path, run in zip(args.flows, runs))
    if args.first_pull:
        return print_first_pull(" ".join(args.flows), [rec for run in runs for rec in run])
    given = {}
    if args.coupling:
        try:
            g_in, g_out = (float(x) for x in args.coupling.split(","))
        except ValueError:
            g_in = g_out = float("nan")
        if not (0 < g_in <= 4 and 0 < g_out <= 4):
            print(f"fit_incast.py: error: --coupling {args.coupling}: two couplings in (0, 4], G_IN,G_OUT",
                  file=sys.stderr)
            return 2
        given = {"--ack-coupling-in": g_in, "--ack-coupling-out": g_out}
    lines = [rec for run in runs for rec in run]
    options = []
    for pattern, option in (("incast-in", "--flow-spread-in"), ("incast-out", "--flow-spread-out")):
        spreads = measured_spreads(lines, pattern)
        if not spreads:
            print(f"fit_incast.py: error: {args.flows}: no {pattern} repeat with 2 flows or more", file=sys.stderr)
            return 2
        s, rms = fit(spreads)
        for (n, size), m in spreads.items():
            print(f"{pattern:<11} N={n} {size:>10} B: measured spread {m:.3f}")
        print(f"{pattern}: {option} {s:.2f} (rms log error {rms:.3f})")
        options += [option, f"{s:.2f}"]
    coupling = {}
    for pattern, option in (("outcast-mixed", "--ack-coupling-in"), ("incast-mixed", "--ack-coupling-out")):
        slowdowns = reverse_slowdowns(lines, pattern)
        if not slowdowns:
            continue
        g, rms = fit_coupling(slowdowns)
        for (n, size), m in slowdowns.items():
            print(f"{pattern:<13} {n} flows the other way {size:>10} B: slowdown {m:.2f} "
                  f"(model {coupled_slowdown(g, n):.2f})")
        print(f"{pattern}: {option} {g:.2f} (rms log error {rms:.3f})")
        coupling[option] = g
    if given:
        print(f"given: --ack-coupling-in {given['--ack-coupling-in']:.2f} --ack-coupling-out "
              f"{given['--ack-coupling-out']:.2f}")
        coupling = given
    g_in, g_out = coupling.get("--ack-coupling-in"), coupling.get("--ack-coupling-out")
    # Each run's rows over that run's own times alone; the points of every run together.
    tables = {pattern: {(i,) + k: v for i, run in enumerate(runs) for k, v in duplex_table(run, pattern).items()}
              for pattern in SPLITS}
    rows = tables["incast-duplex"].values()  # (n_in, m_out, measured in, max-min in, measured out, max-min out)
    exponents = {}  # fitted on incast-duplex, each direction given its lone-flow g: points (n_own, n_reverse, slowdown)
    for option, g, points in (("--ack-coupling-exponent-in", g_in, [(k, m, m_in) for k, m, m_in, _, _, _ in rows]),
                              ("--ack-coupling-exponent-out", g_out, [(m, k, m_out) for k, m, _, _, m_out, _ in rows])):
        if points and g is not None:
            e, rms = fit_exponent(points, g)
            print(f"incast-duplex: {option} {e:.2f} (rms log error {rms:.3f}; with 1: "
                  f"{exponent_rms(points, g, 1.0):.3f})")
            exponents[option] = e
    e_in = exponents.get("--ack-coupling-exponent-in", 1.0)
    e_out = exponents.get("--ack-coupling-exponent-out", 1.0)
    laws = start_order_laws(runs, {"in": ((g_in, e_in), (g_out, e_out)), "out": ((g_out, e_out), (g_in, e_in))})
    for pattern, table in tables.items():
        if not table:
            continue
        print(f"{pattern} against SimGrid's max-min with ACK traffic and the fitted coupling (slowdown over one "
              "direction alone):")
        for (i, n, size), (k, m, m_in, s_in, m_out, s_out) in table.items():
            run = f"run {i + 1} " if len(runs) > 1 else ""
            fit_in = f", coupling {coupled_slowdown(g_in, m, k, e_in):.2f}" if g_in is not None else ""
            fit_out = f", coupling {coupled_slowdown(g_out, k, m, e_out):.2f}" if g_out is not None else ""
            print(f"  {run}N={n} {size:>10} B, {k} in {m} out: in {m_in:.2f} (max-min {s_in:.2f}{fit_in}), "
                  f"out {m_out:.2f} (max-min {s_out:.2f}{fit_out})")
    if len(coupling) == 2:  # the options go together (sgdsim run refuses one alone)
        for option, g in coupling.items():
            options += [option, f"{g:.2f}"]
        for option, e in exponents.items():
            if e < 1:  # 1 is sgdsim's default
                options += [option, f"{e:.2f}"]
        if laws:  # printed apart: make_cases.py reads the last line, and the late-in law from this one (§10.6)
            print("start order (docs/models.md §10.6; the Sync-PS cases take the late-in law): " + " ".join(laws))
    print(" ".join(options))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
