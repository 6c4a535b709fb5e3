"""The process's intra-op thread budget: one pool for compiled kernels, BLAS held to it.

TensorFlow gives each process an intra-op pool of ConfigProto.intra_op_parallelism_threads
threads (0: the number of cores) that Eigen kernels split their work over. Here the compiled
kernels (engine/kernels/compiled) split theirs over `parallel_for`, in pieces any thread
takes as it comes free, so a thread that gets no core does not hold the others back.

NumPy's BLAS is held to one thread unless the session names a budget (threadpoolctl):
OpenBLAS's pthreads pool makes every call wait for its helper threads, which on a busy
machine wait for a time slice; on this 2-core machine under load a 32x256 @ 256x64 matmul
took 48 ms with 2 BLAS threads and 0.03 ms with 1 (BENCHMARKS.md, "Threads"), and two engine
processes each running a 2-thread BLAS pool ran a conv net 3x slower than alone.
"""

import contextvars
import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_budget = None  # None: not set yet (the core count on first use)
_explicit = False  # whether a session named the budget (intra_op_parallelism_threads > 0)
_pool = None
_blas_limited = None
_PIECES_PER_THREAD = 4


def core_count():
    """The cores this process may run on (its affinity mask, as TensorFlow's port::NumSchedulableCPUs)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def budget():
    """Threads a kernel may use at once."""
    return _budget if _budget is not None else core_count()


def configure(intra_op_parallelism_threads=0):
    """Set the budget from a ConfigProto value (0 or negative: the core count), as a Session
    does when it is created; the last session's setting wins, as with TensorFlow's global pool
    it is one budget for the process."""
    global _budget, _pool, _explicit
    wanted = intra_op_parallelism_threads if intra_op_parallelism_threads > 0 else core_count()
    with _lock:
        _explicit = intra_op_parallelism_threads > 0
        if wanted == _budget:
            limit_blas()
            return
        _budget = wanted
        old, _pool = _pool, None
    if old is not None:
        old.shutdown(wait=False)
    limit_blas()


def blas_threads():
    """BLAS's threads: the budget when a session named one, else 1 (see the module's doc)."""
    return budget() if _explicit else 1


def limit_blas():
    """Hold NumPy's BLAS (OpenBLAS, MKL, BLIS) to blas_threads(); a no-op without threadpoolctl."""
    global _blas_limited
    limit = blas_threads()
    if _blas_limited == limit:
        return
    _blas_limited = limit
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: without it BLAS keeps its own default
        return
    threadpool_limits(limits=limit, user_api="blas")


def _forget_pool_after_fork():
    """A forked child has none of the parent's threads: it starts a pool of its own."""
    global _pool, _lock
    _pool, _lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _executor():
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=budget(), thread_name_prefix="intra_op")
        return _pool


def parallel_for(fn, total, min_per_piece=1 << 13):
    """Call fn(start, end) over [0, total) in contiguous pieces of at least `min_per_piece`
    items, on up to budget() threads (the caller one of them), each taking the next piece as
    it comes free; fn must release the GIL (a nogil compiled kernel) to run at once. The
    caller waits for the pieces, not for the helper threads: on a busy machine a helper may
    get no core until the caller has done every piece, and then nobody waits for it.

    Such a late helper's work item must hold nothing of the work: fn is dropped once every
    piece is done. Holding it kept fn's arrays alive in a thread that ran after the caller's
    next step had allocated its own (two results alive at once: the heap grew into fresh
    pages, 38-121 page faults a run of a 12.8 MB BiasAdd or ReluGrad at two threads, 0.63-1.16
    ms against 0.40-0.73 without), and kept a result from being forwarded to its next op,
    which asks that nothing else holds it (4 of BERT's 12 Erfc inputs)."""
    threads_wanted = min(budget(), max(1, total // max(1, min_per_piece)))
    if threads_wanted <= 1:
        fn(0, total)
        return
    # a whole number of pieces a thread: with 3 pieces for 2 threads one thread does two
    pieces = threads_wanted * min(_PIECES_PER_THREAD,
                                  max(1, total // (max(1, min_per_piece) * threads_wanted)))
    bounds = [total * i // pieces for i in range(pieces + 1)]
    next_piece = itertools.count()  # next() on a count is atomic under the GIL
    state = {"done": 0, "error": None}
    state_lock, finished = threading.Lock(), threading.Event()
    held = [fn]  # emptied once every piece is done (the docstring says why)
    del fn

    def work():
        for i in next_piece:
            if i >= pieces:
                return
            try:
                held[0](bounds[i], bounds[i + 1])
            except BaseException as error:  # raised in the caller, below
                state["error"] = error
            with state_lock:
                state["done"] += 1
                if state["done"] == pieces:
                    finished.set()

    pool = _executor()
    for _ in range(threads_wanted - 1):
        # each helper in a copy of the caller's context: NumPy keeps its floating-point error
        # state (a session's np.errstate(all="ignore")) in a context variable, which a pool
        # thread would not have (a split ufunc then warned, or raised, where one call did not)
        pool.submit(contextvars.copy_context().run, work)
    work()
    finished.wait()
    held.clear()
    if state["error"] is not None:
        raise state["error"]
