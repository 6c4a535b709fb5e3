"""TensorFlow's float32 exp, log, log1p, expm1, tanh, sigmoid, softplus, rsqrt and reciprocal on
the CPU, bit for bit.

TensorFlow 2.21's x86 wheel evaluates these with Eigen compiled for AVX without FMA (its
start-up log names AVX2 and FMA among the instructions it does not use): a tensor is
evaluated flat, in packets of 8 lanes, every multiply-add rounded twice; the last `n % 8`
elements take Eigen's scalar path instead, which calls the C library (glibc's expf, logf,
log1pf, expm1f) where the packet path has Eigen's own polynomials (pexp_float, plog_float,
generic_log1p, generic_expm1; Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h,
scalar_logistic_op<float> in functors/UnaryFunctors.h, TensorFlow's softplus_op.h). Tanh is
Eigen's rational approximation on both paths. Rsqrt and Reciprocal take EIGEN_FAST_MATH's
prsqrt and preciprocal on packets, x86's rsqrtps or rcpps refined by one Newton step
(engine/kernels/cpu/x86_reciprocal.py), and divide on the scalar path. TensorFlow's executor runs kernels with
denormals flushed to zero (FTZ and DAZ): arithmetic reads a denormal as zero and makes zero of
a denormal result, but a path that hands its input back by bits (Eigen's pselect, glibc's
tiny-argument shortcuts) returns a denormal as it came (`_keep_denormal_inputs`).

Each step below is the float32 operation Eigen performs, in its order, so NumPy rounds as the
packet instructions do. tools/make_eigen_math_fixtures.py checks them against TensorFlow over
every float32 of a range, and writes the sample tests/engine/test_eigen_float32.py compares.
They are the reference: once numba is loaded for them (compiled_loops, below) the kernels
run engine/kernels/compiled/eigen_arrays.py's loops, tested equal to them.

>>> import numpy as np
>>> float(sigmoid(np.float32([-1.0]))[0])  # a lone value takes the scalar path
0.2689414322376251
>>> float(sigmoid(np.full(8, -1.0, np.float32))[0])  # a packet: Eigen's polynomial
0.26894140243530273
"""

import ctypes
import sys

import numpy as np

from engine.kernels import compiled
from engine.kernels.cpu import compiled_forms
from engine.kernels.compiled.warm_cache import note_cold_fallback
from engine.kernels.cpu.x86_reciprocal import reciprocal_newton, rsqrt_newton

PACKET = 8  # float lanes of an AVX register
_F = np.float32
_TINY = _F(np.finfo(np.float32).tiny)  # the smallest normal float32


def packet_end(size):
    """Where the scalar tail starts in a flat tensor of `size` elements."""
    return size - size % PACKET


def _flush(x):
    """x with denormals as signed zeros: the FTZ/DAZ mode TensorFlow's kernels run in."""
    tiny = np.abs(x) < _TINY
    if tiny.any():
        x = np.where(tiny, np.copysign(_F(0), x), x)
    return x


flush = _flush  # (for kernels that compare or scale as TensorFlow's CPU does: math.elu)
_SMALLEST_NORMAL = {np.dtype(np.float32): _TINY,
                    np.dtype(np.float64): np.float64(np.finfo(np.float64).tiny)}


def flush_floats(x):
    """x with denormals as signed zeros where it is float32 or float64 (FTZ: what a float
    operation of TensorFlow's CPU kernels writes); other dtypes as they are (halves are
    computed in float32, where their products are never denormal). Where the compiled
    activation module is loaded, it looks for a denormal first (a fraction of NumPy's cost)."""
    smallest = _SMALLEST_NORMAL.get(getattr(x, "dtype", None))
    if smallest is None:
        return x
    if isinstance(x, np.ndarray) and x.ndim and x.flags.c_contiguous:
        fast = compiled_forms.module("activation", x.dtype, x.size)
        if fast is not None and not fast.has_denormal(x, smallest):
            return x
    tiny = np.abs(x) < smallest
    return np.where(tiny, np.copysign(x.dtype.type(0), x), x) if tiny.any() else x


def _is_denormal(x):
    return (np.abs(x) < _TINY) & (x != 0)


def _keep_denormal_inputs(x, y):
    """y, but x itself where x is denormal."""
    denormal = _is_denormal(x)
    return np.where(denormal, x, y) if denormal.any() else y


def _madd(a, b, c):
    return a * b + c  # Eigen's pmadd without FMA: a product rounded, then a sum rounded


def _polevl(x, coefficients):
    """Eigen's ppolevl: Horner's rule from the highest coefficient."""
    p = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        p = _madd(p, x, _F(c))
    return p


def _ldexp(y, m):
    """y * 2**m for integral float m; NaN m leaves a NaN y NaN (m only comes from y's x)."""
    return np.ldexp(y, np.where(np.isfinite(m), m, _F(0)).astype(np.int32))


_EXP_HI, _EXP_LO = _F(88.723), _F(-104.0)
_LOG2E = _F(1.44269504088896341)
_LN2_HI, _LN2_LO = _F(-0.693359375), _F(2.12194440e-4)  # Cephes' two-part -ln(2)
_EXP_POLY = [_F(1.37449637986719608306884765625e-3), _F(8.36894474923610687255859375e-3),
             _F(4.166965186595916748046875e-2), _F(0.16666518151760101318359375),
             _F(0.49999988079071044921875)]


def packet_exp(x):
    """Eigen's pexp_float: exp(x) = 2**m * exp(r), exp(r) a degree-6 minimax polynomial."""
    with np.errstate(all="ignore"):
        clamped = np.minimum(x, _EXP_HI)
        m = np.floor(_madd(clamped, _LOG2E, _F(0.5)))
        r = _madd(m, _LN2_HI, clamped)
        r = _madd(m, _LN2_LO, r)
        r2 = r * r
        p6, p5, p4, p3, p2 = _EXP_POLY
        p_even = _madd(r2, p6, p4)
        p_odd = _madd(r2, p5, p3)
        p_even = _madd(r2, p_even, p2)
        y = _madd(r, p_odd, p_even)
        y = _madd(r2, y, r + _F(1))
        y = np.maximum(_ldexp(y, m), x)  # x itself for +inf (and NaN)
        y = np.where(x < _EXP_LO, _F(0), y)
    return _flush(y)


_SQRT_HALF = _F(0.707106781186547524)
_LOG_P = [_F(0.18256296349849254), _F(1.0000000190281063), _F(1.0000000190281136)]
_LOG_Q = [_F(0.049616247954120038), _F(0.59923249590823520), _F(1.4999999999999927), _F(1.0)]
_LN2 = _F(0.693147180559945309417)


def packet_log(x):
    """Eigen's plog_float: log(m * 2**e), log(m) a rational function of m - 1 on
    [sqrt(1/2), sqrt(2))."""
    x = _flush(x)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)
        e = e.astype(np.float32)
        below = m < _SQRT_HALF
        shifted = m - _F(1)
        e = e - below.astype(np.float32)
        m = shifted + np.where(below, m, _F(0))
        p = m * _polevl(m, _LOG_P)
        y = p / _polevl(m, _LOG_Q)
        y = _madd(e, _LN2, y)
        y = np.where(x == np.inf, x, y)
        y = np.where((x < 0) | np.isnan(x), _F(np.nan), y)
        return np.where(x == 0, _F(-np.inf), y)


def packet_log1p(x):
    """Eigen's generic_log1p (Kahan's): x * log(u) / (u - 1) with u = 1 + x."""
    x = _flush(x)
    with np.errstate(all="ignore"):
        u = x + _F(1)
        log_u = packet_log(u)
        keep_x = (u == _F(1)) | (u == log_u)
        return np.where(keep_x, x, x * (log_u / (u - _F(1))))


def packet_expm1(x):
    """Eigen's generic_expm1 (Kahan's): (u - 1) * x / log(u) with u = exp(x); where u is 1,
    x itself, by bits (a denormal x too)."""
    with np.errstate(all="ignore"):
        u = packet_exp(x)
        u_minus_1 = u - _F(1)
        log_u = packet_log(u)
        y = np.where(log_u == u, u, u_minus_1 * (_flush(x) / log_u))
        y = np.where(u_minus_1 == _F(-1), _F(-1), y)
        return np.where(u == _F(1), x, y)


_TANH_CLAMP = _F(7.90738964080810547)  # without FMA; where the approximation reaches 1
_TANH_P = [_F(1.394553628e-8), _F(2.102733560e-5), _F(3.520756727e-3), _F(1.340216100e-1)]
_TANH_Q = [_F(8.015776984e-7), _F(3.326951409e-4), _F(2.597254514e-2), _F(4.673548340e-1),
           _F(1.0)]


def tanh_float(x):
    """Eigen's ptanh_float, a [9/8] rational approximation, on packets and scalars alike."""
    x = _flush(x)
    with np.errstate(all="ignore"):
        x = np.maximum(np.minimum(x, _TANH_CLAMP), -_TANH_CLAMP)
        x2 = _flush(x * x)
        x3 = _flush(x2 * x)
        p = _madd(x3, _polevl(x2, _TANH_P), x)
        return _flush(p / _polevl(x2, _TANH_Q))


_LOGISTIC_HI = _F(16.6355324)  # where the approximation reaches 1
_LOGISTIC_POLY = [_F(8.33471305668354034423828125e-3), _F(4.1898667812347412109375e-2),
                  _F(0.16666877269744873046875), _F(0.49999141693115234375)]


def packet_sigmoid(x):
    """Eigen's scalar_logistic_op<float>::packetOp: e = exp(x/2)**2 (a degree-5 polynomial,
    so 2**m stays normal), then e / (1 + e)."""
    x = _flush(x)
    with np.errstate(all="ignore"):
        half = np.minimum(x, _LOGISTIC_HI) * _F(0.5)
        m = np.floor(_madd(half, _LOG2E, _F(0.5)))
        r = _madd(m, _LN2_HI, half)
        r = _madd(m, _LN2_LO, r)
        r2 = r * r
        p5, p4, p3, p2 = _LOGISTIC_POLY
        p_even = _madd(r2, p4, p2)
        p_odd = _madd(r2, p5, p3)
        p = _madd(r, p_odd, p_even)
        p = _madd(r2, p, r + _F(1))
        e = _ldexp(p, m)
        e = _flush(e * e)
        y = np.where(x < _EXP_LO, _F(0), e / (_F(1) + e))
    return _flush(y)


# Below -SOFTPLUS_THRESHOLD softplus(x) is x, above SOFTPLUS_THRESHOLD exp(x) (softplus_op.h:
# log(machine epsilon) + 2).
SOFTPLUS_THRESHOLD = _F(np.log(np.finfo(np.float32).eps)) + _F(2)


def _softplus_of(x, exp, log1p):
    """TensorFlow's Softplus functor: x, exp(x) or log1p(exp(x)) by the thresholds."""
    e = exp(x)
    return np.where(x > -SOFTPLUS_THRESHOLD, x,
                    np.where(x < SOFTPLUS_THRESHOLD, e, log1p(e)))


def packet_softplus(x):
    return _softplus_of(_flush(x), packet_exp, packet_log1p)


def c_float_function(name, arguments=1):
    """glibc's float function `name` of `arguments` floats through ctypes (a scalar path calls
    it), or None where there is no libm.so.6 (glibc's name: TensorFlow's wheels are for
    glibc) or no such function."""
    try:
        function = getattr(ctypes.CDLL("libm.so.6"), name)
    except (OSError, AttributeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float] * arguments
    return function


def _c_library():
    """glibc's expf, logf, log1pf and expm1f, or None where one is missing: then float64
    rounded to float32 stands in (off by one ulp for about one input in a thousand)."""
    functions = {name: c_float_function(name) for name in ("expf", "logf", "log1pf", "expm1f")}
    return None if None in functions.values() else functions


_LIBC = _c_library()
_FLOAT64_STAND_INS = {"expf": np.exp, "logf": np.log, "log1pf": np.log1p, "expm1f": np.expm1}


def _scalar(name, of_denormal=None):
    """The C library's `name` over a tail (a few elements), with TensorFlow's FTZ/DAZ;
    `of_denormal(x)` gives what glibc gives for denormal inputs there, where that is not
    `name` of zero."""
    def apply(x):
        x = np.asarray(x, np.float32)
        flushed = _flush(x)
        with np.errstate(all="ignore"):
            if _LIBC is None:
                y = _FLOAT64_STAND_INS[name](flushed.astype(np.float64)).astype(np.float32)
            else:
                y = np.array([_LIBC[name](float(v)) for v in flushed.reshape(-1)],
                             np.float32).reshape(x.shape)
        y = _flush(y)
        if of_denormal is not None and _is_denormal(x).any():
            y = np.where(_is_denormal(x), of_denormal(x), y)
        return y
    apply.__name__ = f"scalar_{name}"
    return apply


def _logf_of_denormal(x):
    # glibc's logf scales a subnormal up by 2**23 before it reads the exponent; under DAZ that
    # product is zero, and the bits that follow give log(2**-150) (NaN for a negative one).
    return np.where(x > 0, _F(-103.97207641601562), _F(np.nan))


scalar_exp, scalar_expm1 = _scalar("expf"), _scalar("expm1f")
scalar_log = _scalar("logf", _logf_of_denormal)
scalar_log1p = _scalar("log1pf", lambda x: x)  # glibc returns a tiny argument as it is


def scalar_sigmoid(x):
    """scalar_logistic_op<float>::operator(): e = expf(min(x, hi)), then e / (1 + e)."""
    e = scalar_exp(np.minimum(_flush(x), _LOGISTIC_HI))
    with np.errstate(all="ignore"):
        return _flush(e / (_F(1) + e))


def scalar_softplus(x):
    return _softplus_of(_flush(x), scalar_exp, scalar_log1p)


# EIGEN_FAST_MATH's prsqrt and preciprocal (engine/kernels/cpu/x86_reciprocal.py): x86's
# rsqrtps or rcpps and one Newton step on packets; the scalar path divides (1 / sqrtf(x),
# 1 / x), under FTZ/DAZ.
packet_rsqrt, packet_reciprocal = rsqrt_newton, reciprocal_newton


def scalar_rsqrt(x):
    with np.errstate(all="ignore"):
        return _F(1) / np.sqrt(_flush(np.asarray(x, np.float32)))


def scalar_reciprocal(x):
    with np.errstate(all="ignore"):
        return _flush(_F(1) / _flush(np.asarray(x, np.float32)))


def packets_and_tail(packet, scalar, loop=None, lanes=PACKET, dtype=np.float32):
    """A function of tensors of one shape, as an Eigen expression evaluates it: `packet` on
    all but the last n % lanes elements (flat), `scalar` on those. `loop` names the loops of
    engine/kernels/compiled/eigen_arrays.py that give both paths' values faster, taken once
    they are loaded (compiled_loops)."""
    def apply(*tensors, out=None):
        tensors = [np.asarray(x, dtype) for x in tensors]
        shape = tensors[0].shape
        flat = [x.reshape(-1) for x in tensors]
        size = flat[0].size
        end = size - size % lanes
        loops = compiled_loops(size) if loop is not None and size else None
        if loops is not None:
            # (the result returned is the array owning its memory, not a view of it: the next
            # op may write over it, engine/runtime/executor.py forwarding)
            if _writes_over(out, tensors, loops, loop):
                loops.run(loop, out.reshape(-1), flat, end, in_place=True)
                return out
            result = np.empty(shape, flat[0].dtype)
            loops.run(loop, result.reshape(-1), flat, end)
            return result
        if end == size:
            return packet(*flat).reshape(shape)
        out = np.empty_like(flat[0])
        out[:end] = packet(*(x[:end] for x in flat))
        out[end:] = scalar(*(x[end:] for x in flat))
        return out.reshape(shape)
    apply.__name__ = packet.__name__.replace("packet_", "")
    apply.__doc__ = f"TensorFlow's {apply.__name__} on the CPU, bit for bit."
    return apply


def _writes_over(out, tensors, loops, loop):
    """Whether `out` (a buffer the kernel was given: executor forwarding) is the one input
    itself, C-contiguous and writeable, and `loop` has a form writing over its input."""
    return (out is not None and len(tensors) == 1 and out is tensors[0]
            and out.flags.c_contiguous and out.flags.writeable and loop in loops.IN_PLACE)


# numba is loaded for these functions (compiled/__init__.py: importing it costs the caller's
# thread about 0.4 s) for a tensor of LOAD_AT_ONCE elements or more, on which the NumPy
# reference spends half a millisecond more than the loops, or at the LOAD_WHEN_OFTEN-th tensor
# of COUNTED_MIN or more (a training loop's); where numba is loaded already (for Philox or a
# fused chain) the loops load in about 0.07 s, at the first tensor. Once they are loaded every
# tensor takes them (a few microseconds where the reference takes 15 or more).
LOAD_AT_ONCE, LOAD_WHEN_OFTEN, COUNTED_MIN = 1 << 16, 256, 1 << 10
_DEMAND = compiled.Demand(large=LOAD_AT_ONCE, often=LOAD_WHEN_OFTEN)


def compiled_loops(size):
    """The compiled loops (engine/kernels/compiled/eigen_arrays.py) when loaded, else None;
    asks for them where a tensor of `size` elements makes loading them worth it."""
    loops = compiled.loaded("eigen")
    if loops is not None:
        return loops
    if "numba" not in sys.modules and (size < COUNTED_MIN or not _DEMAND.worth_loading(size)):
        return None
    loops = compiled.module("eigen")
    if loops is None and compiled.enabled():
        note_cold_fallback(size)
    return loops


def loaded_or_worth_loading(name, size, demand):
    """The compiled module `name` (Pow's and Atan2's loops) when loaded, else None for a tensor
    of fewer than COUNTED_MIN elements; otherwise it is loaded where numba is already or where
    `demand` (the module's compiled.Demand) finds `size` worth it, as compiled_loops asks."""
    loops = compiled.loaded(name)
    if loops is not None or size < COUNTED_MIN:
        return loops
    if "numba" not in sys.modules and not demand.worth_loading(size):
        return None
    return compiled.module(name)


exp = packets_and_tail(packet_exp, scalar_exp, "exp")
log = packets_and_tail(packet_log, scalar_log, "log")
log1p = packets_and_tail(packet_log1p, scalar_log1p, "log1p")
expm1 = packets_and_tail(packet_expm1, scalar_expm1, "expm1")
sigmoid = packets_and_tail(packet_sigmoid, scalar_sigmoid, "sigmoid")
softplus = packets_and_tail(packet_softplus, scalar_softplus, "softplus")
rsqrt = packets_and_tail(packet_rsqrt, scalar_rsqrt, "rsqrt")
reciprocal = packets_and_tail(packet_reciprocal, scalar_reciprocal, "reciprocal")
rsqrt.__name__, reciprocal.__name__ = "rsqrt", "reciprocal"
rsqrt.__doc__ = "TensorFlow's rsqrt on the CPU, bit for bit."
reciprocal.__doc__ = "TensorFlow's reciprocal on the CPU, bit for bit."
tanh = packets_and_tail(tanh_float, tanh_float, "tanh")  # one formula on both paths
tanh.__name__, tanh.__doc__ = "tanh", "TensorFlow's tanh on the CPU, bit for bit."
