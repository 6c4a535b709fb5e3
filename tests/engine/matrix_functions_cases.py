"""tf.linalg.pinv, expm, lu, lu_solve, lu_matrix_inverse and lu_reconstruct, built the same way by real TensorFlow and the engine,
in tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): values, the
gradient of the outputs' sum of squares with respect to x, static shapes and graph nodes; the
Lu kernel's errors and the Python layer's. tools/make_matrix_functions_fixtures.py writes
TensorFlow's to tests/fixtures/matrix_functions/; tests/engine/test_matrix_functions.py
compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(5)


def _random(shape, dtype=np.float64, scale=1.0):
    return (_R.uniform(-1.0, 1.0, shape) * scale).astype(dtype)


# 1-norms spread over every branch of expm: Pade 3, 5, 7 (float32) or 3 ... 13 (float64), and
# matrices large enough to need squarings; one batch, each matrix taking its own branch.
_SCALES32 = np.array([0.05, 0.5, 3.0, 20.0]).reshape(4, 1, 1)
_SCALES64 = np.array([0.002, 0.05, 0.3, 1.0, 3.0, 40.0]).reshape(6, 1, 1)
_DEFICIENT = (_random([4, 2]) @ _random([2, 3])).astype(np.float32)   # rank 2
_A = _random([4, 4]) + 4 * np.eye(4)
_LU_A = np.array([[1., 2, 3], [4, 5, 6], [7, 8, 10.]])


def _lu_solve_batched(tf, x):
    lower_upper, perm = tf.linalg.lu(tf.constant(np.stack([_A, _A.T, _A @ _A])))
    return tf.linalg.lu_solve(lower_upper, perm, x)


def _lu_solve_unknown(tf, x):
    """Shapes unknown until run: validate_args adds TensorFlow's assertions."""
    lower_upper, perm = tf.linalg.lu(tf.constant(_A))
    return tf.linalg.lu_solve(tf.placeholder_with_default(lower_upper, None),
                              tf.placeholder_with_default(perm, None),
                              tf.placeholder_with_default(x, None), validate_args=True)


CASES = {
    "pinv_wide_batch": (lambda tf, x: tf.linalg.pinv(x), _random([2, 3, 4]), True),
    "pinv_tall_float32": (lambda tf, x: tf.linalg.pinv(x), _random([5, 3], np.float32), True),
    "pinv_rank_deficient": (lambda tf, x: tf.linalg.pinv(x), _DEFICIENT, False),
    "pinv_rcond_named": (lambda tf, x: tf.linalg.pinv(x, rcond=0.5, name="pseudo"),
                         _DEFICIENT.astype(np.float64), False),
    "pinv_unknown_shape": (lambda tf, x: tf.linalg.pinv(tf.placeholder_with_default(
                               x, [None, None])), _random([3, 2]), False),
    "expm_float32_branches": (lambda tf, x: tf.linalg.expm(x),
                              (_random([4, 3, 3]) * _SCALES32).astype(np.float32), True),
    "expm_float64_branches": (lambda tf, x: tf.linalg.expm(x, name="exp_of"),
                              _random([6, 4, 4]) * _SCALES64, True),
    "expm_unknown_shape": (lambda tf, x: tf.linalg.expm(tf.placeholder_with_default(x, None)),
                           _random([2, 1, 3, 3], scale=5.0), True),
    "expm_rotation": (lambda tf, x: tf.linalg.expm(x),
                      np.array([[0.0, 2.5], [-2.5, 0.0]], np.float32), True),
    "lu": (lambda tf, x: tf.linalg.lu(x), _LU_A.astype(np.float32), False),
    "lu_batch_int64": (lambda tf, x: tf.linalg.lu(x, output_idx_type=tf.int64),
                       _random([3, 5, 5]), False),
    "lu_solve": (lambda tf, x: tf.linalg.lu_solve(*tf.linalg.lu(tf.constant(_A)), x),
                 _random([4, 2]), True),
    "lu_solve_batched": (_lu_solve_batched, _random([3, 4, 2]), True),
    "pinv_validate_unknown_rank": (lambda tf, x: tf.linalg.pinv(
                                       tf.placeholder_with_default(x, None), validate_args=True),
                                   _random([3, 2]), False),
    "lu_solve_validate_unknown": (_lu_solve_unknown, _random([4, 2]), True),
    "lu_solve_validate_static": (lambda tf, x: tf.linalg.lu_solve(
                                     *tf.linalg.lu(tf.constant(_A)), x, validate_args=True),
                                 _random([4, 3]), True),
    "lu_matrix_inverse": (lambda tf, x: tf.linalg.lu_matrix_inverse(*tf.linalg.lu(x)),
                          _A, False),
    "lu_reconstruct": (lambda tf, x: tf.linalg.lu_reconstruct(*tf.linalg.lu(x)), _A.T, False),
    "lu_reconstruct_batch": (lambda tf, x: tf.linalg.lu_reconstruct(
                                 *tf.linalg.lu(x), name="again"),
                             np.stack([_A, _A.T @ _A]).astype(np.float32), False),
    "lu_solve_float32_named": (lambda tf, x: tf.linalg.lu_solve(
                                   *tf.linalg.lu(tf.constant(_LU_A.astype(np.float32))),
                                   x, name="solved"), _random([3, 3], np.float32), True),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


ERROR_CASES = {
    "lu_not_square": ("Lu", dict(input=np.ones((2, 3), np.float32)), {}),
    "lu_singular": ("Lu", dict(input=np.array([[1.0, 2.0], [2.0, 4.0]])), {}),
    "lu_zero": ("Lu", dict(input=np.zeros((2, 3, 3), np.float32)), {}),
    "lu_nan": ("Lu", dict(input=np.full((2, 2), np.nan, np.float32)), {}),
    "lu_vector": ("Lu", dict(input=np.ones(3, np.float32)), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


PYTHON_ERRORS = {
    "pinv_int": lambda tf: tf.linalg.pinv(tf.constant([[1, 2], [3, 4]])),
    "pinv_vector": lambda tf: tf.linalg.pinv(tf.constant([1.0, 2.0])),
    "expm_int": lambda tf: tf.linalg.expm(tf.constant([[1, 2], [3, 4]])),
    "lu_not_square": lambda tf: tf.linalg.lu(tf.ones([2, 3])),
    "lu_vector": lambda tf: tf.linalg.lu(tf.ones([3])),
    "lu_solve_rank": lambda tf: tf.linalg.lu_solve(tf.ones([3, 3]), tf.ones([2, 3], tf.int32),
                                                   tf.ones([3, 1])),
    "lu_solve_rhs_vector": lambda tf: tf.linalg.lu_solve(tf.ones([3, 3]),
                                                         tf.range(3), tf.ones([3])),
    "lu_solve_rhs_rows": lambda tf: tf.linalg.lu_solve(tf.ones([3, 3]), tf.range(3),
                                                       tf.ones([2, 1])),
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
