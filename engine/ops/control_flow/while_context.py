"""WhileContext: one tf.while_loop, its frame, Enter/Merge/Switch/Exit structure and shape
invariants (see engine.ops.control_flow.v1 for what the contexts record)."""

import contextlib

from engine.ops.array_ops import identity
from engine.ops.control_flow.context import ControlFlowContext, _cleared
from engine.ops.control_flow.util import (is_loop_constant_enter, is_loop_exit, output_context,
                                          while_context_of)
from engine.ops.control_flow.v1_ops import (_enter, _identity, _next_iteration,
                                            _switch_ref_or_tensor, exit_, loop_cond, merge)
from engine.ops.convert import convert_to_tensor
from engine.ops.nest import assert_same_structure, flatten, flatten_up_to, pack_sequence_as
from engine.ops.tensor_array_ops import TensorArray, build_ta_with_new_flow
from engine.framework.tensor_shape import as_shape


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
        call = op.type in ("PartitionedCall", "StatefulPartitionedCall")
        if call:
            op._add_control_input(self.GetControlPivot().op)
        if not op.inputs:
            control_inputs, external = self._RemoveExternalControlEdges(op)
            if not control_inputs:
                op._add_control_input(self.GetControlPivot().op)
        else:
            # TensorFlow makes a call op with graph.create_op, outside a scope of the op's
            # name: the Enters of its outer inputs are named in the scope it was called in.
            parent = op.name.rpartition("/")[0]
            scope = (self._graph.name_scope(parent + "/" if parent else None)
                     if call else contextlib.nullcontext())
            with scope:
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
        # A TensorArray travels through the loop as its flow tensor (TensorFlow's
        # _convert_tensorarray_to_flow) and is rebuilt around the flow inside and after it.
        flat_originals = flatten(loop_vars)
        flat_vars = [convert_to_tensor(_flow_of(v)) for v in flat_originals]
        if shape_invariants is not None:
            invariants = [v.shape if isinstance(o, TensorArray) else as_shape(s)
                          for o, v, s in zip(flat_originals, flat_vars,
                                             flatten_up_to(loop_vars, shape_invariants))]
        else:
            invariants = [v.shape for v in flat_vars]
        with self.entered():
            original_result, exits = self._build_loop(pred, body, loop_vars, flat_vars,
                                                      invariants)
        exits = _with_tensor_arrays(flatten(original_result), exits)
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
        flat_originals = flatten(loop_vars)
        c = convert_to_tensor(pred(*pack_sequence_as(
            loop_vars, _with_tensor_arrays(flat_originals, merges))))
        self._pivot = loop_cond(c, name="LoopCond")
        switches = [_switch_ref_or_tensor(m, self._pivot) for m in merges]
        body_vars = [_identity(s[1]) for s in switches]
        self._pivot_for_body = body_vars[0]
        packed_for_body = pack_sequence_as(loop_vars,
                                           _with_tensor_arrays(flat_originals, body_vars))
        result = body(*packed_for_body)
        if not isinstance(result, (list, tuple, dict)):
            result = [result]
        # As TensorFlow's _BuildLoop: the body returns its inputs' structure, the outer layer
        # compared as lists (loop_vars are usually a list, a body's result a tuple); a tuple
        # nested where loop_vars had a list (maximum_iterations wraps them) is a TypeError.
        assert_same_structure(list(packed_for_body), list(result))
        original_result = result
        flat_result = [convert_to_tensor(_flow_of(v)) for v in flatten(result)]
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


def _flow_of(value):
    return value.flow if isinstance(value, TensorArray) else value


def _with_tensor_arrays(originals, tensors):
    """`tensors`, each standing for a TensorArray of `originals` made one around it."""
    return [build_ta_with_new_flow(original, tensor) if isinstance(original, TensorArray)
            else tensor for original, tensor in zip(originals, tensors)]


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
