"""The executor side of a debugged run: observers that record, retain and pause.

The session (engine/runtime/observers.py) asks `DebugObserver.observer_for` for an observer per
partition's executor; each reports to the one DebugObserver of the run. Every callback takes
its condition's lock and the turn (inspector/debug/turns.py): one partition thread moves at a
time, the others wait at their next callback, and while the one with the turn is paused
between nodes nothing runs. Stepping follows one order of the nodes across devices, the same
for every run. Values are kept only for watched tensors, the node that just ran and tensors a
node still to run will read (the frontier).
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from engine.kernels.cuda.backend import placed
from inspector.debug import tensors
from inspector.debug.frontier import PlanIndex
from inspector.debug.turns import Turns

HISTORY = 10_000   # node events remembered per run (names and summaries, no values)


# What a dead output is to the frame-aware executor (None in what observers are shown).
try:
    from engine.runtime.frames import NO_VALUE as _NO_VALUE
except ImportError:  # the executor before control flow
    _NO_VALUE = None


class DebugAborted(Exception):
    """Raised in the executing thread when the user quits a run part-way."""


@dataclass
class NodeEvent:
    """One node execution: what ran, where, in which frame and iteration, what it made."""

    number: int                 # 1, 2, ... in this run's order
    name: str
    op: str
    device: str
    kind: str                   # "kernel", "arg" (a feed) or "retval" (a fetch)
    outputs: list = field(default_factory=list)      # tensor names
    summaries: list = field(default_factory=list)    # one line per output
    frame: str = ""
    iteration: int = 0
    dead: bool = False
    node: object = field(default=None, repr=False)

    @property
    def shown_summary(self):
        """The first output that carries a value, ":N summary" past output 0 (a Switch's
        taken side is :1); "no value (dead)" when none does."""
        for number, text in enumerate(self.summaries):
            if text != DEAD:
                return f":{number} {text}" if number else text
        return DEAD if self.summaries else ""

    @property
    def where(self):
        """'frame iteration' for a node inside a loop, else ''."""
        return f"{self.frame} iteration {self.iteration}" if self.frame else ""

    @property
    def created_at(self):
        return creation_line(self.node)


def creation_line(node):
    """"file:line: source" of the Python line that created `node`'s op, or ""."""
    op = getattr(node, "op", None)
    trace = getattr(op, "traceback", None) if op is not None else None
    if not trace:
        return ""
    from engine.framework.traceback import defining_frame_index
    frame = trace[defining_frame_index(trace)]
    text = f"{frame.filename}:{frame.lineno}"
    return f"{text}: {frame.line}" if getattr(frame, "line", "") else text


def frame_info(extra, info):
    """(frame, iteration, dead) from whatever the executor passed beyond the node.

    The control-flow protocol names them frame=, iteration= and dead= (or passes an object
    with those attributes); a run without loops passes nothing.
    """
    for item in extra:
        if hasattr(item, "iteration"):
            info = {"frame": getattr(item, "frame", getattr(item, "name", "")),
                    "iteration": item.iteration, "dead": getattr(item, "dead", False), **info}
    frame = info.get("frame", "") or ""
    frame = getattr(frame, "name", frame)
    return str(frame), int(info.get("iteration", 0) or 0), bool(info.get("dead", False))


class DebugObserver:
    """Observer protocol callbacks plus the state a controller reads while paused.

    `control` decides at each pause point whether to stop: control.should_pause(event,
    fired) -> reason or None; control.injected maps tensor name -> value to use instead.
    """

    def __init__(self, control):
        self.control = control
        self.cond = threading.Condition()
        self.index = PlanIndex()
        self.history = deque(maxlen=HISTORY)
        self.watch_log = deque(maxlen=HISTORY)
        self.values = {}          # tensor -> value: watched, frontier, just produced
        self.current = None       # the last NodeEvent
        self.current_tensors = ()
        self.count = 0
        self.turns = Turns(self.cond)
        self.paused_in = None     # the thread id paused between nodes
        self.pauses = 0
        self.go = False
        self.aborted = False
        self.stop_reason = ""
        self.started_source = False
        self._armed = set()       # injected tensors to replace at their next production

    # The run observer factory (engine/runtime/observers.py) ---------------------------------------

    def observer_for(self, device, step_id, plan):
        """The observer of one partition's executor; called for every one before any runs."""
        with self.cond:
            self.index.add_plan(plan)
            return PartitionObserver(self, self.turns.add_lane(device))

    # What the partitions' observers report (each with self.cond held, holding the turn) --------

    def _source(self):
        if not self.started_source:
            self.started_source = True
            if self.control.pause_at_start():
                self._pause("start of the run: nothing has run yet")

    def _node_scheduled(self, node, info):
        frame, iteration, _ = frame_info((info,), {})
        self.index.scheduled(node, f"{node.name} ({frame}:{iteration})" if frame else None)

    def _node_started(self, node, info):
        frame, iteration, _ = frame_info((info,), {})
        self.index.started(node, f"{node.name} ({frame}:{iteration})" if frame else None)
        for tensor in self.index.input_tensors(node):
            self._release(tensor)

    def _op_started(self, node, inputs):
        """Feeds an injected value to a consumer in place of the tensor it would read."""
        injected = self.control.injected
        for i, tensor in enumerate(self.index.input_tensors(node)):
            if tensor in injected and i < len(inputs):
                inputs[i] = placed(injected[tensor], node.device)

    def _node_finished(self, lane, node, outputs, info):
        """Records the node's outputs and maybe pauses (inside this call, so a value injected
        for them during the pause is returned as the replacement the executor uses)."""
        frame, iteration, dead = frame_info((info,), {})
        names = self.index.output_tensors(node)
        self._drop_superseded(names)
        produced = list(zip(names, outputs))
        self.count += 1
        event = NodeEvent(self.count, node.name, node.op_type, lane.device, node.kind,
                          list(names), [], frame, iteration, dead, node)
        event.summaries = [_summary(value) for _, value in produced]
        self.index.finished(node, f"{node.name} ({frame}:{iteration})" if frame else None)
        self._keep(produced, event)
        self.current = event
        self.history.append(event)
        reason = self.control.should_pause(event, produced)
        if reason:
            self._pause(reason)
        replaced = self._apply_armed(names, outputs, lane.device)
        if replaced is not None:
            event.summaries = [_summary(value) for value in replaced]
        return tuple(replaced) if replaced is not None else None

    # The controller's side (called with self.cond held) ---------------------------------------

    def resume(self):
        self.go = True
        self.cond.notify_all()

    def abort(self):
        self.aborted = True
        self.cond.notify_all()

    def value(self, tensor):
        if tensor in self.control.injected:
            return self.control.injected[tensor]
        return self.values.get(tensor)

    # -----------------------------------------------------------------------------------------

    def _check(self):
        if self.aborted:
            raise DebugAborted("run stopped from the debugger")

    def _pause(self, reason):
        self.stop_reason = reason
        self.paused_in = threading.get_ident()
        self.pauses += 1
        self.go = False
        self.cond.notify_all()
        while not self.go and not self.aborted:
            self.cond.wait()
        self.paused_in = None
        self.cond.notify_all()
        if self.aborted:
            raise DebugAborted("run stopped from the debugger")

    def _drop_superseded(self, names):
        """A new production of an injected tensor ends an injection made after the last one."""
        injected = self.control.injected
        for name in names:
            if name in injected and name not in self._armed:
                del injected[name]

    def _apply_armed(self, names, outputs, device):
        """The outputs with armed injections in place (None when there are none), each on the
        producer's device (a host value injected into a GPU node's output goes to the GPU)."""
        injected, armed = self.control.injected, [n for n in names if n in self._armed]
        if not armed:
            return None
        self._armed.difference_update(armed)
        return [placed(injected[name], device) if name in armed
                else _NO_VALUE if value is None else value
                for name, value in zip(names, outputs)]

    def arm_injection(self, tensor):
        """Called by the controller: `tensor` is injected. It replaces the tensor's next
        production, or this one when the run is paused right after its producer; a tensor
        made earlier is replaced only in the inputs of kernels that read it from now on."""
        produced = tensor in self.values or self.index.times_run(tensor.rpartition(":")[0])
        if tensor in self.current_tensors or not produced:
            self._armed.add(tensor)
        else:
            self._armed.discard(tensor)

    def _keep(self, produced, event):
        watched = self.control.watched
        previous, self.current_tensors = self.current_tensors, tuple(name for name, _ in produced)
        for tensor in previous:
            self._drop_if_unneeded(tensor)
        for name, value in produced:
            value = _snapshot(value)
            self.index.produced(name)
            self.values[name] = value
            if name in watched or event.name in watched:
                self.watch_log.append((event.number, name, event.where, tensors.summary(value)))
        dumper = self.control.dumper
        if dumper is not None:
            dumper.add(event, produced)

    def _release(self, tensor):
        self.index.consumed(tensor)
        self._drop_if_unneeded(tensor)

    def _drop_if_unneeded(self, tensor):
        if self.control.keep_all or tensor in self.current_tensors:
            return
        watched = self.control.watched
        node = tensor.rpartition(":")[0]
        if tensor in watched or node in watched or self.index.uses_left(tensor) > 0:
            return
        self.values.pop(tensor, None)


class PartitionObserver:
    """The executor observer of one partition (engine/runtime/executor.py's protocol): takes the
    turn at each callback, gives it up around kernels and hands the rest to the run's
    DebugObserver."""

    def __init__(self, debugger, lane):
        self.debugger, self.lane = debugger, lane
        self.cond, self.turns = debugger.cond, debugger.turns

    def source(self, now_ns):
        with self.cond:
            self.turns.switch(self.lane, self.debugger._check)
            self.debugger._source()

    def node_scheduled(self, node, now_ns, info=None):
        with self.cond:
            self.turns.take(self.lane, self.debugger._check)
            self.debugger._node_scheduled(node, info)

    def node_started(self, node, info=None):
        with self.cond:
            self.turns.switch(self.lane, self.debugger._check)
            self.debugger._node_started(node, info)

    def op_started(self, node, inputs, info=None):
        with self.cond:
            self.turns.take(self.lane, self.debugger._check)
            if self.debugger.control.injected:
                self.debugger._op_started(node, inputs)
            self.turns.kernel_starts(node, self.lane)

    def op_finished(self, node, info=None):
        with self.cond:
            self.turns.kernel_ends(node, self.lane, self.debugger._check)

    def node_finished(self, node, outputs, info=None):
        with self.cond:
            self.turns.take(self.lane, self.debugger._check)
            return self.debugger._node_finished(self.lane, node, outputs, info)

    def executor_done(self, error=None):
        with self.cond:
            self.turns.done(self.lane)


DEAD = "no value (dead)"


def _summary(value):
    return DEAD if value is None else tensors.summary(value)


def _snapshot(value):
    """A Ref's buffer as it is now (the variable changes later); other values as they are."""
    from engine.runtime.resources import Ref
    if isinstance(value, Ref):
        return None if value.value is None else value.value.copy()
    return value
