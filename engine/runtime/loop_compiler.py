"""Compiled while loops: a loop frame whose ops all have compiled forms, run as one function.

The frame compiler (runtime/frame_compiler.py) turns a plan's frames into Python; a loop frame
with no frame inside it whose ops are the loop's own (Merge, LoopCond, Switch, Identity,
NextIteration, Exit), constants, and elementwise ops of engine/kernels/loop_body.py's
LOOP_OPS (arithmetic, comparisons, logic, exact casts), nothing stateful, becomes here a
`CompiledLoop`: the frame compiler calls it with the loop's entering values, and it runs the
loop as one numba function per (graph, signature), the signature being the entering values'
dtypes and shapes (numba specialises on them; shapes are checked to stay the same from one
iteration to the next, else the Python loop runs). It returns the Exits' values, or None when
the Python loop is to run: numba not loaded yet, the function still compiling, a signature it
does not take.

Values are the NumPy kernels' bit for bit (loop_numba's steps are the same IEEE operations in
the same order), the iteration count the Python loop's: the runaway-loop limit fails the same
iteration with the same error, and a run with a deadline looks at the clock every
deadline.CHECK_EVERY iterations as the Python loop does. A traced run (step stats, the
debugger, VLOG) never gets here: it runs on runtime/frames.py, which reports every node of
every iteration as TensorFlow's executor does.

Compiling costs a background thread about a second and numba's import (compiled/__init__.py),
so a loop asks for it once it has run COMPILE_AFTER_ITERATIONS iterations in the Python loop
(a few milliseconds of them), or at once under GRAPH_INSPECTOR_COMPILED=sync.
"""

import os

import numpy as np

from engine.kernels import compiled
from engine.kernels.loop_body import LOOP_OPS, LoopBody, casts_exactly
from engine.runtime import deadline
from engine.runtime.frames import CONST, ENTER, EXIT, MERGE, NEXT, NORMAL, SWITCH

COMPILE_AFTER_ITERATIONS = 4096
_UNSUPPORTED = "unsupported"


class NotCompilable(Exception):
    """The frame holds something the compiled loop does not take."""


def plan(frame, merges, loop_cond, switches, enters, data_sources):
    """(CompiledLoop, enter items in the order it takes their values, exits' variable
    indices) for a loop frame, or None where the frame has anything else.

    `frame` is the frames.FrameInfo, `merges` its (Merge, Enter, NextIteration) triples,
    `enters` the Enter items into it, `data_sources(item)` an item's (source, output) list."""
    try:
        return _Builder(frame, merges, loop_cond, switches, enters, data_sources).build()
    except NotCompilable:
        return None


class _Builder:
    def __init__(self, frame, merges, loop_cond, switches, enters, data_sources):
        self.frame, self.merges, self.loop_cond = frame, merges, loop_cond
        self.switches, self.sources = switches, data_sources
        self.refs = {}  # (item pos, output) -> value reference
        self.dtypes = {}  # value reference -> dtype name
        self.invariant_enters, self.constants, self.steps = [], [], []
        self.enters = enters

    def build(self):
        merge_items = {m.pos: i for i, (m, _, _) in enumerate(self.merges)}
        for i, (merge, enter, _) in enumerate(self.merges):
            self._name((merge.pos, 0), ("s", i), merge.node.output_dtypes[0])
        loop_enters = {enter.pos for _, enter, _ in self.merges}
        for enter in self.enters:
            if enter.pos in loop_enters:
                continue
            if not enter.is_constant_enter:
                raise NotCompilable("an Enter that feeds no loop variable")
            self._invariant((enter.pos, 0), enter.node.output_dtypes[0], enter)
        for item in self.frame.items:
            if item.kind == CONST:
                self._invariant((item.pos, 0), item.node.output_dtypes[0], item.const)
        switch_of = {s.pos for s in self.switches}
        body = self._downstream_of_switches()
        # what the condition reads first, then the body: a stable split of a topological
        # order (nothing the condition reads is downstream of the loop's Switches)
        ordered = self._ordered()
        ordered = [i for i in ordered if i.pos not in body] + [i for i in ordered if i.pos in body]
        for item in ordered:
            node = item.node
            if item.pos in merge_items or item.kind in (EXIT, CONST):
                continue
            if item.deref is not None:
                raise NotCompilable("a ref input")
            sources = self.sources(item)
            if item.kind == SWITCH and item.pos in switch_of:
                data, _ = sources
                self.refs[(item.pos, 1)] = self._ref(data)
            elif item.kind == NEXT or item is self.loop_cond or (
                    item.kind == NORMAL and node.op_type == "Identity" and len(sources) == 1):
                self.refs[(item.pos, 0)] = self._ref(sources[0])
            elif item.kind == NORMAL and node.op_type in LOOP_OPS \
                    and not node.info.is_stateful:
                self._step(item, sources, LOOP_OPS[node.op_type], item.pos in body)
            else:
                raise NotCompilable(f"{node.op_type} has no compiled form")
        condition = self._ref(self.sources(self.loop_cond)[0])
        nexts = tuple(self._ref(self.sources(next_item)[0]) for _, _, next_item in self.merges)
        exits = []
        for exit_item in self.frame.exits:
            (switch, _), = self.sources(exit_item)
            data, _ = self.sources(switch)
            if data[0].pos not in merge_items or data[1] != 0:
                raise NotCompilable("an Exit of something other than a loop variable")
            exits.append(merge_items[data[0].pos])
        loop = CompiledLoop(self.frame.name, (tuple(self.steps), condition, nexts),
                            [m.node.output_dtypes[0].name for m, _, _ in self.merges]
                            + [dtype for dtype, _ in self.constants],
                            [value for _, value in self.constants])
        enters = [enter for _, enter, _ in self.merges] + self.invariant_enters
        return loop, enters, exits

    def _downstream_of_switches(self):
        """Positions of the frame's items that read a loop Switch's output, however far."""
        seen, stack = set(), list(self.switches)
        while stack:
            item = stack.pop()
            for dst, _, _ in item.out_edges:
                if dst.frame is self.frame and dst.kind != MERGE and dst.pos not in seen:
                    seen.add(dst.pos)
                    stack.append(dst)
        return seen

    def _ordered(self):
        """The frame's items, each after those it reads (the loop's back edges left out)."""
        order, seen = [], set()

        def visit(item):
            if item.pos in seen:
                return
            seen.add(item.pos)
            if item.kind != MERGE:
                for source, _ in self.sources(item):
                    if source.frame is self.frame:
                        visit(source)
            order.append(item)

        for item in self.frame.items:
            visit(item)
        return order

    def _name(self, key, ref, dtype):
        self.refs[key] = ref
        self.dtypes[ref] = dtype.name

    def _invariant(self, key, dtype, value):
        ref = ("c", len(self.constants))
        self._name(key, ref, dtype)
        if getattr(value, "kind", None) == ENTER:
            self.invariant_enters.append(value)
            value = None  # given at each call
        self.constants.append((dtype.name, value))

    def _ref(self, source):
        item, out = source
        ref = self.refs.get((item.pos, out))
        if ref is None:
            raise NotCompilable("a value from outside the loop or of an unsupported node")
        return ref

    def _step(self, item, sources, allowed_dtypes, in_body):
        operands = tuple(self._ref(s) for s in sources)
        in_dtype = self.dtypes[operands[0]]
        dtype = item.node.output_dtypes[0].name
        if in_dtype not in allowed_dtypes or len(item.node.output_slots) != 1:
            raise NotCompilable(f"{item.node.op_type} at {in_dtype}")
        if item.node.op_type == "Cast" and not casts_exactly(in_dtype, dtype):
            raise NotCompilable("a float to integer Cast")
        if any(self.dtypes[ref] != in_dtype for ref in operands[1:]):
            raise NotCompilable("operands of different dtypes")
        ref = ("t", len(self.steps))
        self.steps.append((item.node.op_type, operands, dtype, in_dtype, in_body))
        self._name((item.pos, 0), ref, item.node.output_dtypes[0])


class CompiledLoop:
    """One loop frame, callable with its entering values: the Exits' values, or None."""

    def __init__(self, frame_name, body, dtypes, constants):
        self.frame_name = frame_name
        self._body = body
        self._dtypes = [np.dtype(d) for d in dtypes]
        self._constants = constants  # None where the value comes at each call
        self._signatures = {}  # shapes -> compiled function, or _UNSUPPORTED
        self.python_iterations = 0  # what the Python loop has run so far (the demand)

    def ran(self, iterations):
        """The Python loop ran `iterations` iterations of this frame."""
        self.python_iterations += iterations

    def __call__(self, limit, runaway, state, invariants):
        """The loop's final variables (a list) from its first ones, or None (run the Python
        loop); `runaway(frame, limit)` raises the runaway-loop error."""
        values = list(state) + _fill(self._constants, invariants)
        try:
            shapes = tuple(_shape_of(v, dtype) for v, dtype in zip(values, self._dtypes))
        except TypeError:
            return None
        function = self._signatures.get(shapes)
        if function is None:
            function = self._function(shapes)
        if function is None or function is _UNSUPPORTED:
            return None
        count = len(state)
        args = [np.ascontiguousarray(v).reshape(-1) if shape else dtype.type(np.asarray(v)[()])
                for v, shape, dtype in zip(values, shapes, self._dtypes)]
        variables, invariant_args = args[:count], args[count:]
        done, total = False, 0
        while not done:
            stop = limit - total
            if deadline.pending():
                stop = min(stop, deadline.CHECK_EVERY - total % deadline.CHECK_EVERY)
            with np.errstate(all="ignore"):
                done, ran, *variables = function(stop, *variables, *invariant_args)
            total += ran
            if not done:
                if total >= limit:
                    runaway(self.frame_name, limit)
                deadline.check()
        if total == 0:
            return list(state)
        return [value.reshape(shape) if shape else dtype.type(value)
                for value, shape, dtype in zip(variables, shapes, self._dtypes)]

    def _function(self, shapes):
        """The compiled function for entering values of these shapes (compiling it in the
        background when the loop has run enough), None for now, or _UNSUPPORTED."""
        sync = os.environ.get("GRAPH_INSPECTOR_COMPILED", "").lower() == "sync"
        if not compiled.enabled() or (
                not sync and self.python_iterations < COMPILE_AFTER_ITERATIONS):
            return None
        module = compiled.module("loops", wait=sync)
        if module is None:
            return None
        body = self._specialised(shapes)
        if body is None:
            self._signatures[shapes] = _UNSUPPORTED
            return _UNSUPPORTED
        function = module.kernel(body, tuple(bool(s) for s in shapes), wait=sync)
        if function is not None:
            self._signatures[shapes] = function
        return function

    def _specialised(self, shapes):
        """The LoopBody when every step combines arrays of one shape or a scalar and the loop
        variables keep their shapes; else None."""
        steps, condition, nexts = self._body
        count = len(nexts)
        shape_of = {("s", i): s for i, s in enumerate(shapes[:count])}
        shape_of.update({("c", i): s for i, s in enumerate(shapes[count:])})
        for k, (_, operands, _, _, _) in enumerate(steps):
            arrays = {shape_of[tuple(ref)] for ref in operands} - {()}
            if len(arrays) > 1:
                return None  # broadcasting beyond a scalar: NumPy's kernels do it, not here
            shape_of[("t", k)] = arrays.pop() if arrays else ()
        if any(shape_of[tuple(ref)] != shapes[i] for i, ref in enumerate(nexts)):
            return None  # a variable changes shape from one iteration to the next
        return LoopBody(
            steps=tuple((op, operands, dtype, in_dtype)
                        for op, operands, dtype, in_dtype, _ in steps),
            condition_steps=sum(1 for step in steps if not step[4]),
            condition=condition, nexts=nexts,
            dtypes=tuple(d.name for d in self._dtypes))


def _fill(constants, given):
    """The invariants' values: the constants, with the values given at this call in order."""
    given = iter(given)
    return [next(given) if value is None else value for value in constants]


def _shape_of(value, dtype):
    """A value's shape when it is an array or scalar of `dtype`, else TypeError."""
    if not isinstance(value, (np.ndarray, np.generic)) or value.dtype != dtype:
        raise TypeError("not an array of the loop's dtype")
    return value.shape

