"""Gradients of the special math and manipulation ops, ported from TensorFlow's math_grad.py,
manip_grad.py and sparse_grad.py node for node (Lgamma, Digamma, Polygamma, Zeta, Igamma,
Igammac, Betainc, Erfinv, Ndtri, BesselI0e, BesselI1e, Xlogy, Xdivy, Xlog1py, MulNoNan, Roll,
SparseTensorDenseMatMul)."""

import numpy as np

from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops, special_math_ops as special
from engine.ops.cast import cast
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.math_grad import reduce_gradient_args
from engine.ops.op_def_library import apply_op


def _control(grad):
    return get_default_graph().control_dependencies([grad])


def _broadcast_args(x, y):
    return apply_op("BroadcastGradientArgs", s0=array_ops.shape(x), s1=array_ops.shape(y))


def _sum_to(value, axes, shape):
    return array_ops.reshape(math_ops.reduce_sum(value, axes), shape)


@RegisterGradient("Erfinv")
def _erfinv_grad(op, grad):
    """grad * sqrt(pi) / 2 * exp(erfinv(x)**2)."""
    root_pi_over_two = array_ops.constant(np.sqrt(np.pi) / 2, dtype=grad.dtype)
    with _control(grad):
        return grad * root_pi_over_two * math_ops.exp(math_ops.square(op.outputs[0]))


@RegisterGradient("Ndtri")
def _ndtri_grad(op, grad):
    """grad * sqrt(2 * pi) * exp(ndtri(x)**2 / 2)."""
    root_two_pi = array_ops.constant(np.sqrt(2 * np.pi), dtype=grad.dtype)
    with _control(grad):
        return grad * root_two_pi * math_ops.exp(math_ops.square(op.outputs[0]) / 2.)


@RegisterGradient("Lgamma")
def _lgamma_grad(op, grad):
    x = op.inputs[0]
    with _control(grad):
        return grad * special.digamma(x)


@RegisterGradient("Digamma")
def _digamma_grad(op, grad):
    x = op.inputs[0]
    with _control(grad):
        partial_x = special.polygamma(array_ops.constant(1, dtype=x.dtype), x)
        return grad * partial_x


@RegisterGradient("Polygamma")
def _polygamma_grad(op, grad):
    n, x = op.inputs
    sn, sx = array_ops.shape(n), array_ops.shape(x)
    _, rx = apply_op("BroadcastGradientArgs", s0=sn, s1=sx)
    with _control(grad):
        partial_x = special.polygamma(n + 1, x)
        return None, _sum_to(partial_x * grad, rx, sx)


@RegisterGradient("Zeta")
def _zeta_grad(op, grad):
    x, q = op.inputs
    sx, sq = array_ops.shape(x), array_ops.shape(q)
    _, rq = apply_op("BroadcastGradientArgs", s0=sx, s1=sq)
    with _control(grad):
        partial_q = -x * special.zeta(x + 1, q)
        return None, _sum_to(partial_q * grad, rq, sq)


@RegisterGradient("Igamma")
def _igamma_grad(op, grad):
    a, x = op.inputs
    sa, sx = array_ops.shape(a), array_ops.shape(x)
    ra, rx = apply_op("BroadcastGradientArgs", s0=sa, s1=sx)
    with _control(grad):
        partial_a = apply_op("IgammaGradA", a=a, x=x)
        # exp(-x + (a - 1) * log(x) - lgamma(a))
        partial_x = math_ops.exp(-x + (a - 1) * math_ops.log(x) - special.lgamma(a))
        return (_sum_to(partial_a * grad, ra, sa), _sum_to(partial_x * grad, rx, sx))


@RegisterGradient("Igammac")
def _igammac_grad(op, grad):
    grad_a, grad_x = _igamma_grad(op, grad)
    return -grad_a, -grad_x


@RegisterGradient("Betainc")
def _betainc_grad(op, grad):
    a, b, x = op.inputs
    sa, sx = array_ops.shape(a), array_ops.shape(x)
    _, rx = apply_op("BroadcastGradientArgs", s0=sa, s1=sx)
    log_beta = special.lgamma(a) + special.lgamma(b) - special.lgamma(a + b)
    # (1 - x)^(b - 1) * x^(a - 1) / beta(a, b)
    partial_x = math_ops.exp(special.xlog1py(b - 1, -x) + special.xlogy(a - 1, x) - log_beta)
    return None, None, _sum_to(partial_x * grad, rx, sx)


@RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _control(grad):
        partial_x = special.bessel_i1e(x) - math_ops.sign(x) * y
        return grad * partial_x


@RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _control(grad):
        dy_dx = array_ops.where_v2(
            math_ops.equal(x, 0.), cast(0.5, x.dtype),
            special.bessel_i0e(x) - y * (math_ops.sign(x) + math_ops.reciprocal(x)))
        return grad * dy_dx


def _not_zero(x):
    return cast(math_ops.not_equal(x, cast(0., dtype=x.dtype)), dtype=x.dtype)


@RegisterGradient("Xlogy")
def _xlogy_grad(op, grad):
    x, y = op.inputs
    sx, sy = array_ops.shape(x), array_ops.shape(y)
    rx, ry = apply_op("BroadcastGradientArgs", s0=sx, s1=sy)
    with _control(grad):
        partial_x = apply_op("Xlogy", x=_not_zero(x), y=y)
        partial_y = apply_op("Xdivy", x=x, y=y)
        return _sum_to(partial_x * grad, rx, sx), _sum_to(partial_y * grad, ry, sy)


@RegisterGradient("Xlog1py")
def _xlog1py_grad(op, grad):
    x, y = op.inputs
    sx, sy = array_ops.shape(x), array_ops.shape(y)
    rx, ry = apply_op("BroadcastGradientArgs", s0=sx, s1=sy)
    with _control(grad):
        partial_x = apply_op("Xlog1py", x=_not_zero(x), y=y)
        partial_y = apply_op("Xdivy", x=x, y=y + 1.)
        return _sum_to(partial_x * grad, rx, sx), _sum_to(partial_y * grad, ry, sy)


@RegisterGradient("Xdivy")
def _xdivy_grad(op, grad):
    x, y = op.inputs
    sx, sy = array_ops.shape(x), array_ops.shape(y)
    rx, ry = apply_op("BroadcastGradientArgs", s0=sx, s1=sy)
    with _control(grad):
        partial_x = apply_op("Xdivy", x=_not_zero(x), y=y)
        partial_y = apply_op("Xdivy", x=math_ops.negative(x), y=y ** 2)
        return _sum_to(partial_x * grad, rx, sx), _sum_to(partial_y * grad, ry, sy)


@RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    shapes = [t.shape for t in (x, y, grad)]
    if all(s.is_fully_defined() for s in shapes) and shapes[0] == shapes[1] == shapes[2]:
        return (apply_op("MulNoNan", x=grad, y=y), apply_op("MulNoNan", x=x, y=grad))
    if x.dtype.base_dtype != y.dtype.base_dtype:
        raise TypeError(f"x and y must be of the same type, got {x.dtype} and {y.dtype}")
    gx = apply_op("MulNoNan", x=grad, y=y)
    gy = apply_op("MulNoNan", x=x, y=grad)
    return reduce_gradient_args(x, y, gx, gy)


@RegisterGradient("Roll")
def _roll_grad(op, grad):
    shift, axis = op.inputs[1], op.inputs[2]
    return apply_op("Roll", input=grad, shift=-shift, axis=axis), None, None


@RegisterGradient("SparseTensorDenseMatMul")
def _sparse_tensor_dense_matmul_grad(op, grad):
    a_indices, a_values, a_shape = op.inputs[:3]
    b = op.inputs[3]
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    if a_values.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError("SparseTensorDenseMatMul op received operands with different types: "
                        f"`{a_values.dtype.base_dtype}` and `{b.dtype.base_dtype}`.")
    b_grad = apply_op("SparseTensorDenseMatMul", a_indices=a_indices, a_values=a_values,
                      a_shape=a_shape, b=grad, adjoint_a=not adj_a)
    if adj_b:
        b_grad = array_ops.transpose(b_grad, [1, 0], name="matrix_transpose/transpose")
    rows = a_indices[:, 0]
    cols = a_indices[:, 1]
    parts_a = array_ops.gather(grad, rows if not adj_a else cols)
    parts_b = array_ops.gather(b if not adj_b else array_ops.transpose(b),
                               cols if not adj_a else rows)
    if not adj_a and not adj_b:
        a_values_grad = math_ops.matmul(array_ops.expand_dims(parts_a, -2),
                                        array_ops.expand_dims(parts_b, -2), adjoint_b=True)
    elif adj_a and not adj_b:
        a_values_grad = math_ops.matmul(array_ops.expand_dims(parts_a, -1),
                                        array_ops.expand_dims(parts_b, -1), adjoint_a=True)
    elif not adj_a and adj_b:
        a_values_grad = math_ops.matmul(array_ops.expand_dims(parts_a, -2),
                                        array_ops.expand_dims(parts_b, -1))
    else:
        a_values_grad = math_ops.matmul(array_ops.expand_dims(parts_a, -1),
                                        array_ops.expand_dims(parts_b, -2), adjoint_a=True,
                                        adjoint_b=True)
    return (None, array_ops.squeeze(a_values_grad, axis=[-2, -1]), None, b_grad)

