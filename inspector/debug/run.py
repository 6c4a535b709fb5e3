"""DebugRun: one Session.run, executed on a worker thread, paused and driven from another.

The run starts paused before its first node. Each command (step, cont, run_to, finish)
lets the executor go and returns once it has paused again or the run has ended; reading
commands (current, value, frontier, history) answer from what the observer kept.

>>> import engine as tf
>>> g = tf.Graph()
>>> with g.as_default():
...     x = tf.constant(2.0, name="x")
...     y = tf.multiply(x, 3.0, name="y")
>>> run = DebugRun(tf.Session(graph=g), y).start()
>>> run.step().current.name
'x'
>>> _ = run.inject("x:0", 10.0)
>>> float(run.result())
30.0
"""

from __future__ import annotations

import threading

import numpy as np

from engine.cluster.relay import Withheld
from engine.proto import config_pb2
from engine.runtime.session import BaseSession

from inspector.debug import dump as dumps, hook, tensors
from inspector.debug.breakpoints import Breakpoint
from inspector.debug.observer import DebugAborted, DebugObserver

# Session.run itself, whatever a script wrapper later patches onto the class.
_SESSION_RUN = BaseSession.run


class DebugStateError(RuntimeError):
    """A command the run's state does not allow (stepping a finished run, say)."""


class DebugRun:
    """A debuggable Session.run(fetches, feed_dict); breakpoints and watches may be shared."""

    def __init__(self, session, fetches, feed_dict=None, options=None, run_metadata=None,
                 breakpoints=None, watched=None, optimized=None):
        self.session, self.fetches, self.feed_dict = session, fetches, feed_dict
        self.optimized = optimized  # step the optimized graph (None: hook.step_optimized)
        self.options = options   # as given: the debugger observes runs without tracing them
        self.run_metadata = run_metadata if run_metadata is not None else config_pb2.RunMetadata()
        self.breakpoints = breakpoints if breakpoints is not None else []
        self.watched = watched if watched is not None else set()
        self.injected = {}
        self.keep_all = False      # True: keep every value (no bound), as a full dump would
        # On a cluster: a task's output past this many bytes stays there (value() refuses it).
        self.max_value_bytes = dumps.DEFAULT_LIMIT
        self.dumper = None
        self.number = 0            # 1 for the first execution, 2 after a rerun, ...
        self.label = "run"
        self.observer = None
        self._thread = None

    # Starting and the worker -------------------------------------------------------------------

    def start(self, pause_at_start=True, mode="cont"):
        """Starts executing; returns once paused (at the start, or where `mode` stops)."""
        if self._thread is not None and not self._finished:
            raise DebugStateError("the run is already executing")
        self.number += 1
        self.injected.clear()
        self.observer = DebugObserver(self)
        self._pause_at_start = pause_at_start
        self._mode, self._steps_left, self._target = mode, 0, None
        self._finished, self._outcome, self._result, self.error = False, "", None, None
        self._thread = threading.Thread(target=self._work, name=f"debug-run-{self.number}",
                                        daemon=True)
        with self.observer.cond:
            self._thread.start()
            self._wait(0)
        return self

    def _work(self):
        outcome, result, error = "done", None, None
        try:
            with hook.observing(self.observer, self.session, self.optimized):
                result = _SESSION_RUN(self.session, self.fetches, self.feed_dict,
                                      options=self.options, run_metadata=self.run_metadata)
        except DebugAborted:
            outcome = "aborted"
        except BaseException as raised:  # noqa: BLE001  (handed to result() and the views)
            outcome, error = "error", raised
            if _caused_by_abort(raised):  # the executor wrapped it as the node's error
                outcome, error = "aborted", None
        with self.observer.cond:
            self._finished, self._outcome, self._result, self.error = True, outcome, result, error
            # Whatever still waits on the debugger (a cluster task's partition that failed
            # while paused, engine/cluster/relay.py) has nothing left to wait for.
            self.observer.abort()

    def _wait(self, pauses_before, timeout=None):
        obs = self.observer
        obs.cond.wait_for(lambda: self._finished or
                          (obs.pauses > pauses_before and obs.paused_in is not None), timeout)

    # The observer asks ---------------------------------------------------------------------------

    def should_pause(self, event, produced):
        """Why to stop after `event` (a string) or None; runs in the executing thread."""
        if self._mode == "finish":
            return None
        fired = []
        for breakpoint in self.breakpoints:
            where = breakpoint.fires(event.name, event.op, event.device, produced)
            if where is not None:
                breakpoint.hits += 1
                fired.append(f"breakpoint {breakpoint.number} ({breakpoint.label}) at {where}")
        if self._mode == "step":
            self._steps_left -= 1
            if self._steps_left <= 0:
                return "; ".join(["stepped"] + fired)
        if self._mode == "to" and event.name == self._target:
            return "; ".join([f"reached {self._target}"] + fired)
        return "; ".join(fired) or None

    def pause_at_start(self):
        return self._pause_at_start

    # Commands -------------------------------------------------------------------------------

    def step(self, count=1):
        """Runs `count` more nodes (in the executor's order) and pauses."""
        return self._go("step", steps=count)

    def cont(self):
        """Runs until a breakpoint fires or the run ends."""
        return self._go("cont")

    def run_to(self, node_name):
        """Runs until node `node_name` has run (or a breakpoint fires first)."""
        if node_name not in self.observer.index.nodes:
            raise KeyError(f"no node {node_name!r} in this run's plan")
        return self._go("to", target=node_name)

    def finish(self):
        """Runs to the end, ignoring breakpoints."""
        return self._go("finish")

    def rerun(self, pause_at_start=True):
        """Finishes this execution and runs the same Session.run again, paused at its start."""
        if not self._finished:
            self.finish()
        return self.start(pause_at_start)

    def quit(self):
        """Stops the run part-way (result() then raises DebugAborted)."""
        if self.observer is None or self._finished:
            return self
        with self.observer.cond:
            self.observer.abort()
            self.observer.cond.wait_for(lambda: self._finished, 10)
        return self

    def _go(self, mode, steps=0, target=None):
        obs = self.observer
        with obs.cond:
            if self._finished:
                raise DebugStateError(f"the run has ended ({self._outcome})")
            if obs.paused_in is None:
                raise DebugStateError("the run is executing: wait for it to pause")
            self._mode, self._steps_left, self._target = mode, steps, target
            before = obs.pauses
            obs.resume()
            self._wait(before)
        return self

    # State ----------------------------------------------------------------------------------

    @property
    def state(self):
        """"paused", "running", "done", "error" or "aborted"."""
        if self.observer is None:
            return "idle"
        if self._finished:
            return self._outcome
        return "paused" if self.observer.paused_in is not None else "running"

    @property
    def finished(self):
        return self._finished

    @property
    def current(self):
        """The NodeEvent of the node that ran last (None at the start)."""
        return self.observer.current

    @property
    def stop_reason(self):
        return self.observer.stop_reason if not self._finished else self._outcome

    @property
    def history(self):
        """The NodeEvents of this execution, oldest first (the last HISTORY of them)."""
        with self.observer.cond:
            return list(self.observer.history)

    @property
    def watch_log(self):
        with self.observer.cond:
            return list(self.observer.watch_log)

    def frontier(self):
        with self.observer.cond:
            return self.observer.index.frontier()

    def node_status(self, name):
        with self.observer.cond:
            return self.observer.index.status(name)

    def neighbours(self, name):
        """(input node names, consumer node names) of node `name` in its plan."""
        with self.observer.cond:
            node = self.observer.index.nodes.get(name)
            sources = list(dict.fromkeys(node.sources)) if node is not None else []
            return sources, list(self.observer.index.consumers.get(name, ()))

    def plan_nodes(self):
        """Every PlanNode of the plans seen so far (all partitions), by name."""
        return dict(self.observer.index.nodes)

    def retained(self):
        """The tensors whose values the debugger holds now: name -> value."""
        with self.observer.cond:
            return dict(self.observer.values)

    def result(self, timeout=None):
        """The fetched values once the run ends; continues a paused run without stopping."""
        if not self._finished and self.state == "paused":
            self.finish()
        self._thread.join(timeout)
        if self.error is not None:
            raise self.error
        if self._outcome == "aborted":
            raise DebugAborted("the run was stopped from the debugger")
        return self._result

    # Tensors --------------------------------------------------------------------------------

    def value(self, expression):
        """A held tensor's value, NumPy-style slicing allowed: run.value("x:0[0:2, :]")."""
        name, index = tensors.parse_expression(expression)
        with self.observer.cond:
            held = name in self.observer.values or name in self.injected
            value = self.observer.value(name)
        if not held:
            raise KeyError(self._not_held(name))
        if isinstance(value, Withheld):
            why = (f"over the {value.limit}-byte limit on values a cluster task sends the "
                   "debugger (max_value_bytes)" if value.nbytes is not None else
                   "not a value that leaves its cluster task")
            raise dumps.DumpTooLarge(f"{name} is {value.description}: {why}")
        selected = tensors.select(value, index)
        # A copy: a variable's buffer read through Identity changes when Assign runs later.
        return selected.copy() if isinstance(selected, np.ndarray) else selected

    def format(self, expression):
        """The value as text, as the prompt's `p` prints it."""
        name, index = tensors.parse_expression(expression)
        value = self.value(expression)
        return f"{name}{_index_text(expression)} = {tensors.format_value(value)}"

    def _not_held(self, name):
        node = name.rpartition(":")[0]
        if node not in self.observer.index.nodes:
            return f"no tensor {name} in this run's plan"
        status = self.observer.index.status(node)
        if status in ("ready", "waiting", "pending"):
            return f"{name} is not computed yet ({node} is {status})"
        return (f"{name} is no longer held (nothing left to read it): watch it (w {name}) "
                f"and rerun to keep it")

    def inject(self, tensor, value):
        """tfdbg's inject_value: `value` stands for `tensor` downstream.

        Paused right after the tensor's producer (or before it has run), the value replaces
        that production for every consumer and the fetches; for a tensor made earlier, only
        kernels that read it from now on get it. It lasts until the producer runs again.
        """
        name = tensors.tensor_name(tensor)
        with self.observer.cond:
            if self.observer.index.nodes and not self.observer.index.knows(name):
                raise KeyError(f"no tensor {name} in this run's plan")
            self.injected[name] = value
            self.observer.arm_injection(name)
        return self

    def watch(self, tensor):
        """Keep `tensor` (or every output of a node) whenever it is produced, and log it."""
        self.watched.add(tensor if ":" in tensor or tensor in self.observer.index.nodes
                         else tensors.tensor_name(tensor))
        return self

    def unwatch(self, tensor):
        self.watched.discard(tensor)
        self.watched.discard(tensors.tensor_name(tensor))
        return self

    # Breakpoints ----------------------------------------------------------------------------

    def add_breakpoint(self, name=None, op=None, device=None, predicate=None):
        breakpoint = Breakpoint(name=name, op=op, device=device, predicate=predicate)
        self.breakpoints.append(breakpoint)
        return breakpoint

    def toggle_breakpoint(self, number):
        for breakpoint in self.breakpoints:
            if breakpoint.number == number:
                breakpoint.enabled = not breakpoint.enabled
                return breakpoint
        raise KeyError(f"no breakpoint {number}")

    def remove_breakpoint(self, number):
        self.breakpoints[:] = [b for b in self.breakpoints if b.number != number]

    # Dumps ----------------------------------------------------------------------------------

    def dump(self, path, max_bytes=dumps.DEFAULT_LIMIT):
        """Writes the tensors held now to one .npz; refuses past `max_bytes`."""
        return dumps.dump_values(path, self.retained(), max_bytes)

    def dump_all(self, directory, max_bytes=dumps.DEFAULT_LIMIT):
        """Every tensor from now to the end of the run, one .npz per node, up to `max_bytes`."""
        self.dumper = dumps.Dumper(directory, max_bytes)
        return self.dumper


def _caused_by_abort(error):
    """Whether DebugAborted is in `error`'s chain. A partition's error that another's _Recv
    re-raised is its own __cause__ there (the executor raises it `from` itself), so the chain
    is walked through __context__ too, each error once."""
    seen, pending = set(), [error]
    while pending:
        error = pending.pop()
        if error is None or id(error) in seen:
            continue
        if isinstance(error, DebugAborted):
            return True
        seen.add(id(error))
        pending += [error.__cause__, error.__context__]
    return False


def _index_text(expression):
    start = expression.find("[")
    return expression[start:].strip() if start >= 0 else ""
