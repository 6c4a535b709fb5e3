"""TensorFlow's BesselI0, BesselI1, BesselK0, BesselK0e, BesselK1 and BesselK1e on the CPU.

TensorFlow evaluates them with Eigen's generic_i0, generic_i1, generic_k0, generic_k0e,
generic_k1 and generic_k1e (unsupported/Eigen/src/SpecialFunctions/BesselFunctionsImpl.h:
Cephes' Chebyshev series), written once for packets and scalars. float32 runs them in 8-float
packets, the last n % 8 elements of the flat tensor on the scalar path; the two differ only in
the transcendental functions they call: Eigen's pexp, plog and EIGEN_FAST_MATH's prsqrt on
packets, glibc's expf and logf and 1 / sqrtf on the scalar path (engine/kernels/cpu/
eigen_float32.py has both). Each step below is Eigen's, in its order, rounded as float32, so
float32 values are TensorFlow's bits. float64 takes NumPy's exp and log for Eigen's double
packets (an ulp apart at times). I0e and I1e are engine/kernels/cpu/special_functions.py's.
"""

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu import eigen_float32 as e32
from engine.kernels.cpu import special_functions as sf

_F, _D = np.float32, np.float64
_DOUBLE_LANES = 4

_K0_A64 = (1.37446543561352307156E-16, 4.25981614279661018399E-14, 1.03496952576338420167E-11,
           1.90451637722020886025E-9, 2.53479107902614945675E-7, 2.28621210311945178607E-5,
           1.26461541144692592338E-3, 3.59799365153615016266E-2, 3.44289899924628486886E-1,
           -5.35327393233902768720E-1)
_K0_B64 = (5.30043377268626276149E-18, -1.64758043015242134646E-17, 5.21039150503902756861E-17,
           -1.67823109680541210385E-16, 5.51205597852431940784E-16, -1.84859337734377901440E-15,
           6.34007647740507060557E-15, -2.22751332699166985548E-14, 8.03289077536357521100E-14,
           -2.98009692317273043925E-13, 1.14034058820847496303E-12, -4.51459788337394416547E-12,
           1.85594911495471785253E-11, -7.95748924447710747776E-11, 3.57739728140030116597E-10,
           -1.69753450938905987466E-9, 8.57403401741422608519E-9, -4.66048989768794782956E-8,
           2.76681363944501510342E-7, -1.83175552271911948767E-6, 1.39498137188764993662E-5,
           -1.28495495816278026384E-4, 1.56988388573005337491E-3, -3.14481013119645005427E-2,
           2.44030308206595545468E0)
_K1_A64 = (-7.02386347938628759343E-18, -2.42744985051936593393E-15, -6.66690169419932900609E-13,
           -1.41148839263352776110E-10, -2.21338763073472585583E-8, -2.43340614156596823496E-6,
           -1.73028895751305206302E-4, -6.97572385963986435018E-3, -1.22611180822657148235E-1,
           -3.53155960776544875667E-1, 1.52530022733894777053E0)
_K1_B64 = (-5.75674448366501715755E-18, 1.79405087314755922667E-17, -5.68946255844285935196E-17,
           1.83809354436663880070E-16, -6.05704724837331885336E-16, 2.03870316562433424052E-15,
           -7.01983709041831346144E-15, 2.47715442448130437068E-14, -8.97670518232499435011E-14,
           3.34841966607842919884E-13, -1.28917396095102890680E-12, 5.13963967348173025100E-12,
           -2.12996783842756842877E-11, 9.21831518760500529508E-11, -4.19035475934189648750E-10,
           2.01504975519703286596E-9, -1.03457624656780970260E-8, 5.74108412545004946722E-8,
           -3.50196060308781257119E-7, 2.40648494783721712015E-6, -1.93619797416608296024E-5,
           1.95215518471351631108E-4, -2.85781685962277938680E-3, 1.03923736576817238437E-1,
           2.72062619048444266945E0)
# float32's series are the last terms of float64's (Eigen's float tables, rounded to float).
_K0_A32, _K0_B32 = _K0_A64[3:], _K0_B64[15:]
_K1_A32, _K1_B32 = _K1_A64[4:], _K1_B64[15:]


class _Path:
    """The transcendental functions one evaluation path of Eigen calls."""

    def __init__(self, exp, log, rsqrt):
        self.exp, self.log, self.rsqrt = exp, log, rsqrt


def _double_rsqrt(x):
    return 1 / np.sqrt(x)


_FLOAT_PACKET = _Path(e32.packet_exp, e32.packet_log, e32.packet_rsqrt)
_FLOAT_SCALAR = _Path(e32.scalar_exp, e32.scalar_log, e32.scalar_rsqrt)
_DOUBLE = _Path(np.exp, np.log, _double_rsqrt)


def _i0e(x):
    return sf.bessel_i0e(x)


def _i1e(x):
    return sf.bessel_i1e(x)


def _i0(x, m):
    return m.exp(np.abs(x)) * _i0e(x)


def _i1(x, m):
    return m.exp(np.abs(x)) * _i1e(x)


def _k_small_large(x, m, a, b, odd):
    """The two series of K0 (odd False) or K1 (True): x <= 2 without its exp(x), x > 2 as
    chebevl(8/x - 2, b) / sqrt(x)."""
    t = x.dtype.type
    small = sf._chebevl(x * x + t(-2.0), a)
    if odd:
        small = small / x
        small = _i1(x, m) * m.log(t(0.5) * x) + small
    else:
        small = _i0(x, m) * -m.log(t(0.5) * x) + small
    large_series = sf._chebevl(t(8.0) / x - t(2.0), b)
    return small, large_series


def _k0e(x, m, a, b):
    t = x.dtype.type
    small, series = _k_small_large(x, m, a, b, False)
    small = m.exp(x) * small
    large = series * m.rsqrt(x)
    return np.where(x <= t(0), t(np.inf), np.where(x <= t(2), small, large))


def _k0(x, m, a, b):
    t = x.dtype.type
    small, series = _k_small_large(x, m, a, b, False)
    small = np.where(x <= t(0), t(np.inf), small)
    large = (m.exp(-x) * series) * m.rsqrt(x)
    return np.where(x <= t(2), small, large)


def _k1e(x, m, a, b):
    t = x.dtype.type
    small, series = _k_small_large(x, m, a, b, True)
    small = np.where(x <= t(0), t(np.inf), small * m.exp(x))
    large = series * m.rsqrt(x)
    return np.where(x <= t(2), small, large)


def _k1(x, m, a, b):
    t = x.dtype.type
    small, series = _k_small_large(x, m, a, b, True)
    small = np.where(x <= t(0), t(np.inf), small)
    large = m.exp(-x) * (series * m.rsqrt(x))
    return np.where(x <= t(2), small, large)


def _function(formula, *tables):
    """A kernel function of an array: float32 as packets and a scalar tail, float64 (and the
    narrow floats through float32) with NumPy's functions."""
    float_tables = tables[len(tables) // 2:]
    double_tables = tables[:len(tables) // 2]

    def packet(x):
        with np.errstate(all="ignore"):
            return e32.flush(formula(e32.flush(x), _FLOAT_PACKET, *float_tables))

    def scalar(x):
        with np.errstate(all="ignore"):
            return e32.flush(formula(e32.flush(x), _FLOAT_SCALAR, *float_tables))

    by_packets = e32.packets_and_tail(packet, scalar)

    def apply(x):
        x = np.asarray(x)
        if x.dtype == _D:
            with np.errstate(all="ignore"):
                return formula(x, _DOUBLE, *double_tables)
        if x.dtype == _F:
            return by_packets(x)
        return by_packets(x.astype(_F)).astype(x.dtype)
    return apply


bessel_i0 = _function(lambda x, m: _i0(x, m))
bessel_i1 = _function(lambda x, m: _i1(x, m))
bessel_k0 = _function(_k0, _K0_A64, _K0_B64, _K0_A32, _K0_B32)
bessel_k0e = _function(_k0e, _K0_A64, _K0_B64, _K0_A32, _K0_B32)
bessel_k1 = _function(_k1, _K1_A64, _K1_B64, _K1_A32, _K1_B32)
bessel_k1e = _function(_k1e, _K1_A64, _K1_B64, _K1_A32, _K1_B32)


def _kernel(function):
    def kernel(ctx, x):
        return function(x)
    kernel.__name__ = function.__name__ if hasattr(function, "__name__") else "bessel"
    return kernel


KERNELS = {"BesselI0": bessel_i0, "BesselI1": bessel_i1, "BesselK0": bessel_k0,
           "BesselK0e": bessel_k0e, "BesselK1": bessel_k1, "BesselK1e": bessel_k1e}
register_table({op: _kernel(function) for op, function in KERNELS.items()})
