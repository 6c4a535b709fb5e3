"""tf.math's inverse hyperbolic functions, rint, nextafter, reciprocal_no_nan, erfcinv,
reduce_euclidean_norm, cumulative_logsumexp, accumulate_n, zero_fraction and the monotonicity
tests; tf.math.special (the Bessel functions I0, I1, K0, K0e, K1, K1e, J0, J1, Y0, Y1,
Dawson's integral, Ei, the Fresnel integrals and Spence's function; I0e and I1e are
special_math's); complex numbers (tf.complex, tf.math.real/imag/conj/angle, tf.to_complex128);
and tf.bitwise. TensorFlow's other names for them (tf.acosh, tf.real, tf.nn.zero_fraction,
tf.debugging.is_non_decreasing, ...) come from engine/api/aliases.py."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.api import math_and_nn as _math_and_nn
from engine.ops import bitwise_ops as _bitwise, complex_ops as _complex
from engine.ops import elementary_math_ops as _elementary
from engine.ops import elementary_math_grad as _elementary_grad  # noqa: F401  (gradients)
from engine.ops import special_function_grad as _special_function_grad  # noqa: F401  (gradients)
from engine.ops import special_function_ops as _special_functions
from engine.ops import special_math_ops as _special

complex = _complex.complex  # noqa: A001  (TensorFlow's name)
to_complex128 = _complex.to_complex128

for _name in ("acosh", "asinh", "atanh", "rint", "nextafter", "reciprocal_no_nan", "erfcinv",
              "reduce_euclidean_norm", "cumulative_logsumexp", "accumulate_n", "zero_fraction",
              "is_non_decreasing", "is_strictly_increasing"):
    setattr(_math_and_nn.math, _name, getattr(_elementary, _name))
for _name in ("real", "imag", "conj", "angle"):
    setattr(_math_and_nn.math, _name, getattr(_complex, _name))

_math_and_nn.math.bessel_i0 = _special_functions.bessel_i0
_math_and_nn.math.bessel_i1 = _special_functions.bessel_i1
_math_and_nn.math.special = _Namespace("tf.math.special", bessel_i0e=_special.bessel_i0e,
                                       bessel_i1e=_special.bessel_i1e, **{
                                           name: getattr(_special_functions, name) for name in (
                                               "bessel_i0", "bessel_i1", "bessel_k0",
                                               "bessel_k0e", "bessel_k1", "bessel_k1e",
                                               "bessel_j0", "bessel_j1", "bessel_y0",
                                               "bessel_y1", "dawsn", "expint", "fresnel_cos",
                                               "fresnel_sin", "spence")})

bitwise = _Namespace("tf.bitwise", **{name: getattr(_bitwise, name) for name in (
    "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift")})

__all__ = ["complex", "to_complex128", "bitwise"]
