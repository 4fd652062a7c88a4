#!/usr/bin/env python3
"""Fits sgdsim's --flow-spread-in and --flow-spread-out to `measure.py incast` (docs/measure.md §3, docs/models.md
§10.6).

    tools/measure/fit_incast.py validation/testbed/data/1gbit/incast.flows.jsonl

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
max-min with ACK traffic and against the fitted coupling (docs/models.md §10.6). Standard library only."""

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


def median_time(lines, pattern, clients, role, size):
    """The median time of every `role` flow of `pattern`'s repeats with `clients` clients (None: any) and `size`."""
    v = [t for r in lines if r.get("pattern") == pattern and r["size_bytes"] == size and
         (clients is None or r["clients"] == clients) for t, ro in zip(r["times_s"], r["roles"]) if ro == role]
    return statistics.median(v) if v else float("nan")


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


def late_in_table(lines):
    """duplex-late-in: per (N, size), the median time of the N flows into the hub started late beside N established
    flows out, over the median time of incast-in's N flows alone."""
    keys = sorted({(r["clients"], r["size_bytes"]) for r in lines if r.get("pattern") == "duplex-late-in"})
    return {(n, size): median_time(lines, "duplex-late-in", n, "late-in", size)
            / median_time(lines, "incast-in", n, "in", size) for n, size in keys}


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


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("flows", help="OUT.flows.jsonl of measure.py incast")
    args = parser.parse_args(argv)
    try:
        with open(args.flows, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        print(f"fit_incast.py: error: {args.flows}: {e}", file=sys.stderr)
        return 2
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
    g_in, g_out = coupling.get("--ack-coupling-in"), coupling.get("--ack-coupling-out")
    tables = {pattern: duplex_table(lines, pattern) for pattern in SPLITS}
    rows = tables["incast-duplex"].values()  # (n_in, m_out, measured in, max-min in, measured out, max-min out)
    exponents = {}  # fitted on incast-duplex, each direction given its lone-flow g: points (n_own, n_reverse, slowdown)
    for option, g, points in (("--ack-coupling-exponent-in", g_in, [(k, m, m_in) for k, m, m_in, _, _, _ in rows]),
                              ("--ack-coupling-exponent-out", g_out, [(m, k, m_out) for k, m, _, _, m_out, _ in rows])):
        if points and g is not None:
            e, rms = fit_exponent(points, g)
            print(f"incast-duplex: {option} {e:.2f} (rms log error {rms:.3f}; with 1: "
                  f"{exponent_rms(points, g, 1.0):.3f})")
            exponents[option] = e
    late = {k: v for k, v in late_in_table(lines).items() if not math.isnan(v)}
    if late:  # printed, not in the options: which start order a training sees is its own (docs/models.md §10.6)
        for (n, size), m in late.items():
            print(f"duplex-late-in N={n} {size:>10} B: flows in started late beside {n} out: slowdown {m:.2f}")
        if g_in is not None:
            e, rms = fit_exponent([(n, n, m) for (n, _), m in late.items()], g_in)
            print(f"duplex-late-in: its exponent with G_in {g_in:.2f} would be {e:.2f} (rms log error {rms:.3f})")
    e_in = exponents.get("--ack-coupling-exponent-in", 1.0)
    e_out = exponents.get("--ack-coupling-exponent-out", 1.0)
    for pattern, table in tables.items():
        if not table:
            continue
        print(f"{pattern} against SimGrid's max-min with ACK traffic and the fitted coupling (slowdown over one "
              "direction alone):")
        for (n, size), (k, m, m_in, s_in, m_out, s_out) in table.items():
            fit_in = f", coupling {coupled_slowdown(g_in, m, k, e_in):.2f}" if g_in is not None else ""
            fit_out = f", coupling {coupled_slowdown(g_out, k, m, e_out):.2f}" if g_out is not None else ""
            print(f"  N={n} {size:>10} B, {k} in {m} out: in {m_in:.2f} (max-min {s_in:.2f}{fit_in}), "
                  f"out {m_out:.2f} (max-min {s_out:.2f}{fit_out})")
    if len(coupling) == 2:  # the options go together (sgdsim run refuses one alone)
        for option, g in coupling.items():
            options += [option, f"{g:.2f}"]
        for option, e in exponents.items():
            if e < 1:  # 1 is sgdsim's default
                options += [option, f"{e:.2f}"]
    print(" ".join(options))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
