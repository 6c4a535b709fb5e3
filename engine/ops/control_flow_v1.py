"""Control flow v1 as TensorFlow 1.x builds it: the ops and the contexts ops are built in.

The ops (switch, merge, _enter, exit_, _next_iteration, loop_cond, Ref* forms for ref tensors)
live in control_flow_v1_ops and are re-exported here. The contexts record, on every
op built inside tf.cond or tf.while_loop, where it sits, as TensorFlow keeps them (the gradient
code reads them to build gradients through loops and conds):

- `op._control_flow_context`: the innermost CondContext or WhileContext the op was built in
  (None at top level); `op._get_control_flow_context()` reads it. An Exit op's context is its
  loop's WhileContext, although its output lives in the outer context (`output_context`).
- every context: `name` (unique in the graph: "cond/cond_text", "while/while_context"),
  `outer_context` (the enclosing context or None), `_nested_contexts`, `_values` (names of the
  tensors that live in it), `_external_values` (outer tensor name -> the tensor standing in for
  it inside: the Switch output of a cond, the constant Enter of a loop).
- CondContext: `pred` (the pred_id Identity), `pivot` (switch_t or switch_f), `branch` (1 for
  the true branch, 0 for the false one). Ops with no inputs get a control input on the pivot;
  outer tensors are read through `Switch(x, pred)[branch]`, created once per tensor.
- WhileContext: `name` is also the frame_name of its Enter ops; `parallel_iterations`,
  `back_prop`, `swap_memory`, `maximum_iterations`; `loop_enters` (the Enter output of each
  loop variable), `loop_exits` (their Exit outputs), `pivot` (the LoopCond output),
  `_pivot_for_pred` (the first Merge output), `_pivot_for_body` (the first body Identity).
  Outer tensors used inside enter as constant Enters (is_constant=True); `grad_state` is None
  but on a gradient loop's context (engine.ops.control_flow_state), where a forward loop value
  read inside comes through its history stack and a Shape/Size/Rank of one is built in the
  forward loop, as TensorFlow's WhileContext.AddValue/AddOp do.
"""

import contextlib

from engine import dtypes
from engine.graph import get_default_graph
from engine.ops.array_ops import identity
from engine.ops.convert import convert_to_tensor
from engine.ops.control_flow_v1_ops import (  # noqa: F401  (the ops, re-exported)
    _enter, _identity, _is_ref, _next_iteration, _switch_ref_or_tensor, _with_shape,
    control_trigger, exit_, loop_cond, merge, switch)
from engine.ops.nest import flatten, flatten_up_to, map_structure, pack_sequence_as  # noqa: F401
from engine.tensor_shape import as_shape


# Helpers over ops and contexts (TensorFlow's control_flow_util) ------------------------------

def is_loop_exit(op):
    return op.type in ("Exit", "RefExit")


def is_loop_enter(op):
    return op.type in ("Enter", "RefEnter")


def is_loop_constant_enter(op):
    return is_loop_enter(op) and op.get_attr("is_constant")


def output_context(op):
    """The context `op`'s outputs live in (an Exit's is its loop's outer context)."""
    ctxt = op._get_control_flow_context()
    if ctxt is not None and is_loop_exit(op):
        ctxt = ctxt.outer_context
    return ctxt


def op_in_context(op, ctxt):
    return is_context_in(op._get_control_flow_context(), ctxt)


def is_context_in(ctxt, outer):
    while ctxt is not None:
        if ctxt is outer:
            return True
        ctxt = ctxt.outer_context
    return outer is None


def while_context_of(op):
    ctxt = op._get_control_flow_context()
    return ctxt.GetWhileContext() if ctxt is not None else None


# Contexts ------------------------------------------------------------------------------------

@contextlib.contextmanager
def _cleared(graph):
    """TensorFlow's `control_dependencies(None)`: no control inputs and no context."""
    saved = graph._get_control_flow_context()
    graph._set_control_flow_context(None)
    try:
        with graph.control_dependencies(None):
            yield
    finally:
        graph._set_control_flow_context(saved)


class ControlFlowContext:
    """The base of CondContext and WhileContext (see the module docstring)."""

    def __init__(self):
        graph = get_default_graph()
        self._graph = graph
        self._outer_context = graph._get_control_flow_context()
        self._nested_contexts = []
        if self._outer_context is not None:
            self._outer_context._nested_contexts.append(self)
        self._context_stack = []
        self._values = set()
        self._external_values = {}

    @property
    def name(self):
        return self._name

    @property
    def outer_context(self):
        return self._outer_context

    def AddName(self, name):
        self._values.add(name)

    def Enter(self):
        self._context_stack.append(self._graph._get_control_flow_context())
        self._graph._set_control_flow_context(self)

    def Exit(self):
        self._graph._set_control_flow_context(self._context_stack.pop())

    @contextlib.contextmanager
    def entered(self):
        self.Enter()
        try:
            yield self
        finally:
            self.Exit()

    def ExitResult(self, result):
        if self._outer_context is not None:
            for tensor in flatten(result):
                self._outer_context.AddName(tensor.name)

    def GetWhileContext(self):
        return self._outer_context.GetWhileContext() if self._outer_context else None

    def GetControlPivot(self):
        return None

    def IsWhileContext(self):
        return False

    def IsCondContext(self):
        return False

    def AddInnerOp(self, op):
        if self._outer_context is not None:
            self._outer_context.AddInnerOp(op)

    def _RemoveExternalControlEdges(self, op):
        """Drops control inputs from outside the enclosing loop: (internal, external)."""
        while_ctxt = self.GetWhileContext()
        if while_ctxt is None:
            return op.control_inputs, []
        internal, external = [], []
        for x in op.control_inputs:
            ctxt = output_context(x)
            if ctxt is not None and ctxt.GetWhileContext() is while_ctxt:
                internal.append(x)
            else:
                external.append(x)
        if len(internal) != len(op.control_inputs):
            op._remove_all_control_inputs()
            op._add_control_inputs(internal)
        return internal, external

    def _mark_values(self, names):
        ctxt = self
        while ctxt is not None:
            ctxt._values.update(names)
            ctxt = ctxt._outer_context

    def __str__(self):
        return self.name


class CondContext(ControlFlowContext):
    """One branch of a tf.cond: pred, pivot (switch_t / switch_f), branch (1 / 0)."""

    def __init__(self, pred, pivot, branch, name="cond_text"):
        self._name = get_default_graph().unique_name(name)
        super().__init__()
        self._pred, self._pivot, self._branch = pred, pivot, branch
        self._values.update((pred.name, pivot.name))
        self._external_values[pred.name] = pred
        pivot.op._set_control_flow_context(self)

    pred = property(lambda self: self._pred)
    pivot = property(lambda self: self._pivot)
    branch = property(lambda self: self._branch)

    @property
    def grad_state(self):
        while_ctxt = self.GetWhileContext()
        return while_ctxt.grad_state if while_ctxt is not None else None

    @property
    def back_prop(self):
        while_ctxt = self.GetWhileContext()
        return while_ctxt.back_prop if while_ctxt is not None else False

    def GetControlPivot(self):
        return self._pivot

    def IsCondContext(self):
        return True

    def AddValue(self, val):
        """The tensor standing for outer tensor `val` in this branch (a Switch output)."""
        if val.name in self._values:
            result = self._external_values.get(val.name)
            return val if result is None else result
        result = val
        self._values.add(val.name)
        if self._outer_context is not None:
            result = self._outer_context.AddValue(val)
            self._values.add(result.name)
            self._external_values[result.name] = result
        with _cleared(self._graph):
            result = _switch_ref_or_tensor(result, self._pred)[self._branch]
            if self._outer_context is not None:
                self._outer_context.AddInnerOp(result.op)
        result.op._set_control_flow_context(self)
        self._mark_values([result.name])
        self._external_values[val.name] = result
        return result

    def AddOp(self, op):
        self._AddOpInternal(op)

    def _AddOpInternal(self, op):
        if not op.inputs:
            self._RemoveExternalControlEdges(op)
            if not any(op_in_context(c, self) for c in op.control_inputs):
                op._add_control_input(self._pivot.op)
        else:
            for index, x in enumerate(op.inputs):
                if op.type == "Merge" and x.op.type == "NextIteration":
                    real_x = x
                else:
                    real_x = self.AddValue(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            self._RemoveExternalControlEdges(op)
            if op.graph._is_function(op.type) or op.type == "SymbolicGradient":
                op._add_control_input(self._pivot.op)
        self._mark_values([x.name for x in op.outputs])
        if self._outer_context is not None:
            self._outer_context.AddInnerOp(op)

    def _ProcessOutputTensor(self, val):
        real_val = val
        if val.name not in self._values:
            self._values.add(val.name)
            if self._outer_context is not None:
                real_val = self._outer_context.AddValue(val)
                self._values.add(real_val.name)
                self._external_values[real_val.name] = real_val
            real_val = _switch_ref_or_tensor(real_val, self._pred)[self._branch]
            self._external_values[val.name] = real_val
        else:
            external = self._external_values.get(val.name)
            if external is not None:
                real_val = external
        return real_val

    def BuildCondBranch(self, fn):
        """(fn's result, its tensors as seen from outside the branch), fn built in here."""
        from engine.ops.control_flow_ops import with_dependencies
        original = fn()
        if original is None:
            return None, None

        def build(v):
            if hasattr(v, "node_def") and hasattr(v, "outputs"):  # an Operation
                return with_dependencies([v], self._pivot)
            return self._ProcessOutputTensor(convert_to_tensor(v))
        result = map_structure(build, original)
        if not isinstance(result, (list, tuple)):
            result = [result]
        return original, result


class WhileContext(ControlFlowContext):
    """One tf.while_loop: its frame (name), Enter/Exit tensors and pivots."""

    def __init__(self, maximum_iterations=None, parallel_iterations=10, back_prop=True,
                 swap_memory=False, name="while_context", grad_state=None):
        if not isinstance(parallel_iterations, int) or parallel_iterations <= 0:
            raise ValueError(f"'parallel_iterations' must be a positive integer: "
                             f"{parallel_iterations}")
        super().__init__()
        self._name = self._graph.unique_name(name)
        self._maximum_iterations = maximum_iterations
        self._parallel_iterations = parallel_iterations
        self._back_prop, self._swap_memory = back_prop, swap_memory
        self._pivot_for_pred = self._pivot_for_body = self._pivot = None
        self._loop_exits, self._loop_enters = [], []
        self._grad_state = grad_state

    maximum_iterations = property(lambda self: self._maximum_iterations)
    parallel_iterations = property(lambda self: self._parallel_iterations)
    back_prop = property(lambda self: self._back_prop)
    swap_memory = property(lambda self: self._swap_memory)
    pivot = property(lambda self: self._pivot)
    loop_enters = property(lambda self: self._loop_enters)
    loop_exits = property(lambda self: self._loop_exits)
    grad_state = property(lambda self: self._grad_state)

    def GetWhileContext(self):
        return self

    def GetControlPivot(self):
        return self._pivot_for_body if self._pivot_for_body is not None else self._pivot_for_pred

    def IsWhileContext(self):
        return True

    def AddValue(self, val):
        """The tensor standing for outer tensor `val` in the loop (a constant Enter)."""
        result = val
        if val.name not in self._values and val.op._get_control_flow_context() is not self:
            self._values.add(val.name)
            real_val = self._forward_value_in_grad_loop(val)
            if real_val is not None:
                self._external_values[val.name] = real_val
                return real_val
            if self._outer_context is not None:
                result = self._outer_context.AddValue(val)
            with _cleared(self._graph):
                enter = _enter(result, self._name, is_constant=True,
                               parallel_iterations=self._parallel_iterations)
                if self._outer_context is not None:
                    self._outer_context.AddInnerOp(enter.op)
            self._fix_control_inputs_and_context([enter])
            self._values.add(enter.name)
            self._external_values[val.name] = enter
            return enter
        actual = self._external_values.get(val.name)
        return actual if actual is not None else result

    def _forward_value_in_grad_loop(self, val):
        """In a gradient loop, a value of its forward loop read through its history."""
        grad_ctxt = self._graph._get_control_flow_context()
        grad_ctxt = grad_ctxt.GetWhileContext() if grad_ctxt is not None else None
        if grad_ctxt is None or grad_ctxt.grad_state is None:
            return None
        forward_ctxt = while_context_of(val.op)
        if is_loop_exit(val.op) and forward_ctxt is not None:
            outer = forward_ctxt.outer_context
            forward_ctxt = outer.GetWhileContext() if outer is not None else None
        if forward_ctxt is not grad_ctxt.grad_state.forward_context:
            return None
        return grad_ctxt.grad_state.get_real_value(val)

    def AddOp(self, op):
        if op.type in ("Shape", "Size", "Rank"):
            # A shape of a forward value is taken in the forward loop: its history is small.
            grad_ctxt = self._graph._get_control_flow_context()
            grad_ctxt = grad_ctxt.GetWhileContext() if grad_ctxt is not None else None
            if grad_ctxt is not None and grad_ctxt.grad_state is not None and \
                    while_context_of(op.inputs[0].op) is grad_ctxt.grad_state.forward_context:
                op_input_ctxt = op.inputs[0].op._get_control_flow_context()
                op._set_control_flow_context(op_input_ctxt)
                op_input_ctxt._AddOpInternal(op)
                return
        self._AddOpInternal(op)

    def _AddOpInternal(self, op):
        if op.type in ("PartitionedCall", "StatefulPartitionedCall"):
            op._add_control_input(self.GetControlPivot().op)
        if not op.inputs:
            control_inputs, external = self._RemoveExternalControlEdges(op)
            if not control_inputs:
                op._add_control_input(self.GetControlPivot().op)
        else:
            for index, x in enumerate(op.inputs):
                real_x = self.AddValue(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            _, external = self._RemoveExternalControlEdges(op)
            if self._is_op_free(op):
                op._add_control_input(self.GetControlPivot().op)
        self._values.update(x.name for x in op.outputs)
        if external:
            # Outer control inputs become control inputs on Identities inside the loop.
            with _cleared(self._graph), self.entered():
                external = [identity(x.outputs[0]).op for x in external if x.outputs]
            op._add_control_inputs(external)
        if self._outer_context is not None:
            self._outer_context.AddInnerOp(op)

    @staticmethod
    def _is_op_free(op):
        if op.control_inputs:
            return False
        if op.graph._is_function(op.type) or op.type == "SymbolicGradient":
            return True
        return all(is_loop_constant_enter(x.op) for x in op.inputs)

    def _fix_control_inputs_and_context(self, enters):
        graph = self._graph
        for enter in enters:
            input_op = enter.op.inputs[0].op
            keep = []
            for op in graph._control_dependencies_for_inputs([input_op]):
                op_ctxt, outer = output_context(op), self._outer_context
                outer_while = outer.GetWhileContext() if outer is not None else None
                while outer is not op_ctxt:
                    if outer is None or outer is outer_while:
                        break
                    outer = outer.outer_context
                else:
                    keep.append(op)
            enter.op._set_control_flow_context(self)
            if keep:
                enter.op._add_control_inputs(keep)
            graph._record_op_seen_by_control_dependencies(enter.op)

    def BuildLoop(self, pred, body, loop_vars, shape_invariants, return_same_structure):
        """Builds the loop; returns its Exit tensors packed like the body's result."""
        flat_vars = [convert_to_tensor(v) for v in flatten(loop_vars)]
        if shape_invariants is not None:
            invariants = [as_shape(s) for s in flatten_up_to(loop_vars, shape_invariants)]
        else:
            invariants = [v.shape for v in flat_vars]
        with self.entered():
            original_result, exits = self._build_loop(pred, body, loop_vars, flat_vars,
                                                      invariants)
        packed = pack_sequence_as(original_result, exits)
        if return_same_structure:
            return packed
        return packed[0] if len(exits) == 1 else packed

    def _build_loop(self, pred, body, loop_vars, flat_vars, invariants):
        self._values = {v.name for v in flat_vars}
        if self._outer_context is not None:
            real_vars = [self._outer_context.AddValue(x) for x in flat_vars]
        else:
            real_vars = flat_vars
        enters = []
        with _cleared(self._graph):
            for real_var, invariant in zip(real_vars, invariants):
                enter = _enter(real_var, self._name, is_constant=False,
                               parallel_iterations=self._parallel_iterations,
                               use_input_shape=False)
                if not _shape_less_or_equal(real_var.shape, invariant):
                    raise ValueError(
                        f"The shape invariant specified for {real_var.name} is not compatible "
                        f"with the initial shape of the loop variable. It enters the loop with "
                        f"shape {real_var.shape}, but the specified shape invariant is "
                        f"{invariant}.")
                enter._shape = invariant
                if self._outer_context is not None:
                    self._outer_context.AddInnerOp(enter.op)
                enters.append(enter)
        outer, control_pivot = self._outer_context, None
        while outer is not None and control_pivot is None:
            control_pivot = outer.GetControlPivot()
            outer = outer.outer_context
        if control_pivot is not None:
            for enter in enters:
                if is_loop_constant_enter(enter.op.inputs[0].op):
                    enter.op._add_control_input(control_pivot.op)
        self._fix_control_inputs_and_context(enters)
        self._values = {e.name for e in enters}
        self._loop_enters = enters
        merges = [merge([x, x])[0] for x in enters]
        for m, invariant in zip(merges, invariants):
            m._shape = invariant
        self._pivot_for_pred = merges[0]
        c = convert_to_tensor(pred(*pack_sequence_as(loop_vars, merges)))
        self._pivot = loop_cond(c, name="LoopCond")
        switches = [_switch_ref_or_tensor(m, self._pivot) for m in merges]
        body_vars = [_identity(s[1]) for s in switches]
        self._pivot_for_body = body_vars[0]
        result = body(*pack_sequence_as(loop_vars, body_vars))
        if not isinstance(result, (list, tuple, dict)):
            result = [result]
        original_result = result
        flat_result = [convert_to_tensor(v) for v in flatten(result)]
        if len(merges) != len(flat_result):
            raise ValueError(f"Number of inputs and outputs of 'body' must match 'loop_vars'. "
                             f"Got {len(merges)} for the number of inputs/outputs, and "
                             f"{len(flat_result)} for 'loop_vars'.")
        for m, v in zip(merges, flat_result):
            next_v = _next_iteration(v)
            _enforce_shape_invariant(m, next_v)
            m.op._update_input(1, next_v)
        exits = [exit_(s[0]) for s in switches]
        self._loop_exits = exits
        self.ExitResult(exits)
        return original_result, exits


def _shape_less_or_equal(shape, invariant):
    if invariant.ndims is None:
        return True
    if shape.ndims != invariant.ndims:
        return False
    return all(b is None or a == b for a, b in zip(shape.as_list(), invariant.as_list()))


def _enforce_shape_invariant(merge_var, next_var):
    if not _shape_less_or_equal(next_var.shape, merge_var.shape):
        raise ValueError(
            f"Input tensor '{merge_var.op.inputs[0].name}' enters the loop with shape "
            f"{merge_var.shape}, but has shape {next_var.shape} after one iteration. To allow "
            f"the shape to vary across iterations, use the `shape_invariants` argument of "
            f"tf.while_loop to specify a less-specific shape.")
    if merge_var.dtype.base_dtype != next_var.dtype.base_dtype:
        raise TypeError(f"Loop variable {merge_var.op.inputs[0].name} enters the loop with type "
                        f"{merge_var.dtype.base_dtype.name} but has type "
                        f"{next_var.dtype.base_dtype.name} after one iteration.")


__all__ = ["switch", "merge", "exit_", "loop_cond", "control_trigger", "CondContext",
           "WhileContext", "ControlFlowContext", "dtypes"]
