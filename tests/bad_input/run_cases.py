#!/usr/bin/env python3
"""The malformed-input suite (issue #21): every case in cases/*.txt must end with exit status 2, nothing on stdout,
exactly one line on stderr, "sgdsim: error: ..." containing the expected text (which names the file, and its line
where the format has lines), and no file left behind but the inputs.

A case file holds cases separated by lines "== TITLE"; in a case:
  file NAME KIND      then the file's lines up to "end"; KIND: raw, platform (wrapped in SimGrid's platform header
                      and footer, so that line 4 is the first line given), workload (wrapped in <workload ...>, first
                      line given is line 3), bytes (each line a Python bytes literal), fifo (a named pipe) or dir (a
                      folder; both take no lines). NAME may hold folders (c/case.json): they are made, and {c}
                      names the folder.
  run ARGS...         the sgdsim command line (after "sgdsim"), split like a shell line
  error TEXT          a substring the error line must contain
In ARGS and TEXT, {NAME} is the path of file NAME, {repo} the repository. Each case runs in an empty folder.

Usage: run_cases.py SGDSIM CASES_DIR [--filter SUBSTRING] [--commands LIST]
  --filter    only the cases whose title or place holds SUBSTRING
  --commands  only the cases of these sgdsim commands (comma-separated: run,calibrate,...)
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

PLATFORM_HEAD = ('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
                 '<platform version="4.1">\n')
WORKLOAD_HEAD = ('<?xml version="1.0"?>\n<workload name="w" device="d" batch="32" reference_speed="15.7Tf">\n')


def parse(path):
    cases, case, in_file = [], None, None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if in_file is not None:
                if line == "end":
                    in_file = None
                else:
                    case["files"][-1][2].append(line)
                continue
            if line.startswith("== "):
                case = {"title": line[3:], "where": f"{os.path.basename(path)}:{number}", "files": [],
                        "run": None, "error": None}
                cases.append(case)
            elif not line.strip() or line.startswith("#"):
                continue
            elif case is None:
                sys.exit(f"{path}:{number}: text before the first '== TITLE'")
            elif line.startswith("file "):
                _, name, kind = line.split()
                if kind not in ("raw", "platform", "workload", "bytes", "fifo", "dir"):
                    sys.exit(f"{path}:{number}: unknown file kind {kind}")
                case["files"].append((name, kind, []))
                in_file = name
            elif line.startswith("run "):
                case["run"] = line[4:]
            elif line.startswith("error "):
                case["error"] = line[6:]
            else:
                sys.exit(f"{path}:{number}: cannot read '{line}'")
    for c in cases:
        if not c["run"] or not c["error"]:
            sys.exit(f"{c['where']}: case '{c['title']}' needs a run and an error line")
    return cases


def substitute(text, paths):
    return re.sub(r"\{([A-Za-z0-9_./-]+)\}", lambda m: paths.get(m.group(1), m.group(0)), text)


def tree(top):
    """Every path under `top`, relative to it: a file left behind in a case's folder counts too."""
    return sorted(os.path.relpath(os.path.join(d, n), top) for d, dirs, files in os.walk(top) for n in dirs + files)


def run_case(sgdsim, repo, case):
    with tempfile.TemporaryDirectory(prefix="sgdsim-bad-") as tmp:
        paths = {"repo": repo}
        for name, kind, lines in case["files"]:
            path = os.path.join(tmp, name)
            paths[name] = path
            os.makedirs(os.path.dirname(path), exist_ok=True)
            for parent in range(name.count("/")):  # {c} for the folder of c/case.json
                folder = "/".join(name.split("/")[:parent + 1])
                paths.setdefault(folder, os.path.join(tmp, folder))
            if kind == "fifo":
                os.mkfifo(path)
                continue
            if kind == "dir":
                os.makedirs(path, exist_ok=True)
                continue
            text = "\n".join(lines) + "\n"
            if kind == "platform":
                text = PLATFORM_HEAD + text + "</platform>\n"
            elif kind == "workload":
                text = WORKLOAD_HEAD + text + "</workload>\n"
            if kind == "bytes":  # the lines are Python bytes literals, e.g. b'\xff\xfe<\x00'
                data = b"".join(eval(l) for l in lines)  # noqa: S307 (test data written by the project)
                with open(path, "wb") as f:
                    f.write(data)
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
        before = tree(tmp)
        args = [substitute(a, paths) for a in shlex.split(case["run"])]
        expected = substitute(case["error"], paths)
        try:
            p = subprocess.run([sgdsim] + args, cwd=tmp, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            return "timed out after 120 s (a hang)"
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        lines = err.splitlines()
        problems = []
        if p.returncode != 2:
            problems.append(f"exit status {p.returncode}, expected 2")
        if out:
            problems.append(f"stdout not empty: {out[:200]!r}")
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, expected 1")
        elif not lines[0].startswith("sgdsim: error: "):
            problems.append("the line does not start with 'sgdsim: error: '")
        if expected not in err:
            problems.append(f"expected text not found: {expected!r}")
        after = tree(tmp)
        if after != before:
            problems.append(f"files left behind: {sorted(set(after) - set(before))}")
        if problems:
            return "; ".join(problems) + f"\n    stderr: {err[:600]!r}"
    return None


def main():
    if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
        sys.exit(__doc__)
    sgdsim, cases_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    if set(options) - {"--filter", "--commands"}:
        sys.exit(__doc__)
    only = options.get("--filter")
    commands = set(options["--commands"].split(",")) if "--commands" in options else None
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    cases = []
    for name in sorted(os.listdir(cases_dir)):
        if name.endswith(".txt"):
            cases += parse(os.path.join(cases_dir, name))
    if only:
        cases = [c for c in cases if only in c["title"] or only in c["where"]]
    if commands is not None:
        cases = [c for c in cases if (shlex.split(c["run"]) or [""])[0] in commands]
        if not cases:
            sys.exit(f"no case of the commands {sorted(commands)}")
    titles = [c["title"] for c in cases]
    if len(set(titles)) != len(titles):
        sys.exit("two cases have the same title: " + ", ".join(sorted({t for t in titles if titles.count(t) > 1})))
    failed = 0
    for c in cases:
        problem = run_case(sgdsim, repo, c)
        if problem:
            failed += 1
            print(f"FAIL {c['where']} {c['title']}: {problem}")
    print(f"{len(cases)} malformed-input cases, {len(cases) - failed} handled as input errors, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
