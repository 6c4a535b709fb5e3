"""bench.steady_malloc: says what it did to malloc, in words for BENCHMARKS.md."""

import numpy as np

import bench


def test_says_what_it_did_and_numpy_still_works():
    said = bench.steady_malloc()
    assert said.startswith(("glibc told", "glibc's default", "the platform's default"))
    big = np.ones(8 << 20, np.float32)  # above the usual mmap threshold: still allocates
    assert float(big.sum()) == 8 << 20
