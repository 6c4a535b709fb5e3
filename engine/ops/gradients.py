"""tf.gradients: TensorFlow's backprop over the graph, and the gradient registry.

The algorithm is gradients_util._GradientsHelper's: mark the ops reachable from the xs,
keep those between the xs and the ys, count for each how many of its consumers still owe it
a gradient, then walk back from the ys, summing an output's gradients with AddN and calling
the op's registered gradient function inside "<scope>/<op name>_grad". Gradient functions
per family live in math_grad, nn_grad, array_grad and control_flow_grad, registered in
engine/ops/gradient_registry.py.
"""

import collections
import contextlib
import enum

from engine.framework import dtypes
from engine.framework.graph import get_graph_from_inputs
from engine.framework.graph import get_default_graph
# The gradient functions register themselves on import.
from engine.ops import array_grad, math_grad, nn_grad
from engine.ops import debug_ops, linalg_grad, segment_grad, shuffle_ops, sparse_ops  # noqa: F401
from engine.ops import decomposition_grad, einsum_grad  # noqa: F401
from engine.ops.control_flow import grad as control_flow_grad  # noqa: F401
from engine.ops import list_grad, tensor_array_grad  # noqa: F401
from engine.ops import image_grad, volumetric_ops  # noqa: F401
from engine.ops import ragged_grad  # noqa: F401
from engine.ops.control_flow import state as control_flow_state
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.ops import tuple as _tuple
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.tensor_array_ops import TensorArray
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import (  # noqa: F401  (tf.RegisterGradient, ...)
    NoGradient, NotDifferentiable, RegisterGradient, get_gradient_function, is_trainable,
    is_zeros_tensor, mark_zeros_tensor, no_gradient)
from engine.ops.indexed_slices import IndexedSlices, dense  # noqa: F401
from engine.ops.math_ops import add_n
from engine.framework.operation import Operation
from engine.framework.tensor import Tensor


class AggregationMethod:
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What tf.gradients gives an x that ys do not depend on: None, or zeros shaped like x."""
    NONE = "none"
    ZERO = "zero"


# -- the algorithm --

def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _mark_reached_ops(from_ops, reached_ops):
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op not in reached_ops:
            reached_ops.add(op)
            for output in op._outputs:
                if is_trainable(output):
                    queue.extend(output._consumers)


def _pending_count(to_ops, from_ops, colocate):
    reached_ops = set()
    _mark_reached_ops(from_ops, reached_ops)
    reachable_to_ops = {op for op in to_ops if op in reached_ops}
    between_ops, between_op_list = set(), []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached_ops:
            between_ops.add(op)
            between_op_list.append(op)
            reached_ops.remove(op)
            queue.extend(t._op for t in op._inputs)
    # The loop state adds every exit of a loop between the xs and ys to the between ops.
    loop_state = control_flow_state.maybe_create_control_flow_state(between_op_list,
                                                                   between_ops, colocate)
    pending_count = collections.defaultdict(int)
    for op in between_op_list:
        for x in op._inputs:
            if x._op in between_ops:
                pending_count[x._op] += 1
    return reachable_to_ops, pending_count, loop_state


def _default_grad_ys(grad_ys, ys, colocate, graph):
    if len(grad_ys) != len(ys):
        raise ValueError(f"Length mismatch. Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
    grad_ys = [None if g is None else convert_to_tensor(g, name="grad_y") for g in grad_ys]
    result = []
    for i, (y, grad_y) in enumerate(zip(ys, grad_ys)):
        with _maybe_colocate_with(y.op, colocate, graph):
            if grad_y is None:
                if y.dtype.is_complex:
                    raise TypeError(f"Gradients of complex tensors ({y}) must set grad_ys "
                                    f"(y.dtype = {y.dtype.name})")
                result.append(array_ops.ones(array_ops.shape(y), dtype=y.dtype,
                                             name=f"grad_ys_{i}"))
                continue
            if (y.dtype.is_floating or y.dtype.is_integer) and not (
                    grad_y.dtype.is_floating or grad_y.dtype.is_integer):
                raise TypeError(f"Gradient type {grad_y.dtype.name} generated for real or "
                                f"integer-valued tensor {y} with type {y.dtype.name} must be "
                                f"real or integer")
            result.append(array_ops.identity(grad_y, name=f"grad_ys_{i}"))
    return result


@contextlib.contextmanager
def _maybe_colocate_with(op, colocate, graph):
    if colocate:
        with graph.colocate_with(op):
            yield
    else:
        yield


def _stop_ops(from_ops, stop_gradient_ops, pending_count):
    stop_ops = {op for op in from_ops
                if not any(pending_count[t._op] > 0 for t in op._inputs)}
    stop_ops.update(stop_gradient_ops)
    return stop_ops


def _set_grad(grads, t, grad):
    op = t._op
    op_grads = grads.get(op)
    if not op_grads:
        op_grads = grads[op] = [[] for _ in op._outputs]
    t_grads = op_grads[t._value_index]
    if isinstance(t_grads, list):
        t_grads.append(grad)
    else:  # a loop switch's gradient is set once, by the control-flow state
        op_grads[t._value_index] = grad


def _multi_device_add_n(tensor_list, graph):
    on_device = {}
    for tensor in tensor_list:
        on_device.setdefault(tensor.device, []).append(tensor)
    summands = []
    for device in sorted(on_device, key=lambda d: d or ""):
        tensors = on_device[device]
        with graph.colocate_with(tensors[0].op, ignore_existing=True):
            summands.append(add_n(tensors))
    return add_n(summands)


def _aggregated_grads(grads, op, aggregation_method, graph, loop_state):
    if aggregation_method is None:
        aggregation_method = AggregationMethod.DEFAULT
    valid = [AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
             AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
    if aggregation_method not in valid:
        raise ValueError(f"Invalid `aggregation_method` specified {aggregation_method}. "
                         f"Accepted values are {valid}.")
    out_grads = grads.get(op) or [[] for _ in op._outputs]
    for i, out_grad in enumerate(out_grads):
        if loop_state is not None and not isinstance(out_grad, list):
            continue  # a loop switch's already-set gradient
        if not out_grad:
            out_grads[i] = None
        elif len(out_grad) < 2:
            out_grads[i] = out_grad[0]
        elif any(isinstance(g, IndexedSlices) for g in out_grad) and \
                not any(isinstance(g, Tensor) for g in out_grad):
            out_grads[i] = _aggregate_indexed_slices([g for g in out_grad if g is not None])
        else:
            out_grad = [dense(g) for g in out_grad if g is not None]
            if aggregation_method == AggregationMethod.ADD_N:
                out_grads[i] = _multi_device_add_n(out_grad, graph)
            else:
                with graph.name_scope(op.name + "_gradient_sum"):
                    running_sum = out_grad[0]
                    for grad in out_grad[1:]:
                        running_sum = add_n([running_sum, grad])
                    out_grads[i] = running_sum
    return out_grads


def _aggregate_indexed_slices(grads):
    """Sparse gradients of one tensor, concatenated (still IndexedSlices), as TensorFlow's
    _AggregateIndexedSlicesGradients: the optimizer scatters them row by row. int32 indices
    beside int64 ones become int64 first (math_ops._as_indexed_slices_list)."""
    indices = [g.indices for g in grads]
    if len({i.dtype.base_dtype for i in indices}) > 1:
        indices = [i if i.dtype.base_dtype == dtypes.int64 else math_ops.cast(i, dtypes.int64)
                   for i in indices]
    return IndexedSlices(array_ops.concat([g.values for g in grads], axis=0),
                         array_ops.concat(indices, axis=0), grads[0].dense_shape)


def _zeros_like_output(op, index, loop_state):
    if loop_state is not None:
        zeros = loop_state.zeros_like(op, index)
    else:
        zeros = control_flow_state.zeros_like_output(op, index)
    if isinstance(zeros, Tensor):
        mark_zeros_tensor(zeros)
    return zeros


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """Symbolic derivatives of sum(ys) with respect to each of xs (None when unconnected)."""
    ys = [y.value() if hasattr(y, "_as_graph_element") and hasattr(y, "value") else y
          for y in _as_list(ys)]
    xs = _as_list(xs)
    stop_gradients = [] if stop_gradients is None else _as_list(stop_gradients)
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    unconnected = getattr(unconnected_gradients, "value", unconnected_gradients)
    if unconnected not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: '{unconnected}'")
    values = [v for v in ys + xs + stop_gradients + grad_ys if v is not None]
    graph = get_graph_from_inputs(values) if values else get_default_graph()
    with graph.as_default(), graph.name_scope(name or "gradients"):
        graph.unique_name("uid")  # TensorFlow reserves a uid name per call
        ys = [convert_to_tensor(y, name="y") for y in ys]
        xs = [x if isinstance(x, IndexedSlices) else convert_to_tensor(x, name="x", as_ref=True)
              for x in xs]
        stop_gradients = [convert_to_tensor(t) for t in stop_gradients]
        grad_ys = _default_grad_ys(grad_ys, ys, colocate_gradients_with_ops, graph)
        to_ops = [t.op for t in ys]
        from_ops = [t.op for t in xs]
        reachable_to_ops, pending_count, loop_state = _pending_count(
            to_ops, from_ops, colocate_gradients_with_ops)
        grads = {}
        for y, grad_y in zip(ys, grad_ys):
            _set_grad(grads, y, grad_y)
        queue = collections.deque()
        to_ops_set = set()
        for op in to_ops:
            if pending_count[op] == 0 and op not in to_ops_set and op in reachable_to_ops:
                to_ops_set.add(op)
                queue.append(op)
        if loop_state is not None:
            for y in loop_state.process_unused_loop_exits(pending_count, to_ops_set):
                if is_trainable(y):
                    _set_grad(grads, y, loop_state.zeros_like_for_exit(y))
                    queue.append(y.op)
        stop_ops = _stop_ops(from_ops, [t.op for t in stop_gradients], pending_count)
        while queue:
            op = queue.popleft()
            with _maybe_colocate_with(op, colocate_gradients_with_ops, graph):
                _backprop_op(op, grads, stop_ops, loop_state, aggregation_method,
                             gate_gradients, graph, _tuple)
            _update_pending_and_enqueue_ready(grads, op, queue, pending_count, loop_state)
        if loop_state is not None:
            loop_state.post_processing()
    return [_get_grad(grads, x, unconnected) for x in xs]


def _backprop_op(op, grads, stop_ops, loop_state, aggregation_method, gate_gradients, graph,
                 _tuple):
    if loop_state is not None:
        loop_state.enter_grad_while_context(op, before=True)
    out_grads = _aggregated_grads(grads, op, aggregation_method, graph, loop_state)
    if loop_state is not None:
        loop_state.exit_grad_while_context(op, before=True)
    has_out_grads = any(isinstance(g, (Tensor, IndexedSlices)) or g for g in out_grads)
    grad_fn = None
    if has_out_grads and op not in stop_ops:
        try:
            grad_fn = get_gradient_function(op)
        except LookupError:
            raise LookupError(
                f"No gradient defined for operation'{op.name}' (op type: {op.type}). In "
                f"general every operation must have an associated `@tf.RegisterGradient` for "
                f"correct autodiff, which this op is lacking. If you want to pretend this "
                f"operation is a constant in your program, you may insert `tf.stop_gradient`. "
                f"This can be useful to silence the error in cases where you know gradients "
                f"are not needed, e.g. the forward pass of tf.custom_gradient. Please see more "
                f"details in https://www.tensorflow.org/api_docs/python/tf/custom_gradient."
            ) from None
    if loop_state is not None:
        loop_state.enter_grad_while_context(op, before=False)
    if grad_fn and has_out_grads:
        for i, out_grad in enumerate(out_grads):
            if not isinstance(out_grad, (Tensor, IndexedSlices)) and not out_grad \
                    and is_trainable(op._outputs[i]) \
                    and op._outputs[i].dtype.base_dtype != dtypes.resource:
                out_grads[i] = _zeros_like_output(op, i, loop_state)
        with graph.name_scope(op.name + "_grad"):
            in_grads = _as_list(grad_fn(op, *out_grads))
            if len(in_grads) != len(op._inputs):
                raise ValueError(f"Num gradients {len(in_grads)} generated for op "
                                 f"{op.node_def} do not match num inputs {len(op._inputs)}")
            if gate_gradients and len([x for x in in_grads if x is not None]) > 1:
                with graph.device(None), graph.colocate_with(None, ignore_existing=True):
                    in_grads = _tuple(in_grads)
    else:
        in_grads = [None] * len(op._inputs)
    for i, (t_in, in_grad) in enumerate(zip(op._inputs, in_grads)):
        if in_grad is None:
            continue
        if isinstance(in_grad, Tensor) and t_in.dtype.base_dtype != dtypes.resource:
            try:
                in_grad.set_shape(t_in.shape)
            except ValueError:
                raise ValueError(f"Incompatible shapes between op input and calculated input "
                                 f"gradient. Forward operation: {op.name}. Input index: {i}. "
                                 f"Original input shape: {t_in.shape}. Calculated input "
                                 f"gradient shape: {in_grad.shape}") from None
        _set_grad(grads, t_in, in_grad)
    if loop_state is not None:
        loop_state.exit_grad_while_context(op, before=False)


def _update_pending_and_enqueue_ready(grads, op, queue, pending_count, loop_state):
    for x in op._inputs:
        pending_count[x._op] -= 1
        ready = pending_count[x._op] == 0
        if loop_state is not None and not ready:
            ready = pending_count[x._op] > 0 and loop_state.is_loop_switch(x._op)
        if not ready:
            continue
        if loop_state is not None and loop_state.is_loop_exit(x._op):
            loop_state.defer_exit(x, grads, queue, _set_grad, _has_any_not_none_grads)
        else:
            queue.append(x._op)


def _has_any_not_none_grads(grads, op):
    for out_grad in grads.get(op) or ():
        if isinstance(out_grad, (Tensor, IndexedSlices)):
            return True
        if out_grad and isinstance(out_grad, list) and any(g is not None for g in out_grad):
            return True
    return False


def _get_grad(grads, t, unconnected):
    op_grads = grads.get(t.op)
    t_grad = op_grads[t.value_index] if op_grads else None
    if t_grad is None and unconnected == "zero":
        return array_ops.zeros_like(t)
    return t_grad


__all__ = ["gradients", "RegisterGradient", "NoGradient", "no_gradient", "NotDifferentiable",
           "IndexedSlices", "AggregationMethod", "Operation"]


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """tf.hessians: for each x, the Hessian of sum(ys), [x's shape, x's shape], as TensorFlow
    builds it: the gradient flattened, then a while loop whose iteration j writes the gradient
    of its j-th element into a TensorArray (`name` is unused, as in TensorFlow)."""
    xs = _as_list(xs)
    kwargs = {"colocate_gradients_with_ops": colocate_gradients_with_ops,
              "gate_gradients": gate_gradients, "aggregation_method": aggregation_method}
    result = []
    for gradient, x in zip(gradients(ys, xs, **kwargs), xs):
        gradient = array_ops.reshape(gradient, [-1])
        n = array_ops.size(x)
        loop_vars = [array_ops.constant(0, dtypes.int32), TensorArray(x.dtype, n)]
        _, hessian = while_loop(
            lambda j, _: j < n,
            lambda j, hessian_rows, gradient=gradient, x=x: (
                j + 1, hessian_rows.write(j, gradients(gradient[j], x)[0])),
            loop_vars)
        shape = array_ops.shape(x)
        result.append(array_ops.reshape(hessian.stack(), array_ops.concat((shape, shape), 0)))
    return result
