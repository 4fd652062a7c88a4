#!/usr/bin/env python3
"""Checks that the repository's Markdown files refer only to what the repository holds.

    tools/check_links.py [REPO_DIR]

Reads README.md, docs/*.md, bench/README.md, validation/**/*.md and workloads/**/*.md under REPO_DIR (default: the
folder above this script) and reports, as FILE:LINE: problem, each
  - relative link or image `[text](target)` (and reference definition `[id]: target`) whose target does not exist
    or lies outside the repository; a `#anchor` on a Markdown target must match one of its headings (GitHub's
    anchors); http(s) and other URLs are not fetched;
  - path to a .md file, in backquotes or in the text (`docs/models.md`, validation/REPORT.md), that does not exist:
    a path with a folder is looked up from the file's folder and from the repository's root; one that escapes the
    repository is always an error; one whose first folder is neither at the root nor beside the file names another
    project's file (a SOURCE.md quoting an upstream path) and is left alone. Bare names (`SOURCE.md`) are not checked.
Exits 1 if anything is broken, 0 otherwise. Python 3 standard library only.
"""

import glob
import os
import re
import sys
import urllib.parse

PATTERNS = ["README.md", "docs/*.md", "bench/README.md", "validation/**/*.md", "workloads/**/*.md"]

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*(?:\([^()\s]*\))?[^()\s<>]*)>?(?:\s+[\"'(][^)]*)?\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+")
MD_PATH = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*[\w.-]+(?:/[\w.-]+)*\.md)(?![\w/-])")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
FENCE = re.compile(r"^ {0,3}(```|~~~)")


def github_anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays, its target goes
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors_of(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        in_fence = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    in_fence = not in_fence
                    continue
                found.update(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", line))
                m = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
                if in_fence or not m:
                    continue
                base = github_anchor(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def inside(root, path):
    return os.path.commonpath([root, path]) == root


def check_link(root, md_file, target):
    """A problem with the link target, or None."""
    if not target or SCHEME.match(target):
        return None  # empty, or a URL (http, https, mailto...): not fetched
    path, _, anchor = target.partition("#")
    path = urllib.parse.unquote(path)
    if not path:
        resolved = md_file
    elif path.startswith("/"):
        resolved = os.path.normpath(os.path.join(root, path.lstrip("/")))
    else:
        resolved = os.path.normpath(os.path.join(os.path.dirname(md_file), path))
    if not inside(root, resolved):
        return f"link '{target}' points outside the repository"
    if not os.path.exists(resolved):
        return f"link '{target}': no such file or folder ({os.path.relpath(resolved, root)})"
    if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
        if urllib.parse.unquote(anchor) not in anchors_of(resolved):
            return f"link '{target}': {os.path.relpath(resolved, root)} has no heading with anchor '#{anchor}'"
    return None


def check_md_path(root, md_file, token, top_level):
    """A problem with a path to a .md file written in the text, or None."""
    if "/" not in token:
        return None  # a bare name ("each case has a SOURCE.md") names no particular file
    here = os.path.dirname(md_file)
    candidates = [os.path.normpath(os.path.join(here, token))]
    if not token.startswith("."):
        candidates.append(os.path.normpath(os.path.join(root, token)))
    if any(inside(root, c) and os.path.isfile(c) for c in candidates):
        return None
    if token.startswith("."):
        where = "outside the repository" if not inside(root, candidates[0]) else "no such file"
        return f"path '{token}': {where}"
    first = token.split("/")[0]
    if first in top_level or os.path.exists(os.path.join(here, first)):
        return f"path '{token}': no such file"
    return None  # another project's path (e.g. an upstream repository quoted in a SOURCE.md)


def main(argv):
    root = os.path.realpath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    top_level = {e for e in os.listdir(root) if not e.startswith(".") and not e.startswith("build")}
    files = set()
    for pattern in PATTERNS:
        files.update(glob.glob(os.path.join(root, pattern), recursive=True))
    files = sorted(f for f in files if os.path.isfile(f))
    if not files:
        print(f"check_links: no Markdown file under {root}", file=sys.stderr)
        return 1
    problems = []
    checked = 0
    for md_file in files:
        rel = os.path.relpath(md_file, root)
        in_fence = False
        with open(md_file, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if FENCE.match(line):
                    in_fence = not in_fence
                    continue
                targets = []
                if not in_fence:
                    targets = [m.group(1) for m in LINK.finditer(line)]
                    d = REF_DEF.match(line)
                    if d:
                        targets.append(d.group(1))
                        line = line[: d.start(1)]
                for t in targets:
                    checked += 1
                    p = check_link(root, md_file, t)
                    if p:
                        problems.append(f"{rel}:{n}: {p}")
                text = URL.sub(" ", LINK.sub(" ", line))
                for token in MD_PATH.findall(text):
                    checked += 1
                    p = check_md_path(root, md_file, token, top_level)
                    if p:
                        problems.append(f"{rel}:{n}: {p}")
    for p in problems:
        print(p)
    print(f"check_links: {len(files)} Markdown files, {checked} references, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
