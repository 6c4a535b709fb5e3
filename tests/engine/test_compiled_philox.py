"""The compiled Philox kernels give the NumPy reference's words and values, bit for bit."""

import numpy as np
import pytest

from engine.runtime import random_philox, threads
from engine.kernels import compiled

pytest.importorskip("numba")

KEYS = [(0, 0), (1, 0), (0xFFFFFFFF, 0xFFFFFFFF), (87654321, 5), (0x12345678, 0x9ABCDEF0)]
# Counters near the 32-, 64- and 128-bit carries, where a wrong carry would show.
COUNTERS = [0, 7, (1 << 32) - 3, (1 << 64) - 2, (5 << 64) + (1 << 63), (1 << 128) - 5]
LENGTHS = [1, 2, 3, 4, 5, 511, 512, 513, 4097, 70001]


@pytest.fixture(scope="module")
def fast():
    module = compiled.module("philox", wait=True)
    assert module is not None, compiled.why_not("philox")
    return module


def _generator(key, counter):
    generator = random_philox.PhiloxRandom(0)
    generator.key, generator.counter = key, counter
    return generator


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("counter", COUNTERS)
def test_blocks_equal_the_numpy_reference(fast, key, counter):
    for n in (1, 3, 600, 5000):
        reference = _generator(key, counter).blocks_at(np.arange(n, dtype=np.uint64))
        np.testing.assert_array_equal(fast.blocks(key, counter, n), reference)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("counter", COUNTERS)
def test_uniform_equals_the_numpy_reference(fast, dtype, counter, monkeypatch):
    for key in KEYS[::2]:
        for n in LENGTHS:
            got = fast.uniform(key, counter, n, dtype)
            monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
            monkeypatch.setattr(compiled, "_loaded", {})  # the NumPy path
            reference = random_philox.uniform(_generator(key, counter), n, dtype)
            monkeypatch.undo()
            assert got.dtype == reference.dtype
            np.testing.assert_array_equal(got, reference)


@pytest.mark.parametrize("budget", [1, 2, 3, 8])
def test_any_thread_budget_gives_the_same_stream(fast, budget):
    reference = _generator(KEYS[3], COUNTERS[3]).blocks_at(np.arange(70001, dtype=np.uint64))
    try:
        threads.configure(budget)
        np.testing.assert_array_equal(fast.blocks(KEYS[3], COUNTERS[3], 70001), reference)
    finally:
        threads.configure(0)


def test_a_session_draws_tensorflow_stream_through_the_fast_path(fast):
    """A big RandomUniform and a big RandomStandardNormal, run twice (the stream moves on),
    equal the NumPy path run for run."""
    import engine as tf

    def draws(compiled_on):
        graph = tf.Graph()
        with graph.as_default():
            tf.set_random_seed(7)
            u = tf.random_uniform([3, 40000], seed=3)
            n = tf.random_normal([50001], seed=4, dtype=tf.float64)
        with tf.Session(graph=graph) as sess:
            return [sess.run([u, n]) for _ in range(2)]

    fast_runs = draws(True)
    saved = dict(compiled._loaded)
    compiled._loaded.clear()
    compiled._loaded["philox"] = None
    try:
        reference_runs = draws(False)
    finally:
        compiled._loaded.clear()
        compiled._loaded.update(saved)
    for got, want in zip(fast_runs, reference_runs):
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


def test_parallel_for_covers_every_item_once():
    seen = np.zeros(100003, np.int64)

    def mark(start, end):
        seen[start:end] += 1

    threads.configure(3)
    try:
        threads.parallel_for(mark, seen.size, min_per_piece=1000)
    finally:
        threads.configure(0)
    assert (seen == 1).all()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_forked_child_gets_threads_of_its_own():
    import os
    threads.configure(2)
    threads.parallel_for(lambda start, end: None, 1 << 16, min_per_piece=1)  # the pool exists
    pid = os.fork()
    if pid == 0:  # the child: the parent's pool threads are gone
        seen = np.zeros(1 << 16, np.int64)
        threads.parallel_for(lambda s, e: seen.__setitem__(slice(s, e), 1), seen.size,
                             min_per_piece=1)
        os._exit(0 if seen.all() else 1)
    _, status = os.waitpid(pid, 0)
    threads.configure(0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_parallel_for_raises_what_a_piece_raised():
    def fail(start, end):
        if start == 0:
            raise ValueError("piece 0")

    threads.configure(2)
    try:
        with pytest.raises(ValueError, match="piece 0"):
            threads.parallel_for(fail, 1 << 16, min_per_piece=1 << 10)
    finally:
        threads.configure(0)


def test_box_muller_calls_the_same_glibc_functions_as_the_ctypes_path(fast, monkeypatch):
    """The compiled BoxMullerFloat (numba's float32 log, sin and cos) and the ctypes path
    both give glibc's logf, sinf and cosf, which are not always correctly rounded."""
    words = random_philox.PhiloxRandom(11, 3).next_blocks(3000).reshape(-1, 2)
    compiled_normals = fast.box_muller_f32(words[:, 0], words[:, 1])
    monkeypatch.setattr(compiled, "loaded", lambda name: None)
    monkeypatch.setattr(compiled, "module", lambda name, wait=False: None)
    ctypes_normals = random_philox.box_muller_float(words[:, 0], words[:, 1])
    for ours, theirs in zip(compiled_normals, ctypes_normals):
        np.testing.assert_array_equal(ours, theirs)
    u1 = np.maximum(random_philox.uint32_to_float(words[:, 0]), np.float32(1e-7))
    rounded_once = np.log(u1.astype(np.float64)).astype(np.float32)
    libm = random_philox.libm()
    glibc = np.array([libm.logf(u) for u in u1.tolist()], np.float32)
    assert (glibc != rounded_once).any()  # why the engine calls glibc at all
