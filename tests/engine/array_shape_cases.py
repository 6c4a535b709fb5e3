"""tf.sort, tf.argsort, tf.repeat, tf.ensure_shape, tf.parallel_stack, tf.fingerprint and the
other array and shape ops of this set, built the same way by real TensorFlow and the engine,
in tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): values, the gradient
of the outputs' sum of squares with respect to x, static shapes and graph nodes; the kernels'
errors and the Python layer's. tools/make_array_shape_fixtures.py writes TensorFlow's to
tests/fixtures/array_shape/; tests/engine/test_array_shape_ops.py compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(11)


def _random(shape, dtype=np.float32, low=-1.0, high=1.0):
    return _R.uniform(low, high, shape).astype(dtype)


def _ints(shape, low, high, dtype=np.int32):
    return _R.randint(low, high, shape).astype(dtype)


# Ties in every row, so that a sort's order of equal values shows.
_TIES = np.array([[3, 1, 2, 1, 3, 0], [2, 2, 2, 1, 1, 1], [0, -1, 0, -1, 5, 5]], np.float32)
_INT_EXTREMES = np.array([[2**31 - 1, -2**31, 0, -1, 7, -2**31, 2**31 - 1]], np.int32)


def _unknown(tf, x):
    return tf.placeholder_with_default(x, None)


CASES = {
    "sort": (lambda tf, x: tf.sort(x), _random([3, 5]), True),
    "sort_descending_axis0": (lambda tf, x: tf.sort(x, axis=0, direction="DESCENDING"),
                              _random([4, 3, 2]), True),
    "sort_axis1_of_3": (lambda tf, x: tf.sort(x, axis=1, name="sorted"), _random([2, 4, 3]),
                        True),
    "sort_ties_float64": (lambda tf, x: tf.sort(x), _TIES.astype(np.float64), True),
    "sort_int32_extremes": (lambda tf, x: (tf.sort(x), tf.sort(x, direction="DESCENDING")),
                            _INT_EXTREMES, False),
    "sort_uint8": (lambda tf, x: tf.sort(x), _ints([2, 6], 0, 256, np.uint8), False),
    "sort_int64_axis0": (lambda tf, x: tf.sort(x, axis=-2), _ints([5, 3], -9, 9, np.int64),
                         False),
    "sort_unknown_rank": (lambda tf, x: tf.sort(_unknown(tf, x), axis=0), _random([4, 3]),
                          True),
    "argsort": (lambda tf, x: tf.argsort(x), _TIES, False),
    "argsort_descending_stable": (lambda tf, x: tf.argsort(x, direction="DESCENDING",
                                                           stable=True), _TIES, False),
    "argsort_axis0": (lambda tf, x: tf.argsort(x, axis=0, name="order"),
                      _ints([4, 3], 0, 3, np.int32), False),
    "argsort_int_extremes": (lambda tf, x: tf.argsort(x), _INT_EXTREMES, False),
    "argsort_unknown_rank_axis0": (lambda tf, x: tf.argsort(_unknown(tf, x), axis=1),
                                   _random([2, 4, 3]), False),
    "repeat_scalar_axis1": (lambda tf, x: tf.repeat(x, 2, axis=1), _random([3, 4]), True),
    "repeat_counts_axis0": (lambda tf, x: tf.repeat(x, [1, 0, 3], axis=0), _random([3, 2]),
                            True),
    "repeat_counts_axis1": (lambda tf, x: tf.repeat(x, [2, 1, 0, 3], axis=-1, name="rep"),
                            _random([2, 4]), True),
    "repeat_flat": (lambda tf, x: tf.repeat(x, 3), _random([2, 2]), True),
    "repeat_scalar_input": (lambda tf, x: tf.repeat(x, 4), np.float32(2.5), True),
    "repeat_int64_counts": (lambda tf, x: tf.repeat(x, tf.constant([2, 1], tf.int64), axis=2),
                            _ints([2, 3, 2], 0, 9), False),
    "repeat_unknown_shape": (lambda tf, x: tf.repeat(
                                 tf.placeholder_with_default(x, [None, None]), [1, 2, 3],
                                 axis=0), _random([3, 2]), True),
    "repeat_counts_tensor": (lambda tf, x: tf.repeat(x, tf.placeholder_with_default(
                                 np.array([2, 0, 1], np.int32), [None]), axis=1),
                             _random([2, 3]), True),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


# Kernels that fail at run time: (raw op, inputs, attrs); the message is TensorFlow's.
ERROR_CASES = {
    "top_k_too_few": ("TopKV2", dict(input=_random([2, 3]), k=np.int32(4)), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


PYTHON_ERRORS = {
    "sort_direction": lambda tf: tf.sort(tf.ones([3]), direction="UP"),
    "sort_axis_tensor": lambda tf: tf.sort(tf.ones([3]), axis=tf.placeholder(tf.int32, [])),
    "repeat_axis_float": lambda tf: tf.repeat(tf.ones([3]), 2, axis=0.5),
    "repeat_axis_out_of_range": lambda tf: tf.repeat(tf.ones([3, 2]), 2, axis=2),
    "repeat_float_counts": lambda tf: tf.repeat(tf.ones([3]), [1.0, 2.0, 1.0]),
    "repeat_counts_mismatch": lambda tf: tf.repeat(tf.ones([3, 2]), [1, 2], axis=0),
}


def python_errors(tf):
    """{case: [error class, message]} of what each PYTHON_ERRORS call raises."""
    found = {}
    for name, call in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                call(tf)
            except (TypeError, ValueError) as error:
                found[name] = ["TypeError" if isinstance(error, TypeError) else "ValueError",
                               str(error)]
            else:
                found[name] = None
    return found
