"""TensorFlow's Dawsn, Expint, FresnelCos, FresnelSin and Spence on the CPU.

TensorFlow's functors (core/kernels/special_math/special_math_op_misc_impl.h: Cephes' rational
approximations by interval) have no packet form: every element takes the scalar code, in the
element's type, calling the C library for exp, log, log1p, sin and cos. Here the same steps run
on whole arrays in that type (each NumPy operation rounds as the scalar one does) with glibc's
functions element by element (expf, logf, log1pf, sinf, cosf under TensorFlow's FTZ/DAZ for
float32, from engine/kernels/cpu/eigen_float32.py and eigen_trig.py; Python's math module,
glibc's exp, log, log1p, sin and cos, for float64): TensorFlow's bits in both types. Half and
bfloat16 go through float32.
"""

import math

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu import eigen_float32 as e32, eigen_trig
from engine.kernels.cpu.eigen_ndtri import _polevl  # Eigen's ppolevl

_F, _D = np.float32, np.float64


def _double_log(v):
    if v > 0:
        return math.log(v)
    return -math.inf if v == 0 else math.nan


def _double_log1p(v):
    if v > -1:
        return math.log1p(v)
    return -math.inf if v == -1 else math.nan


def _double_exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _double_trig(function):
    def apply(v):
        return function(v) if math.isfinite(v) else math.nan
    return apply


def _elementwise(function):
    def apply(x):
        flat = [function(v) for v in x.reshape(-1).tolist()]
        return np.array(flat, _D).reshape(x.shape)
    return apply


class _CLibrary:
    def __init__(self, exp, log, log1p, sin, cos):
        self.exp, self.log, self.log1p, self.sin, self.cos = exp, log, log1p, sin, cos


_FLOAT = _CLibrary(e32.scalar_exp, e32.scalar_log, e32.scalar_log1p, eigen_trig.scalar_sin,
                   eigen_trig.scalar_cos)
_DOUBLE = _CLibrary(_elementwise(_double_exp), _elementwise(_double_log),
                    _elementwise(_double_log1p), _elementwise(_double_trig(math.sin)),
                    _elementwise(_double_trig(math.cos)))


def _pick(conditions_and_values, otherwise):
    """The first value whose condition holds, element by element (the functors' if chains)."""
    conditions = [c for c, _ in conditions_and_values]
    values = [v for _, v in conditions_and_values]
    return np.select(conditions, values, otherwise)


# -- Dawson's integral --

_DAWSN_AN = (1.13681498971755972054E-11, 8.49262267667473811108E-10, 1.94434204175553054283E-8,
             9.53151741254484363489E-7, 3.07828309874913200438E-6, 3.52513368520288738649E-4,
             -8.50149846724410912031E-4, 4.22618223005546594270E-2, -9.17480371773452345351E-2,
             9.99999999999999994612E-1)
_DAWSN_AD = (2.40372073066762605484E-11, 1.48864681368493396752E-9, 5.21265281010541664570E-8,
             1.27258478273186970203E-6, 2.32490249820789513991E-5, 3.25524741826057911661E-4,
             3.48805814657162590916E-3, 2.79448531198828973716E-2, 1.58874241960120565368E-1,
             5.74918629489320327824E-1, 1.00000000000000000539E0)
_DAWSN_BN = (5.08955156417900903354E-1, -2.44754418142697847934E-1, 9.41512335303534411857E-2,
             -2.18711255142039025206E-2, 3.66207612329569181322E-3, -4.23209114460388756528E-4,
             3.59641304793896631888E-5, -2.14640351719968974225E-6, 9.10010780076391431042E-8,
             -2.40274520828250956942E-9, 3.59233385440928410398E-11)
_DAWSN_BD = (1.0, -6.31839869873368190192E-1, 2.36706788228248691528E-1,
             -5.31806367003223277662E-2, 8.48041718586295374409E-3, -9.47996768486665330168E-4,
             7.81025592944552338085E-5, -4.55875153252442634831E-6, 1.89100358111421846170E-7,
             -4.91324691331920606875E-9, 7.18466403235734541950E-11)
_DAWSN_CN = (-5.90592860534773254987E-1, 6.29235242724368800674E-1, -1.72858975380388136411E-1,
             1.64837047825189632310E-2, -4.86827613020462700845E-4)
_DAWSN_CD = (1.0, -2.69820057197544900361E0, 1.73270799045947845857E0,
             -3.93708582281939493482E-1, 3.44278924041233391079E-2, -9.73655226040941223894E-4)


def _dawsn_tail(x, numerator, denominator):
    t = x.dtype.type
    inverse_x = t(1) / x
    inverse_x2 = inverse_x * inverse_x
    z = _polevl(inverse_x2, numerator) / (x * _polevl(inverse_x2, denominator))
    return t(0.5) * (inverse_x2 * z + inverse_x)


def dawsn(x, c, raw):
    t = x.dtype.type
    a = np.abs(x)
    x2 = a * a
    value = _pick([(a < t(3.25), (a * _polevl(x2, _DAWSN_AN)) / _polevl(x2, _DAWSN_AD)),
                   (a < t(6.25), _dawsn_tail(a, _DAWSN_BN, _DAWSN_BD)),
                   (a < t(1.0e9), _dawsn_tail(a, _DAWSN_CN, _DAWSN_CD))], t(0.5) / x)
    return np.where(x < t(0), -value, value)


# -- The exponential integral Ei --

_EXPINT_A = (-5.350447357812542947283E0, 2.185049168816613393830E2, -4.176572384826693777058E3,
             5.541176756393557601232E4, -3.313381331178144034309E5, 1.592627163384945414220E6)
_EXPINT_B = (1.0, -5.250547959112862969197E1, 1.259616186786790571525E3,
             -1.756549581973534652631E4, 1.493062117002725991967E5, -7.294949239640527645655E5,
             1.592627163384945429726E6)
# (upper bound of the interval, numerator, denominator) for x from 2 on: exp(x)/x (1 + P/Q / x)
_EXPINT_INTERVALS = (
    (4.0, (1.981808503259689673238E-2, -1.271645625984917501326E0, -2.088160335681228318920E0,
           2.755544509187936721172E0, -4.409507048701600257171E-1, 4.665623805935891391017E-2,
           -1.545042679673485262580E-3, 7.059980605299617478514E-5),
     (1.0, 1.476498670914921440652E0, 5.629177174822436244827E-1, 1.699017897879307263248E-1,
      2.291647179034212017463E-2, 4.450150439728752875043E-3, 1.727439612206521482874E-4,
      3.953167195549672482304E-5)),
    (8.0, (-1.373215375871208729803E0, -7.084559133740838761406E-1, 1.580806855547941010501E0,
           -2.601500427425622944234E-1, 2.994674694113713763365E-2, -1.038086040188744005513E-3,
           4.371064420753005429514E-5, 2.141783679522602903795E-6),
     (1.0, 8.585231423622028380768E-1, 4.483285822873995129957E-1, 7.687932158124475434091E-2,
      2.449868241021887685904E-2, 8.832165941927796567926E-4, 4.590952299511353531215E-4,
      -4.729848351866523044863E-6, 2.665195537390710170105E-6)),
    (16.0, (-2.106934601691916512584E0, 1.732733869664688041885E0, -2.423619178935841904839E-1,
            2.322724180937565842585E-2, 2.372880440493179832059E-4, -8.343219561192552752335E-5,
            1.363408795605250394881E-5, -3.655412321999253963714E-7, 1.464941733975961318456E-8,
            6.176407863710360207074E-10),
     (1.0, -2.298062239901678075778E-1, 1.105077041474037862347E-1, -1.566542966630792353556E-2,
      2.761106850817352773874E-3, -2.089148012284048449115E-4, 1.708528938807675304186E-5,
      -4.459311796356686423199E-7, 1.394634930353847498145E-8, 6.150865933977338354138E-10)),
    (32.0, (-2.458119367674020323359E-1, -1.483382253322077687183E-1, 7.248291795735551591813E-2,
            -1.348315687380940523823E-2, 1.342775069788636972294E-3, -7.942465637159712264564E-5,
            2.644179518984235952241E-6, -4.239473659313765177195E-8),
     (1.0, -1.044225908443871106315E-1, -2.676453128101402655055E-1, 9.695000254621984627876E-2,
      -1.601745692712991078208E-2, 1.496414899205908021882E-3, -8.462452563778485013756E-5,
      2.728938403476726394024E-6, -4.239462431819542051337E-8)),
    (64.0, (1.212561118105456670844E-1, -5.823133179043894485122E-1, 2.348887314557016779211E-1,
            -3.040034318113248237280E-2, 1.510082146865190661777E-3, -2.523137095499571377122E-5),
     (1.0, -1.002252150365854016662E0, 2.928709694872224144953E-1, -3.337004338674007801307E-2,
      1.560544881127388842819E-3, -2.523137093603234562648E-5)),
    (None, (-7.657847078286127362028E-1, 6.886192415566705051750E-1, -2.132598113545206124553E-1,
            3.346107552384193813594E-2, -3.076541477344756050249E-3, 1.747119316454907477380E-4,
            -6.103711682274170530369E-6, 1.218032765428652199087E-7, -1.086076102793290233007E-9),
     (1.0, -1.888802868662308731041E0, 1.066691687211408896850E0, -2.751915982306380647738E-1,
      3.930852688233823569726E-2, -3.414684558602365085394E-3, 1.866844370703555398195E-4,
      -6.345146083130515357861E-6, 1.239754287483206878024E-7, -1.086076102793126632978E-9)),
)


def expint(x, c, raw):
    t = x.dtype.type
    f = _polevl(x, _EXPINT_A) / _polevl(x, _EXPINT_B)
    cases = [(x < t(0), np.full_like(x, t(np.nan))),
             (x < t(2), (x * f + t(0.5772156649015329)) + c.log(raw))]
    exp_x = c.exp(x)
    w = t(1) / x
    for upper, numerator, denominator in _EXPINT_INTERVALS:
        f = _polevl(w, numerator) / _polevl(w, denominator)
        value = (exp_x * w) * (w * f + t(1))
        if upper is None:
            return _pick(cases, value)
        cases.append((x < t(upper), value))


# -- Fresnel integrals --

_FRESNEL_CN = (-4.98843114573573548651E-8, 9.50428062829859605134E-6, -6.45191435683965050962E-4,
               1.88843319396703850064E-2, -2.05525900955013891793E-1, 9.99999999999999998822E-1)
_FRESNEL_CD = (3.99982968972495980367E-12, 9.15439215774657478799E-10, 1.25001862479598821474E-7,
               1.22262789024179030997E-5, 8.68029542941784300606E-4, 4.12142090722199792936E-2,
               1.00000000000000000118E0)
_FRESNEL_SN = (-2.99181919401019853726E3, 7.08840045257738576863E5, -6.29741486205862506537E7,
               2.54890880573376359104E9, -4.42979518059697779103E10, 3.18016297876567817986E11)
_FRESNEL_SD = (1.0, 2.81376268889994315696E2, 4.55847810806532581675E4, 5.17343888770096400730E6,
               4.19320245898111231129E8, 2.24411795645340920940E10, 6.07366389490084639049E11)
_FRESNEL_FN = (4.21543555043677546506E-1, 1.43407919780758885261E-1, 1.15220955073585758835E-2,
               3.45017939782574027900E-4, 4.63613749287867322088E-6, 3.05568983790257605827E-8,
               1.02304514164907233465E-10, 1.72010743268161828879E-13,
               1.34283276233062758925E-16, 3.76329711269987889006E-20)
_FRESNEL_FD = (1.0, 7.51586398353378947175E-1, 1.16888925859191382142E-1,
               6.44051526508858611005E-3, 1.55934409164153020873E-4, 1.84627567348930545870E-6,
               1.12699224763999035261E-8, 3.60140029589371370404E-11, 5.88754533621578410010E-14,
               4.52001434074129701496E-17, 1.25443237090011264384E-20)
_FRESNEL_GN = (5.04442073643383265887E-1, 1.97102833525523411709E-1, 1.87648584092575249293E-2,
               6.84079380915393090172E-4, 1.15138826111884280931E-5, 9.82852443688422223854E-8,
               4.45344415861750144738E-10, 1.08268041139020870318E-12,
               1.37555460633261799868E-15, 8.36354435630677421531E-19,
               1.86958710162783235106E-22)
_FRESNEL_GD = (1.0, 1.47495759925128324529E0, 3.37748989120019970451E-1,
               2.53603741420338795122E-2, 8.14679107184306179049E-4, 1.27545075667729118702E-5,
               1.04314589657571990585E-7, 4.60680728146520428211E-10, 1.10273215066240270757E-12,
               1.38796531259578871258E-15, 8.39158816283118707363E-19,
               1.86958710162783236342E-22)


def _fresnel_asymptotic(x, c, use_sin):
    t = x.dtype.type
    pi, one, half = t(np.pi), t(1), t(0.5)
    x2 = x * x
    inverse = one / (pi * x2)
    u = inverse * inverse
    f = one - u * (_polevl(u, _FRESNEL_FN) / _polevl(u, _FRESNEL_FD))
    g = (inverse * _polevl(u, _FRESNEL_GN)) / _polevl(u, _FRESNEL_GD)
    z = t(1.5707963267948966) * x2
    cos_z, sin_z = c.cos(z), c.sin(z)
    y = one / (pi * x)
    if use_sin:
        return half - (f * cos_z + g * sin_z) * y
    return half + (f * sin_z - g * cos_z) * y


def _fresnel(x, c, use_sin):
    t = x.dtype.type
    a = np.abs(x)
    x2 = a * a
    x4 = x2 * x2
    if use_sin:
        near = ((a * x2) * _polevl(x4, _FRESNEL_SN)) / _polevl(x4, _FRESNEL_SD)
    else:
        near = (a * _polevl(x4, _FRESNEL_CN)) / _polevl(x4, _FRESNEL_CD)
    value = np.where(x * x < t(2.5625), near, _fresnel_asymptotic(a, c, use_sin))
    value = np.where(x < t(0), -value, value)
    far = np.where(x < t(0), t(-0.5), t(0.5))
    return np.where(a > t(36974.0), far, value)


def fresnel_cos(x, c, raw):
    return _fresnel(x, c, False)


def fresnel_sin(x, c, raw):
    return _fresnel(x, c, True)


# -- Spence's function (the dilogarithm) --

_SPENCE_A = (4.65128586073990045278E-5, 7.31589045238094711071E-3, 1.33847639578309018650E-1,
             8.79691311754530315341E-1, 2.71149851196553469920E0, 4.25697156008121755724E0,
             3.29771340985225106936E0, 1.00000000000000000126E0)
_SPENCE_B = (6.90990488912553276999E-4, 2.54043763932544379113E-2, 2.82974860602568089943E-1,
             1.41172597751831069617E0, 3.63800533345137075418E0, 5.03278880143316990390E0,
             3.54771340985225096217E0, 9.99999999999999998740E-1)


def spence(x, c, raw):
    t = x.dtype.type
    one, half, three_halves = t(1), t(0.5), t(1.5)
    pi2o6 = t(np.pi * np.pi / 6.0)
    y = np.where(x < t(2), x, one / x)
    w = np.where(three_halves < y, one / y - one, np.where(y < half, -y, y - one))
    value = -w * (_polevl(w, _SPENCE_A) / _polevl(w, _SPENCE_B))
    z = c.log(y)
    value = np.where(y < half, ((-z) * c.log1p(-y) + pi2o6) - value, value)
    value = np.where(three_halves < x, ((-half * z) * z) - value, value)
    return _pick([(x < t(0), np.full_like(x, t(np.nan))), (x == t(0), np.full_like(x, pi2o6)),
                  (x == one, np.zeros_like(x))], value)


def _function(formula):
    def apply(x):
        x = np.asarray(x)
        if x.dtype == _D:
            with np.errstate(all="ignore"):
                return formula(x, _DOUBLE, x)
        # TensorFlow's arithmetic and comparisons read a denormal as zero (DAZ); glibc's logf
        # reads its argument's bits (`raw`: Expint's log(x) of a denormal).
        raw = np.asarray(x, _F)
        with np.errstate(all="ignore"):
            value = e32.flush(formula(e32.flush(raw), _FLOAT, raw))
        return value.astype(x.dtype, copy=False)
    apply.__name__ = formula.__name__
    return apply


def _kernel(function):
    def kernel(ctx, x):
        return function(x)
    kernel.__name__ = function.__name__
    return kernel


FUNCTIONS = {"Dawsn": _function(dawsn), "Expint": _function(expint),
             "FresnelCos": _function(fresnel_cos), "FresnelSin": _function(fresnel_sin),
             "Spence": _function(spence)}
register_table({op: _kernel(function) for op, function in FUNCTIONS.items()})
