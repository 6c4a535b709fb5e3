"""TensorFlow's BesselI0, BesselI1, BesselK0, BesselK0e, BesselK1, BesselK1e, BesselJ0,
BesselJ1, BesselY0 and BesselY1 on the CPU.

TensorFlow evaluates them with Eigen's generic_i0, generic_i1, generic_k0, generic_k0e,
generic_k1, generic_k1e, generic_j0, generic_j1, generic_y0 and generic_y1
(unsupported/Eigen/src/SpecialFunctions/BesselFunctionsImpl.h: Cephes' Chebyshev series and
rational functions), written once for packets and scalars. float32 runs them in 8-float
packets, the last n % 8 elements of the flat tensor on the scalar path; the two differ only in
the transcendental functions they call: Eigen's pexp, plog, psin, pcos and EIGEN_FAST_MATH's
prsqrt on packets, glibc's expf, logf, sinf, cosf and 1 / sqrtf on the scalar path (engine/kernels/cpu/
eigen_float32.py and eigen_trig.py have both). Each step below is Eigen's, in its order, rounded as float32, so
float32 values are TensorFlow's bits. float64 takes NumPy's exp and log for Eigen's double
packets (an ulp apart at times), and NumPy's sin and cos. I0e and I1e are engine/kernels/cpu/special_functions.py's.
"""

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu import eigen_float32 as e32, eigen_trig
from engine.kernels.cpu.eigen_ndtri import _polevl  # Eigen's ppolevl
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

    def __init__(self, exp, log, rsqrt, sin, cos):
        self.exp, self.log, self.rsqrt, self.sin, self.cos = exp, log, rsqrt, sin, cos


def _double_rsqrt(x):
    return 1 / np.sqrt(x)


_FLOAT_PACKET = _Path(e32.packet_exp, e32.packet_log, e32.packet_rsqrt, eigen_trig.packet_sin,
                      eigen_trig.packet_cos)
_FLOAT_SCALAR = _Path(e32.scalar_exp, e32.scalar_log, e32.scalar_rsqrt, eigen_trig.scalar_sin,
                      eigen_trig.scalar_cos)
_DOUBLE = _Path(np.exp, np.log, _double_rsqrt, np.sin, np.cos)


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


# -- J0, J1, Y0, Y1: float32's and float64's own formulas --

_J0_JP = (-6.068350350393235E-008, 6.388945720783375E-006, -3.969646342510940E-004,
          1.332913422519003E-002, -1.729150680240724E-001)
_J0_MO = (-6.838999669318810E-002, 1.864949361379502E-001, -2.145007480346739E-001,
          1.197549369473540E-001, -3.560281861530129E-003, -4.969382655296620E-002,
          -3.355424622293709E-006, 7.978845717621440E-001)
_J0_PH = (3.242077816988247E+001, -3.630592630518434E+001, 1.756221482109099E+001,
          -4.974978466280903E+000, 1.001973420681837E+000, -1.939906941791308E-001,
          6.490598792654666E-002, -1.249992184872738E-001)
_Y0_YP = (9.454583683980369E-008, -9.413212653797057E-006, 5.344486707214273E-004,
          -1.584289289821316E-002, 1.707584643733568E-001)
_J1_JP = (-4.878788132172128E-009, 6.009061827883699E-007, -4.541343896997497E-005,
          1.937383947804541E-003, -3.405537384615824E-002)
_J1_MO = (6.913942741265801E-002, -2.284801500053359E-001, 3.138238455499697E-001,
          -2.102302420403875E-001, 5.435364690523026E-003, 1.493389585089498E-001,
          4.976029650847191E-006, 7.978845453073848E-001)
_J1_PH = (-4.497014141919556E+001, 5.073465654089319E+001, -2.485774108720340E+001,
          7.222973196770240E+000, -1.544842782180211E+000, 3.503787691653334E-001,
          -1.637986776941202E-001, 3.749989509080821E-001)
_Y1_YP = (8.061978323326852E-009, -9.496460629917016E-007, 6.719543806674249E-005,
          -2.641785726447862E-003, 4.202369946500099E-002)

_P0_PP = (7.96936729297347051624E-4, 8.28352392107440799803E-2, 1.23953371646414299388E0,
          5.44725003058768775090E0, 8.74716500199817011941E0, 5.30324038235394892183E0,
          9.99999999999999997821E-1)
_P0_PQ = (9.24408810558863637013E-4, 8.56288474354474431428E-2, 1.25352743901058953537E0,
          5.47097740330417105182E0, 8.76190883237069594232E0, 5.30605288235394617618E0,
          1.00000000000000000218E0)
_P0_QP = (-1.13663838898469149931E-2, -1.28252718670509318512E0, -1.95539544257735972385E1,
          -9.32060152123768231369E1, -1.77681167980488050595E2, -1.47077505154951170175E2,
          -5.14105326766599330220E1, -6.05014350600728481186E0)
_P0_QQ = (1.00000000000000000000E0, 6.43178256118178023184E1, 8.56430025976980587198E2,
          3.88240183605401609683E3, 7.24046774195652478189E3, 5.93072701187316984827E3,
          2.06209331660327847417E3, 2.42005740240291393179E2)
_J0_RP = (-4.79443220978201773821E9, 1.95617491946556577543E12, -2.49248344360967716204E14,
          9.70862251047306323952E15)
_J0_RQ = (1.00000000000000000000E0, 4.99563147152651017219E2, 1.73785401676374683123E5,
          4.84409658339962045305E7, 1.11855537045356834862E10, 2.11277520115489217587E12,
          3.10518229857422583814E14, 3.18121955943204943306E16, 1.71086294081043136091E18)
_Y0_YP64 = (1.55924367855235737965E4, -1.46639295903971606143E7, 5.43526477051876500413E9,
            -9.82136065717911466409E11, 8.75906394395366999549E13, -3.46628303384729719441E15,
            4.42733268572569800351E16, -1.84950800436986690637E16)
_Y0_YQ64 = (1.00000000000000000000E0, 1.04128353664259848412E3, 6.26107330137134956842E5,
            2.68919633393814121987E8, 8.64002487103935000337E10, 2.02979612750105546709E13,
            3.17157752842975028269E15, 2.50596256172653059228E17)
_P1_PP = (7.62125616208173112003E-4, 7.31397056940917570436E-2, 1.12719608129684925192E0,
          5.11207951146807644818E0, 8.42404590141772420927E0, 5.21451598682361504063E0,
          1.00000000000000000254E0)
_P1_PQ = (5.71323128072548699714E-4, 6.88455908754495404082E-2, 1.10514232634061696926E0,
          5.07386386128601488557E0, 8.39985554327604159757E0, 5.20982848682361821619E0,
          9.99999999999999997461E-1)
_P1_QP = (5.10862594750176621635E-2, 4.98213872951233449420E0, 7.58238284132545283818E1,
          3.66779609360150777800E2, 7.10856304998926107277E2, 5.97489612400613639965E2,
          2.11688757100572135698E2, 2.52070205858023719784E1)
_P1_QQ = (1.00000000000000000000E0, 7.42373277035675149943E1, 1.05644886038262816351E3,
          4.98641058337653607651E3, 9.56231892404756170795E3, 7.99704160447350683650E3,
          2.82619278517639096600E3, 3.36093607810698293419E2)
_J1_RP = (-8.99971225705559398224E8, 4.52228297998194034323E11, -7.27494245221818276015E13,
          3.68295732863852883286E15)
_J1_RQ = (1.00000000000000000000E0, 6.20836478118054335476E2, 2.56987256757748830383E5,
          8.35146791431949253037E7, 2.21511595479792499675E10, 4.74914122079991414898E12,
          7.84369607876235854894E14, 8.95222336184627338078E16, 5.32278620332680085395E18)
_Y1_YP64 = (1.26320474790178026440E9, -6.47355876379160291031E11, 1.14509511541823727583E14,
            -8.12770255501325109621E15, 2.02439475713594898196E17, -7.78877196265950026825E17)
_Y1_YQ64 = (1.00000000000000000000E0, 5.94301592346128195359E2, 2.35564092943068577943E5,
            7.34811944459721705660E7, 1.87601316108706159478E10, 3.88231277496238566008E12,
            6.20557727146953693363E14, 6.87141087355300489866E16, 3.97270608116560655612E18)
_SQ2OPI = 7.9788456080286535587989E-1
_TWOOPI = 0.636619772367581343075535
_NEG_PIO4 = -0.7853981633974483096
_NEG_THPIO4 = -2.35619449019234492885


def _asymptotic_float(y, m, mo, ph, phase):
    """float32's large-argument form: rsqrt(y) * MO(1/y) and the phase 1/y * PH(1/y**2) + phase."""
    t = y.dtype.type
    q = t(1.0) / y
    p = m.rsqrt(y) * _polevl(q, mo)
    return p, q * _polevl(q * q, ph) + t(phase)


def _j0_float(x, m):
    t = x.dtype.type
    y = np.abs(x)
    z = y * y
    small = np.where(y < t(1.0e-3), z * t(-0.25) + t(1.0),
                     (z - t(5.78318596294678452118)) * _polevl(z, _J0_JP))
    p, yn = _asymptotic_float(y, m, _J0_MO, _J0_PH, _NEG_PIO4)
    return np.where(y <= t(2.0), small, p * m.cos(yn + y))


def _y0_float(x, m):
    t = x.dtype.type
    z = x * x
    small = t(_TWOOPI) * (m.log(x) * _j0_float(x, m))
    small = (z - t(0.43221455686510834878)) * _polevl(z, _Y0_YP) + small
    small = np.where(x <= t(0.0), t(-np.inf), small)
    p, xn = _asymptotic_float(x, m, _J0_MO, _J0_PH, _NEG_PIO4)
    return np.where(x <= t(2.0), small, p * m.sin(xn + x))


def _j1_float(x, m):
    t = x.dtype.type
    y = np.abs(x)
    z = y * y
    small = (z - t(1.46819706421238932572E1)) * (x * _polevl(z, _J1_JP))
    p, yn = _asymptotic_float(y, m, _J1_MO, _J1_PH, _NEG_THPIO4)
    large = p * m.cos(yn + y)
    large = np.where(x < t(0.0), -large, large)
    return np.where(y <= t(2.0), small, large)


def _y1_float(x, m):
    t = x.dtype.type
    z = x * x
    small = (z - t(4.66539330185668857532)) * _polevl(z, _Y1_YP)
    small = small * x + t(_TWOOPI) * (_j1_float(x, m) * m.log(x) + t(-1.0) / x)
    small = np.where(x < t(0.0), t(-np.inf), small)
    p, xn = _asymptotic_float(x, m, _J1_MO, _J1_PH, _NEG_THPIO4)
    return np.where(x <= t(2.0), small, p * m.sin(xn + x))


def _asymptotic_double(y, m, pp, pq, qp, qq, phase, sign, sine_first):
    """float64's large-argument form (y > 5): (P(25/y**2) trig(yn) + w Q(25/y**2) trig'(yn))
    * sqrt(2/pi) / sqrt(y)."""
    s = 25.0 / (y * y)
    p = _polevl(s, pp) / _polevl(s, pq)
    q = _polevl(s, qp) / _polevl(s, qq)
    yn = y + phase
    w = sign * 5.0 / y
    first, second = (m.sin, m.cos) if sine_first else (m.cos, m.sin)
    p = p * first(yn) + w * (q * second(yn))
    return p * (_SQ2OPI * m.rsqrt(y))


def _j0_double(x, m):
    y = np.abs(x)
    z = y * y
    small = np.where(y < 1.0e-5, z * -0.25 + 1.0,
                     ((z - 5.78318596294678452118E0) * (z - 3.04712623436620863991E1))
                     * (_polevl(z, _J0_RP) / _polevl(z, _J0_RQ)))
    large = _asymptotic_double(y, m, _P0_PP, _P0_PQ, _P0_QP, _P0_QQ, _NEG_PIO4, -1.0, False)
    return np.where(y <= 5.0, small, large)


def _y0_double(x, m):
    z = x * x
    small = _polevl(z, _Y0_YP64) / _polevl(z, _Y0_YQ64)
    small = (_TWOOPI * m.log(x)) * _j0_double(x, m) + small
    small = np.where(x <= 0.0, -np.inf, small)
    large = _asymptotic_double(x, m, _P0_PP, _P0_PQ, _P0_QP, _P0_QQ, _NEG_PIO4, 1.0, True)
    return np.where(x <= 5.0, small, large)


def _j1_double(x, m):
    y = np.abs(x)
    z = y * y
    small = _polevl(z, _J1_RP) / _polevl(z, _J1_RQ)
    small = ((small * x) * (z - 1.46819706421238932572E1)) * (z - 4.92184563216946036703E1)
    large = _asymptotic_double(y, m, _P1_PP, _P1_PQ, _P1_QP, _P1_QQ, _NEG_THPIO4, -1.0, False)
    large = np.where(x < 0.0, -large, large)
    return np.where(y <= 5.0, small, large)


def _y1_double(x, m):
    z = x * x
    small = _polevl(z, _Y1_YP64) / _polevl(z, _Y1_YQ64)
    small = small * x + _TWOOPI * (_j1_double(x, m) * m.log(x) + -1.0 / x)
    small = np.where(x <= 0.0, -np.inf, small)
    large = _asymptotic_double(x, m, _P1_PP, _P1_PQ, _P1_QP, _P1_QQ, _NEG_THPIO4, 1.0, True)
    return np.where(x <= 5.0, small, large)


def _by_type(single, double):
    def formula(x, m):
        return double(x, m) if x.dtype == _D else single(x, m)
    return formula


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
bessel_j0 = _function(_by_type(_j0_float, _j0_double))
bessel_j1 = _function(_by_type(_j1_float, _j1_double))
bessel_y0 = _function(_by_type(_y0_float, _y0_double))
bessel_y1 = _function(_by_type(_y1_float, _y1_double))


def _kernel(function):
    def kernel(ctx, x):
        return function(x)
    kernel.__name__ = function.__name__ if hasattr(function, "__name__") else "bessel"
    return kernel


KERNELS = {"BesselI0": bessel_i0, "BesselI1": bessel_i1, "BesselK0": bessel_k0,
           "BesselK0e": bessel_k0e, "BesselK1": bessel_k1, "BesselK1e": bessel_k1e,
           "BesselJ0": bessel_j0, "BesselJ1": bessel_j1, "BesselY0": bessel_y0,
           "BesselY1": bessel_y1}
register_table({op: _kernel(function) for op, function in KERNELS.items()})
