"""Gradients of BesselI0, BesselI1, BesselK0, BesselK0e, BesselK1, BesselK1e, BesselJ0,
BesselJ1, BesselY0, BesselY1, Dawsn, Expint, FresnelCos, FresnelSin and Spence, as
TensorFlow's math_grad.py builds them."""

import numpy as np

from engine.framework.graph import get_default_graph
from engine.ops import array_ops, special_function_ops, math_ops
from engine.ops.cast import cast
from engine.ops.gradient_registry import RegisterGradient


def _after(grad):
    return get_default_graph().control_dependencies([grad])


@RegisterGradient("BesselI0")
def _bessel_i0_grad(op, grad):
    with _after(grad):
        return grad * special_function_ops.bessel_i1(op.inputs[0])


@RegisterGradient("BesselI1")
def _bessel_i1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        # (at 0 the derivative is 1; the formula's y / x is NaN there)
        dy_dx = array_ops.where_v2(math_ops.equal(x, 0.), cast(1., x.dtype),
                                   special_function_ops.bessel_i0(x) - math_ops.div(y, x))
        return grad * dy_dx


@RegisterGradient("BesselK0")
def _bessel_k0_grad(op, grad):
    with _after(grad):
        return grad * -special_function_ops.bessel_k1(op.inputs[0])


@RegisterGradient("BesselK0e")
def _bessel_k0e_grad(op, grad):
    with _after(grad):
        return grad * (op.outputs[0] - special_function_ops.bessel_k1e(op.inputs[0]))


@RegisterGradient("BesselK1")
def _bessel_k1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        return grad * (-special_function_ops.bessel_k0(x) - math_ops.div(y, x))


@RegisterGradient("BesselK1e")
def _bessel_k1e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        return grad * (y * (1. - math_ops.reciprocal(x)) - special_function_ops.bessel_k0e(x))


@RegisterGradient("BesselJ0")
def _bessel_j0_grad(op, grad):
    with _after(grad):
        return grad * -special_function_ops.bessel_j1(op.inputs[0])


@RegisterGradient("BesselJ1")
def _bessel_j1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        # (at 0 the derivative is 1/2; the formula's y / x is NaN there)
        dy_dx = array_ops.where_v2(math_ops.equal(x, 0.), cast(0.5, x.dtype),
                                   special_function_ops.bessel_j0(x) - math_ops.div(y, x))
        return grad * dy_dx


@RegisterGradient("BesselY0")
def _bessel_y0_grad(op, grad):
    with _after(grad):
        return grad * -special_function_ops.bessel_y1(op.inputs[0])


@RegisterGradient("BesselY1")
def _bessel_y1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        return grad * (special_function_ops.bessel_y0(x) - math_ops.div(y, x))


@RegisterGradient("Dawsn")
def _dawsn_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    with _after(grad):
        return grad * (1. - 2 * x * y)


@RegisterGradient("Expint")
def _expint_grad(op, grad):
    x = op.inputs[0]
    with _after(grad):
        return grad * math_ops.exp(x) / x


@RegisterGradient("FresnelCos")
def _fresnel_cos_grad(op, grad):
    x = op.inputs[0]
    with _after(grad):
        return grad * math_ops.cos((np.pi / 2.) * math_ops.square(x))


@RegisterGradient("FresnelSin")
def _fresnel_sin_grad(op, grad):
    x = op.inputs[0]
    with _after(grad):
        return grad * math_ops.sin((np.pi / 2.) * math_ops.square(x))


@RegisterGradient("Spence")
def _spence_grad(op, grad):
    x = op.inputs[0]
    with _after(grad):
        partial_x = math_ops.log(x) / (1 - x)
        partial_x = array_ops.where(math_ops.equal(x, 1.), -array_ops.ones_like(x), partial_x)
        return grad * partial_x
