"""Gradients of the inverse hyperbolic functions, EuclideanNorm, CumulativeLogsumexp, NextAfter
and the complex parts (Complex, Real, Imag, Angle, Conj, ComplexAbs), as TensorFlow's
math_grad.py builds them; the bitwise ops are not differentiable."""

from engine.framework.graph import get_default_graph
from engine.ops import array_ops, complex_ops, elementary_math_ops, math_ops, shape_ops
from engine.ops.constant_op import constant
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.math_grad import reduce_gradient_args, reduced_shape
from engine.ops.op_def_library import apply_op

for _op_type in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift"):
    NotDifferentiable(_op_type)


def _after(grad):
    return get_default_graph().control_dependencies([grad])


@RegisterGradient("Asinh")
def _asinh_grad(op, grad):
    with _after(grad):
        return grad / math_ops.cosh(complex_ops.conj(op.outputs[0]))


@RegisterGradient("Acosh")
def _acosh_grad(op, grad):
    with _after(grad):
        return grad / math_ops.sinh(complex_ops.conj(op.outputs[0]))


@RegisterGradient("Atanh")
def _atanh_grad(op, grad):
    with _after(grad):
        x2 = math_ops.square(complex_ops.conj(op.inputs[0]))
        one = constant(1, dtype=grad.dtype)
        return grad * math_ops.reciprocal(math_ops.subtract(one, x2))


@RegisterGradient("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    output = op.outputs[0]
    if not op.get_attr("keep_dims"):
        kept = reduced_shape(array_ops.shape(op.inputs[0]), op.inputs[1])
        output = array_ops.reshape(output, kept)
        grad = array_ops.reshape(grad, kept)
    return math_ops.truediv(op.inputs[0], output / grad), None


@RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    x, axis = op.inputs
    logsumexp = op.outputs[0]
    exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
    log_grad_positive = array_ops.where_v2(math_ops.greater(grad, 0), math_ops.log(grad),
                                           grad.dtype.min)
    log_grad_negative = array_ops.where_v2(math_ops.less(grad, 0), math_ops.log(-grad),
                                           grad.dtype.min)

    def part(log_grad):
        return math_ops.exp(elementary_math_ops.cumulative_logsumexp(
            log_grad - logsumexp, axis=axis, reverse=not reverse, exclusive=exclusive) + x)
    return [part(log_grad_positive) - part(log_grad_negative), None]


@RegisterGradient("NextAfter")
def _next_after_grad(op, grad):
    x1, x2 = op.inputs
    s_x1, s_x2 = shape_ops.shape(x1), shape_ops.shape(x2)
    r_x1, r_x2 = apply_op("BroadcastGradientArgs", s0=s_x1, s1=s_x2)
    with _after(grad):
        partial_x1 = array_ops.ones(s_x1, dtype=x1.dtype)
        partial_x2 = array_ops.zeros(s_x2, dtype=x2.dtype)
        return (array_ops.reshape(math_ops.reduce_sum(partial_x1 * grad, r_x1), s_x1),
                array_ops.reshape(math_ops.reduce_sum(partial_x2 * grad, r_x2), s_x2))


@RegisterGradient("Complex")
def _complex_grad(op, grad):
    x, y = op.inputs
    return reduce_gradient_args(x, y, complex_ops.real(grad), complex_ops.imag(grad))


@RegisterGradient("Real")
def _real_grad(_, grad):
    zero = constant(0, dtype=grad.dtype)
    return complex_ops.complex(grad, zero)


@RegisterGradient("Imag")
def _imag_grad(_, grad):
    zero = constant(0, dtype=grad.dtype)
    return complex_ops.complex(zero, grad)


@RegisterGradient("Angle")
def _angle_grad(op, grad):
    x = op.inputs[0]
    with _after(grad):
        re, im = complex_ops.real(x), complex_ops.imag(x)
        z = math_ops.reciprocal(complex_ops.complex(im, re))
        zero = constant(0, dtype=grad.dtype)
        complex_grad = complex_ops.complex(grad, zero)
        return -complex_grad * z


@RegisterGradient("Conj")
def _conj_grad(_, grad):
    return complex_ops.conj(grad)


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op, grad):
    return math_ops.div_no_nan(
        complex_ops.complex(grad, array_ops.zeros_like(grad)) * op.inputs[0],
        complex_ops.complex(op.outputs[0], array_ops.zeros_like(op.outputs[0])))
