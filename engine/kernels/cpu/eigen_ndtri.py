"""TensorFlow's Ndtri and Erfinv on the CPU: Eigen's generic_ndtri (Cephes' ndtri, two rational
approximations chosen by pselect; SpecialFunctionsImpl.h as the TensorFlow 2.21 wheel ships
it) and TensorFlow's scalar_erfinv_op (cwise_ops.h), erfinv(x) = ndtri(0.5 * x + 0.5) *
sqrt(1/2).

float32 takes Eigen's two paths as every flat cwise kernel does (engine/kernels/cpu/
eigen_float32.py): on 8-lane packets plog is Eigen's plog_float and preciprocal FAST_MATH's
rcpps with a Newton step; on the last n % 8 elements glibc's logf and a division. Every
multiply-add is rounded twice (no FMA), in the element's precision. float64 evaluates the same
formula with NumPy's log (Eigen's plog_double may differ in the last bit). TensorFlow's CPU
has no half or bfloat16 kernel of either (engine/kernels/cpu/special_math.py says so).
tools/make_special_inverse_fixtures.py writes TensorFlow's values; tests/engine/
test_special_inverse.py compares them (float32 bit for bit).
"""

import numpy as np

from engine.kernels.cpu import eigen_float32

_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
       1.39312609387279679503e1, -1.23916583867381258016e0)
_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
       -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
       1.59056225126211695515e1, -1.18331621121330003142e0)
_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
       4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
       -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4)
_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
       1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
       -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
       1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
       3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9)
_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
       2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
       2.89247864745380683936e-6, 6.79019408009981274425e-9)


def _polevl(x, coefficients):
    """Eigen's ppolevl: Horner's rule from coefficients[0], each step a*b + c rounded twice."""
    t = x.dtype.type
    p = np.full_like(x, t(coefficients[0]))
    for c in coefficients[1:]:
        p = p * x + t(c)
    return p


def _ndtri(a, log, reciprocal):
    """generic_ndtri over array `a` in its own precision, with the path's log and 1/x."""
    t = a.dtype.type
    with np.errstate(all="ignore"):
        exp_neg_two = t(0.13533528323661269189)
        should_flipsign = a <= t(1) - exp_neg_two
        b = np.where(should_flipsign, a, t(1) - a)
        # b > exp(-2): a rational function of (b - 1/2)
        c = b - t(0.5)
        c2 = c * c
        near = (c * (c2 * (_polevl(c2, _P0) / _polevl(c2, _Q0))) + c) * t(2.50662827463100050242e0)
        # b <= exp(-2): of z = 1 / sqrt(-2 log b)
        x = np.sqrt(t(-2) * log(b))
        x0 = x - log(x) / x
        z = reciprocal(x)
        x1 = z * np.where(x < t(8), _polevl(z, _P1) / _polevl(z, _Q1),
                          _polevl(z, _P2) / _polevl(z, _Q2))
        far = x0 - x1
        far = np.where(should_flipsign, -far, far)
        ndtri = np.where(exp_neg_two < b, near, far)
        return np.where(a == t(0), t(-np.inf), np.where(a == t(1), t(np.inf), ndtri))


def _log_of_each(x):
    """The scalar path's plog is logf; eigen_float32.log of fewer than 8 values is just that."""
    return eigen_float32.scalar_log(x)


def _packet_ndtri(a):
    return eigen_float32.flush(_ndtri(eigen_float32.flush(a), eigen_float32.packet_log,
                                       eigen_float32.packet_reciprocal))


def _scalar_ndtri(a):
    return eigen_float32.flush(_ndtri(eigen_float32.flush(a), _log_of_each,
                                       eigen_float32.scalar_reciprocal))


_HALF, _SQRT_HALF = np.float32(0.5), np.float32(0.70710678118654752440)


def _packet_erfinv(x):
    with np.errstate(all="ignore"):
        return _packet_ndtri(_HALF * x + _HALF) * _SQRT_HALF


def _scalar_erfinv(x):
    with np.errstate(all="ignore"):
        return _scalar_ndtri(_HALF * x + _HALF) * _SQRT_HALF


_ndtri_float32 = eigen_float32.packets_and_tail(_packet_ndtri, _scalar_ndtri)
_erfinv_float32 = eigen_float32.packets_and_tail(_packet_erfinv, _scalar_erfinv)


def _float64(x, erfinv):
    with np.errstate(all="ignore"):
        if erfinv:
            return _ndtri(0.5 * x + 0.5, np.log, np.reciprocal) * 0.70710678118654752440
        return _ndtri(x, np.log, np.reciprocal)


def _apply(x, float32_function, erfinv):
    x = np.asarray(x)
    if x.dtype == np.float64:
        return _float64(x, erfinv)
    if x.dtype == np.float32:
        return float32_function(x)
    raise TypeError(f"no CPU kernel for {x.dtype}: float32 and float64 only")


def ndtri(x):
    """The standard normal's quantile function, as TensorFlow's Ndtri kernel computes it."""
    return _apply(x, _ndtri_float32, erfinv=False)


def erfinv(x):
    """erf's inverse, as TensorFlow's Erfinv kernel computes it."""
    return _apply(x, _erfinv_float32, erfinv=True)
