#!/usr/bin/env python3
"""A diagnosis of campaign 2026-12-05e (validation/testbed/README.md), not a prediction of its own: 2026-12-05b's
launches.py on this campaign's cases and rate folder (each case's points on its platform, the more launches' median,
and on the platform the same recipe calibrates from the first launch alone, beside the measured step).

    validation/testbed/campaign-2026-12-05e/launches.py > launches.out

Python 3 standard library; the first launch's platforms go to a temporary folder."""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("launches_05b", os.path.join(HERE, "..", "campaign-2026-12-05b",
                                                                           "launches.py"))
launches = importlib.util.module_from_spec(spec)
spec.loader.exec_module(launches)

if __name__ == "__main__":
    launches.main(os.path.join(HERE, "data", "1gbit"), "-2026-12-05e")
