"""The small loops a while loop's gradient adds (TensorFlow's WhileContext methods
AddForwardLoopCounter, AddBackpropLoopCounter, AddBackpropAccumulator and
AddBackpropIndexedSlicesAccumulator): an iteration counter in the forward loop ("f_count"),
the gradient loop's own counter counting it down ("b_count"), which is also its LoopCond, and
per loop invariant a sum of its per-iteration gradients ("b_acc").
"""

from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.control_flow.v1 import (WhileContext, _enter, _next_iteration, exit_,
                                        loop_cond, merge, switch)
from engine.ops.indexed_slices import IndexedSlices
from engine.framework.tensor_shape import TensorShape


def _loop_enter(ctxt, value, name, use_input_shape=True):
    return _enter(value, ctxt.name, is_constant=False,
                  parallel_iterations=ctxt.parallel_iterations,
                  use_input_shape=use_input_shape, name=name)


def add_forward_loop_counter(ctxt, outer_grad_state):
    """(the loop's iteration count, the counter's NextIteration): `n = 0; while: n++`.

    Called in the outer context of the forward loop `ctxt`."""
    n = constant(0, name="f_count")
    if outer_grad_state is not None:
        # The pushes of the i-th run of an inner loop go before those of the (i+1)-th.
        n.op._add_control_input(outer_grad_state.forward_index.op.inputs[0].op)
    ctxt.Enter()
    ctxt.AddName(n.name)
    enter_n = _loop_enter(ctxt, n, "f_count")
    ctxt.loop_enters.append(enter_n)
    merge_n = merge([enter_n, enter_n])[0]
    switch_n = switch(merge_n, ctxt.pivot)
    index = math_ops.add(switch_n[1], 1)
    next_n = _next_iteration(index)
    merge_n.op._update_input(1, next_n)
    total_iterations = exit_(switch_n[0], name="f_count")
    ctxt.loop_exits.append(total_iterations)
    ctxt.ExitResult([total_iterations])
    ctxt.Exit()
    return total_iterations, next_n


def add_backprop_loop_counter(ctxt, count, outer_grad_state):
    """The gradient loop's index: `n = count; while (n >= 1): n--` is its LoopCond.

    Called in the outer context of the gradient loop `ctxt`."""
    one = constant(1, name="b_count")
    ctxt.Enter()
    ctxt.AddName(count.name)
    enter_count = _loop_enter(ctxt, count, "b_count")
    ctxt.loop_enters.append(enter_count)
    merge_count = merge([enter_count, enter_count])[0]
    ctxt._pivot_for_pred = merge_count
    pred = math_ops.greater_equal(merge_count, one)
    ctxt._pivot = loop_cond(pred, name="b_count")
    switch_count = switch(merge_count, ctxt.pivot)
    index = math_ops.subtract(switch_count[1], one)
    ctxt._pivot_for_body = index
    next_count = _next_iteration(index)
    merge_count.op._update_input(1, next_count)
    final_zero = exit_(switch_count[0], name="b_count")
    ctxt.loop_exits.append(final_zero)
    if outer_grad_state is not None:
        # The pops of the i-th run of an inner loop go before those of the (i+1)-th.
        outer_grad_state.grad_sync._add_control_input(final_zero.op)
    ctxt.ExitResult([final_zero])
    ctxt.Exit()
    return next_count


def _in_outer(ctxt, fn):
    if ctxt.outer_context is not None:
        ctxt.outer_context.Enter()
    try:
        return fn()
    finally:
        if ctxt.outer_context is not None:
            ctxt.outer_context.Exit()


def add_backprop_accumulator(ctxt, op, grad):
    """The gradient of loop invariant `op` (a constant Enter): `acc = 0; while: acc += grad`.

    Called in the gradient loop `ctxt`; returns the accumulator's Exit."""
    ctxt.Exit()
    shape = grad.shape
    if shape.is_fully_defined():
        acc = _in_outer(ctxt, lambda: constant(0, grad.dtype, shape=shape.as_list(),
                                               name="b_acc"))
    else:
        value = op.inputs[0]
        if isinstance(ctxt.outer_context, WhileContext) and \
                ctxt.outer_context.grad_state is not None:
            forward_ctxt = ctxt.grad_state.forward_context
            forward_ctxt.outer_context.Enter()
            zeros_shape = array_ops.shape_internal(value, optimize=False)
            forward_ctxt.outer_context.Exit()
            outer_grad_state = ctxt.grad_state.outer_grad_state
            history_zeros_shape = outer_grad_state.add_forward_accumulator(zeros_shape)
            ctxt.outer_context.Enter()
            real_shape = outer_grad_state.add_backprop_accumulated_value(
                history_zeros_shape, zeros_shape)
            acc = array_ops.zeros(real_shape, grad.dtype)
            ctxt.outer_context.Exit()
        else:
            acc = _in_outer(ctxt, lambda: array_ops.zeros(
                array_ops.shape_internal(value, optimize=False), grad.dtype))
    ctxt.Enter()
    ctxt.AddName(acc.name)
    enter_acc = _loop_enter(ctxt, acc, "b_acc")
    ctxt.loop_enters.append(enter_acc)
    merge_acc = merge([enter_acc, enter_acc], name="b_acc")[0]
    switch_acc_false, switch_acc_true = switch(merge_acc, ctxt.pivot)
    add_acc = math_ops.add(switch_acc_true, grad)
    next_acc = _next_iteration(add_acc)
    merge_acc.op._update_input(1, next_acc)
    result_acc = exit_(switch_acc_false, name="b_acc")
    ctxt.loop_exits.append(result_acc)
    ctxt.ExitResult([result_acc])
    return result_acc


def add_backprop_indexed_slices_accumulator(ctxt, op, grad):
    """The IndexedSlices gradient of loop invariant `op`: the slices of every iteration
    concatenated (indices, values) and the largest dense shape."""
    values, indices, dense_shape = grad.values, grad.indices, grad.dense_shape
    ctxt.Exit()
    if ctxt.outer_context:
        ctxt.outer_context.Enter()
    if values.shape.is_fully_defined():
        values_shape = [1] + values.shape.as_list()[1:]
        values_acc = _in_outer(ctxt, lambda: constant(0, values.dtype, shape=values_shape,
                                                      name="b_acc"))
    else:
        values_shape = array_ops.shape_internal(op.inputs[0], optimize=False)[1:]
        values_shape = array_ops.concat([[1], values_shape], 0)
        values_acc = array_ops.zeros(values_shape, dtype=values.dtype)
    indices_acc = constant([0], indices.dtype)
    shape_acc = None
    if dense_shape is not None:
        if dense_shape.shape.is_fully_defined():
            shape_acc = _in_outer(ctxt, lambda: constant(
                0, dense_shape.dtype, shape=dense_shape.shape.as_list()))
        else:
            shape_acc = array_ops.zeros_like(array_ops.shape_internal(
                op.inputs[0], optimize=False, out_type=dense_shape.dtype), optimize=False)
    if ctxt.outer_context:
        ctxt.outer_context.Exit()
    ctxt.Enter()
    ctxt.AddName(values_acc.name)
    ctxt.AddName(indices_acc.name)
    init_acc = [indices_acc, values_acc]
    if shape_acc is not None:
        ctxt.AddName(shape_acc.name)
        init_acc.append(shape_acc)
    enter_acc = [_loop_enter(ctxt, x, "b_acc", use_input_shape=False) for x in init_acc]
    enter_acc[0]._shape = TensorShape([None])
    if values_acc.shape.ndims is not None:
        enter_acc[1]._shape = TensorShape([None] + values_acc.shape.as_list()[1:])
    ctxt.loop_enters.extend(enter_acc)
    merge_acc = [merge([x, x], name="b_acc")[0] for x in enter_acc]
    switch_acc = [switch(x, ctxt.pivot) for x in merge_acc]
    acc_slices = [array_ops.concat([xa[1], xv], 0)
                  for xa, xv in zip(switch_acc[:2], [indices, values])]
    if shape_acc is not None:
        acc_slices.append(math_ops.maximum(dense_shape, switch_acc[2][1]))
    next_acc = [_next_iteration(x) for x in acc_slices]
    for xm, xn in zip(merge_acc, next_acc):
        xm.op._update_input(1, xn)
    exit_acc = [exit_(x[0], name="b_acc") for x in switch_acc]
    ctxt.loop_exits.extend(exit_acc)
    ctxt.ExitResult(exit_acc)
    return IndexedSlices(indices=exit_acc[0], values=exit_acc[1],
                         dense_shape=exit_acc[2] if shape_acc is not None else None)
