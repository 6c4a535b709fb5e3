"""Numeric-gradient cases of the special math and manipulation ops, merged into
test_gradients.CASES (same format: name -> (function of the input tensors, input values[,
placeholder shapes])). RandomGamma's gradient is the implicit derivative of a sample, not a
finite difference of seeded draws: it equals TensorFlow's in test_random_sampling.py. Swish's
gradient is its IdentityN's override (CustomGradient-swish), covered by the Swish case."""

import numpy as np

import engine as tf

_RNG = np.random.RandomState(21)


def _uniform(low, high, *shape):
    return _RNG.uniform(low, high, size=shape)


def _sparse_matmul(values, b):
    sp = tf.SparseTensor([[0, 1], [1, 0], [1, 2], [2, 2]], values, [3, 3])
    return tf.sparse_tensor_dense_matmul(sp, b)


CASES = {
    "Lgamma": (lambda x: tf.lgamma(x), [_uniform(0.3, 4.0, 2, 3)]),
    "Digamma": (lambda x: tf.digamma(x), [_uniform(0.3, 4.0, 2, 3)]),
    "Polygamma": (lambda x: tf.math.polygamma(tf.constant(1.0, tf.float64), x),
                  [_uniform(0.5, 4.0, 2, 3)]),
    "Zeta": (lambda q: tf.math.zeta(tf.constant(3.0, tf.float64), q),
             [_uniform(0.5, 3.0, 2, 3)]),
    "Igamma": (lambda a, x: tf.igamma(a, x), [_uniform(0.5, 4.0, 2, 3),
                                              _uniform(0.2, 6.0, 2, 3)]),
    "Igammac": (lambda a, x: tf.igammac(a, x), [_uniform(0.5, 4.0, 3),
                                                _uniform(0.2, 6.0, 2, 3)]),
    "Betainc": (lambda x: tf.betainc(tf.constant(2.5, tf.float64),
                                     tf.constant(1.5, tf.float64), x),
                [_uniform(0.05, 0.95, 2, 3)]),
    "BesselI0e": (lambda x: tf.math.bessel_i0e(x), [_uniform(-9.0, 9.0, 2, 4)]),
    "BesselI1e": (lambda x: tf.math.bessel_i1e(x), [_uniform(-9.0, 9.0, 2, 4)]),
    "Xlogy": (lambda x, y: tf.math.xlogy(x, y), [_uniform(-2.0, 2.0, 2, 3),
                                                 _uniform(0.2, 3.0, 3)]),
    "Xdivy": (lambda x, y: tf.math.xdivy(x, y), [_uniform(-2.0, 2.0, 2, 3),
                                                 _uniform(0.5, 3.0, 2, 3)]),
    "Xlog1py": (lambda x, y: tf.math.xlog1py(x, y), [_uniform(-2.0, 2.0, 3),
                                                     _uniform(0.2, 3.0, 2, 3)]),
    "MulNoNan": (lambda x, y: tf.math.multiply_no_nan(x, y), [_uniform(-2.0, 2.0, 2, 3),
                                                              _uniform(0.2, 3.0, 2, 3)]),
    "MulNoNan_broadcast": (lambda x, y: tf.math.multiply_no_nan(x, y),
                           [_uniform(-2.0, 2.0, 2, 3), _uniform(0.2, 3.0, 3)]),
    "Roll": (lambda x: tf.roll(x, [1, -1], [0, 1]), [_uniform(-1.0, 1.0, 3, 4)]),
    "SparseTensorDenseMatMul": (_sparse_matmul, [_uniform(-1.0, 1.0, 4),
                                                 _uniform(-1.0, 1.0, 3, 2)]),
    "Swish": (lambda x: tf.nn.swish(x), [_uniform(-3.0, 3.0, 2, 3)]),
    "LogSigmoid": (lambda x: tf.log_sigmoid(x), [_uniform(-3.0, 3.0, 2, 3)]),
    "Erfinv": (lambda x: tf.math.erfinv(x), [_uniform(-0.95, 0.95, 2, 3)]),
    "Ndtri": (lambda x: tf.math.ndtri(x), [np.concatenate([_uniform(0.02, 0.98, 4),
                                                           [1e-3, 0.999]]).reshape(2, 3)]),
}
EXEMPT = {"RandomGamma", "CustomGradient-swish"}
