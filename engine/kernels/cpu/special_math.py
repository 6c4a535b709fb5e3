"""CPU kernels of TensorFlow's special math: Xlogy, Xdivy, Xlog1py, MulNoNan, Lgamma, Digamma,
Polygamma, Zeta, Igamma, Igammac, IgammaGradA, Betainc, BesselI0e, BesselI1e, Erfinv, Ndtri
(engine/kernels/cpu/eigen_ndtri.py).

The binary ones broadcast as TensorFlow's BinaryOp does and evaluate TensorFlow's functors
(xlogy_op, xdivy_op, xlog1py_op, mul_no_nan_op in core/kernels/cwise_ops.h): x == 0 gives 0
(MulNoNan: y == 0), else x * log(y), x / y, x * log1p(y), x * y; float32 log and log1p are
Eigen's on packets and glibc's on the tail (engine/kernels/cpu/eigen_float32.py), over the
broadcast result as Eigen evaluates it. The special functions are
engine/kernels/cpu/special_functions.py's ports of Eigen's scalar code.
"""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import eigen_float32, eigen_ndtri, special_functions as sf


def _broadcast(ctx, *arrays):
    arrays = [np.asarray(a) for a in arrays]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        if len(arrays) == 2:
            raise invalid(ctx, f"Incompatible shapes: {shape_str(arrays[0].shape)} vs. "
                               f"{shape_str(arrays[1].shape)}") from None
        raise invalid(ctx, "Shapes of " + ", ".join(
            f"{'abx'[i]} {shape_str(a.shape)}" for i, a in enumerate(arrays))
            + " are inconsistent") from None
    return [np.broadcast_to(a, shape) for a in arrays]


def _log(y, plus_one=False):
    if y.dtype == np.float32:
        y = np.require(y, requirements="C")  # (np.ascontiguousarray makes a scalar [1])
        return eigen_float32.log1p(y) if plus_one else eigen_float32.log(y)
    return np.log1p(y) if plus_one else np.log(y)


def _where_zero(zero_of, value, x):
    return np.where(zero_of == 0, np.zeros((), value.dtype), value).astype(x.dtype, copy=False)


@register("Xlogy")
def xlogy(ctx, x, y):
    x, y = _broadcast(ctx, x, y)
    with np.errstate(all="ignore"):
        return _where_zero(x, x * _log(y), x)


@register("Xlog1py")
def xlog1py(ctx, x, y):
    x, y = _broadcast(ctx, x, y)
    with np.errstate(all="ignore"):
        return _where_zero(x, x * _log(y, plus_one=True), x)


@register("Xdivy")
def xdivy(ctx, x, y):
    x, y = _broadcast(ctx, x, y)
    with np.errstate(all="ignore"):
        return _where_zero(x, x / y, x)


@register("MulNoNan")
def mul_no_nan(ctx, x, y):
    x, y = _broadcast(ctx, x, y)
    with np.errstate(all="ignore"):
        return _where_zero(y, x * y, x)


def _elementwise_kernel(function, arity):
    def kernel(ctx, *inputs):
        if arity > 1:
            inputs = _broadcast(ctx, *inputs)
        return sf.elementwise(function, *inputs)
    kernel.__name__ = function.__name__
    return kernel


for _op, _function, _arity in (
        ("Zeta", sf.zeta, 2),
        ("Polygamma", sf.polygamma, 2), ("Igamma", sf.igamma, 2),
        ("Igammac", sf.igammac, 2), ("IgammaGradA", sf.igamma_grad_a, 2)):
    register(_op)(_elementwise_kernel(_function, _arity))


@register("Betainc")
def betainc(ctx, a, b, x):
    """Betainc: a, b and x of one shape, or scalars (TensorFlow's BetaincOp broadcasts
    only these)."""
    a, b, x = (np.asarray(v) for v in (a, b, x))
    for (name, value), (other, value_other) in ((("a", a), ("b", b)), (("a", a), ("x", x)),
                                                 (("b", b), ("x", x))):
        if value.ndim and value_other.ndim and value.shape != value_other.shape:
            raise invalid(ctx, f"Shapes of {name} and {other} are inconsistent: "
                               f"{shape_str(value.shape)} vs. {shape_str(value_other.shape)}")
    return sf.elementwise(sf.betainc, *np.broadcast_arrays(a, b, x))


@register("Lgamma")
def lgamma(ctx, x):
    return sf.lgamma_array(x)


@register("Digamma")
def digamma(ctx, x):
    return sf.digamma_array(x)


def _float_or_double_only(ctx, op, x):
    """Erfinv and Ndtri have CPU kernels for float and double alone (TensorFlow registers no
    half or bfloat16 one): its error, which a session raises when the node runs."""
    if x.dtype not in (np.float32, np.float64):
        name = ctx.node_def.name if getattr(ctx, "node_def", None) is not None else op
        dtype = {"float16": "DT_HALF", "bfloat16": "DT_BFLOAT16"}.get(x.dtype.name, x.dtype.name)
        raise invalid(ctx, f"No OpKernel was registered to support Op '{op}' used by "
                           f"{{{{node {name}}}}} with these attrs: [T={dtype}]\n"
                           "Registered devices: [CPU]\nRegistered kernels:\n"
                           "  device='GPU'; T in [DT_DOUBLE]\n  device='GPU'; T in [DT_FLOAT]\n"
                           "  device='CPU'; T in [DT_DOUBLE]\n  device='CPU'; T in [DT_FLOAT]")


@register("Erfinv")
def erfinv(ctx, x):
    x = np.asarray(x)
    _float_or_double_only(ctx, "Erfinv", x)
    return eigen_ndtri.erfinv(x)


@register("Ndtri")
def ndtri(ctx, x):
    x = np.asarray(x)
    _float_or_double_only(ctx, "Ndtri", x)
    return eigen_ndtri.ndtri(x)


@register("BesselI0e")
def bessel_i0e(ctx, x):
    return sf.bessel_i0e(x)


@register("BesselI1e")
def bessel_i1e(ctx, x):
    return sf.bessel_i1e(x)
