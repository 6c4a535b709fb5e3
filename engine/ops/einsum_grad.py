"""The gradient of Einsum, ported from TensorFlow's linalg_grad.py: each operand's gradient an
einsum of the output's gradient with the other operand, summed over the labels only the
operand has, and unbroadcast over the ellipsis."""

from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.math_grad import reduced_shape
from engine.ops.op_def_library import apply_op

_ELLIPSIS = "..."


def _einsum(inputs, equation):
    return apply_op("Einsum", inputs=inputs, equation=equation)


def _axis_of_label(subscripts, label):
    """The label's axis: from the front before an ellipsis, from the back after it."""
    splits = subscripts.split(_ELLIPSIS)
    index = splits[0].find(label)
    if index != -1:
        return index
    if len(splits) < 2:
        return None
    index = splits[1].find(label)
    return index - len(splits[1]) if index != -1 else None


def _broadcast_subshape(subscripts):
    """(start, end) of the ellipsis's axes: x[start:end]; (0, 0) without an ellipsis."""
    start = subscripts.find(_ELLIPSIS)
    if start == -1:
        return 0, 0
    remaining = len(subscripts) - (start + len(_ELLIPSIS))
    return start, (-remaining if remaining > 0 else None)


def _grad_reduced(output_grad, output_subs, input_subs, input_shape, reduced_label_set):
    """The gradient of a one-operand einsum that sums over `reduced_label_set`."""
    reduced_subs = "".join(list(reduced_label_set))
    reduced_axes = [_axis_of_label(input_subs, s) for s in reduced_subs]
    reduced_dims = array_ops.stack([input_shape[axis] for axis in reduced_axes])
    has_repeated_labels = (len(set(input_subs)) + len(set(output_subs))
                           < len(input_subs) + len(output_subs))
    without_reduced = "".join(s for s in input_subs if s not in reduced_label_set)
    if not has_repeated_labels and without_reduced == output_subs:
        shape = reduced_shape(input_shape, convert_to_tensor(reduced_axes))
        return array_ops.broadcast_to(array_ops.reshape(output_grad, shape), input_shape)
    grad_shape = array_ops.concat([reduced_dims, array_ops.shape(output_grad)], axis=0)
    shape = array_ops.concat([array_ops.ones(len(reduced_label_set), dtype="int32"),
                              array_ops.shape(output_grad)], axis=0)
    broadcast = array_ops.broadcast_to(array_ops.reshape(output_grad, shape), grad_shape)
    return _einsum([broadcast], f"{reduced_subs + output_subs}->{input_subs}")


def _grad_wrt(output_grad, other_operand, input_shape, input_subs, other_subs, output_subs):
    """The gradient of a two-operand einsum with respect to one operand (not unbroadcast)."""
    reduced_label_set = set(input_subs).difference(set(output_subs + other_subs + "."))
    left_subs = "".join(s for s in input_subs if s not in reduced_label_set)
    grad_reduced = _einsum([output_grad, other_operand],
                           f"{output_subs},{other_subs}->{left_subs}")
    if not reduced_label_set:
        return grad_reduced
    return _grad_reduced(grad_reduced, left_subs, input_subs, input_shape, reduced_label_set)


@RegisterGradient("Einsum")
def _einsum_grad(op, grad):
    equation = op.get_attr("equation")
    equation = equation.decode() if isinstance(equation, bytes) else equation
    input_subs, output_subs = equation.split("->")
    if len(op.inputs) == 1:
        input_shape = array_ops.shape(op.inputs[0])
        reduced_label_set = set(input_subs).difference(set(output_subs + _ELLIPSIS))
        if not reduced_label_set:
            return _einsum([grad], f"{output_subs}->{input_subs}")
        return _grad_reduced(grad, output_subs, input_subs, input_shape, reduced_label_set)
    x_subs, y_subs = input_subs.split(",")
    if _ELLIPSIS in output_subs:
        if _ELLIPSIS not in x_subs:
            x_subs += _ELLIPSIS
        if _ELLIPSIS not in y_subs:
            y_subs += _ELLIPSIS
    x, y = op.inputs[0], op.inputs[1]
    x_shape, y_shape = array_ops.shape(x), array_ops.shape(y)
    grad_x = _grad_wrt(grad, y, x_shape, x_subs, y_subs, output_subs)
    grad_y = _grad_wrt(grad, x, y_shape, y_subs, x_subs, output_subs)
    if _ELLIPSIS not in output_subs:
        return grad_x, grad_y
    bx_start, bx_end = _broadcast_subshape(x_subs)
    by_start, by_end = _broadcast_subshape(y_subs)
    x_static, y_static = x.get_shape(), y.get_shape()
    if (x_static.is_fully_defined() and y_static.is_fully_defined()
            and x_static[bx_start:bx_end] == y_static[by_start:by_end]):
        return grad_x, grad_y
    rx, ry = apply_op("BroadcastGradientArgs", s0=x_shape[bx_start:bx_end],
                      s1=y_shape[by_start:by_end])
    grad_x = array_ops.reshape(math_ops.reduce_sum(grad_x, bx_start + rx), x_shape)
    grad_y = array_ops.reshape(math_ops.reduce_sum(grad_y, by_start + ry), y_shape)
    return grad_x, grad_y
