"""threads.parallel_for leaves a helper thread that starts late holding nothing of the work,
so the caller frees the arrays the pieces wrote (not the helper, after the caller's next run
has allocated its own), and a result it wrote can be forwarded to the next op."""

import threading
import weakref

import numpy as np

from engine.runtime import threads


def _late_helper(split):
    """Whether `split` left the work's array alive after returning, its helper thread busy
    elsewhere until then (so it starts late, as on a loaded machine)."""
    threads.configure(2)
    busy = threading.Event()
    try:
        pool = threads._executor()
        for _ in range(pool._max_workers):  # every thread of the pool held
            pool.submit(busy.wait)
        result = np.zeros(1 << 12)
        split(_adding_one(result), result.size, 1 << 8)
        assert (result == 1).all()  # every piece ran, in the caller's thread
        alive = weakref.ref(result)
        del result
        return alive() is not None
    finally:
        busy.set()
        threads.configure(0)


def _adding_one(result):
    def piece(start, end):
        result[start:end] += 1
    return piece


def test_parallel_for_releases_the_work_when_every_piece_is_done():
    assert not _late_helper(threads.parallel_for)

