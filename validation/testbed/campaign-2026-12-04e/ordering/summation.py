#!/usr/bin/env python3
"""2026-12-04e: what Gloo's summation of a received segment costs on this machine, one thread: a copy of the input
(Gloo's reduceInputs) and an add of the received segment (opts.reduce), float32, as torch does them; ns per byte at
256 KiB, 1 MiB and 4 MiB (validation/testbed/README.md 2026-12-04e). Run on a quiet machine.

    /usr/bin/python3 validation/testbed/campaign-2026-12-04e/ordering/summation.py   # output: summation.out"""

import time

import torch

REPEATS = 200  # per size, after 20 to warm the caches

torch.set_num_threads(1)
for size in (256 * 1024, 1024 * 1024, 4 * 1024 * 1024):
    a, b, out = torch.ones(size // 4), torch.ones(size // 4), torch.empty(size // 4)
    for _ in range(20):
        out.copy_(a)
        out.add_(b)
    start = time.perf_counter()
    for _ in range(REPEATS):
        out.copy_(a)
        out.add_(b)
    took_s = (time.perf_counter() - start) / REPEATS
    print("%8d B: %6.1f us, %.3f ns per byte" % (size, took_s * 1e6, took_s / size * 1e9))
