"""How a debugged Session.run reaches the debugger: a run observer factory, on its thread.

Inside `observing(debugger)` every Session.run made on the calling thread hands each of its
partitions' executors an observer from `debugger.observer_for`
(engine.runtime.session.observe_runs); the session's own observers (the step-stats collector, VLOG)
follow it, so they record what the executor really used. Runs on other threads are not touched:
debugged runs of different sessions may execute at once, each on its own thread; a session has one
at a time (two would step through the same variables, each pausing the other's effects out of view).

On a cluster (engine/cluster) the partitions run on their tasks, and each one's executor
asks this debugger through Dask (engine/cluster/relay.py): the same observers, the same
turns, events naming the task.

A debugged run executes the graph as the user wrote it (engine/optimizer/session_rewrite.py
original_graph: no folded, merged or removed nodes), unless `optimized` (or
`step_optimized`, set by `graph-inspector debug --optimized`) asks for the optimized one.
"""

from __future__ import annotations

import contextlib
import threading

from engine.cluster.relay import FromTasks
from engine.optimizer import session_rewrite
from engine.runtime.session import observe_runs
from inspector.debug import dump

_lock = threading.Condition()
_active = {}   # DebugObserver -> its session, while its debugged run executes
step_optimized = False  # debugged runs step the optimized graph (debug --optimized)


class BusyError(RuntimeError):
    """Another debugged run of the session is executing."""


@contextlib.contextmanager
def observing(debugger, session=None, optimized=None):
    """Every Session.run on this thread inside the block reports to `debugger`, running the
    user's graph unoptimized unless `optimized` (default: `step_optimized`)."""
    with _lock:
        if session is not None and any(s is session for s in _active.values()):
            raise BusyError("another debugged run of this session is in progress: finish or "
                            "quit it first")
        _active[debugger] = session
    optimized = step_optimized if optimized is None else optimized
    graph = session_rewrite.optimized_graph if optimized else session_rewrite.original_graph
    # Marked to see a cluster run's partitions on their tasks too (engine/cluster/relay.py),
    # each value that crosses bounded as a dump is.
    limit = getattr(debugger.control, "max_value_bytes", dump.DEFAULT_LIMIT)
    try:
        with observe_runs(FromTasks(debugger.observer_for, limit)), graph():
            yield
    finally:
        with _lock:
            del _active[debugger]
            _lock.notify_all()


def abort_active(timeout=10):
    """Stops every debugged run executing now (a notebook's forgotten run, a test's) and waits
    for their threads to leave observing()."""
    with _lock:
        debuggers = list(_active)
    for debugger in debuggers:
        with debugger.cond:
            debugger.abort()
    with _lock:
        _lock.wait_for(lambda: not any(d in _active for d in debuggers), timeout)
