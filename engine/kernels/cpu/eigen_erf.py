"""TensorFlow's Erf and Erfc on the CPU, bit for bit, in float32 and float64.

TensorFlow's kernels are Eigen's scalar_erf_op and scalar_erfc_op: generic_fast_erf and
generic_fast_erfc (unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h, as the
TensorFlow 2.21 wheel ships it under include/), evaluated as the other float functions are
(engine/kernels/cpu/eigen_float32.py): packets of 8 floats or 4 doubles (AVX without FMA,
every multiply-add rounded twice), the last n % 8 (n % 4) elements one at a time, under
FTZ/DAZ.
- float32 Erf: x * P(x^2) / Q(x^2), x^2 at most 16, clamped to [-1, 1]; one formula.
- float32 Erfc: 1 + x * S(x^2) for |x| <= 1; beyond, exp(-x^2) (less its product with the low
  part of x^2, Dekker's) times P(1/x^2) / (x * Q(1/x^2)), plus 2 below zero, x clamped to
  [-11, 11]. Packets take Eigen's exp and EIGEN_FAST_MATH's reciprocal (x86's rcpps and a
  Newton step: engine/kernels/cpu/x86_reciprocal.py); the scalar path glibc's expf and 1 / x.
- float64: |x| <= 1, Erf is x * S(x^2) / T(x^2) and Erfc 1 less it; beyond, Erfc is the same
  construction with [9/9] polynomials of 1/x^2 (x clamped to [-28, 28]), Erf 1 less it.
  Packets take Eigen's pexp_double, the scalar path glibc's exp; both divide.
tools/make_erf_fixtures.py compares these with TensorFlow (float32: every value, with
`--exhaustive`) and writes the sample tests/engine/test_eigen_erf.py compares.

>>> erfc(np.full(9, 1.5, np.float32))[[0, 8]]  # a packet's value, and the tail's
array([0.03389486, 0.03389485], dtype=float32)
"""

import math

import numpy as np

from engine.kernels.cpu import eigen_float32
from engine.kernels.cpu.eigen_float32 import _flush, _polevl, packet_exp, scalar_exp
from engine.kernels.cpu.x86_reciprocal import reciprocal_newton

_F, _D = np.float32, np.float64
DOUBLE_PACKET = 4  # double lanes of an AVX register

_ERF_P = [_F(2.123732201653183437883853912353515625e-06),
          _F(2.861979592125862836837768554687500000e-04),
          _F(3.658048342913389205932617187500000000e-03),
          _F(5.243302136659622192382812500000000000e-02),
          _F(1.874160766601562500000000000000000000e-01),
          _F(1.128379106521606445312500000000000000e+00)]
_ERF_Q = [_F(3.89185734093189239501953125000e-05), _F(1.14329601638019084930419921875e-03),
          _F(1.47520881146192550659179687500e-02), _F(1.12945675849914550781250000000e-01),
          _F(4.99425798654556274414062500000e-01), _F(1.0)]


def _min(a, b):
    """Eigen's pmin (std::min): a where either is NaN."""
    return np.where(b < a, b, a)


def _max(a, b):
    """Eigen's pmax (std::max): a where either is NaN."""
    return np.where(a < b, b, a)


def erf_float32(x):
    """generic_fast_erf<float>, the packet and the scalar path alike."""
    x = _flush(x)
    with np.errstate(all="ignore"):
        x2 = _min(_F(16), _flush(x * x))
        p = _flush(x * _polevl(x2, _ERF_P))
        r = _flush(p / _polevl(x2, _ERF_Q))
        return _max(_min(r, _F(1)), _F(-1))


_ERFC_S = [_F(5.61802298761904239654541015625e-04), _F(-4.91381669417023658752441406250e-03),
           _F(2.67075151205062866210937500000e-02), _F(-1.12800106406211853027343750000e-01),
           _F(3.76122951507568359375000000000e-01), _F(-1.12837910652160644531250000000e+00)]
_ERFC_P = [_F(1.0208116471767425537109375e-01), _F(4.2920666933059692382812500e-01),
           _F(3.2379078865051269531250000e-01), _F(5.3971976041793823242187500e-02)]
_ERFC_Q = [_F(1.7251677811145782470703125e-02), _F(3.9137163758277893066406250e-01),
           _F(1.0000000000000000000000000e+00), _F(6.2173241376876831054687500e-01),
           _F(9.5662862062454223632812500e-02)]
_ERFC_CLAMP = _F(11)


def _square_low(x, x2):
    """Dekker's twoprod_low(x, x, x2) without FMA: x * x - x2 exactly, from Veltkamp's halves."""
    gamma = x * x.dtype.type(2 ** ((np.finfo(x.dtype).nmant + 2) // 2) + 1)
    high = (x - gamma) + gamma
    low = x - high
    p = high * high - x2
    p = high * low + p
    p = low * high + p
    return low * low + p


def _erfc_float32(x, exp, reciprocal):
    x = _min(_max(_flush(x), -_ERFC_CLAMP), _ERFC_CLAMP)
    with np.errstate(all="ignore"):
        x2 = _flush(x * x)
        small = x * _polevl(x2, _ERFC_S) + _F(1)
        e = exp(-x2)
        z = e - _flush(e * _square_low(x, x2))
        q2 = reciprocal(x2)
        r = _polevl(q2, _ERFC_P) / (x * _polevl(q2, _ERFC_Q))
        large = _flush(_flush(z * r) + np.where(x < 0, _F(2), _F(0)))
        return np.where(_F(1) < x2, large, small)


def packet_erfc_float32(x):
    return _erfc_float32(x, packet_exp, reciprocal_newton)


def scalar_erfc_float32(x):
    return _erfc_float32(x, scalar_exp, lambda a: _F(1) / a)


_ERF_S = [1.9493725660006057018823477644531294572516344487667083740234375e-04,
          1.8272566210022942682217328425053892715368419885635375976562500e-03,
          4.5303363351690106863856044583371840417385101318359375000000000e-02,
          1.4215015503619179981775744181504705920815467834472656250000000e-01,
          1.1283791670955125585606992899556644260883331298828125000000000e+00]
_ERF_T = [2.0294484101083099089526257108317963684385176748037338256835938e-05,
          6.8117805899186819641732970609382391558028757572174072265625000e-04,
          1.0582026056098614921752165685120417037978768348693847656250000e-02,
          9.3252603143757495374188692949246615171432495117187500000000000e-02,
          4.5931062818368939559832142549566924571990966796875000000000000e-01, 1.0]
_ERFC_P64 = [1.5252844933226974316088642158462107545346952974796295166015625e-04,
             1.0909912393738931124520519233556115068495273590087890625000000e-02,
             1.0628604636755033252537572252549580298364162445068359375000000e-01,
             3.3492472973137982217295416376146022230386734008789062500000000e-01,
             4.5065776215933289750026347064704168587923049926757812500000000e-01,
             2.9433039130294824659017649537418037652969360351562500000000000e-01,
             9.8792676360600226170838311645638896152377128601074218750000000e-02,
             1.7095935395503719655962981960328761488199234008789062500000000e-02,
             1.4249109729504577659398023570247460156679153442382812500000000e-03,
             4.4567378313647954771875570045835956989321857690811157226562500e-05]
_ERFC_Q64 = [2.041985103115789845773520028160419315099716186523437500000000e-03,
             5.316030659946043707142493417450168635696172714233398437500000000e-02,
             3.426242193784684864077405563875799998641014099121093750000000e-01,
             8.565637124308049799026321124983951449394226074218750000000000e-01,
             1.000000000000000000000000000000000000000000000000000000000000e+00,
             5.968805280570776972126623149961233139038085937500000000000000e-01,
             1.890922854723317836356244470152887515723705291748046875000000e-01,
             3.152505418656005586885981983868987299501895904541015625000000e-02,
             2.565085751861882583380047861965067568235099315643310546875000e-03,
             7.899362131678837697403017248376499992446042597293853759765625e-05]
_TINY64 = np.finfo(np.float64).tiny
_ERFC_CLAMP64 = 28.0


def _polevl64(x, coefficients):
    p = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        p = p * x + c
    return p


def _flush64(x):
    tiny = np.abs(x) < _TINY64
    return np.where(tiny, np.copysign(0.0, x), x) if tiny.any() else x


_EXP64_HI, _EXP64_LO = 709.784, -745.519
_LOG2E64 = 1.4426950408889634073599
_LN2_C1, _LN2_C2 = 0.693145751953125, 1.42860682030941723212e-6
_EXP64_P = [1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1]
_EXP64_Q = [3.00198505138664455042e-6, 2.52448340349684104192e-3, 2.27265548208155028766e-1,
            2.00000000000000000009e0]


def packet_exp_float64(x):
    """Eigen's pexp_double: 2**n * (1 + 2 g P(g^2) / (Q(g^2) - g P(g^2))), Cephes' rational."""
    with np.errstate(all="ignore"):
        c = np.minimum(x, _EXP64_HI)
        n = np.floor(_LOG2E64 * c + 0.5)
        g = c - n * _LN2_C1
        g = g - n * _LN2_C2
        g2 = g * g
        p = _polevl64(g2, _EXP64_P) * g
        y = 2.0 * (p / (_polevl64(g2, _EXP64_Q) - p)) + 1.0
        y = np.maximum(np.ldexp(y, np.where(np.isfinite(n), n, 0.0).astype(np.int32)), x)
        return _flush64(np.where(x < _EXP64_LO, 0.0, y))


def scalar_exp_float64(x):
    """glibc's exp (Python's math.exp is the C library's) of each value, under FTZ/DAZ."""
    return _flush64(np.array([math.exp(v) for v in _flush64(x).tolist()], np.float64))


def _erf_over_x(x2):
    return _polevl64(x2, _ERF_S) / _polevl64(x2, _ERF_T)


def _erfc_float64_large(x, x2, exp):
    """erfc for 1 < |x| <= 28 (erfc_double_large)."""
    e = exp(-x2)
    z = e - _flush64(e * _square_low(x, x2))
    q2 = 1.0 / x2
    r = _polevl64(q2, _ERFC_P64) / (x * _polevl64(q2, _ERFC_Q64))
    return _flush64(_flush64(z * r) + np.where(x < 0, 2.0, 0.0))


def _erf_float64(x, exp):
    x = _flush64(x)
    with np.errstate(all="ignore"):
        x2 = _flush64(x * x)
        small = _flush64(x * _erf_over_x(x2))
        return np.where(1.0 < x2, 1.0 - _erfc_float64_large(x, x2, exp), small)


def _erfc_float64(x, exp):
    x = np.clip(_flush64(x), -_ERFC_CLAMP64, _ERFC_CLAMP64)  # (NaN stays NaN)
    with np.errstate(all="ignore"):
        x2 = _flush64(x * x)
        small = 1.0 - _flush64(x * _erf_over_x(x2))
        return np.where(1.0 < x2, _erfc_float64_large(x, x2, exp), small)


def packet_erf_float64(x):
    return _erf_float64(x, packet_exp_float64)


def scalar_erf_float64(x):
    return _erf_float64(x, scalar_exp_float64)


def packet_erfc_float64(x):
    return _erfc_float64(x, packet_exp_float64)


def scalar_erfc_float64(x):
    return _erfc_float64(x, scalar_exp_float64)


_packets_and_tail = eigen_float32.packets_and_tail
_FLOAT64 = dict(lanes=DOUBLE_PACKET, dtype=np.float64)
_ERF = {np.float32: _packets_and_tail(erf_float32, erf_float32, "erf_float32"),
        np.float64: _packets_and_tail(packet_erf_float64, scalar_erf_float64, "erf_float64",
                                      **_FLOAT64)}
_ERFC = {np.float32: _packets_and_tail(packet_erfc_float32, scalar_erfc_float32,
                                       "erfc_float32"),
         np.float64: _packets_and_tail(packet_erfc_float64, scalar_erfc_float64,
                                       "erfc_float64", **_FLOAT64)}


def _of_dtype(functions, x, out=None):
    """The function for x's dtype; float16 and bfloat16 through float32, as Eigen's packets
    of halves are computed. `out`: x itself, which the compiled loops may write over."""
    x = np.asarray(x)
    function = functions.get(x.dtype.type)
    if function is not None:
        return function(x, out=out)
    return functions[np.float32](x.astype(np.float32)).astype(x.dtype)


def erf(x, out=None):
    """TensorFlow's Erf on the CPU (into x's own buffer where `out` is x and that can be)."""
    return _of_dtype(_ERF, x, out)


def erfc(x, out=None):
    """TensorFlow's Erfc on the CPU (into x's own buffer where `out` is x and that can be)."""
    return _of_dtype(_ERFC, x, out)
