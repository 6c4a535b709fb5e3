"""Gradients through control flow v1: Switch, Merge, Enter, Exit and NextIteration.

Ported from TensorFlow's control_flow_grad.py. In a cond, a Merge sends its gradient back
through a Switch on the cond's pred ("cond_grad"), its Switches merge the gradients of both
branches, and an output nobody differentiated gets zeros built only on the branch that ran.
In a while loop the gradient runs in a loop of its own (engine.ops.control_flow.state): a
loop Exit's gradient enters it ("b_exit"), a loop Switch's becomes its Merge ("b_switch", its
back edge added on the Switch's second visit), a loop Merge's a Switch on the gradient loop's
LoopCond, NextIteration's passes through, and an Enter's leaves the loop (an Exit), or for a
loop invariant, sums over the iterations ("b_acc").
"""

from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.control_flow import while_grad_loops
# gradients.py asks this module for the loop state.
from engine.ops.control_flow.v1 import (CondContext, WhileContext, _enter, _next_iteration,
                                        _switch_ref_or_tensor, exit_, merge, output_context,
                                        switch)
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.math_ops import equal
from engine.framework.tensor import Tensor


def _add_next_and_back_edge(merge_output, value):
    next_value = _next_iteration(value)
    merge_output.op._update_input(1, next_value)
    return next_value


@RegisterGradient("Switch")
@RegisterGradient("RefSwitch")
def _switch_grad(op, *grad):
    op_ctxt = op._get_control_flow_context()
    grad_ctxt = get_default_graph()._get_control_flow_context()
    if isinstance(op_ctxt, WhileContext):
        merge_grad = grad_ctxt.grad_state.switch_map.get(op)
        if merge_grad is not None:
            # The second visit, from the loop body: the back edge of the gradient's Merge.
            if grad[1] is not None:
                _add_next_and_back_edge(merge_grad, grad[1])
            return None, None
        if grad[0] is not None:
            # The first visit, from the Exit: both Merge inputs are grad[0] until the second.
            merge_grad = merge([grad[0], grad[0]], name="b_switch")[0]
            grad_ctxt.grad_state.switch_map[op] = merge_grad
            return merge_grad, None
        return None, None
    if isinstance(op_ctxt, CondContext):
        zero_grad = grad[1 - op_ctxt.branch]
        if zero_grad is None:
            if op.inputs[0].dtype.base_dtype.name == "resource":
                return merge([grad[op_ctxt.branch]] * 2, name="cond_resource_grad")[0], None
            return None, None
        return merge(list(grad), name="cond_grad")[0], None
    false_grad = switch(grad[0], op.inputs[1])[0]
    true_grad = switch(grad[1], op.inputs[1])[1]
    return merge([false_grad, true_grad])[0], None


@RegisterGradient("Merge")
@RegisterGradient("RefMerge")
def _merge_grad(op, grad, _):
    op_ctxt = output_context(op.inputs[0].op)
    grad_ctxt = get_default_graph()._get_control_flow_context()
    if isinstance(op_ctxt, WhileContext):
        return _switch_ref_or_tensor(grad, grad_ctxt.pivot)
    if isinstance(op_ctxt, CondContext):
        pred = op_ctxt.pred
        if grad_ctxt is not None and grad_ctxt.grad_state is not None:
            # A cond inside a loop: the gradient reads the pred of each forward iteration.
            grad_state = grad_ctxt.grad_state
            real_pred = grad_state.history_map.get(pred.name)
            if real_pred is None:
                grad_ctxt = grad_state.grad_context
                grad_ctxt.Exit()
                history_pred = grad_state.add_forward_accumulator(pred)
                grad_ctxt.Enter()
                real_pred = grad_state.add_backprop_accumulated_value(history_pred, pred)
                grad_state.history_map[pred.name] = real_pred
            pred = real_pred
        return _switch_ref_or_tensor(grad, pred, name="cond_grad")
    num_inputs = len(op.inputs)
    cond = [equal(op.outputs[1], i) for i in range(num_inputs)]
    return [_switch_ref_or_tensor(grad, cond[i])[1] for i in range(num_inputs)]


@RegisterGradient("Exit")
@RegisterGradient("RefExit")
def _exit_grad(op, grad):
    op_ctxt = op._get_control_flow_context()
    grad_ctxt = get_default_graph()._get_control_flow_context()
    if not grad_ctxt.back_prop:
        return None
    if op_ctxt.grad_state:
        raise TypeError("Second-order gradient for while loops not supported.")
    if isinstance(grad, Tensor):
        grad_ctxt.AddName(grad.name)
    else:
        if not isinstance(grad, IndexedSlices):
            raise TypeError(f"Type {type(grad)} not supported, must be either"
                            f"`indexed_slices.IndexedSlices` or `SparseTensor`.")
        grad_ctxt.AddName(grad.values.name)
        grad_ctxt.AddName(grad.indices.name)
        if grad.dense_shape is not None:
            grad_ctxt.AddName(grad.dense_shape.name)
    grad_ctxt.Enter()
    if isinstance(grad, IndexedSlices):
        result = IndexedSlices(*[
            None if t is None else _enter(t, grad_ctxt.name, is_constant=False,
                                          parallel_iterations=grad_ctxt.parallel_iterations,
                                          name="b_exit")
            for t in (grad.values, grad.indices, grad.dense_shape)])
        grad_ctxt.loop_enters.extend(t for t in (result.values, result.indices,
                                                 result.dense_shape) if t is not None)
    else:
        result = _enter(grad, grad_ctxt.name, is_constant=False,
                        parallel_iterations=grad_ctxt.parallel_iterations, name="b_exit")
        grad_ctxt.loop_enters.append(result)
    grad_ctxt.Exit()
    return result


@RegisterGradient("NextIteration")
@RegisterGradient("RefNextIteration")
def _next_iteration_grad(_, grad):
    return grad


@RegisterGradient("Enter")
@RegisterGradient("RefEnter")
def _enter_grad(op, grad):
    grad_ctxt = get_default_graph()._get_control_flow_context()
    if grad_ctxt is None or not grad_ctxt.back_prop or grad_ctxt.grad_state is None:
        return grad
    if op.get_attr("is_constant"):
        if isinstance(grad, Tensor):
            return while_grad_loops.add_backprop_accumulator(grad_ctxt, op, grad)
        if isinstance(grad, IndexedSlices):
            return while_grad_loops.add_backprop_indexed_slices_accumulator(grad_ctxt, op,
                                                                            grad)
        raise TypeError(f"Type {type(grad)} not supported,must be Tensor or Indexed Slices")
    result = exit_(grad)
    grad_ctxt.loop_exits.append(result)
    grad_ctxt.ExitResult([result])
    return result


NotDifferentiable("LoopCond")
NotDifferentiable("ControlTrigger")
