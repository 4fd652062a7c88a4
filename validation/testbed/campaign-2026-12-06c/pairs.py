#!/usr/bin/env python3
"""The per-layer / per-tensor pairs of the testbed (a diagnosis, 2026-12-06c; validation/testbed/README.md).

For every ring series of ResNet-101, ResNet-152 and DenseNet-121 (V100) measured per layer and per tensor in one
campaign, runs `sgdsim run` on each point with the case's own arguments plus the flags given (none: the model as
committed), then prints the two series' mean error and, at K = 5-8, the measured and simulated differences of the
per-tensor and per-layer steps (what the per-tensor series' extra small calls cost). Run from anywhere:

    validation/testbed/campaign-2026-12-06c/pairs.py [FLAGS...]    # e.g. --uncovered-gain waits

About 1 minute on 2 cores per set of flags.
"""
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "measure"))
import make_cases  # noqa: E402  (simulate)

MODELS = ("1gbit-resnet152", "1gbit-resnet101", "1gbit-densenet121-v100")


def pairs():
    folder = os.path.join(REPO, "validation", "testbed", "cases")
    names = set(os.listdir(folder))
    out = []
    for name in sorted(names):
        if "ring-layer-overlap-on" in name and "1thread" not in name and name.startswith(MODELS):
            twin = name.replace("ring-layer", "ring-tensor")
            if twin in names:
                out.append((name, twin))
    return out


def load(name):
    with open(os.path.join(REPO, "validation", "testbed", "cases", name, "case.json")) as f:
        return json.load(f)


def without(args, option):
    args = list(args)
    if option in args:
        i = args.index(option)
        del args[i : i + 2]
    return args


def simulate(job, extra):
    name, label, args = job
    # An option given replaces the case's own (each takes one value); --uncovered-gain applies to --in-flight-cost
    # paired only.
    for option in extra:
        if option.startswith("--"):
            args = without(args, option)
    if "--in-flight-cost" in extra and extra[extra.index("--in-flight-cost") + 1] != "paired":
        args = without(args, "--uncovered-gain")
    result = make_cases.simulate(os.path.join(REPO, "build", "src", "sgdsim"), args + extra)
    return (name, label), result["simulated"]["step_time_mean_s"]


def main():
    extra = sys.argv[1:]
    twins = pairs()
    cases = {n: load(n) for pair in twins for n in pair}
    measured = {(n, p["label"]): p["measured"] for n, c in cases.items() for p in c["points"]}
    jobs = [(n, p["label"], c["run"] + p["args"]) for n, c in cases.items() for p in c["points"]]
    with ThreadPoolExecutor(2) as pool:
        simulated = dict(pool.map(lambda j: simulate(j, extra), jobs))
    err = {}
    for key, s in simulated.items():
        err.setdefault(key[0], []).append(abs(s - measured[key]) / measured[key])
    mean = {n: sum(v) / len(v) for n, v in err.items()}
    met = sum(1 for n in mean if mean[n] <= 0.05 and max(err[n]) <= 0.15)
    meas_diff = sim_diff = 0.0
    longer = points = 0
    for layer, tensor in twins:
        for k in range(5, 9):
            label = "%d workers" % k
            m = measured[(tensor, label)] - measured[(layer, label)]
            s = simulated[(tensor, label)] - simulated[(layer, label)]
            meas_diff, sim_diff = meas_diff + m, sim_diff + s
            longer, points = longer + (m > s), points + 1
    layers = [n for n in mean if "ring-layer" in n]
    tensors = [n for n in mean if "ring-tensor" in n]
    print("flags: %s" % (" ".join(extra) or "(none: the committed model)"))
    print("  %d pairs; mean error per layer %.2f%%, per tensor %.2f%%; target met by %d of %d series" %
          (len(layers), 100 * sum(mean[n] for n in layers) / len(layers),
           100 * sum(mean[n] for n in tensors) / len(tensors), met, len(mean)))
    print("  K = 5-8, per tensor minus per layer: measured / simulated %.2f in sum; measured larger at %d of %d" %
          (meas_diff / sim_diff, longer, points))
    for unit, names in (("layer", layers), ("tensor", tensors)):
        row = []
        for k in range(2, 9):
            label = "%d workers" % k
            v = [(simulated[(n, label)] - measured[(n, label)]) / measured[(n, label)] for n in names]
            row.append("%+.1f" % (100 * sum(v) / len(v)))
        print("  per %-6s mean signed error %%, K = 2..8: %s" % (unit, " ".join(row)))


if __name__ == "__main__":
    main()
