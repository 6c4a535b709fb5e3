"""NumPy CPU kernels: elementwise math, comparisons, logic, AddN, Select, Cast.

Kernels are `fn(ctx, *inputs)`. Where a NumPy function already is TensorFlow's kernel the
tables below name it directly; `_unary`/`_binary` only adapt the calling convention (and turn
NumPy's broadcasting ValueError into TensorFlow's InvalidArgumentError). 0-d results may be
NumPy scalars (np.float32, ...), which carry .dtype and .shape as 0-d arrays do.
"""

import numpy as np

from engine.framework import op_families
from engine.framework.errors import InternalError
from engine.kernels.tensor_list import TensorList, add_lists
from engine.kernels import register, register_table
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import complex_and_bits as cb, inverse_hyperbolic
from engine.kernels.cpu import (compiled_forms, eigen_atan2, eigen_erf, eigen_float32, eigen_pow,
                                eigen_trig, threaded_elementwise)


class _TruncateByZero(ArithmeticError):
    """TruncateDiv/TruncateMod by an integer zero: TensorFlow fails with an InternalError."""


def _shape(x):
    return x.shape if hasattr(x, "shape") else np.shape(x)


def _broadcastable(x, y):
    try:
        np.broadcast_shapes(_shape(x), _shape(y))
        return True
    except ValueError:
        return False


def incompatible_shapes(ctx, x, y):
    return invalid(ctx, f"Incompatible shapes: {shape_str(_shape(x))} vs. "
                        f"{shape_str(_shape(y))}")


def _unary(fn):
    if fn in threaded_elementwise.SPLIT_UFUNCS:
        return _forwarding_ufunc(fn, _unary_split(fn))

    def kernel(ctx, x):
        return fn(x)
    kernel.__name__ = getattr(fn, "__name__", "unary")
    if fn in _WRITE_OVER_INPUT:
        def forwarding(ctx, donated, x):
            return fn(x, out=x) if donated else fn(x)
        kernel.forwarding = forwarding
    return kernel


# An operand this large may make a result worth splitting over the intra-op threads
# (threaded_elementwise.py). Asked first, in the kernel itself: a small graph's scalar ops
# run in about 0.35 µs each, and a call through the splitter's checks cost 0.5 µs more.
_SPLIT_OPERAND = threaded_elementwise.MIN_SPLIT_OPERAND


def _unary_split(fn):
    split = threaded_elementwise.ufunc_call

    def kernel(ctx, x):
        if getattr(x, "size", 0) >= _SPLIT_OPERAND:
            return split(fn, x)
        return fn(x)
    kernel.__name__ = fn.__name__
    return kernel


def _binary(fn):
    # (a split ufunc raises what the unsplit call raises: NumPy's own, in the same places)
    split = threaded_elementwise.ufunc_call if fn in threaded_elementwise.SPLIT_UFUNCS else None

    def kernel(ctx, x, y):
        try:
            if split is not None and (getattr(x, "size", 0) >= _SPLIT_OPERAND
                                      or getattr(y, "size", 0) >= _SPLIT_OPERAND):
                return split(fn, x, y)
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
    if split is not None:
        return _forwarding_ufunc(fn, kernel)
    return kernel


# Forwarding (engine/runtime/executor.py `_bind_forwarding_step`, TensorFlow's
# forward_input): `kernel.forwarding(ctx, donated, *inputs)` may write the result into an input
# of `donated`, one no one else holds. Only where that gives the kernel's values and layout:
# an elementwise op whose result has the input's shape and dtype, the input C-contiguous (as
# the unsplit call lays its result out), every operand of that one dtype (float or complex:
# the result's), so each element is the same correctly rounded operation, computed in place.
# Why, measured 2026-11-28 on the 2-core KVM guest (load 2 to 3): a Mul of 1024x3072 float32
# writing into fresh memory took 1.0 to 1.75 ms in a BERT call (250 to 517 page faults, about
# 2.7 us each), into its input 0.3 ms.

def forwarded_buffer(donated, operands):
    """The donated operand (positions `donated` of `operands`) that can hold the result of an
    elementwise NumPy call on `operands`, as that call would lay it out, else None."""
    if not donated:
        return None
    dtype = getattr(operands[0], "dtype", None)
    if dtype is None or dtype.kind not in "fc":
        return None
    for x in operands:
        if getattr(x, "dtype", None) != dtype or (isinstance(x, np.ndarray)
                                                   and not x.flags.c_contiguous):
            return None
    try:
        shape = np.broadcast_shapes(*(x.shape for x in operands))
    except ValueError:
        return None  # (the kernel raises TensorFlow's error)
    for k in donated:
        if operands[k].shape == shape:
            return operands[k]
    return None


def _forwarding_ufunc(fn, kernel):
    """`kernel` (a split ufunc's: add, subtract, multiply, divide, negative) with its
    forwarding form: the same call, into a donated input."""
    split = threaded_elementwise.ufunc_call

    def forwarding(ctx, donated, *operands):
        out = forwarded_buffer(donated, operands)
        if out is None:
            return kernel(ctx, *operands)
        return split(fn, *operands, out=out)
    kernel.forwarding = forwarding
    return kernel


def _is_int(x):
    return x.dtype.kind in "iu"


# The helpers below take the array module `xp` (NumPy here; CuPy or the simulated GPU for the
# GPU kernels of engine/kernels/cuda/math.py), so both devices compute with the same formulas.

def _integer_safe(fn, error=ZeroDivisionError):
    """fn on floats as is; on integers, TensorFlow's "Integer division by zero" check first.

    TensorFlow returns an empty result before it looks at the divisor (the gradient of a
    scalar's reduce_sum divides an empty shape by an empty one), so an empty output is no error.
    """
    def safe(x, y, xp=np):
        if _is_int(y) and not xp.all(y) and 0 not in xp.broadcast_shapes(x.shape, y.shape):
            raise error("Integer division by zero")
        return fn(x, y, xp)
    safe.__name__ = fn.__name__
    return safe


def truncate_div(x, y, xp=np):
    if _is_int(x):
        return ((x - xp.fmod(x, y)) // y).astype(x.dtype, copy=False)
    return xp.trunc(xp.divide(x, y))


def div(x, y, xp=np):
    # Div is integer division truncating toward zero on integers, RealDiv on floats.
    return truncate_div(x, y, xp) if _is_int(x) else xp.divide(x, y)


def floor_div(x, y, xp=np):
    # TensorFlow floors the real quotient: floor(1.0 / 0.1) == 10, where np.floor_divide gives 9.
    return xp.floor_divide(x, y) if _is_int(x) else xp.floor(xp.divide(x, y))


def floor_mod(x, y, xp=np):
    """TensorFlow's floor_fmod for floats: fmod, moved by y when the signs differ. NumPy's mod
    agrees but for the sign of a zero result; CuPy's gives NaN for a finite x mod an infinity."""
    if not np.issubdtype(x.dtype, np.floating):
        return xp.mod(x, y)
    truncated = xp.fmod(x, y)
    return xp.where((truncated != 0) & ((y < 0) != (truncated < 0)), truncated + y, truncated)


def truncate_mod(x, y, xp=np):
    return xp.fmod(x, y)


def div_no_nan(x, y, xp=np):
    with np.errstate(all="ignore"):
        result = xp.divide(x, y)
    if _eigen(y, xp):  # TensorFlow's CPU compares under DAZ: a denormal y is zero
        return xp.where(eigen_float32.flush(y) == 0, xp.zeros((), result.dtype), result)
    return xp.where(y == 0, xp.zeros((), result.dtype), result)


def pow_(x, y, xp=np):
    if _is_int(y) and xp.any(y < 0):
        raise ArithmeticError("Integers to negative integer powers are not allowed")
    return xp.power(x, y)


def squared_difference(x, y, xp=np):
    diff = xp.subtract(x, y)
    return xp.multiply(diff, xp.conj(diff)) if diff.dtype.kind == "c" else xp.square(diff)


def _squared_difference_cpu(x, y):
    """squared_difference on the CPU: the difference squared in its own buffer (NumPy's square
    of it in place: the same values without a second result), each call split over the
    intra-op threads when large. A SquaredDifference of 1024x768 float32 measured 0.50 ms in a
    BERT call (load 2 to 3), its two fresh results faulting 63 pages."""
    return _squared_difference_into(x, y, None)


def _squared_difference_into(x, y, out):
    fast = _compiled_squared_difference(x, y, out)
    if fast is not None:
        return fast
    split = threaded_elementwise.ufunc_call
    large = getattr(x, "size", 0) >= _SPLIT_OPERAND or getattr(y, "size", 0) >= _SPLIT_OPERAND
    diff = split(np.subtract, x, y, out=out) if large or out is not None else np.subtract(x, y)
    if diff.dtype.kind == "c":
        return np.multiply(diff, np.conj(diff))
    if not isinstance(diff, np.ndarray):
        return np.square(diff)  # (a NumPy scalar: two 0-d operands)
    return split(np.square, diff, out=diff) if large else np.square(diff, out=diff)


def _compiled_squared_difference(x, y, out):
    """(x - y)^2 in one compiled pass (engine/kernels/compiled/activation_numba.py: the same
    two rounded operations), where x is a large float array and y of its shape or one value a
    row, and the module is loaded for it; `out` (x itself) is written over. Else None."""
    if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.size >= _SPLIT_OPERAND
            and (out is None or out is x)):
        return None
    fast = compiled_forms.module("activation", x.dtype, x.size)
    return None if fast is None else fast.squared_difference(x, y, over=out is not None)


def _forwarding_squared_difference(kernel):
    def forwarding(ctx, donated, x, y):
        out = forwarded_buffer(donated, (x, y))
        return kernel(ctx, x, y) if out is None else _squared_difference_into(x, y, out)
    kernel.forwarding = forwarding
    return kernel


def _dtype_of(x):
    return x.dtype.type


def _eigen(x, xp):
    """Whether TensorFlow computes this with Eigen's float32 functions (engine/kernels/cpu/
    eigen_float32.py): float32 on the CPU. Other dtypes, and the GPU, take the array module's."""
    return xp is np and x.dtype == np.float32


def exp(x, xp=np):
    return eigen_float32.exp(x) if _eigen(x, xp) else xp.exp(x)


def expm1(x, xp=np):
    return eigen_float32.expm1(x) if _eigen(x, xp) else xp.expm1(x)


def log(x, xp=np):
    return eigen_float32.log(x) if _eigen(x, xp) else xp.log(x)


def log1p(x, xp=np):
    return eigen_float32.log1p(x) if _eigen(x, xp) else xp.log1p(x)


def tanh(x, xp=np):
    return eigen_float32.tanh(x) if _eigen(x, xp) else xp.tanh(x)


def _half_through_float32(packet, scalar):
    """A float16 function as Eigen's packets of halves compute it: float32's packet path,
    rounded to half once; the tail by `scalar`, half in and out."""
    return eigen_float32.packets_and_tail(
        lambda x: packet(x.astype(np.float32)).astype(np.float16), scalar, dtype=np.float16)


def _half_rsqrt_scalar(x):
    with np.errstate(all="ignore"):
        return np.reciprocal(np.sqrt(x))  # Eigen::half's 1 / sqrt(x), each rounded to half


# float16 Rsqrt: Eigen's packets of halves take float32's prsqrt, rounded to half once; its
# scalar path rounds sqrt and the division to half each.
_HALF_RSQRT = _half_through_float32(eigen_float32.packet_rsqrt, _half_rsqrt_scalar)


def rsqrt(x, xp=np, out=None):
    """TensorFlow's Rsqrt: on the CPU, float32 and float16 by EIGEN_FAST_MATH's prsqrt
    (engine/kernels/cpu/eigen_float32.py; into x's own buffer where `out` is x and the
    compiled loop can); float64 and complex 1 / sqrt(x)."""
    if xp is np and x.dtype == np.float32:
        return eigen_float32.rsqrt(x, out=out)
    if xp is np and x.dtype == np.float16:
        return _HALF_RSQRT(x)
    return xp.reciprocal(xp.sqrt(x))


# Sin and Cos: float32 by Eigen's psincos_float (engine/kernels/cpu/eigen_trig.py), float16
# through it (the tail: sinf and cosf of the float, rounded to half); float64 NumPy's (the
# AVX build has no double sin packet: TensorFlow calls the C library there).
_HALF_SIN = _half_through_float32(
    eigen_trig.packet_sin, lambda x: eigen_trig.scalar_sin(x.astype(np.float32)).astype(x.dtype))
_HALF_COS = _half_through_float32(
    eigen_trig.packet_cos, lambda x: eigen_trig.scalar_cos(x.astype(np.float32)).astype(x.dtype))


def sin(x, xp=np):
    if xp is np and x.dtype == np.float16:
        return _HALF_SIN(x)
    return eigen_trig.sin(x) if _eigen(x, xp) else xp.sin(x)


def cos(x, xp=np):
    if xp is np and x.dtype == np.float16:
        return _HALF_COS(x)
    return eigen_trig.cos(x) if _eigen(x, xp) else xp.cos(x)


def sigmoid(x, xp=np):
    if _eigen(x, xp):
        return eigen_float32.sigmoid(x)
    one = _dtype_of(x)(1)
    if xp is np and x.dtype == np.float16:
        # Eigen's scalar_logistic_op on half: e / (1 + e), e = exp(x), each step rounded to
        # half, 1 where e overflows (1 / (1 + exp(-x)) had 44% of values a bit off).
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(x)
            return np.where(np.isinf(e), one, e / (one + e))
    return one / (one + xp.exp(-x))


def relu(x, xp=np):
    return xp.maximum(x, xp.zeros((), x.dtype))


def relu6(x, xp=np):
    return xp.minimum(xp.maximum(x, xp.zeros((), x.dtype)), _dtype_of(x)(6))


# TensorFlow's Elu and Selu functors take exp(x) - 1 (not expm1, which rounds apart near 0:
# up to 1.3e-4 relative), Selu's negative side times one constant scale * alpha. Its CPU
# runs with denormals flushed (FTZ/DAZ): a denormal x is not below 0 (Elu passes it through
# as it came), and Selu's scale * x of one is a zero of its sign.
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_SCALE_ALPHA = 1.7580993408473768599402175208123


def _below_zero(x, xp):
    """x < 0 as TensorFlow's CPU compares float32 (a denormal reads as zero)."""
    return (eigen_float32.flush(x) if _eigen(x, xp) else x) < 0


def elu(x, xp=np):
    one = _dtype_of(x)(1)
    return xp.where(_below_zero(x, xp), exp(x, xp) - one, x)


def selu(x, xp=np):
    kind = _dtype_of(x)
    one, scale, scale_alpha = kind(1), kind(_SELU_SCALE), kind(_SELU_SCALE_ALPHA)
    linear = scale * (eigen_float32.flush(x) if _eigen(x, xp) else x)
    return xp.where(_below_zero(x, xp), scale_alpha * (exp(x, xp) - one), linear)


def softplus(x, xp=np):
    # log(1 + exp(x)), computed as TensorFlow does to keep large |x| exact.
    if _eigen(x, xp):
        return eigen_float32.softplus(x)
    # log(epsilon) + 2 in the dtype; Eigen's half epsilon is 2**-13 (0x0800), not 2**-10
    epsilon = np.float16(2.0 ** -13) if x.dtype == np.float16 else np.finfo(x.dtype).eps
    threshold = np.log(epsilon) + x.dtype.type(2)
    return xp.where(x > -threshold, x,
                    xp.where(x < threshold, xp.exp(x), xp.log1p(xp.exp(x)))).astype(x.dtype)


def softsign(x, xp=np):
    return x / (_dtype_of(x)(1) + xp.abs(x))


def sign(x, xp=np):
    return xp.sign(x)


def round_(x, xp=np):
    # Banker's rounding (half to even), as TensorFlow's Round. On integers TensorFlow 2.21's
    # Round kernel returns zeros (tf.round itself never makes one: it returns x); we match it.
    return xp.zeros_like(x) if _is_int(x) else xp.round(x)


def reciprocal(x, xp=np, out=None):
    """TensorFlow's Reciprocal and Inv: float32 on the CPU by EIGEN_FAST_MATH's preciprocal
    (engine/kernels/cpu/eigen_float32.py; into x's own buffer where `out` is x and the
    compiled loop can); other floats 1 / x (float16's packets round float32's to half, which
    checked equal on every half)."""
    if _eigen(x, xp):
        return eigen_float32.reciprocal(x, out=out)
    return xp.reciprocal(x) if not _is_int(x) else (1 // x).astype(x.dtype)


erf, erfc = eigen_erf.erf, eigen_erf.erfc  # TensorFlow's bits (engine/kernels/cpu/eigen_erf.py)
# Functions that take their input's buffer as `out` (and write over it where they can).
_WRITE_OVER_INPUT = frozenset({erf, erfc, rsqrt, reciprocal})


UNARY = {
    "Neg": np.negative, "Abs": np.abs, "Square": np.square, "Sqrt": np.sqrt, "Rsqrt": rsqrt,
    "Exp": exp, "Expm1": expm1, "Log": log, "Log1p": log1p,
    "Sin": sin, "Cos": cos, "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos,
    "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh, "Tanh": tanh, "Erf": erf,
    "Erfc": erfc, "Sigmoid": sigmoid, "Relu": relu, "Relu6": relu6, "Elu": elu, "Selu": selu,
    "Softplus": softplus, "Softsign": softsign, "Sign": sign, "Round": round_,
    "Floor": np.floor, "Ceil": np.ceil, "Reciprocal": reciprocal, "Inv": reciprocal,
    "IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite,
    "LogicalNot": np.logical_not, "Acosh": inverse_hyperbolic.acosh,
    "Asinh": inverse_hyperbolic.asinh, "Atanh": inverse_hyperbolic.atanh, "Rint": np.rint,
    "Real": cb.real, "Imag": cb.imag, "Conj": cb.conj, "Angle": cb.angle,
    "ComplexAbs": cb.complex_abs, "Invert": cb.invert,
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
    "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or, "NextAfter": np.nextafter,
    "Complex": cb.complex_, "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or,
    "BitwiseXor": np.bitwise_xor, "LeftShift": cb.left_shift, "RightShift": cb.right_shift,
}



def _flushing(kernel):
    """`kernel` (and its forwarding form) with float32 and float64 results flushed to zero
    where denormal: TensorFlow's CPU kernels run under FTZ/DAZ, so a product or quotient of
    two normal floats too small for a normal float (an exp's tiny gradient times another
    small factor) is a signed zero there, where NumPy keeps the denormal. Mul, RealDiv,
    Square and SquaredDifference are the ops whose normal operands make denormals (fused
    chains flush them too: compiled/fused_numba.py); an Add or Sub does only of operands
    both below 2**-102 in magnitude, not flushed here."""
    def flushed(ctx, *operands):
        return eigen_float32.flush_floats(kernel(ctx, *operands))
    if hasattr(kernel, "forwarding"):
        def forwarding(ctx, donated, *operands):
            return eigen_float32.flush_floats(kernel.forwarding(ctx, donated, *operands))
        flushed.forwarding = forwarding
    flushed.__name__ = getattr(kernel, "__name__", "kernel")
    return flushed


# The tables name every op of their family (engine/framework/op_families.py), no more and no fewer.
# _unary and _binary split the correctly rounded ufuncs over the intra-op threads on large
# tensors (threaded_elementwise.py); the tables keep NumPy's own functions, which the GPU
# kernels map to CuPy's.
register_table({op: _unary(UNARY[op]) for op in op_families.UNARY})
register_table({op: _binary(BINARY[op]) for op in op_families.BINARY})
register("SquaredDifference")(_flushing(
    _forwarding_squared_difference(_binary(_squared_difference_cpu))))


def _pow_cpu(x, y):
    """pow_ on the CPU: float32 as TensorFlow computes it, Eigen's generic_pow on packets and
    glibc's powf on the tail (engine/kernels/cpu/eigen_pow.py), not NumPy's power."""
    if getattr(x, "dtype", None) == np.float32 and getattr(y, "dtype", None) == np.float32:
        return eigen_pow.pow_float32(x, y)
    return pow_(x, y)


register("Pow")(_binary(_pow_cpu))


def complex_multiply(x, y):
    """x * y of complex numbers as Eigen's pmul (and std::complex's *): (ac - bd) + (ad + bc)i,
    each product and sum rounded in the part's type (NumPy's multiply rounds otherwise)."""
    x, y = np.asarray(x), np.asarray(y)
    a, b, c, d = x.real, x.imag, y.real, y.imag
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), np.result_type(x, y))
    with np.errstate(all="ignore"):
        out.real = a * c - b * d
        out.imag = a * d + b * c
    return out


def complex_square(x):
    """x * x of complex numbers as Eigen's: re*re - im*im, (re*im)*2."""
    a, b = x.real, x.imag
    out = np.empty_like(x)
    with np.errstate(all="ignore"):
        out.real = a * a - b * b
        out.imag = (a * b) * a.dtype.type(2)
    return out


def _complex_first(kernel, complex_function):
    """`kernel`, but `complex_function` where an operand is complex (TensorFlow's rounding)."""
    def kernel_or_complex(ctx, *operands):
        if any(getattr(v, "dtype", np.dtype(float)).kind == "c" for v in operands):
            try:
                return complex_function(*operands)
            except ValueError:
                return kernel(ctx, *operands)  # (its own error for shapes that do not broadcast)
        return kernel(ctx, *operands)
    if hasattr(kernel, "forwarding"):
        def forwarding(ctx, donated, *operands):
            if any(getattr(v, "dtype", np.dtype(float)).kind == "c" for v in operands):
                return kernel_or_complex(ctx, *operands)
            return kernel.forwarding(ctx, donated, *operands)
        kernel_or_complex.forwarding = forwarding
    kernel_or_complex.__name__ = getattr(kernel, "__name__", "kernel")
    return kernel_or_complex


register("Mul")(_flushing(_complex_first(_binary(BINARY["Mul"]), complex_multiply)))
register("RealDiv")(_flushing(_binary(BINARY["RealDiv"])))
register("Square")(_flushing(_complex_first(_unary(UNARY["Square"]), complex_square)))


def _atan2_cpu(y, x):
    """np.arctan2 on the CPU: float32 as TensorFlow computes it, Eigen's patan2 on packets and
    glibc's atan2f on the tail (engine/kernels/cpu/eigen_atan2.py)."""
    if getattr(y, "dtype", None) == np.float32 and getattr(x, "dtype", None) == np.float32:
        return eigen_atan2.atan2_float32(y, x)
    return np.arctan2(y, x)


register("Atan2")(_binary(_atan2_cpu))


@register("Relu")
def relu_kernel(ctx, x):
    """Relu, compiled where that serves x (engine/kernels/cpu/compiled_forms.py)."""
    fast = compiled_forms.module("activation", x.dtype, x.size) \
        if isinstance(x, np.ndarray) and x.ndim and x.size else None
    return fast.relu(x) if fast is not None else relu(x)


# The kernels below take `xp` too (keyword): the GPU registers them with xp=cupy.

@register("LeakyRelu")
def leaky_relu(ctx, features, xp=np):
    alpha = features.dtype.type(ctx.attr("alpha", 0.2))
    return xp.where(features > 0, features, features * alpha)


@register("ClipByValue")
def clip_by_value(ctx, t, clip_min, clip_max, xp=np):
    for bound in (clip_min, clip_max):
        if bound.ndim and bound.shape != t.shape:
            raise invalid(ctx, f"clip_value_min and clip_value_max must be either scalars or "
                               f"have the same shape as the input. Shapes are: "
                               f"t: {shape_str(t.shape)}, "
                               f"clip_value_min: {shape_str(clip_min.shape)}, "
                               f"clip_value_max: {shape_str(clip_max.shape)}")
    return xp.minimum(xp.maximum(t, clip_min), clip_max)


@register("AddN")
def add_n(ctx, *inputs, xp=np):
    total = inputs[0]
    if isinstance(total, TensorList):  # gradients of a list read twice, summed per element
        for x in inputs[1:]:
            total = add_lists(ctx, total, x, xp.add)
        return total
    for x in inputs[1:]:
        total = xp.add(total, x)
    return total if len(inputs) > 1 else xp.array(total, copy=True)


@register("Select")
def select(ctx, condition, t, e, xp=np):
    # v1 semantics: same shapes, or a vector condition picking rows of t and e.
    if t.shape != e.shape:
        raise invalid(ctx, f"'then' and 'else' must have the same size.  but received: "
                           f"{shape_str(t.shape)} vs. {shape_str(e.shape)}")
    c_shape = condition.shape
    if c_shape == t.shape:
        return xp.where(condition, t, e)
    if len(c_shape) == 1 and t.ndim >= 1:
        if c_shape[0] != t.shape[0]:
            raise invalid(ctx, f"Number of batches of 'then' must match size of 'cond', but "
                               f"saw: {t.shape[0]} vs. {c_shape[0]}")
        return xp.where(xp.reshape(condition, c_shape + (1,) * (t.ndim - 1)), t, e)
    if len(c_shape) == 0:
        return xp.array(t if condition else e, copy=True)
    raise invalid(ctx, f"'cond' must be a scalar, vector or have the same shape as 'then', "
                       f"but received: {shape_str(c_shape)} vs. {shape_str(t.shape)}")


@register("SelectV2")
def select_v2(ctx, condition, t, e, xp=np):
    try:
        shape = np.broadcast_shapes(condition.shape, t.shape, e.shape)
    except ValueError:
        raise invalid(ctx, f"condition {shape_str(condition.shape)}, then "
                           f"{shape_str(t.shape)}, and else {shape_str(e.shape)} "
                           f"must be broadcastable") from None
    return xp.broadcast_to(xp.where(condition, t, e), shape)


@register("Cast")
def cast(ctx, x, xp=np):
    dtype = ctx.attrs["DstT"].as_numpy_dtype
    if x.dtype == dtype:
        return x
    if x.dtype.kind == "f" and np.dtype(dtype).kind in "iu":
        # C++'s float-to-int conversion: truncation toward zero; NaN and overflow as x86 does.
        with np.errstate(invalid="ignore"):
            return xp.trunc(x).astype(dtype)
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        x = x.real
    return x.astype(dtype)
