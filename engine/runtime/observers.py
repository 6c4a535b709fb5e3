"""Observing Session.run: observer factories, per session or per thread, and a Tee joining them.

A run observer factory is `factory(device, step_id, plan) -> observer or None`. The session
calls it once per executor a run uses (one per device's partition, the client's first), on the
thread that called Session.run and before any executor starts, so a factory learns every
partition of the run before a node runs. The observer it returns follows the executor's
protocol (engine/runtime/executor.py) and is called on that executor's thread; it may also define
`executor_done(error)`, which the session calls on the same thread when the executor returns
(error None) or fails. While any factory is in force a run takes the traced path on every
partition; otherwise Session.run's fast path is untouched.

    with observe_runs(factory):          # every Session.run made on this thread, any session
        sess.run(fetches)
    sess._add_run_observer(factory)      # every run of this session, on any thread

>>> class Doubler:
...     def node_finished(self, node, outputs, info=None):
...         return tuple(2 * v for v in outputs)
>>> class Seen:
...     def node_finished(self, node, outputs, info=None):
...         self.outputs = outputs
>>> seen = Seen()
>>> tee(Doubler(), None, seen).node_finished("n", [1, 2]), seen.outputs
((2, 4), [2, 4])
"""

from __future__ import annotations

import contextlib
import threading

class _ThreadFactories(threading.local):
    factories = ()  # what `observe_runs` put in force on this thread


this_thread = _ThreadFactories()  # Session.run reads this_thread.factories on every run


@contextlib.contextmanager
def observe_runs(factory):
    """Every Session.run made on this thread inside the block is observed through `factory`."""
    previous = this_thread.factories
    this_thread.factories = previous + (factory,)
    try:
        yield factory
    finally:
        this_thread.factories = previous


def observer_for(factories, device, step_id, plan):
    """One observer for an executor from every factory's (None when none wants to observe)."""
    return tee(*(factory(device, step_id, plan) for factory in factories))


def run(executor, feeds, observer, step_id):
    """The executor's fast run, or its traced run telling `observer` (and when it ends)."""
    if observer is None:
        return executor.run(feeds, step_id)
    done = getattr(observer, "executor_done", None)
    try:
        results = executor.run_traced(feeds, observer, step_id)
    except BaseException as error:
        if done is not None:
            done(error)
        raise
    if done is not None:
        done(None)
    return results


def tee(*observers):
    """One observer telling each of `observers` (None left out) everything, in order."""
    observers = [o for o in observers if o is not None]
    if not observers:
        return None
    return observers[0] if len(observers) == 1 else Tee(observers)


def _callbacks(observers, name):
    return [getattr(o, name) for o in observers if hasattr(o, name)]


class Tee:
    """Observers as one. node_finished's replacement outputs flow down the line: each observer
    sees the outputs as the ones before it left them (the debugger, first, injects; the
    step-stats collector after it records what the executor will really use)."""

    def __init__(self, observers):
        self.observers = list(observers)
        self._source = _callbacks(observers, "source")
        self._scheduled = _callbacks(observers, "node_scheduled")
        self._started = _callbacks(observers, "node_started")
        self._op_started = _callbacks(observers, "op_started")
        self._op_finished = _callbacks(observers, "op_finished")
        self._finished = _callbacks(observers, "node_finished")
        self._done = _callbacks(observers, "executor_done")

    def source(self, now_ns):
        for callback in self._source:
            callback(now_ns)

    def node_scheduled(self, node, now_ns, info=None):
        for callback in self._scheduled:
            callback(node, now_ns, info)

    def node_started(self, node, info=None):
        for callback in self._started:
            callback(node, info)

    def op_started(self, node, inputs, info=None):
        for callback in self._op_started:
            callback(node, inputs, info)

    def op_finished(self, node, info=None):
        for callback in self._op_finished:
            callback(node, info)

    def node_finished(self, node, outputs, info=None):
        replaced = None
        for callback in self._finished:
            answer = callback(node, outputs, info)
            if answer is not None:
                replaced = answer
                outputs = list(answer)
        return replaced

    def executor_done(self, error=None):
        for callback in self._done:
            callback(error)

    def __getattr__(self, name):
        # Callbacks the protocol grows later: every observer that has one hears it.
        if name.startswith("_"):
            raise AttributeError(name)
        callbacks = _callbacks(self.observers, name)
        if not callbacks:
            raise AttributeError(name)

        def call(*args, **kwargs):
            result = None
            for callback in callbacks:
                answer = callback(*args, **kwargs)
                result = answer if answer is not None else result
            return result
        return call
