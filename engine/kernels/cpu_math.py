"""NumPy CPU kernels: elementwise math, comparisons, logic, AddN, Select, Cast.

Kernels are `fn(ctx, *inputs)`. Where a NumPy function already is TensorFlow's kernel the
tables below name it directly; `_unary`/`_binary` only adapt the calling convention (and turn
NumPy's broadcasting ValueError into TensorFlow's InvalidArgumentError). 0-d results may be
NumPy scalars (np.float32, ...), which carry .dtype and .shape as 0-d arrays do.
"""

import numpy as np

from engine.errors import InternalError
from engine.kernels import register, register_table
from engine.kernels.common import invalid, shape_str


class _TruncateByZero(ArithmeticError):
    """TruncateDiv/TruncateMod by an integer zero: TensorFlow fails with an InternalError."""


def _broadcastable(x, y):
    try:
        np.broadcast_shapes(np.shape(x), np.shape(y))
        return True
    except ValueError:
        return False


def incompatible_shapes(ctx, x, y):
    return invalid(ctx, f"Incompatible shapes: {shape_str(np.shape(x))} vs. "
                        f"{shape_str(np.shape(y))}")


def _unary(fn):
    def kernel(ctx, x):
        return fn(x)
    kernel.__name__ = getattr(fn, "__name__", "unary")
    return kernel


def _binary(fn):
    def kernel(ctx, x, y):
        try:
            return fn(x, y)
        except ValueError:
            if _broadcastable(x, y):
                raise
            raise incompatible_shapes(ctx, x, y) from None
        except _TruncateByZero:
            raise InternalError(ctx.node_def, None, "Unexpected error in binary operator "
                                "(only integer div and mod should have errors)") from None
        except ArithmeticError as error:  # integer division by zero, negative int powers
            raise invalid(ctx, str(error)) from None
    kernel.__name__ = getattr(fn, "__name__", "binary")
    return kernel


def _is_int(x):
    return x.dtype.kind in "iu"


def _integer_safe(fn, error=ZeroDivisionError):
    """fn on floats as is; on integers, TensorFlow's "Integer division by zero" check first."""
    def safe(x, y):
        if _is_int(y) and not np.all(y):
            raise error("Integer division by zero")
        return fn(x, y)
    safe.__name__ = fn.__name__
    return safe


def truncate_div(x, y):
    if _is_int(x):
        return ((x - np.fmod(x, y)) // y).astype(x.dtype, copy=False)
    return np.trunc(np.divide(x, y))


def div(x, y):
    # Div is integer division truncating toward zero on integers, RealDiv on floats.
    return truncate_div(x, y) if _is_int(x) else np.divide(x, y)


def floor_div(x, y):
    # TensorFlow floors the real quotient: floor(1.0 / 0.1) == 10, where np.floor_divide gives 9.
    return np.floor_divide(x, y) if _is_int(x) else np.floor(np.divide(x, y))


def floor_mod(x, y):
    return np.mod(x, y)


def truncate_mod(x, y):
    return np.fmod(x, y)


def div_no_nan(x, y):
    with np.errstate(all="ignore"):
        result = np.divide(x, y)
    return np.where(y == 0, np.zeros((), result.dtype), result)


def pow_(x, y):
    if _is_int(y) and np.any(y < 0):
        raise ArithmeticError("Integers to negative integer powers are not allowed")
    return np.power(x, y)


def squared_difference(x, y):
    diff = np.subtract(x, y)
    return np.multiply(diff, np.conj(diff)) if diff.dtype.kind == "c" else np.square(diff)


def _dtype_of(x):
    return x.dtype.type


def rsqrt(x):
    return np.reciprocal(np.sqrt(x))


def sigmoid(x):
    one = _dtype_of(x)(1)
    return one / (one + np.exp(-x))


def relu(x):
    return np.maximum(x, np.zeros((), x.dtype))


def relu6(x):
    return np.minimum(np.maximum(x, np.zeros((), x.dtype)), _dtype_of(x)(6))


def elu(x):
    return np.where(x < 0, np.expm1(x), x)


def selu(x):
    scale, alpha = _dtype_of(x)(1.0507009873554804934193349852946), \
        _dtype_of(x)(1.6732632423543772848170429916717)
    return np.where(x < 0, scale * alpha * np.expm1(x), scale * x)


def softplus(x):
    # log(1 + exp(x)), computed as TensorFlow does to keep large |x| exact.
    threshold = np.log(np.finfo(x.dtype).eps) + 2
    return np.where(x > -threshold, x,
                    np.where(x < threshold, np.exp(x), np.log1p(np.exp(x)))).astype(x.dtype)


def softsign(x):
    return x / (_dtype_of(x)(1) + np.abs(x))


def sign(x):
    return np.sign(x)


def round_(x):
    # Banker's rounding (half to even), as TensorFlow's Round. On integers TensorFlow 2.21's
    # Round kernel returns zeros (tf.round itself never makes one: it returns x); we match it.
    return np.zeros_like(x) if _is_int(x) else np.round(x)


def reciprocal(x):
    return np.reciprocal(x) if not _is_int(x) else (1 // x).astype(x.dtype)


def erf(x):
    from math import erf as scalar_erf
    return np.vectorize(scalar_erf, otypes=[x.dtype])(x) if x.size else x.copy()


def erfc(x):
    from math import erfc as scalar_erfc
    return np.vectorize(scalar_erfc, otypes=[x.dtype])(x) if x.size else x.copy()


UNARY = {
    "Neg": np.negative, "Abs": np.abs, "Square": np.square, "Sqrt": np.sqrt, "Rsqrt": rsqrt,
    "Exp": np.exp, "Expm1": np.expm1, "Log": np.log, "Log1p": np.log1p,
    "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos,
    "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh, "Tanh": np.tanh, "Erf": erf,
    "Erfc": erfc, "Sigmoid": sigmoid, "Relu": relu, "Relu6": relu6, "Elu": elu, "Selu": selu,
    "Softplus": softplus, "Softsign": softsign, "Sign": sign, "Round": round_,
    "Floor": np.floor, "Ceil": np.ceil, "Reciprocal": reciprocal, "Inv": reciprocal,
    "IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite,
    "LogicalNot": np.logical_not,
}

BINARY = {
    "Add": np.add, "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply,
    "RealDiv": np.divide, "Div": _integer_safe(div), "FloorDiv": _integer_safe(floor_div),
    "FloorMod": _integer_safe(floor_mod), "Mod": _integer_safe(truncate_mod),
    "TruncateDiv": _integer_safe(truncate_div, _TruncateByZero),
    "TruncateMod": _integer_safe(truncate_mod, _TruncateByZero),
    "DivNoNan": div_no_nan, "Maximum": np.maximum, "Minimum": np.minimum, "Pow": pow_,
    "SquaredDifference": squared_difference, "Atan2": np.arctan2,
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater,
    "GreaterEqual": np.greater_equal, "Equal": np.equal, "NotEqual": np.not_equal,
    "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or,
}

register_table({op: _unary(fn) for op, fn in UNARY.items()})
register_table({op: _binary(fn) for op, fn in BINARY.items()})


@register("LeakyRelu")
def leaky_relu(ctx, features):
    alpha = features.dtype.type(ctx.attr("alpha", 0.2))
    return np.where(features > 0, features, features * alpha)


@register("ClipByValue")
def clip_by_value(ctx, t, clip_min, clip_max):
    for bound in (clip_min, clip_max):
        if np.ndim(bound) and np.shape(bound) != np.shape(t):
            raise invalid(ctx, f"clip_value_min and clip_value_max must be either scalars or "
                               f"have the same shape as the input. Shapes are: "
                               f"t: {shape_str(np.shape(t))}, "
                               f"clip_value_min: {shape_str(np.shape(clip_min))}, "
                               f"clip_value_max: {shape_str(np.shape(clip_max))}")
    return np.minimum(np.maximum(t, clip_min), clip_max)


@register("AddN")
def add_n(ctx, *inputs):
    total = inputs[0]
    for x in inputs[1:]:
        total = np.add(total, x)
    return total if len(inputs) > 1 else np.array(total, copy=True)


@register("Select")
def select(ctx, condition, t, e):
    # v1 semantics: same shapes, or a vector condition picking rows of t and e.
    if np.shape(t) != np.shape(e):
        raise invalid(ctx, f"'then' and 'else' must have the same size.  but received: "
                           f"{shape_str(np.shape(t))} vs. {shape_str(np.shape(e))}")
    c_shape = np.shape(condition)
    if c_shape == np.shape(t):
        return np.where(condition, t, e)
    if len(c_shape) == 1 and np.ndim(t) >= 1:
        if c_shape[0] != np.shape(t)[0]:
            raise invalid(ctx, f"Number of batches of 'then' must match size of 'cond', but "
                               f"saw: {np.shape(t)[0]} vs. {c_shape[0]}")
        return np.where(np.reshape(condition, c_shape + (1,) * (np.ndim(t) - 1)), t, e)
    if len(c_shape) == 0:
        return np.array(t if condition else e, copy=True)
    raise invalid(ctx, f"'cond' must be a scalar, vector or have the same shape as 'then', "
                       f"but received: {shape_str(c_shape)} vs. {shape_str(np.shape(t))}")


@register("SelectV2")
def select_v2(ctx, condition, t, e):
    try:
        shape = np.broadcast_shapes(np.shape(condition), np.shape(t), np.shape(e))
    except ValueError:
        raise invalid(ctx, f"condition {shape_str(np.shape(condition))}, then "
                           f"{shape_str(np.shape(t))}, and else {shape_str(np.shape(e))} "
                           f"must be broadcastable") from None
    return np.broadcast_to(np.where(condition, t, e), shape)


@register("Cast")
def cast(ctx, x):
    dtype = ctx.attrs["DstT"].as_numpy_dtype
    if x.dtype == dtype:
        return x
    if x.dtype.kind == "f" and np.dtype(dtype).kind in "iu":
        # C++'s float-to-int conversion: truncation toward zero; NaN and overflow as x86 does.
        with np.errstate(invalid="ignore"):
            return np.trunc(x).astype(dtype)
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        x = x.real
    return x.astype(dtype)
