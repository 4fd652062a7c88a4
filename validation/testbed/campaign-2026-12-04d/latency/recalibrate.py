#!/usr/bin/env python3
"""Calibrates again every all-reduce platform of the testbed with the route's latency measured apart: the experiment
of validation/testbed/README.md, 2026-12-04d "The route's latency, measured apart" (docs/models.md §10.7), made
the recipe on 2026-12-04e (this ran then; the platforms in the repository are its output, and --check lists none).

    validation/testbed/campaign-2026-12-04d/latency/recalibrate.py [--sgdsim build/src/sgdsim] [--check]

Each platform a testbed case runs on (and its twin from the microbenchmarks measured again, for drift.py) written by
`sgdsim calibrate --kind allreduce` (its XML comment holds the command) is written again by the same command plus `--latency L`, L the one-way time of the ping-pong row of the p2p
microbenchmark beside its all-reduce CSV (tools/measure/make_cases.py allreduce_latency_args, as it calibrates a new
campaign; the series folders of
2026-12-04b and 04c, which measured none, take 2026-12-04d's ping-pong, measured on the same build). A platform whose
command already gives --latency is left as it is. Prints each platform's latency per link before and after. --check:
writes nothing, exit 1 if a platform would change (every platform is then what the recipe makes). Nothing else of a
platform changes: B, the measured rows and the software costs per node count are the microbenchmark's as before."""

import argparse
import glob
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import drift  # noqa: E402  (again_platform: the twin drift.py --case reads)
import make_cases  # noqa: E402  (allreduce_latency_args, calibrate, calibrate_command, rel)

# Series folders without a p2p microbenchmark of their own: the ping-pong of the same machine build.
PINGPONG_OF = {
    "validation/testbed/campaign-2026-12-04b/series": "validation/testbed/campaign-2026-12-04d/pingpong/p2p.csv",
    "validation/testbed/campaign-2026-12-04c/series": "validation/testbed/campaign-2026-12-04d/pingpong/p2p.csv",
}


def case_platforms():
    """The platforms the testbed's cases run on, each with its twin from the microbenchmarks measured again after the
    trainings where there is one (drift.py --case): the platforms a campaign wrote only as the record of a prediction
    it did not keep (the 16 calls' of 2026-12-04b and 04c) stay as they were written."""
    found = set()
    for path in glob.glob(os.path.join(ROOT, "validation", "testbed", "cases", "*", "case.json")):
        with open(path, encoding="utf-8") as f:
            run = json.load(f)["run"]
        xml = os.path.normpath(os.path.join(ROOT, run[run.index("--platform") + 1]))
        found.add(xml)
        if os.path.basename(xml) in drift.PLATFORM_SOURCE and os.path.exists(drift.again_platform(xml)):
            found.add(drift.again_platform(xml))
    return sorted(found)


def cases_say_so():
    """Each ring case's prediction_uses names the latency its platform now takes (make_cases.LATENCY_TEXT, as
    make_cases.py writes a new campaign's), after --bandwidth-from's mention; said once."""
    for path in sorted(glob.glob(os.path.join(ROOT, "validation", "testbed", "cases", "*", "case.json"))):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        text = case.get("prediction_uses", "")
        if "--bandwidth-from 1MiB" not in text or "--latency" in text:
            continue
        run = case["run"]
        command = make_cases.calibrate_command(os.path.join(ROOT, run[run.index("--platform") + 1]))
        micro = os.path.dirname(option(command, "--measurements"))
        said = make_cases.LATENCY_TEXT
        if micro in PINGPONG_OF:
            said = said.replace("the same cluster's ping-pong", "the ping-pong of the same machine build, 2026-12-04d")
        case["prediction_uses"] = text.replace("--bandwidth-from 1MiB", "--bandwidth-from 1MiB; " + said, 1)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(case, indent=2) + "\n")


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def latency_per_link(xml_path):
    with open(xml_path, encoding="utf-8") as f:
        return re.search(r'lat="([^"]+)"', f.read()).group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    changed, missing = 0, []
    for xml in case_platforms():
        args = make_cases.calibrate_command(xml)
        if not args or option(args, "--kind") != "allreduce" or "--latency" in args:
            continue
        micro = os.path.dirname(option(args, "--measurements"))
        p2p = PINGPONG_OF.get(micro, os.path.join(micro, "p2p.csv"))
        if not os.path.exists(os.path.join(ROOT, p2p)):
            missing.append(make_cases.rel(xml))
            continue
        args += make_cases.allreduce_latency_args(os.path.join(ROOT, p2p))
        before = latency_per_link(xml)
        if a.check:
            changed += 1
            print(f"{make_cases.rel(xml)}: would take {' '.join(args[-2:])} ({p2p})")
            continue
        out = option(args, "-o")
        if os.path.normpath(os.path.join(ROOT, out)) != os.path.normpath(xml):
            raise SystemExit(f"recalibrate: {xml}: its command writes {out}")
        with tempfile.TemporaryDirectory() as tmp:
            log = xml + ".log" if os.path.exists(xml + ".log") else os.path.join(tmp, "log")
            make_cases.calibrate(a.sgdsim, args, log)
        changed += 1
        print(f"{make_cases.rel(xml)}: latency per link {before} -> {latency_per_link(xml)} ({p2p})")
    if not a.check:
        cases_say_so()
    for m in missing:
        print(f"{m}: no ping-pong beside its all-reduce CSV: left with the fitted alpha")
    return 1 if a.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
