#!/usr/bin/env python3
"""Builds the fuzzers' seed corpora from files already in the repository (docs/fuzzing.md), so that none is kept
twice: the shipped platforms, workloads, deployments and backgrounds, the test data, the validation cases (their
command lines too), and every case of the malformed-input suite (tests/bad_input/cases), whose files go to the
harness of the option that names them and whose whole command line becomes a run_inputs container.

Usage: make_seeds.py OUT_DIR      (writes OUT_DIR/HARNESS/SHA1 files; existing files are kept)
"""
import glob
import hashlib
import json
import os
import shlex
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "bad_input"))
sys.dont_write_bytecode = True  # nothing left in the tree
import run_cases  # noqa: E402  (the suite's own reader of its case files)

MAX_SEED = 8192  # bytes; tools/fuzz.sh's -max_len for single files (twice that for containers)
HARNESSES = ["workload", "deployment", "background", "platform", "calibration", "scenario", "run_inputs",
             "validation_case"]
# The file options of `sgdsim run` and the run_inputs section each fills.
FILE_OPTIONS = {"--platform": "platform", "--workload": "workload", "--deployment": "deployment",
                "--background": "background", "--scenario": "scenario"}
DEFAULT_PLATFORM = "platforms/aws-p3.2xlarge.xml"
SMALL_WORKLOAD = "workloads/alexnet-v100-b32.xml"  # run's default (ResNet-50) is 21 KB, beyond -max_len


def read(path):
    with open(os.path.join(REPO, path), "rb") as f:
        return f.read()


def root_of(data):
    """The root element's name of an XML file, or None."""
    text = data.decode("utf-8", "replace")
    for tag in ("workload", "background", "platform"):
        if "<" + tag in text:
            return tag
    return None


class Corpus:
    def __init__(self, out):
        self.out = out
        self.count = {h: 0 for h in HARNESSES}

    def add(self, harness, data, limit=MAX_SEED):
        if len(data) > limit:
            return
        folder = os.path.join(self.out, harness)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.count[harness] += 1

    def add_container(self, args, files):
        """A run_inputs input: the arguments, then one section per file (fuzz_support.hpp's format)."""
        parts = [b"=== args\n" + "".join(a + "\n" for a in args).encode()]
        for section, data in files.items():
            parts.append(b"=== " + section.encode() + b"\n" + data + (b"" if data.endswith(b"\n") else b"\n"))
        self.add("run_inputs", b"".join(parts), 2 * MAX_SEED)


def add_files(corpus):
    for path in sorted(glob.glob(os.path.join(REPO, "workloads", "*.xml")) +
                       glob.glob(os.path.join(REPO, "tests", "data", "**", "*.xml"), recursive=True) +
                       glob.glob(os.path.join(REPO, "tests", "measure", "*.xml")) +
                       glob.glob(os.path.join(REPO, "validation", "cases", "*", "*.xml")) +
                       glob.glob(os.path.join(REPO, "platforms", "**", "*.xml"), recursive=True) +
                       glob.glob(os.path.join(REPO, "deployments", "*.xml")) +
                       glob.glob(os.path.join(REPO, "docs", "*.xml"))):
        data = read(path)
        root = root_of(data)
        if root == "platform" and b"<actor" in data:
            corpus.add("deployment", data)
        elif root == "platform":
            corpus.add("platform", data)
        elif root in ("workload", "background"):
            corpus.add(root, data)
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "data", "**", "*.csv"), recursive=True) +
                       glob.glob(os.path.join(REPO, "workloads", "sources", "calibration.csv"))):
        corpus.add("calibration", read(path))
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "data", "**", "*.cfg"), recursive=True)):
        corpus.add("scenario", read(path))
    # The JSON documents read back: validation cases (and the bad_input suite's case.json files, below) and sweep
    # plans.
    for path in sorted(glob.glob(os.path.join(REPO, "validation", "**", "case.json"), recursive=True) +
                       glob.glob(os.path.join(REPO, "docs", "**", "sweep-plan.json"), recursive=True)):
        corpus.add("validation_case", read(path))
    # The harnesses' own options: calibrate's --where, --size-column and --time-column.
    corpus.add("calibration", b"%where op=p2p\n%size size_bytes\n%time time_s\n" +
               read("tests/data/calibration/p2p.csv"))
    corpus.add("calibration", b"%bandwidth-from 1048576\n" + read("tests/data/calibration/p2p.csv"))


def add_shipped_runs(corpus):
    """Each shipped deployment on its platform, the straggler background on its platform, and every validation
    case's points whose files fit."""
    for path in sorted(glob.glob(os.path.join(REPO, "deployments", "*.xml"))):
        name = os.path.basename(path)
        platforms = [p for p in glob.glob(os.path.join(REPO, "platforms", "*.xml"))
                     if name.startswith(os.path.basename(p)[:-4] + "-")]
        if platforms:
            arch = ["--arch", "ring"] if "-ring-" in name else []
            corpus.add_container(arch, {"platform": read(platforms[0]), "workload": read(SMALL_WORKLOAD),
                                        "deployment": read(path)})
    corpus.add_container(["--workers", "8"], {"platform": read(DEFAULT_PLATFORM), "workload": read(SMALL_WORKLOAD),
                                              "background": read("platforms/background/aws-p3-straggler.xml")})
    corpus.add_container(["--arch", "ring", "--collective", "hierarchical", "--gpus-per-node", "8", "--workers", "16"],
                         {"platform": read("platforms/aws-p3.16xlarge.xml"), "workload": read(SMALL_WORKLOAD)})
    corpus.add_container([], {"platform": read(DEFAULT_PLATFORM), "workload": read(SMALL_WORKLOAD),
                              "scenario": read("tests/data/async4.cfg")})
    for case_json in sorted(glob.glob(os.path.join(REPO, "validation", "cases", "*", "case.json"))):
        with open(case_json, encoding="utf-8") as f:
            case = json.load(f)
        for point in case.get("points", []):
            add_command(corpus, case.get("run", []) + point.get("args", []), lambda p: read(p))


def add_command(corpus, args, load):
    """A `sgdsim run` command line as a run_inputs container; `load` reads a file argument (None: not a file)."""
    files, rest, i = {}, [], 0
    while i < len(args):
        if args[i] in FILE_OPTIONS and i + 1 < len(args):
            data = load(args[i + 1])
            if data is None:
                return
            files[FILE_OPTIONS[args[i]]] = data
            corpus.add(FILE_OPTIONS[args[i]], data)
            i += 2
        else:
            rest.append(args[i])
            i += 1
    files.setdefault("platform", read(DEFAULT_PLATFORM))
    files.setdefault("workload", read(SMALL_WORKLOAD))
    corpus.add_container(rest, files)


def add_bad_input_cases(corpus):
    for case_file in sorted(glob.glob(os.path.join(REPO, "tests", "bad_input", "cases", "*.txt"))):
        for case in run_cases.parse(case_file):
            contents = {}
            for name, kind, lines in case["files"]:
                if kind == "bytes":
                    data = b"".join(eval(line) for line in lines)  # noqa: S307 (the suite's own test data)
                else:
                    text = "\n".join(lines) + "\n"
                    if kind == "platform":
                        text = run_cases.PLATFORM_HEAD + text + "</platform>\n"
                    elif kind == "workload":
                        text = run_cases.WORKLOAD_HEAD + text + "</workload>\n"
                    data = text.encode()
                contents[name] = data
                if name.endswith(".json"):  # a malformed validation case or sweep plan
                    corpus.add("validation_case", data)
            words = shlex.split(case["run"])
            if not words:
                continue
            command, args = words[0], words[1:]

            def load(arg):
                if arg.startswith("{") and arg.endswith("}") and arg[1:-1] in contents:
                    return contents[arg[1:-1]]
                if arg.startswith("{repo}/") and os.path.isfile(os.path.join(REPO, arg[len("{repo}/"):])):
                    return read(arg[len("{repo}/"):])
                return None

            if command == "calibrate":
                for j, a in enumerate(args[:-1]):
                    if a == "--measurements" and load(args[j + 1]) is not None:
                        corpus.add("calibration", load(args[j + 1]))
            elif command in ("run", "analytic"):
                # Output paths and other placeholders become plain names: the harness writes nothing.
                args = [a if a in FILE_OPTIONS or (i > 0 and args[i - 1] in FILE_OPTIONS)
                        else run_cases.substitute(a, {n: n for n in contents} | {"repo": "."})
                        for i, a in enumerate(args)]
                add_command(corpus, (["analytic"] if command == "analytic" else []) + args, load)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    corpus = Corpus(sys.argv[1])
    add_files(corpus)
    add_shipped_runs(corpus)
    add_bad_input_cases(corpus)
    print("seeds: " + ", ".join(f"{h} {len(os.listdir(os.path.join(corpus.out, h)))}" for h in HARNESSES
                                if os.path.isdir(os.path.join(corpus.out, h))))


if __name__ == "__main__":
    main()
