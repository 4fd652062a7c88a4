#!/usr/bin/env python3
"""Writes the testbed's summary tables (validation/testbed/README.md "Results and what is missing", and the table per
campaign of validation/README.md) from a report.

    tools/testbed_summary.py [--report validation/report.json] [--readme validation/testbed/README.md]
                             [--campaigns-readme validation/README.md] [--check]

The table holds, for every testbed case of the report (validation/testbed/cases/, named RATE-MODEL-DEVICE-bBATCH-
ARCH-overlap-on[-20steps][-CAMPAIGN]), the simulation's mean / max error, bold where the case misses its target: one
row per architecture, one column per model (and device, when not the K80; batch, when not 32) and rate, and in each
cell one entry per campaign (the first campaign, 2026-11-23, has no suffix). It replaces what lies between the
README's testbed-summary markers. The second table has one row per campaign: its series, the models they ran, its
points' mean and largest error, and how many series meet their target; it replaces what lies between the
campaign-summary markers of validation/README.md. With --check it writes nothing and exits 1 if either README's table
differs from the report's, so that the figures a reader sees are those of the last `sgdsim validate` (test
repo.testbed_summary).
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import sys

import make_workload  # beside this file, standard library only: its device table names the columns

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BEGIN = "<!-- testbed-summary:begin -->"
END = "<!-- testbed-summary:end -->"
CAMPAIGNS_BEGIN = "<!-- campaign-summary:begin -->"
CAMPAIGNS_END = "<!-- campaign-summary:end -->"
# The devices of workloads/*.xml: the id each file name spells -> the name tools/make_workload.py gives it.
DEVICES = {facts["id"]: name for name, facts in make_workload.DEVICES.items()}
NAME = re.compile(r"^(?P<rate>\d+[a-z]+)-(?P<model>[a-z0-9_-]+?)-(?P<device>" + "|".join(DEVICES) + r")"
                  r"-b(?P<batch>\d+)-(?P<arch>.+?)-overlap-on"
                  r"(?P<steps>-20steps)?(?:-(?P<campaign>\d{4}-\d{2}-\d{2}[a-z]?))?$")
TESTBED = re.compile(r"^\d+(\.\d+)?[kmg]bit-")  # a testbed case's name starts with its emulated rate
# Rows, in the order of validation/testbed/README.md's sections.
ARCHS = [
    ("ps-sync-ps1", "Sync-PS, 1 PS"),
    ("ps-sync-ps2", "Sync-PS, 2 PS"),
    ("ps-sync-ps1-per-variable", "Sync-PS, 1 PS, per-variable reads"),
    ("ps-async-ps1", "Async-PS, 1 PS"),
    ("ring-ddp", "ring, DDP buckets"),
    ("ring-layer", "ring, one per layer"),
    ("ring-layer-1thread", "ring, one per layer, one Gloo thread"),
    ("ring-tensor", "ring, one per tensor"),
]
MODELS = {"densenet121": "DenseNet-121", "resnet50": "ResNet-50", "alexnet": "AlexNet", "googlenet": "GoogLeNet",
          "resnet18": "ResNet-18", "inception_v3": "Inception-v3", "bert-base": "BERT-base", "resnet101": "ResNet-101",
          "vgg16": "VGG-16", "gpt2": "GPT-2", "resnet152": "ResNet-152", "resnet34": "ResNet-34", "vgg11": "VGG-11",
          "vgg13": "VGG-13", "vgg19": "VGG-19", "bert-large": "BERT-large"}
RATES = {"1gbit": "1 Gbit/s", "500mbit": "500 Mbit/s"}
FIRST_CAMPAIGN = "2026-11-23"


def heading(rate, model, device, batch):
    """A column's heading: the model, then its device and batch where they are not the testbed's usual K80 and 32."""
    notes = ([] if device == "k80" else [DEVICES[device]]) + ([] if batch == "32" else [f"batch {batch}"])
    note = " (" + ", ".join(notes) + ")" if notes else ""
    return f"{MODELS[model]}{note} {RATES[rate]}"


def table(report):
    cells, columns = {}, []
    for case in report["cases"]:
        m = NAME.match(case["name"])
        if not m and TESTBED.match(case["name"]):
            sys.exit(f"testbed_summary.py: testbed case {case['name']}: not RATE-MODEL-DEVICE-bBATCH-ARCH-overlap-on"
                     "[-20steps][-CAMPAIGN]; the table would leave it out")
        if not m or "simulation" not in case:
            continue
        column = (m["rate"], m["model"], m["device"], m["batch"])
        if column not in columns:
            columns.append(column)
        sim = case["simulation"]
        figures = f"{100 * sim['mean_abs_error']:.1f}% / {100 * sim['max_abs_error']:.1f}%"
        if not case["target_met"]:
            figures = f"**{figures}**"
        label = (m["campaign"] or FIRST_CAMPAIGN)[5:] + (", 20 steps" if m["steps"] else "")
        cells.setdefault((m["arch"], column), []).append((m["campaign"] or FIRST_CAMPAIGN, label, figures))
    unknown = {arch for arch, _ in cells} - {arch for arch, _ in ARCHS}
    if unknown:
        sys.exit(f"testbed_summary.py: no row for the architecture(s) {', '.join(sorted(unknown))}")
    unnamed = sorted({f"{model} ({rate})" for rate, model, _, _ in columns if model not in MODELS or rate not in RATES})
    if unnamed:
        sys.exit(f"testbed_summary.py: no column heading for {', '.join(unnamed)}: add the model to MODELS or the "
                 "rate to RATES")
    # Columns: by rate (fastest first), then by model in the order they first appear.
    first_seen = {c: i for i, c in enumerate(columns)}
    columns.sort(key=lambda c: (list(RATES).index(c[0]), first_seen[c]))
    # A K80's compute and batch 32 per worker unless the heading says otherwise.
    head = ["series"] + [heading(rate, model, device, batch) for rate, model, device, batch in columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for arch, title in ARCHS:
        row = [title]
        for column in columns:
            entries = sorted(cells.get((arch, column), []))
            row.append("; ".join(f"{label}: {figures}" for _, label, figures in entries))
        if any(row[1:]):
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def campaigns(report):
    """One row per campaign (the date suffix of a case's name; the first campaign has none): the simulation's error
    over all its points, as REPORT.md's overall figure is taken, and its series that meet their target."""
    rows = {}
    for case in report["cases"]:
        m = NAME.match(case["name"])
        if not m or "simulation" not in case:
            continue
        row = rows.setdefault(m["campaign"] or FIRST_CAMPAIGN, {"series": 0, "met": 0, "errors": [], "models": []})
        row["series"] += 1
        row["met"] += bool(case["target_met"])
        row["errors"] += [abs(p["simulated_error"]) for p in case["points"] if p.get("simulated_error") is not None]
        model = heading(m["rate"], m["model"], m["device"], m["batch"])
        if model not in row["models"]:
            row["models"].append(model)
    lines = ["| campaign | series | models | points | simulation mean / max | series met |", "|---|---|---|---|---|---|"]
    for name in sorted(rows):
        row = rows[name]
        errors = row["errors"]
        figures = f"{100 * sum(errors) / len(errors):.2f}% / {100 * max(errors):.1f}%" if errors else "no points"
        lines.append(f"| {name} | {row['series']} | {', '.join(row['models'])} | {len(errors)} | {figures} | "
                     f"{row['met']} of {row['series']} |")
    return "\n".join(lines) + "\n"


def replace_between(path, begin, end, new_table, check, report):
    """Puts new_table between the markers of path; with check, only compares. Returns 1 on a difference under check."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        sys.exit(f"testbed_summary.py: {path}: expected one {begin} ... {end} pair")
    before, rest = text.split(begin)
    old_table, after = rest.split(end)
    if check:
        if old_table.strip() != new_table.strip():
            print(f"{path}: the table between {begin} and {end} differs from {report}; run tools/testbed_summary.py",
                  file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(before + begin + "\n" + new_table + end + after)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--report", default=os.path.join(ROOT, "validation", "report.json"))
    p.add_argument("--readme", default=os.path.join(ROOT, "validation", "testbed", "README.md"))
    p.add_argument("--campaigns-readme", default=os.path.join(ROOT, "validation", "README.md"))
    p.add_argument("--check", action="store_true", help="exit 1 if a README's table is not the report's")
    a = p.parse_args()
    with open(a.report, encoding="utf-8") as f:
        report = json.load(f)
    status = replace_between(a.readme, BEGIN, END, table(report), a.check, a.report)
    return status | replace_between(a.campaigns_readme, CAMPAIGNS_BEGIN, CAMPAIGNS_END, campaigns(report), a.check,
                                    a.report)


if __name__ == "__main__":
    sys.exit(main())
