"""Complexity checks that hold on a loaded machine: the same work at n and 10n, as a ratio.

A wall-clock bound fails when other processes share the cores; a ratio of two runs taken
moments apart in the same process does not move much with load, and it still tells linear
(about 10x for 10x the input) from quadratic (about 100x). The speeds themselves are measured
by `make bench` and written in BENCHMARKS.md.
"""

import time

# Linear work at 10x the input takes about 10x (more with the garbage collector's passes over
# a larger heap); allow for that and noise, and still fail quadratic growth (100x) clearly.
MAX_RATIO_FOR_TENFOLD = 50.0


def _best_seconds(work, size, repeats):
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work(size)
        best = min(best, time.perf_counter() - started)
    return best


def assert_scales_linearly(work, small, repeats_small=3, repeats_large=2):
    """`work(n)` at n = small and 10 * small: fail if the larger costs over 50x the smaller.

    Each size runs several times and its best counts, so a moment of load on either run
    cannot make the ratio look worse than it is.
    """
    small_seconds = max(_best_seconds(work, small, repeats_small), 1e-4)
    large_seconds = _best_seconds(work, 10 * small, repeats_large)
    ratio = large_seconds / small_seconds
    assert ratio < MAX_RATIO_FOR_TENFOLD, (
        f"10x the input took {ratio:.0f}x the time ({small_seconds:.3f} s at {small}, "
        f"{large_seconds:.3f} s at {10 * small}): worse than linear")
