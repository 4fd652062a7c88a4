#!/usr/bin/env python3
"""A what-if after k8_exact.sh and k8_burst.sh (validation/testbed/README.md, 2026-12-05c), not a recipe: does the
linear interpolation that spreads the slow 1 MiB row at K = 8 over 512 KiB-2 MiB cost the ring cases' K = 8 points?
In each campaign's first launch and more launches, rows added at K = 8 where the line through 512 KiB and 2 MiB
holds (1016 KiB and 1.25 MiB: segments of 63.5 and 80 KiB, which k8exact/ and k8/ measured near their line) and at
1032 KiB with the 1 MiB row's time (64.5 KiB segments, slow as 1 MiB), so that only calls of about 1 MiB pay the
row's excess; the platform calibrated again by make_cases.py's recipe, each ring case's points predicted by
`sgdsim validate` (k8_row.what_if), beside the case's own prediction. The added rows are not measurements of those
campaigns: what a kit measuring beside each K's 64 KiB segment would give, if the line holds there.

    validation/testbed/campaign-2026-12-05c/k8_confine.py > k8_confine.out

Python 3 standard library; the platforms go to a temporary folder."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import k8_row  # noqa: E402  (what_if_all, read, write, single_call_launches)

MIB = k8_row.MIB


def add_rows(path, line_s):
    """PATH's rows plus K = 8 rows at 1016 KiB and 1.25 MiB on LINE_S's line and 1032 KiB as its 1 MiB row."""
    fields, rows = k8_row.read(path)
    one = [r for r in rows if r["op"] == "allreduce" and int(r["nodes"]) == 8 and int(float(r["size_bytes"])) == MIB]
    if not one:
        return
    added = [dict(one[0], size_bytes=str(size), time_s=repr(time_s))
             for size, time_s in ((1016 * 1024, line_s(1016 * 1024)), (1032 * 1024, float(one[0]["time_s"])),
                                  (1280 * 1024, line_s(1280 * 1024)))]
    k8_row.write(path, fields, sorted(rows + added, key=lambda r: (r["op"], int(r["nodes"]),
                                                                     int(float(r["size_bytes"])))))


def confine(folder, t):
    """The change of this what-if, in every single-call launch of FOLDER (T: the first launch's times)."""
    lo, hi = t[8, MIB // 2], t[8, 2 * MIB]

    def line_s(size):
        return lo + (hi - lo) * (size - MIB // 2) / (2 * MIB - MIB // 2)
    for path in k8_row.single_call_launches(folder):
        add_rows(path, line_s)
    return (f"K = 8, 1 MiB {t[8, MIB] * 1e3:.1f} ms; 1016 KiB and 1.25 MiB on the line "
            f"({line_s(1016 * 1024) * 1e3:.1f}, {line_s(1280 * 1024) * 1e3:.1f} ms)")


def main():
    k8_row.what_if_all(os.path.join(k8_row.ROOT, "build", "src", "sgdsim"), "as predicted -> with the rows added",
                       change=confine, suffix="-confine", shown_from=8)


if __name__ == "__main__":
    main()
