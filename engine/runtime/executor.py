"""The executor: runs a Plan's kernels over a flat list of values, fast or traced.

Two loops over the same bound plan. `run` is the hot path: constants are computed once at
bind time, feeds are written into their slots, then each node reads its input slots, calls
its kernel, writes its output slots and clears the slots it was the last reader of. A plan
with control flow (Switch, Merge, Enter, Exit, NextIteration, ...) runs instead on the
frame-aware loop of engine/runtime/frames.py: TensorFlow's ready queue with (frame, iteration) tags
and dead tensors. `run_traced` always runs on that loop, with an observer around each node.

The observer protocol (step_stats.StepStatsCollector, the stepping debugger, the VLOG writer):

    observer.source(now_ns)                          once, first (the _SOURCE node)
    observer.node_scheduled(node, now_ns, info)      a node became ready
    observer.node_started(node, info)                it is about to run
    observer.op_started(node, inputs, info)          around its kernel call, only when a
    observer.op_finished(node, info)                 kernel runs (not for a dead node, a
                                                     precomputed Const, _Arg or _Retval);
                                                     `inputs` is the list the kernel gets
                                                     (an observer may replace items in it)
    observer.node_finished(node, outputs, info) -> None or replacement outputs

for every _Arg, kernel and _Retval node in the order TensorFlow's executor runs them.
`node` is the plan.PlanNode; `outputs` a list with None for an output without a value (dead);
a non-None return from node_finished (a tuple, one value per output) is used instead of the
kernel's outputs downstream and in the fetches (the debugger's inject_value).
`info` is a frames.ExecInfo: .frame (the loop frame's name, "" at top level), .iteration
(0 at top level), .dead (the node is dead: no kernel ran, every output is None) and
.frame_id (which instance of the frame: a loop inside a loop gets one per outer iteration).
A node inside a loop is reported once per iteration; a function body (If, While,
PartitionedCall: engine/runtime/function_library.py) runs untraced inside its node. The runaway-loop
limit (frames.DEFAULT_MAX_LOOP_ITERATIONS, GI_MAX_LOOP_ITERATIONS or Executor(max_loop_iterations=))
stops a frame running more iterations with ResourceExhaustedError naming the frame.
"""

import os
import sys

import numpy as np

from engine.runtime import chain_steps, frame_compiler, frames, function_library as function
from engine.framework import errors
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.kernels.cuda import memory_types
from engine.kernels.cpu.functional import function_call
from engine.runtime.node_run import (FORWARD_MIN_BYTES, _ONLY_IN_LIST, check_output,
                                     checked_outputs, exclusive_inputs,
                                     no_kernel_error, node_error, outputs_list,
                                     raise_node_error, read_ref, unheld_dtype_error)
from engine.runtime.resources import ReceivedRef, Ref

_RECVS = frozenset({"_Recv", "_HostRecv"})
# Check every kernel output's dtype (and count) against the graph: off on the fast path.
DEBUG_CHECKS = os.environ.get("GI_ENGINE_DEBUG", "") not in ("", "0")


class Executor:
    """A plan bound to a session: kernels looked up, contexts built, constants computed."""

    def __init__(self, plan, resources, rng_factory=None, session_state=None,
                 make_context=KernelContext, device_type="CPU", kernel_lookup=lookup,
                 max_loop_iterations=None, library=None):
        functions = function.library_of(plan.kernel_nodes, library)
        if functions:
            session_state = _with_library(session_state, functions, resources, rng_factory,
                                          max_loop_iterations)
        self.plan = plan
        self.max_loop_iterations = max_loop_iterations
        self._frames = self._compiled = None
        self.contexts = {}
        self.kernels = {}
        template = [None] * plan.num_slots
        steps = []
        self.stateful_contexts = []
        producers = {node.name: node for node in plan.nodes}
        position = {node.name: i for i, node in enumerate(plan.nodes)}
        fed_slots = frozenset(plan.feed_slots.values())
        kernel_nodes = plan.kernel_nodes
        # elementwise chains run as one compiled loop on the fast path (chain_steps.py)
        chains = (chain_steps.Chains(plan, kernel_nodes)
                  if (chain_steps.ENABLED and device_type == "CPU" and not DEBUG_CHECKS
                      and not plan.has_control_flow) else None)
        for node in kernel_nodes:
            kernel = kernel_lookup(node.op_type, device_type)
            if kernel is None and node.op_type in functions:
                kernel = function_call
            if kernel is None:
                raise no_kernel_error(node, device_type)
            unheld = unheld_dtype_error(node)
            if unheld is not None:
                raise unheld
            if device_type == "GPU":  # int32 in host memory, other values on the device
                kernel = memory_types.adapt(node, kernel, _input_dtypes(node, producers))
            ctx = make_context(node.node_def, node.output_dtypes, resources, node.device,
                               rng_factory, session_state)
            self.contexts[node.name], self.kernels[node.name] = ctx, kernel
            if node.info.is_stateful:
                self.stateful_contexts.append(ctx)
            if node.op_type == "Const" and not node.input_slots:
                # Constant for the plan's life: computed here, copied in with the template.
                template[node.output_slots[0]] = self._call(node, kernel, ctx, ())
                continue
            frees = plan.frees.get(position[node.name], ())
            if chains:
                frees = chains.frees_at(node)
            step = None if DEBUG_CHECKS else _bind_forwarding_step(
                node, kernel, ctx, frees, template, fed_slots)
            if step is None:
                step = (_bind_checked_step if DEBUG_CHECKS else _bind_step)(node, kernel, ctx)
            steps.append((step, node, frees))
        if chains:
            steps = chains.combine(
                steps, lambda node_def, dtypes, device: make_context(
                    node_def, dtypes, resources, device, rng_factory, session_state),
                fed_slots, template)
        self._steps = [(step, frees) for step, node, frees in steps]
        self._node_of_step = {id(step): node for step, node, _ in steps}
        self._template = template
        # (position among the feeds given, slot) for the feeds the pruned graph reads.
        self._feed_slots = [(i, plan.feed_slots[name]) for i, name in enumerate(plan.feed_names)
                            if name in plan.feed_slots]
        fed = set(plan.feed_slots.values())
        self._fetches = [(plan.fetch_slots[name], retval, plan.fetch_slots[name] in fed)
                         for name, retval in zip(sorted(plan.fetch_slots),
                                                 _retvals_by_fetch(plan))]

    # The fast path ---------------------------------------------------------------------------

    def run(self, feed_values, step_id=0):
        """Fetched values (sorted fetch-name order) given feed values (plan.feed_names order)."""
        if self.plan.has_control_flow:
            values = self._run_compiled(feed_values, step_id)
            if values is None:
                values = frames.run(self, feed_values, None, step_id)
            return [_fetched(values[slot], retval, fed) for slot, retval, fed in self._fetches]
        values = self._template.copy()
        for i, slot in self._feed_slots:
            values[slot] = feed_values[i]
        for ctx in self.stateful_contexts:
            ctx.step_id = step_id
        try:
            for step, frees in self._steps:
                step(values)
                for slot in frees:
                    values[slot] = None
        except Exception as error:  # noqa: BLE001  (re-raised as TensorFlow's error)
            raise_node_error(self._node_of_step[id(step)], error)
        return [_fetched(values[slot], retval, fed) for slot, retval, fed in self._fetches]

    def run_stepwise(self, feed_values, step_id=0, waiting=None):
        """As `run`, for a plan without control flow, as a generator, for a caller that
        must not block (a cluster task's event loop, engine/cluster/loop_run.py): before a
        _Recv for which `waiting(node)` is true it yields the node, and goes on when
        resumed; it returns the fetched values."""
        if self.plan.has_control_flow:
            raise ValueError("run_stepwise runs plans without control flow only")
        values = self._template.copy()
        for i, slot in self._feed_slots:
            values[slot] = feed_values[i]
        for ctx in self.stateful_contexts:
            ctx.step_id = step_id
        node_of_step = self._node_of_step
        for step, frees in self._steps:
            node = node_of_step[id(step)]
            if waiting is not None and node.op_type in _RECVS:
                while waiting(node):
                    yield node
            try:
                step(values)
            except Exception as error:  # noqa: BLE001  (re-raised as TensorFlow's error)
                raise_node_error(node, error)
            for slot in frees:
                values[slot] = None
        return [_fetched(values[slot], retval, fed) for slot, retval, fed in self._fetches]

    # The traced path: TensorFlow's ready queue, with an observer around every node --------

    def run_traced(self, feed_values, observer, step_id=0):
        """As `run`, telling `observer` about every node (the protocol in the docstring)."""
        values = frames.run(self, feed_values, observer, step_id)
        return [_fetched(values[slot], retval, fed) for slot, retval, fed in self._fetches]

    def _run_compiled(self, feed_values, step_id):
        """The values after running the plan's compiled frames (frame_compiler), or None."""
        if self._compiled is None:
            items, frame_infos = self._frame_items()
            self._compiled = frame_compiler.compile_plan(self, items, frame_infos)
        run, num_slots = self._compiled
        if run is None:
            return None
        values = self._template + [None] * (num_slots - len(self._template))
        for i, slot in self._feed_slots:
            values[slot] = feed_values[i]
        for ctx in self.contexts.values():
            ctx.step_id = step_id
        try:
            run(values, frames.max_loop_iterations(self.max_loop_iterations))
        except Exception as error:  # noqa: BLE001  (re-raised as TensorFlow's error)
            position = getattr(error, "_gi_position", -1)
            node = self.plan.nodes[position] if position >= 0 else self.plan.nodes[0]
            raise_node_error(node, error)
        for slot, retval, _ in self._fetches:
            if values[slot] is frames.NO_VALUE:
                raise node_error(retval, errors.InvalidArgumentError(
                    None, None, f"Retval[{retval.index}] does not have value"))
        return values

    def _frame_items(self):
        """The plan as the frame loop sees it, built on first use."""
        if self._frames is None:
            self._frames = frames.build(self)
        return self._frames

    def _call(self, node, kernel, ctx, inputs):
        try:
            return kernel(ctx, *inputs)
        except Exception as error:  # noqa: BLE001
            raise_node_error(node, error)



def _input_dtypes(node, producers):
    """The dtypes of `node`'s data inputs (None where the producer's is not known)."""
    dtypes = []
    for producer, output in node.info.inputs:
        source = producers.get(producer)
        known = source is not None and output < len(source.output_dtypes)
        dtypes.append(source.output_dtypes[output] if known else None)
    return dtypes


def _with_library(session_state, functions, resources, rng_factory, max_loop_iterations):
    """session_state holding the FunctionLibrary the functional kernels call into."""
    if session_state is None:
        session_state = {}
    library = session_state.get(function.LIBRARY_KEY)
    if library is None or library.resources is not resources:
        session_state[function.LIBRARY_KEY] = function.FunctionLibrary(
            functions, resources, rng_factory, session_state, max_loop_iterations, Executor)
    else:
        library.functions.update(functions)
    return session_state


def _bind_step(node, kernel, ctx):
    """A closure running `node` on the value list: the one call per node of the fast path."""
    ins, outs = node.input_slots, node.output_slots
    if any(node.deref):
        deref = node.deref

        def step(values):
            result = kernel(ctx, *[read_ref(values[i], node) if d else values[i]
                                   for i, d in zip(ins, deref)])
            for slot, value in zip(outs, outputs_list(node, result)):
                values[slot] = value
        return step
    if len(outs) == 1:
        (out,) = outs
        if len(ins) == 0:
            def step(values):
                values[out] = kernel(ctx)
        elif len(ins) == 1:
            (a,) = ins

            def step(values):
                values[out] = kernel(ctx, values[a])
        elif len(ins) == 2:
            a, b = ins

            def step(values):
                values[out] = kernel(ctx, values[a], values[b])
        else:
            def step(values):
                values[out] = kernel(ctx, *[values[i] for i in ins])
        return step
    if not outs:
        def step(values):
            kernel(ctx, *[values[i] for i in ins])
        return step

    def step(values):
        for slot, value in zip(outs, checked_outputs(node, kernel(ctx, *[values[i]
                                                                          for i in ins]))):
            values[slot] = value
    return step


def _bind_forwarding_step(node, kernel, ctx, frees, template=(), fed_slots=frozenset()):
    """A step that lets the kernel write its output into an input buffer no one else holds,
    as TensorFlow's forward_input: else None (the kernel has no `forwarding` form, or this
    node is the last reader of none of its inputs).

    A kernel's `forwarding(ctx, donated, *inputs)` computes what `kernel(ctx, *inputs)` does,
    and may write its result into `inputs[k]` for k in `donated` (engine/kernels/cpu/math.py).
    An input is donated when this node is the last reader of its slot (the plan's frees: a
    fetched slot is never freed), the slot is read once by the node, and, once the step has
    taken the value out of its slot, nothing else holds the array (its reference count: a
    variable, a constant of the template, a fed value, another slot, a view or a loop's
    frame hold it otherwise) and it owns its memory. Why: every large result was fresh memory;
    on this KVM guest a page touched first costs about 2.7 us, and a BERT call faulted
    12,000 to 35,000 pages (docs/ARCHITECTURE.md, "Buffers forwarded")."""
    forwarding = getattr(kernel, "forwarding", None)
    ins, outs = node.input_slots, node.output_slots
    if forwarding is None or len(outs) != 1 or any(node.deref):
        return None
    # (a constant of the template or a fed value is never the node's alone: not offered)
    positions = tuple(k for k, slot in enumerate(ins)
                      if slot in frees and ins.count(slot) == 1 and slot not in fed_slots
                      and (slot >= len(template) or template[slot] is None))
    if not positions:
        return None
    (out,) = outs
    minimum, ndarray = FORWARD_MIN_BYTES, np.ndarray
    # A small value's step is the plain step's call and one class check (a scalar op's value
    # is a NumPy scalar): a small graph's op runs in about 0.35 us, and a generic step's list
    # and generator cost it 0.5 us more, a size check with getattr 0.05 us.
    if len(ins) == 2 and len(positions) == 1:
        a, b = ins
        slot = ins[positions[0]]

        def step(values):
            x = values[slot]
            if x.__class__ is not ndarray or x.nbytes < minimum:
                values[out] = kernel(ctx, values[a], values[b])
                return
            del x  # (only the list below may hold it when exclusive_inputs counts)
            inputs = [values[a], values[b]]
            values[slot] = None
            values[out] = forwarding(ctx, exclusive_inputs(inputs, positions), *inputs)
        return step
    if len(ins) == 2:  # both inputs read last here
        a, b = ins

        def step(values):
            x, y = values[a], values[b]
            if ((x.__class__ is not ndarray or x.nbytes < minimum)
                    and (y.__class__ is not ndarray or y.nbytes < minimum)):
                values[out] = kernel(ctx, x, y)
                return
            del x, y  # (only the list below may hold them when exclusive_inputs counts)
            inputs = [values[a], values[b]]
            values[a] = values[b] = None
            values[out] = forwarding(ctx, exclusive_inputs(inputs, positions), *inputs)
        return step
    if len(ins) == 1:
        (a,) = ins

        def step(values):
            x = values[a]
            if x.__class__ is not ndarray or x.nbytes < minimum:
                values[out] = kernel(ctx, x)
                return
            del x  # (only the list below may hold it when exclusive_inputs counts)
            inputs = [values[a]]
            values[a] = None
            values[out] = forwarding(ctx, exclusive_inputs(inputs, positions), *inputs)
        return step

    def step(values):
        inputs = [values[i] for i in ins]
        large = tuple(k for k in positions if getattr(inputs[k], "nbytes", 0) >= minimum)
        if not large:
            values[out] = kernel(ctx, *inputs)
            return
        for k in large:
            values[ins[k]] = None
        values[out] = forwarding(ctx, exclusive_inputs(inputs, large), *inputs)
    return step


def _bind_checked_step(node, kernel, ctx):
    """A step that also checks the kernel's outputs against the node's dtypes (debug mode)."""
    ins, outs = node.input_slots, node.output_slots

    def step(values):
        result = kernel(ctx, *[read_ref(values[i], node) if d else values[i]
                               for i, d in zip(ins, node.deref)])
        outputs = outputs_list(node, result)
        for slot, value, dtype in zip(outs, outputs, node.output_dtypes):
            check_output(node, value, dtype)
            values[slot] = value
    return step


def _fetched(value, retval, fed):
    """A fetched value as Session.run returns it: a Ref read (copied), an array whose memory
    something outlasting the run holds (copied: `_held_elsewhere`), a computed 0-d array as a
    NumPy scalar; a fed value comes back as fed."""
    if isinstance(value, ReceivedRef):
        return value  # a variable on another device: read when its partition has finished
    if isinstance(value, Ref):
        if value.value is None:
            raise node_error(retval, errors.FailedPreconditionError(
                None, None, f"Attempting to use uninitialized value {value.name}"))
        value = value.value.copy() if hasattr(value.value, "copy") else value.value
    elif not fed and type(value) is np.ndarray and _held_elsewhere(value):
        value = value.copy()
    if not fed and isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def _held_elsewhere(array):
    """Whether memory of a fetched array (the caller's list holds it) is held by more than the
    run's values: a ref variable's buffer that an Identity or a view passed on, a constant's
    cached array. TensorFlow hands such a buffer back copied (TF_TensorToNumpy moves a buffer
    only when nothing else holds it), so a later step's assign_add does not change an array
    the program fetched before; an array only the run made is handed back as it is."""
    if sys.getrefcount(array) > _ONLY_IN_RUN:
        return True
    owner = array.base  # (a view: whose memory it is)
    return owner is not None and (type(owner) is not np.ndarray
                                  or sys.getrefcount(owner) > _ONLY_AS_BASE)


def _base_references(view):
    owner = view.base
    return sys.getrefcount(owner)


# The counts _held_elsewhere sees for an array only the run's list holds, and for the owner of
# a view that only the view holds (measured, as the interpreter's own references vary).
_ONLY_IN_RUN = _ONLY_IN_LIST + 1  # (node_run's count, +1: _fetched's own argument)
_ONLY_AS_BASE = _base_references(np.empty(2)[1:])


def fetched_ref(value):
    """A fetched value, a variable of another device (ReceivedRef) read now: a copy of its
    value as the run left it, as a fetched ref of this device reads (`_fetched`)."""
    if not isinstance(value, ReceivedRef):
        return value
    read = value.value
    if read is None:
        raise errors.FailedPreconditionError(
            None, None, f"Attempting to use uninitialized value {value.name}")
    read = read.copy() if hasattr(read, "copy") else read
    return read[()] if isinstance(read, np.ndarray) and read.ndim == 0 else read


def _retvals_by_fetch(plan):
    return sorted((node for node in plan.nodes if node.kind == "retval"),
                  key=lambda node: node.index)
