"""tf.math.erfinv and tf.math.ndtri (Erfinv, Ndtri and their gradients), built the same way by
real TensorFlow and the engine, in tests/engine/image_cases.py's form (`build(tf, x)`, x,
differentiable): values, the gradient of the outputs' sum of squares with respect to x, static
shapes, graph nodes, and the kernels' errors. tools/make_special_inverse_fixtures.py writes
TensorFlow's to tests/fixtures/special_inverse/; tests/engine/test_special_inverse.py compares
the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(11)
# 35 values: four 8-lane packets and a 3-value tail, which Eigen computes apart.
OPEN_UNIT = _R.uniform(-0.999, 0.999, (5, 7))
PROBABILITIES = np.concatenate([_R.uniform(0.01, 0.99, 20), np.exp(-_R.uniform(2.0, 70.0, 12)),
                                1.0 - np.exp(-_R.uniform(2.0, 15.0, 3))]).reshape(5, 7)
EDGES = np.array([-1.0, 1.0, 0.0, -0.0, 1.5, -2.0, np.nan, 1e-30, 0.5, 0.9999999], np.float64)

CASES = {
    "erfinv_float32": (lambda tf, x: tf.math.erfinv(x), OPEN_UNIT.astype(np.float32), True),
    "erfinv_float64": (lambda tf, x: tf.math.erfinv(x, name="inverse"), OPEN_UNIT, True),
    "erfinv_edges": (lambda tf, x: tf.math.erfinv(x), EDGES.astype(np.float32), False),
    "ndtri_float32": (lambda tf, x: tf.math.ndtri(x), PROBABILITIES.astype(np.float32), True),
    "ndtri_float64": (lambda tf, x: tf.math.ndtri(x), PROBABILITIES, True),
    "ndtri_edges": (lambda tf, x: tf.math.ndtri(x, name="quantile"), EDGES, False),
    # erfinv(erf(x)) and the quantile of the normal's cdf: both x again, near enough
    "round_trips": (lambda tf, x: (tf.math.erfinv(tf.math.erf(x)),
                                   tf.math.ndtri(0.5 * tf.math.erfc(-x / np.sqrt(2.0)))),
                    _R.uniform(-2.0, 2.0, 9).astype(np.float32), True),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


ERROR_CASES = {
    "erfinv_half": ("Erfinv", dict(x=np.float16([0.5, -0.25])), {}),
    "ndtri_half": ("Ndtri", dict(x=np.float16([0.5])), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


def type_error(tf):
    """What tf.math.erfinv says of an integer tensor (the OpDef's allowed types)."""
    with tf.Graph().as_default():
        try:
            tf.math.erfinv(tf.constant([1, 2]))
        except TypeError as error:
            return str(error)
    raise AssertionError("no error")
