"""TensorFlow's Acosh, Asinh and Atanh on the CPU.

Eigen has no packet form of acosh and asinh: its scalar_acosh_op and scalar_asinh_op call the C
library's acoshf/acosh and asinhf/asinh element by element, so glibc's functions through ctypes
are TensorFlow's bits. Atanh has packets (patanh_float, patanh_double in Eigen's
GenericPacketMathFunctions.h): a polynomial (float) or rational function (double) of x**2 for
|x| < 1/2, 0.5 * log((1 + x) / (1 - x)) above; the last n % lanes elements of the flat tensor take
glibc's atanhf/atanh. float32 runs Eigen's steps in float32 with plog_float
(engine/kernels/cpu/eigen_float32.py): TensorFlow's bits. float64 takes NumPy's log for
plog_double, an ulp apart at times. Half and bfloat16 go through float32 (Eigen's half math does),
complex through NumPy.
"""

import ctypes

import numpy as np

from engine.kernels.cpu import eigen_float32

_F, _D = np.float32, np.float64
_DOUBLE_LANES = 4  # doubles in an AVX register


def _libm(name, ctype):
    try:
        function = getattr(ctypes.CDLL("libm.so.6"), name)
    except (OSError, AttributeError):
        return None
    function.restype, function.argtypes = ctype, [ctype]
    return function


def _each(name, stand_in):
    """glibc's float (`name`f) and double (`name`) function over an array, element by element;
    NumPy's `stand_in` where there is no glibc."""
    single, double = _libm(name + "f", ctypes.c_float), _libm(name, ctypes.c_double)

    def apply(x):
        function = single if x.dtype == _F else double
        with np.errstate(all="ignore"):
            if function is None:
                return stand_in(x)
            flat = [function(v) for v in x.reshape(-1).tolist()]
        return np.array(flat, x.dtype).reshape(x.shape)
    return apply


_C_ACOSH, _C_ASINH, _C_ATANH = (_each("acosh", np.arccosh), _each("asinh", np.arcsinh),
                                _each("atanh", np.arctanh))


def _real_function(scalar, xp_function):
    def function(x, xp=np):
        if xp is not np or x.dtype.kind == "c":
            return xp_function(xp)(x)
        if x.dtype in (_F, _D):
            return scalar(x)
        return scalar(x.astype(_F)).astype(x.dtype)
    return function


_ATANH_FLOAT = [_F(0.1819281280040740966796875), _F(8.2311116158962249755859375e-2),
                _F(0.14672131836414337158203125), _F(0.1997792422771453857421875),
                _F(0.3333373963832855224609375)]
_ATANH_P = [3.3071338469301391e-03, -4.7129526768798737e-02, 1.8185306179826699e-01,
            -2.5949536095445679e-01, 1.2306328729812676e-01]
_ATANH_Q = [-3.8679974580640881e-03, 7.6391885763341910e-02, -4.2828141436397615e-01,
            9.8733495886883648e-01, -1.0000000000000000e+00, 3.6918986189438030e-01]


def _polevl(x, coefficients):
    p = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        p = p * x + x.dtype.type(c)  # pmadd without FMA: two roundings
    return p


def _atanh_packets(x, small, log):
    """patanh's selection: `small(x)` below |x| = 1/2, 0.5 * log((1+x)/(1-x)) from there, +-inf
    at +-1, NaN beyond."""
    t = x.dtype.type
    with np.errstate(all="ignore"):
        large = t(0.5) * log((t(1) + x) / (t(1) - x))
        magnitude = np.abs(x)
        y = np.where(t(0.5) <= magnitude, large, small(x))
        y = np.where(magnitude == t(1), np.copysign(t(np.inf), x), y)
        return np.where(t(1) < magnitude, t(np.nan), y)


def _packet_atanh_float(x):
    x = eigen_float32.flush(x)

    def small(v):
        x2 = v * v
        return (v * x2) * _polevl(x2, _ATANH_FLOAT) + v
    return eigen_float32.flush(_atanh_packets(x, small, eigen_float32.packet_log))


def _packet_atanh_double(x):
    def small(v):
        x2 = v * v
        return (v * x2) * (_polevl(x2, _ATANH_P) / _polevl(x2, _ATANH_Q)) + v
    return _atanh_packets(x, small, np.log)


_ATANH_FLOAT32 = eigen_float32.packets_and_tail(_packet_atanh_float, _C_ATANH)
_ATANH_FLOAT64 = eigen_float32.packets_and_tail(_packet_atanh_double, _C_ATANH,
                                                lanes=_DOUBLE_LANES, dtype=_D)


def _atanh_real(x):
    return _ATANH_FLOAT32(x) if x.dtype == _F else _ATANH_FLOAT64(x)


acosh = _real_function(_C_ACOSH, lambda xp: xp.arccosh)
asinh = _real_function(_C_ASINH, lambda xp: xp.arcsinh)
atanh = _real_function(_atanh_real, lambda xp: xp.arctanh)
