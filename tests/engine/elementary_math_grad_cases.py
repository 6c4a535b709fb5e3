"""Numeric-gradient cases of tf.math's elementary functions and the complex parts, merged into
test_gradients.CASES (same format: name -> (function of the float64 input tensors, input
values)). The complex ops are reached through real inputs and a real output: Complex builds
the numbers, Real, Imag, Angle and ComplexAbs read them back."""

import numpy as np

import engine as tf

_RNG = np.random.RandomState(23)


def _uniform(low, high, *shape):
    return _RNG.uniform(low, high, size=shape)


def _complex_chain(a, b):
    c = tf.complex(a, b)
    product = tf.conj(c) * tf.complex(b, a)
    return (tf.real(product) + 2.0 * tf.imag(product) + tf.math.angle(c) + tf.abs(c)
            + tf.real(tf.conj(c)))


CASES = {
    "Acosh": (lambda x: tf.acosh(x), [_uniform(1.2, 5.0, 2, 3)]),
    "Asinh": (lambda x: tf.asinh(x), [_uniform(-4.0, 4.0, 2, 3)]),
    "Atanh": (lambda x: tf.atanh(x), [_uniform(-0.9, 0.9, 2, 3)]),
    "NextAfter": (lambda x, y: tf.math.nextafter(x, y), [_uniform(-2.0, 2.0, 2, 3),
                                                         _uniform(-2.0, 2.0, 3)]),
    "EuclideanNorm": (lambda x: tf.math.reduce_euclidean_norm(x, axis=1),
                      [_uniform(-2.0, 2.0, 3, 4)]),
    "EuclideanNorm_kept": (lambda x: tf.math.reduce_euclidean_norm(x, axis=0, keepdims=True),
                           [_uniform(-2.0, 2.0, 3, 4)]),
    "CumulativeLogsumexp": (lambda x: tf.math.cumulative_logsumexp(x, axis=1),
                            [_uniform(-2.0, 2.0, 2, 4)]),
    "CumulativeLogsumexp_exclusive_reverse": (
        lambda x: tf.math.cumulative_logsumexp(x, axis=0, exclusive=True, reverse=True)[:-1],
        [_uniform(-2.0, 2.0, 3, 2)]),
    **{op: (lambda x, name=name: getattr(tf.math.special, name)(x),
            [_uniform(0.3, 6.0, 2, 4)])
       for op, name in (("BesselI0", "bessel_i0"), ("BesselI1", "bessel_i1"),
                        ("BesselK0", "bessel_k0"), ("BesselK0e", "bessel_k0e"),
                        ("BesselK1", "bessel_k1"), ("BesselK1e", "bessel_k1e"),
                        ("BesselJ0", "bessel_j0"), ("BesselJ1", "bessel_j1"),
                        ("BesselY0", "bessel_y0"), ("BesselY1", "bessel_y1"))},
    **{op: (lambda x, name=name: getattr(tf.math.special, name)(x),
            [_uniform(0.3, 3.0, 2, 4)])
       for op, name in (("Dawsn", "dawsn"), ("Expint", "expint"), ("FresnelCos", "fresnel_cos"),
                        ("FresnelSin", "fresnel_sin"), ("Spence", "spence"))},
    "ComplexParts": (_complex_chain, [_uniform(0.5, 2.0, 2, 3), _uniform(-2.0, -0.5, 3)]),
}
