"""How a debugged Session.run reaches the debugger: the executor's observer, teed.

Session.run takes its traced path when RunOptions ask for FULL_TRACE and hands each
executor a StepStatsCollector. While a debugged run is active, Executor.run_traced (the
class's, patched from here and restored afterwards) hands the executor a Tee instead: the
debugger's observer first (so it can pause and replace outputs), then the session's
collector, which records what the executor really used. Every partition's executor goes
through it, whichever thread runs it, so one run at a time can be debugged per process.
"""

from __future__ import annotations

import contextlib
import threading

from engine.executor import Executor

_lock = threading.Lock()
_active = []   # the one DebugObserver being fed, while a debugged run executes


class Tee:
    """Two observers as one; node_finished's replacement outputs come from the first."""

    def __init__(self, debugger, other):
        self.debugger, self.other = debugger, other

    def source(self, *args, **kwargs):
        self.debugger.source(*args, **kwargs)
        self.other.source(*args, **kwargs)

    def node_scheduled(self, *args, **kwargs):
        self.debugger.node_scheduled(*args, **kwargs)
        self.other.node_scheduled(*args, **kwargs)

    def node_started(self, *args, **kwargs):
        self.debugger.node_started(*args, **kwargs)
        self.other.node_started(*args, **kwargs)

    def op_started(self, *args, **kwargs):
        self.debugger.op_started(*args, **kwargs)
        self.other.op_started(*args, **kwargs)

    def op_finished(self, *args, **kwargs):
        self.debugger.op_finished(*args, **kwargs)
        self.other.op_finished(*args, **kwargs)

    def node_finished(self, node, outputs, *args, **kwargs):
        replaced = self.debugger.node_finished(node, outputs, *args, **kwargs)
        self.other.node_finished(node, list(replaced) if replaced is not None else outputs,
                                 *args, **kwargs)
        return replaced

    def __getattr__(self, name):
        # Callbacks the protocol grows later (frames, dead tensors): both hear them.
        first, second = getattr(self.debugger, name, None), getattr(self.other, name, None)
        if first is None and second is None:
            raise AttributeError(name)

        def both(*args, **kwargs):
            result = first(*args, **kwargs) if first is not None else None
            if second is not None:
                second(*args, **kwargs)
            return result
        return both


_original_run_traced = Executor.run_traced


def _debugged_run_traced(self, feed_values, observer, step_id=0, *args, **kwargs):
    debugger = _active[0] if _active else None
    if debugger is None:
        return _original_run_traced(self, feed_values, observer, step_id, *args, **kwargs)
    debugger.bind(self.plan)
    return _original_run_traced(self, feed_values, Tee(debugger, observer), step_id,
                                *args, **kwargs)


class BusyError(RuntimeError):
    """Another debugged run is executing in this process."""


@contextlib.contextmanager
def observing(debugger):
    """Every traced executor run inside the block reports to `debugger`."""
    if not _lock.acquire(blocking=False):
        raise BusyError("another debugged run is in progress: finish or quit it first")
    _active.append(debugger)
    Executor.run_traced = _debugged_run_traced
    try:
        yield
    finally:
        Executor.run_traced = _original_run_traced
        _active.clear()
        _lock.release()


def abort_active():
    """Stops the debugged run executing now, if any (a notebook's forgotten run, a test's)."""
    for debugger in list(_active):
        with debugger.cond:
            debugger.abort()
    with _lock:   # its thread has left observing()
        pass
