"""Gradients through control flow v1 conds: Switch, Merge and the zeros an untaken branch needs.

Ported from TensorFlow's control_flow_grad.py and control_flow_state.py for CondContexts: a
cond's Merge sends its gradient back through a Switch on the cond's pred ("cond_grad"), its
Switches merge the gradients of both branches, and an output nobody differentiated gets zeros
built only on the branch that ran. Gradients through tf.while_loop (v1) need TensorFlow's
stack-based loop state, which the engine does not build yet: they raise NotImplementedError.
"""

from engine.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.control_flow_v1 import (CondContext, WhileContext, merge, output_context,
                                        switch, _switch_ref_or_tensor)
from engine.ops.gradients import NotDifferentiable, RegisterGradient
from engine.ops.math_ops import equal


def maybe_create_control_flow_state(between_op_list, between_ops, colocate):
    """None (no loop state is needed) unless a while loop lies between xs and ys."""
    for op in between_op_list:
        if op.type in ("Exit", "RefExit"):
            raise NotImplementedError(
                f"Gradients through tf.while_loop (control flow v1) are not supported by the "
                f"engine yet: the gradient reaches loop exit '{op.name}' (op type: {op.type})")
    return None


def zeros_like_output(op, index):
    """ZerosLike for output `index` of `op` (TensorFlow's control_flow_state.ZerosLike)."""
    val = op.outputs[index]
    op_ctxt = op._get_control_flow_context()
    if op.type in ("Switch", "RefSwitch") and isinstance(op_ctxt, CondContext):
        switch_val = switch(op.inputs[0], op_ctxt.pred)[1 - op_ctxt.branch]
        pivot = array_ops.identity(switch_val)
        zeros_shape = array_ops.shape_internal(switch_val, optimize=False)
        with get_default_graph().control_dependencies([pivot]):
            return array_ops.zeros(zeros_shape, dtype=val.dtype)
    return array_ops.zeros_like(val, optimize=False)


@RegisterGradient("Switch")
@RegisterGradient("RefSwitch")
def _switch_grad(op, *grad):
    op_ctxt = op._get_control_flow_context()
    if isinstance(op_ctxt, WhileContext):
        raise NotImplementedError(f"Gradients through tf.while_loop (control flow v1) are not "
                                  f"supported by the engine yet: {op.name}")
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
    if isinstance(op_ctxt, WhileContext):
        raise NotImplementedError(f"Gradients through tf.while_loop (control flow v1) are not "
                                  f"supported by the engine yet: {op.name}")
    if isinstance(op_ctxt, CondContext):
        return _switch_ref_or_tensor(grad, op_ctxt.pred, name="cond_grad")
    num_inputs = len(op.inputs)
    cond = [equal(op.outputs[1], i) for i in range(num_inputs)]
    return [_switch_ref_or_tensor(grad, cond[i])[1] for i in range(num_inputs)]


for _op_type in ("Enter", "RefEnter", "Exit", "RefExit", "NextIteration",
                 "RefNextIteration"):
    @RegisterGradient(_op_type)
    def _loop_grad(op, *grad):
        raise NotImplementedError(f"Gradients through tf.while_loop (control flow v1) are not "
                                  f"supported by the engine yet: {op.name} ({op.type})")

NotDifferentiable("LoopCond")
NotDifferentiable("ControlTrigger")
