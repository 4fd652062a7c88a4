#!/usr/bin/env python3
"""Makes every committed platform that `sgdsim calibrate -o` wrote again, with the sgdsim at hand.

Each such platform has beside it a PLATFORM.log whose first line is the calibrate command that wrote it (what
tools/measure/make_cases.py records) and the rest calibrate's report. This runs each command again from the
repository's root and rewrites the log, so that a change to calibrate reaches every validation case that rests on a
calibrated platform (docs/models.md §10.7). With --check nothing is written: it lists the platforms whose XML would
change and exits 1 if any would (the test repo.platforms_calibrated: a change to calibrate must remake them).

Usage: tools/recalibrate.py [--sgdsim build/src/sgdsim] [--check] [--under validation]
"""
import argparse
import glob
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def command_of(log_path):
    """The calibrate arguments recorded on the first line of LOG_PATH, or None if it holds none."""
    with open(log_path, encoding="utf-8") as f:
        first = f.readline().strip()
    words = shlex.split(first)
    if len(words) < 3 or words[:2] != ["sgdsim", "calibrate"] or "-o" not in words:
        return None
    return words[2:]


def write_log(log_path, args, out):
    """Writes LOG_PATH as every calibrated platform's log is kept (tools/measure/make_cases.py writes them with this
    too): the calibrate arguments ARGS on the first line, quoted as command_of reads them back, then calibrate's
    report (OUT, its finished process: stdout, then stderr)."""
    with open(log_path, "w", encoding="utf-8") as f:
        f.write("sgdsim calibrate " + shlex.join(args) + "\n" + out.stdout + out.stderr)


def with_output(args, path):
    """ARGS with the platform written to PATH instead of where it names."""
    out = list(args)
    out[out.index("-o") + 1] = path
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sgdsim", default=os.path.join(ROOT, "build", "src", "sgdsim"))
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a platform would change")
    ap.add_argument("--under", default="validation", help="folder searched for PLATFORM.xml.log (default validation)")
    a = ap.parse_args()
    if not os.access(a.sgdsim, os.X_OK):
        sys.exit(f"recalibrate: {a.sgdsim}: no sgdsim binary there (build first, or give --sgdsim)")
    logs = sorted(glob.glob(os.path.join(ROOT, a.under, "**", "*.xml.log"), recursive=True))
    changed, skipped = [], []
    scratch = tempfile.mkdtemp(prefix="recalibrate-") if a.check else None
    for log in logs:
        platform = log[: -len(".log")]
        args = command_of(log)
        if args is None or not os.path.exists(platform):
            skipped.append(os.path.relpath(log, ROOT))
            continue
        target = os.path.join(scratch, "platform.xml") if a.check else platform
        with open(platform, encoding="utf-8") as f:
            old = f.read()
        run_args = with_output(args, target if a.check else os.path.relpath(target, ROOT))
        out = subprocess.run([a.sgdsim, "calibrate"] + run_args, cwd=ROOT, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"recalibrate: {os.path.relpath(log, ROOT)}: sgdsim calibrate failed: {out.stderr.strip()}")
        if a.check:
            with open(target, encoding="utf-8") as f:
                new = f.read()
            os.remove(target)
            # The header names the output path given; compare what follows it.
            if new.split("-->", 1)[-1] != old.split("-->", 1)[-1]:
                changed.append(os.path.relpath(platform, ROOT))
            continue
        write_log(log, args, out)
        with open(platform, encoding="utf-8") as f:
            if f.read() != old:
                changed.append(os.path.relpath(platform, ROOT))
    if scratch:
        os.rmdir(scratch)
    for p in changed:
        print(("would change: " if a.check else "changed: ") + p)
    for p in skipped:
        print("skipped (no calibrate -o command on its first line, or no platform beside it): " + p)
    print(f"{len(logs)} logs, {len(changed)} platform(s) {'would change' if a.check else 'changed'}")
    return 1 if a.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
