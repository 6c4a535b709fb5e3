"""The frame-aware executor loop: TensorFlow's ready queue with (frame, iteration) tags.

Runs any plan, control flow v1 included, with TensorFlow's executor semantics
(propagator_state.cc): every node runs in a frame instance and an iteration of it; a node
with a dead input is dead (its outputs have no value) except Merge, which fires on its first
live data input, or dead once all its data inputs are dead; a dead control input kills a
non-Merge node; ControlTrigger is never dead. Enter moves its value into a child frame
(iteration 0, or every iteration when is_constant), NextIteration into the next iteration
(a dead NextIteration stops there), Exit back to the parent frame; a frame ends when its
inputs have all entered and no op of it is outstanding, and an Exit that never produced a
live value then passes deadness to the parent (a loop on an untaken cond branch).

Static frame assignment is TensorFlow's ControlFlowInfo: the outputs of an Enter live in
the frame its frame_name attr names, the outputs of an Exit in the parent of the Exit's frame.
Inexpensive kernels made ready run before expensive ones, as in plan.schedule.
"""

import os
import time
from collections import deque

import numpy as np

from engine.runtime import deadline
from engine.framework import errors, op_families
from engine.runtime.node_run import (exclusive_inputs, outputs_list, raise_node_error,
                                     read_ref)

NO_VALUE = type("NoValue", (), {"__repr__": lambda self: "<dead>"})()

# The runaway-loop limit: a frame running more iterations than this fails with an error
# naming the frame (Executor(max_loop_iterations=...) or the GI_MAX_LOOP_ITERATIONS env var).
DEFAULT_MAX_LOOP_ITERATIONS = 1_000_000

NORMAL, MERGE, SWITCH, ENTER, EXIT, NEXT, TRIGGER, ARG, RETVAL, CONST = range(10)
_KINDS = {op: kind for family, kind in (
    (op_families.MERGE, MERGE), (op_families.SWITCH, SWITCH), (op_families.ENTER, ENTER),
    (op_families.EXIT, EXIT), (op_families.NEXT_ITERATION, NEXT),
    ({"ControlTrigger"}, TRIGGER)) for op in family}


def max_loop_iterations(explicit=None):
    if explicit is not None:
        return int(explicit)
    value = os.environ.get("GI_MAX_LOOP_ITERATIONS", "")
    return int(value) if value.strip() else DEFAULT_MAX_LOOP_ITERATIONS


class ExecInfo:
    """Where one node execution happened: frame name ("" at top level), iteration, deadness.

    `frame_id` tells apart the instances of one frame (a loop inside a loop runs a fresh
    frame per outer iteration): the frame names and iterations from the root, joined.
    """

    __slots__ = ("frame", "iteration", "dead", "frame_id")

    def __init__(self, frame, iteration, dead, frame_id):
        self.frame, self.iteration, self.dead, self.frame_id = frame, iteration, dead, frame_id

    def __repr__(self):
        return (f"ExecInfo(frame={self.frame!r}, iteration={self.iteration}, "
                f"dead={self.dead})")


class Item:
    """One plan node as the frame loop sees it (static)."""

    __slots__ = ("pos", "node", "kind", "frame", "local", "input_start", "num_inputs",
                 "out_edges", "initial_pending", "is_constant_enter", "child_frame",
                 "inexpensive", "kernel", "ctx", "deref", "const", "num_outputs")


class FrameInfo:
    """One static frame: its items and the per-iteration state template."""

    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.items, self.num_enters, self.exits = [], 0, []
        self.pending_template, self.inputs_template = [], []


def build(executor):
    """(items by plan position, frame infos by name) for a bound plan."""
    plan = executor.plan
    nodes = plan.nodes
    slot_owner = {}
    for pos, node in enumerate(nodes):
        for out, slot in enumerate(node.output_slots):
            slot_owner[slot] = (pos, out)
    position = {node.name: pos for pos, node in enumerate(nodes)}
    items = []
    for pos, node in enumerate(nodes):
        item = Item()
        item.pos, item.node, item.out_edges = pos, node, []
        item.kind = {"arg": ARG, "retval": RETVAL}.get(node.kind, _KINDS.get(node.op_type, NORMAL))
        item.num_inputs = len(node.input_slots)
        item.num_outputs = len(node.output_slots)
        item.inexpensive = node.inexpensive
        item.kernel = executor.kernels.get(node.name)
        item.ctx = executor.contexts.get(node.name)
        item.deref = node.deref if any(node.deref) else None
        item.const = None
        if node.op_type == "Const" and node.output_slots:
            item.const = executor._template[node.output_slots[0]]
            if item.const is not None:
                item.kind = CONST
        item.is_constant_enter = False
        item.child_frame = None
        if item.kind == ENTER:
            attrs = node.node_def.attr
            item.child_frame = attrs["frame_name"].s.decode()
            item.is_constant_enter = attrs["is_constant"].b
        items.append(item)
    num_control = [0] * len(nodes)
    for pos, node in enumerate(nodes):
        for dst_in, slot in enumerate(node.input_slots):
            src, out = slot_owner[slot]
            items[src].out_edges.append((items[pos], out, dst_in))
        for name in node.sources[len(node.input_slots):]:
            items[position[name]].out_edges.append((items[pos], 0, -1))
            num_control[pos] += 1
    frames = _assign_frames(items)
    for item in items:
        frame = item.frame
        item.local = len(frame.items)
        item.input_start = len(frame.inputs_template)
        frame.items.append(item)
        frame.inputs_template.extend([NO_VALUE] * item.num_inputs)
        n_in = item.num_inputs + num_control[item.pos]
        item.initial_pending = (1 + 2 * num_control[item.pos]) if item.kind == MERGE else n_in
        frame.pending_template.append(item.initial_pending)
        if item.kind == ENTER:
            frames[item.child_frame].num_enters += 1
        elif item.kind == EXIT:
            frame.exits.append(item)
    return items, frames


def _assign_frames(items):
    """TensorFlow's ControlFlowInfo: the static frame of every item."""
    root = FrameInfo("", None)
    frames = {"": root}
    for item in items:
        item.frame = None
    has_input = set()
    for item in items:
        for dst, _, _ in item.out_edges:
            has_input.add(dst.pos)
    queue = deque(item for item in items if item.pos not in has_input)
    for item in queue:
        item.frame = root
    while queue:
        item = queue.popleft()
        frame = item.frame
        if item.kind == ENTER:
            out_frame = frames.get(item.child_frame)
            if out_frame is None:
                out_frame = frames[item.child_frame] = FrameInfo(item.child_frame, frame)
        elif item.kind == EXIT:
            out_frame = frame.parent if frame.parent is not None else frame
        else:
            out_frame = frame
        for dst, _, _ in item.out_edges:
            if dst.frame is None:
                dst.frame = out_frame
                queue.append(dst)
    for item in items:
        if item.frame is None:  # only reachable through a cycle without a Merge
            raise ValueError(f"node {item.node.name} is never ready: a cycle in the graph?")
    return frames


class _Frame:
    """A frame instance: its live iterations and what entered it."""

    __slots__ = ("info", "parent", "parent_iter", "iterations", "count", "first_live",
                 "pending_inputs", "inv_values", "live_exits", "frame_id")

    def __init__(self, info, parent, parent_iter):
        self.info, self.parent, self.parent_iter = info, parent, parent_iter
        self.iterations, self.count, self.first_live = {}, 0, 0
        self.pending_inputs = info.num_enters
        self.inv_values, self.live_exits = [], set()
        self.frame_id = (f"{parent.frame_id};{parent_iter.id};{info.name}"
                         if parent is not None else "")
        self.iterations[0] = _Iter(self, 0)


class _Iter:
    __slots__ = ("frame", "id", "pending", "dead", "inputs", "outstanding", "children")

    def __init__(self, frame, iteration):
        info = frame.info
        self.frame, self.id = frame, iteration
        self.pending = info.pending_template[:]
        self.dead = [0] * len(info.items)
        self.inputs = info.inputs_template[:]
        self.outstanding = 0
        self.children = {}


class _NullObserver:
    def __getattr__(self, name):
        return _ignore


def _ignore(*args, **kwargs):
    return None


def run(executor, feed_values, observer=None, step_id=0):
    """Runs the bound plan; returns the values list with the fetched slots filled."""
    items, frame_infos = executor._frame_items()
    plan = executor.plan
    limit = max_loop_iterations(executor.max_loop_iterations)
    traced = observer is not None
    if not traced:
        observer = _NullObserver()
    values = [None] * plan.num_slots
    feeds = {slot: feed_values[i] for i, slot in executor._feed_slots}
    for item in items:
        if item.ctx is not None:
            item.ctx.step_id = step_id
    root = _Frame(frame_infos[""], None, None)
    root_iter = root.iterations[0]
    inline, expensive = deque(), deque()
    clock = time.time_ns if traced else _zero

    def enqueue(item, it, dead):
        it.outstanding += 1
        if traced:
            observer.node_scheduled(item.node, clock(), _info(item, it, dead))
        (inline if item.inexpensive else expensive).append((item, it, dead))

    def activate(item, it, outputs, is_dead):
        pending, dead_counts, inputs = it.pending, it.dead, it.inputs
        for dst, out, dst_in in item.out_edges:
            d = dst.local
            if dst.kind == MERGE:
                if dst_in < 0:
                    pending[d] -= 2
                    dst_dead = dead_counts[d] == dst.num_inputs
                    ready = pending[d] == 0 or (pending[d] == 1 and dst_dead)
                elif outputs[out] is not NO_VALUE:
                    count = pending[d]
                    pending[d] = count & ~1
                    if count & 1:
                        inputs[dst.input_start + dst_in] = outputs[out]
                    ready, dst_dead = count == 1, False
                else:
                    dead_counts[d] += 1
                    dst_dead = dead_counts[d] == dst.num_inputs or item.kind == ENTER
                    ready = pending[d] == 1 and dst_dead
            else:
                pending[d] -= 1
                if is_dead or (dst_in >= 0 and outputs[out] is NO_VALUE):
                    dead_counts[d] += 1
                elif dst_in >= 0:
                    inputs[dst.input_start + dst_in] = outputs[out]
                dst_dead = dead_counts[d] > 0
                ready = pending[d] == 0
            if ready:
                enqueue(dst, it, dst_dead and dst.kind != TRIGGER)

    def new_iteration(frame, item):
        frame.count += 1
        if not frame.count % deadline.CHECK_EVERY:
            deadline.check()
        if frame.count > limit:
            raise errors.ResourceExhaustedError(
                None, None, f"Loop frame '{frame.info.name}' ran more than {limit} iterations "
                            f"(the engine's runaway-loop limit; raise it with the "
                            f"GI_MAX_LOOP_ITERATIONS environment variable)")
        it = frame.iterations[frame.count] = _Iter(frame, frame.count)
        for inv_item, inv_outputs in frame.inv_values:
            activate(inv_item, it, inv_outputs, inv_outputs[0] is NO_VALUE)
        return it

    def child_frame(item, it):
        child = it.children.get(item.child_frame)
        if child is None:
            child = it.children[item.child_frame] = _Frame(frame_infos[item.child_frame],
                                                           it.frame, it)
            it.outstanding += 1
        return child

    def finish(frame):
        """Drops finished iterations; ends the frame when nothing more can happen in it."""
        while True:
            iterations = frame.iterations
            while (frame.first_live < frame.count and not frame.pending_inputs
                   and not iterations[frame.first_live].outstanding):
                del iterations[frame.first_live]
                frame.first_live += 1
            parent_iter = frame.parent_iter
            if (parent_iter is None or frame.pending_inputs or frame.first_live < frame.count
                    or iterations[frame.count].outstanding):
                return
            del parent_iter.children[frame.info.name]
            for exit_item in frame.info.exits:
                if exit_item not in frame.live_exits:
                    activate(exit_item, parent_iter, [NO_VALUE] * exit_item.num_outputs, True)
            parent_iter.outstanding -= 1
            frame = parent_iter.frame

    def propagate(item, it, outputs, is_dead):
        kind = item.kind
        if kind == ENTER:
            child = child_frame(item, it)
            if item.is_constant_enter:
                child.inv_values.append((item, outputs))
                for child_it in list(child.iterations.values()):
                    activate(item, child_it, outputs, is_dead)
            else:
                activate(item, child.iterations[0], outputs, is_dead)
            child.pending_inputs -= 1
            finish(child)
        elif kind == EXIT:
            if not is_dead:
                frame = it.frame
                frame.live_exits.add(item)
                activate(item, frame.parent_iter, outputs, False)
        elif kind == NEXT:
            if not is_dead:
                frame = it.frame
                next_it = frame.iterations.get(it.id + 1)
                if next_it is None:
                    next_it = new_iteration(frame, item)
                activate(item, next_it, outputs, False)
        else:
            activate(item, it, outputs, is_dead)
        it.outstanding -= 1
        finish(it.frame)

    observer.source(clock())
    for item in root.info.items:
        if item.initial_pending == 0:
            enqueue(item, root_iter, False)
    while inline or expensive:
        item, it, is_dead = inline.popleft() if inline else expensive.popleft()
        node = item.node
        info = _info(item, it, is_dead) if traced else None
        if traced:
            observer.node_started(node, info)
        try:
            if is_dead:
                if item.kind == RETVAL:
                    raise errors.InvalidArgumentError(
                        None, None, f"Retval[{node.index}] does not have value")
                outputs = [NO_VALUE] * item.num_outputs
            else:
                outputs = _compute(executor, item, it, values, feeds, observer, info)
            # As TensorFlow's executor clears a node's inputs once it has run: a tensor then
            # lives until its last reader has run, not to the end of the step (held to the
            # end, every large output was fresh memory, and a traced BERT step 2.5x slower).
            start = item.input_start
            it.inputs[start:start + item.num_inputs] = _no_values(item.num_inputs)
            if traced:
                replaced = observer.node_finished(
                    node, [None if v is NO_VALUE else v for v in outputs], info)
                if replaced is not None:
                    outputs = list(replaced)
            propagate(item, it, outputs, is_dead)
        except Exception as error:  # noqa: BLE001  (re-raised as TensorFlow's error)
            raise_node_error(node, error)
    return values


def _zero():
    return 0


_NO_VALUES = [[NO_VALUE] * n for n in range(8)]


def _no_values(count):
    """[NO_VALUE] * count (the common counts made once)."""
    return _NO_VALUES[count] if count < len(_NO_VALUES) else [NO_VALUE] * count


def _info(item, it, dead):
    frame = it.frame
    return ExecInfo(frame.info.name, it.id, dead, frame.frame_id)


def _compute(executor, item, it, values, feeds, observer, info):
    """The outputs of one live node (NO_VALUE for an output without a value)."""
    kind = item.kind
    start = item.input_start
    inputs = it.inputs[start:start + item.num_inputs]
    if kind == MERGE:
        for index, value in enumerate(inputs):
            if value is not NO_VALUE:
                return [value, np.int32(index)]
    if kind == CONST:
        return [item.const]
    if kind == ARG:
        slot = item.node.output_slots[0]
        values[slot] = feeds[slot]
        return [values[slot]]
    if kind == RETVAL:  # a ref is read (and copied) by the fetch itself
        values[item.node.input_slots[0]] = inputs[0]
        return []
    if item.deref is not None:
        inputs = [read_ref(v, item.node) if d else v for v, d in zip(inputs, item.deref)]
    if kind == SWITCH:
        data, pred = inputs
        return [NO_VALUE, data] if bool(pred) else [data, NO_VALUE]
    if kind in (ENTER, EXIT, NEXT):
        return [inputs[0]]
    if observer is not None:
        observer.op_started(item.node, inputs, info)
    forwarding = getattr(item.kernel, "forwarding", None)
    if forwarding is not None and item.deref is None and item.num_outputs == 1:
        # The node's inputs cleared now rather than after it (as run() does): an input no
        # other consumer, frame or fetch holds any more may take the output
        # (executor._bind_forwarding_step).
        it.inputs[start:start + item.num_inputs] = _no_values(item.num_inputs)
        result = forwarding(item.ctx, exclusive_inputs(inputs, range(len(inputs))), *inputs)
    else:
        result = item.kernel(item.ctx, *inputs)
    if observer is not None:
        observer.op_finished(item.node, info)
    return outputs_list(item.node, result)
