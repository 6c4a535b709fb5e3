"""tf.linalg.matvec, normalize, matrix_rank, sqrtm (tf.matrix_square_root), logm,
tridiagonal_matmul and tridiagonal_solve, built the same way by real TensorFlow and the engine,
in tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): values, the gradient
of the outputs' sum of squares with respect to x, static shapes and graph nodes; the kernels'
errors and the Python layer's. tools/make_small_linalg_fixtures.py writes TensorFlow's to
tests/fixtures/small_linalg/; tests/engine/test_small_linalg.py compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(23)


def _random(shape, dtype=np.float64, low=-1.0, high=1.0):
    return _R.uniform(low, high, shape).astype(dtype)


def _well_conditioned(batch, n, dtype=np.float64, shift=3.0):
    """Matrices with eigenvalues of positive real part (non-symmetric): a principal root."""
    return (_random(batch + [n, n]) * 0.6 + shift * np.eye(n)).astype(dtype)


def _diagonals(batch, m, dtype=np.float64):
    """[..., 3, m] diagonals of a diagonally dominant tridiagonal matrix."""
    diags = _random(batch + [3, m])
    diags[..., 1, :] += 4.0 * np.sign(diags[..., 1, :] + 1e-9)
    return diags.astype(dtype)


_PIVOTING = np.array([[1.0, 2.0, 3.0, 0.0], [0.5, 1e-3, -2.0, 1.0], [0.0, 4.0, 5.0, -1.5]])
_RHS = _random([4, 2])
_SPD = (lambda a: a @ a.T + 3 * np.eye(4))(_random([4, 4]))
_COMPLEX = (_well_conditioned([], 3) + 1j * _random([3, 3]) * 0.3).astype(np.complex128)

# The arrays the cases read, drawn once: a case is built more than once (values, graph).
_C0 = _random([2, 4, 3])
_C1 = _random([4, 3], np.float32)
_C2 = _random([3, 4])
_C3 = _random([2, 5], np.float32)
_C4 = _random([2, 3, 3])
_C5 = _random([4, 2])
_C6 = _random([2, 3])
_C7 = _random([4, 3])
_C8 = _random([2, 5])
_C9 = _diagonals([2], 4)
_C10 = _random([2, 4, 3])
_C11 = _random([5, 2])
_C12 = _random([3, 5])
_C13 = _random([4, 2], np.float32)
_C14 = _random([4, 4], np.float32)
_C15 = _random([1, 3], np.float32)
_C16 = _diagonals([2], 5)
_C17 = _random([2, 5, 3])
_C18 = _diagonals([], 4)
_C19 = _random([4])
_C20 = _diagonals([], 4)
_C21 = _random([2, 4])
_C22 = _diagonals([], 6, np.float32)
_C23 = _random([6, 2], np.float32)
_C24 = _diagonals([], 3)
_C25 = _random([3, 1])
_ALPHA = _random([6], low=-2.0, high=3.0)
_BETA = _random([5])
_ALPHA_LONG = _random([21])
_BETA_LONG = _random([20])

CASES = {
    "matvec": (lambda tf, x: tf.linalg.matvec(x, tf.constant([1.0, -2.0, 0.5], tf.float64)),
               _C0, True),
    "matvec_adjoint_named": (lambda tf, x: tf.linalg.matvec(x, tf.ones([4], tf.float32),
                                                            adjoint_a=True, name="mv"),
                             _C1, True),
    "normalize": (lambda tf, x: tf.linalg.normalize(x), _C2, True),
    "normalize_axis_ord1": (lambda tf, x: tf.linalg.normalize(x, ord=1, axis=-1),
                            _C3, True),
    "normalize_matrix_fro": (lambda tf, x: tf.linalg.normalize(x, ord="fro", axis=[-2, -1],
                                                               name="unit"),
                             _C4, True),
    "matrix_rank": (lambda tf, x: tf.linalg.matrix_rank(x),
                    np.stack([_C5 @ _C6, _C7,
                              np.zeros([4, 3])]), False),
    "matrix_rank_tol_float32": (lambda tf, x: tf.linalg.matrix_rank(x, tol=0.5),
                                np.diag([3.0, 1.0, 0.4, 0.01]).astype(np.float32), False),
    "matrix_rank_unknown_shape": (lambda tf, x: tf.linalg.matrix_rank(
                                      tf.placeholder_with_default(x, [None, None])),
                                  _C8 , False),
    "sqrtm": (lambda tf, x: tf.linalg.sqrtm(x), _well_conditioned([], 4), True),
    "sqrtm_batch_float32": (lambda tf, x: tf.matrix_square_root(x, name="root"),
                            _well_conditioned([2], 3, np.float32), True),
    "sqrtm_spd": (lambda tf, x: tf.linalg.sqrtm(x), _SPD, True),
    "logm": (lambda tf, x: tf.linalg.logm(x), _COMPLEX, False),
    "logm_complex64_batch": (lambda tf, x: tf.linalg.logm(x),
                             np.stack([_COMPLEX, _COMPLEX.T]).astype(np.complex64), False),
    "tridiagonal_matmul": (lambda tf, x: tf.linalg.tridiagonal_matmul(
                               tf.constant(_C9), x), _C10, True),
    "tridiagonal_matmul_sequence": (lambda tf, x: tf.linalg.tridiagonal_matmul(
                                        (x[0], x[1], x[2]), tf.constant(_C11),
                                        diagonals_format="sequence"),
                                    _C12, True),
    "tridiagonal_matmul_matrix": (lambda tf, x: tf.linalg.tridiagonal_matmul(
                                      x, tf.constant(_C13),
                                      diagonals_format="matrix", name="tmm"),
                                  _C14, True),
    "tridiagonal_matmul_one_row": (lambda tf, x: tf.linalg.tridiagonal_matmul(
                                       tf.constant([[2.0], [3.0], [4.0]]), x),
                                   _C15, True),
    "tridiagonal_solve": (lambda tf, x: tf.linalg.tridiagonal_solve(
                              tf.constant(_C16), x), _C17, True),
    "tridiagonal_solve_pivoting": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                       x, tf.constant(_RHS)), _PIVOTING, True),
    "tridiagonal_solve_thomas_vector": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                            tf.constant(_C18), x,
                                            partial_pivoting=False, name="thomas"),
                                        _C19, True),
    "tridiagonal_solve_sequence": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                       (x[0, :-1], x[1], x[2, 1:]), tf.constant(_RHS),
                                       diagonals_format="sequence"),
                                   _C20, True),
    "tridiagonal_solve_matrix_transpose": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                               x, tf.constant(_C21),
                                               diagonals_format="matrix",
                                               transpose_rhs=True),
                                           (np.diag([4.0, 5, 6, 7]) + np.diag([1.0, 2, 3], 1)
                                            + np.diag([-1.0, 0.5, 2], -1)), True),
    "tridiagonal_solve_float32": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                      tf.constant(_C22), x),
                                  _C23, True),
    "tridiagonal_solve_unknown": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                      tf.placeholder_with_default(_C24, None), x),
                                  _C25, True),
    # Eigenvalues of symmetric tridiagonal matrices: bisection, all, by index, by interval.
    "eigh_tridiagonal": (lambda tf, x: tf.linalg.eigh_tridiagonal(x, tf.constant(_BETA)),
                         _ALPHA, False),
    "eigh_tridiagonal_float32_index": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                           x, tf.constant(_BETA.astype(np.float32)),
                                           select="i", select_range=[1, 3], name="eig"),
                                       _ALPHA.astype(np.float32), False),
    "eigh_tridiagonal_interval": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                      x, tf.constant(_BETA), select="v",
                                      select_range=[-1.0, 2.0]), _ALPHA, False),
    "eigh_tridiagonal_vectors": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                     x, tf.constant(_BETA), eigvals_only=False),
                                 _ALPHA, False),
    "eigh_tridiagonal_vectors_clustered_float32": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                                       x, tf.constant(
                                                           [1e-4, 0.5, 1e-4, 1e-4], tf.float32),
                                                       eigvals_only=False, name="eigv"),
                                                   np.array([1.0, 1.0, 2.0, 1.0, 1.0],
                                                            np.float32), False),
    "eigh_tridiagonal_vectors_index": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                           x, tf.constant(_BETA_LONG), eigvals_only=False,
                                           select="i", select_range=[2, 5]),
                                       _ALPHA_LONG, False),
    "eigh_tridiagonal_long": (lambda tf, x: tf.linalg.eigh_tridiagonal(
                                  x, tf.constant(_BETA_LONG)), _ALPHA_LONG, False),
    # Stateless normals: TF's Philox stream from a scrambled seed.
    "stateless_normal": (lambda tf, x: tf.random.stateless_normal([3, 5], seed=[7, 42]) * x,
                         np.float32(1.5), False),
    "stateless_normal_float64_int64_seed": (lambda tf, x: tf.random.stateless_normal(
                                                tf.constant([2, 3]), tf.constant(
                                                    [-5, 2**40], tf.int64), mean=x,
                                                stddev=2.0, dtype=tf.float64, name="draw"),
                                            np.float64(0.5), False),
    # perturb_singular: tiny pivots nudged (TF's xLAGTF / xLAGTS), singular systems too.
    "tridiagonal_solve_perturb": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                      x, tf.constant(_C5), perturb_singular=True),
                                  _PIVOTING, True),
    "tridiagonal_solve_perturb_singular": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                               x, tf.ones([3, 2], tf.float64),
                                               perturb_singular=True),
                                           np.array([[1.0, 1.0, 0.0], [1.0, 2.0, 1.0],
                                                     [0.0, 1.0, 1.0]]), False),
    "tridiagonal_solve_perturb_float32_scalar": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                                     x, tf.ones([1, 2]), perturb_singular=True),
                                                 np.zeros([3, 1], np.float32), False),
    "tridiagonal_solve_perturb_shifted": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                              x - tf.constant([[0.0], [2.0], [0.0]],
                                                              tf.float64),
                                              tf.constant(_C11), perturb_singular=True),
                                          np.array([[1.0, 1.0, 1.0, 1.0, 0.0],
                                                    [2.0, 2.0, 2.0, 2.0, 2.0],
                                                    [0.0, 1.0, 1.0, 1.0, 1.0]]), False),
    # Singular systems: NaNs where elimination meets a zero pivot, no error.
    "tridiagonal_solve_singular": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                       x, tf.ones([3, 2], tf.float64)),
                                   np.array([[1.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 1.0]]),
                                   False),
    "tridiagonal_solve_singular_batch_thomas": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                                    x, tf.ones([2, 3, 1], tf.float64),
                                                    partial_pivoting=False),
                                                np.array([[[1.0, 1.0, 0.0], [1.0, 1.0, 1.0],
                                                           [0.0, 1.0, 1.0]],
                                                          [[1.0, 1.0, 0.0], [2.0, 2.0, 2.0],
                                                           [0.0, 1.0, 1.0]]]), False),
    "tridiagonal_solve_scalar_zero": (lambda tf, x: tf.linalg.tridiagonal_solve(
                                          x, tf.ones([1, 1], tf.float64),
                                          partial_pivoting=False), np.zeros([3, 1]), False),
}

# Graphs of a thousand nodes whose kind another case's node list already covers (the
# fixture keeps no node list for them).
NODES_NOT_KEPT = {"eigh_tridiagonal_long", "eigh_tridiagonal_interval",
                  "eigh_tridiagonal_vectors_clustered_float32", "eigh_tridiagonal_vectors_index"}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


ERROR_CASES = {
    "sqrtm_not_square": ("MatrixSquareRoot", dict(input=_random([2, 3])), {}),
    "solve_lhs_rhs": ("TridiagonalSolve", dict(diagonals=_diagonals([], 4),
                                               rhs=_random([3, 1])), {}),
    "solve_two_diagonals": ("TridiagonalSolve", dict(diagonals=_random([2, 4]),
                                                     rhs=_random([4, 1])), {}),
    "matmul_diagonal_shape": ("TridiagonalMatMul", dict(
        superdiag=_random([1, 3]), maindiag=_random([1, 4]), subdiag=_random([1, 4]),
        rhs=_random([4, 2])), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


PYTHON_ERRORS = {
    "matrix_rank_int": lambda tf: tf.linalg.matrix_rank(tf.constant([[1, 2], [3, 4]])),
    "matrix_rank_vector": lambda tf: tf.linalg.matrix_rank(tf.ones([3])),
    "sqrtm_not_square": lambda tf: tf.linalg.sqrtm(tf.ones([2, 3])),
    "logm_real": lambda tf: tf.linalg.logm(tf.ones([2, 2])),
    "tridiagonal_format": lambda tf: tf.linalg.tridiagonal_matmul(
        tf.ones([3, 4]), tf.ones([4, 1]), diagonals_format="dense"),
    "tridiagonal_solve_four_diagonals": lambda tf: tf.linalg.tridiagonal_solve(
        tf.ones([4, 4]), tf.ones([4, 1])),
    "tridiagonal_solve_rhs_rank": lambda tf: tf.linalg.tridiagonal_solve(
        tf.ones([2, 3, 4]), tf.ones([4])),
    "tridiagonal_solve_perturb": lambda tf: tf.linalg.tridiagonal_solve(
        tf.ones([3, 4]), tf.ones([4, 1]), partial_pivoting=False, perturb_singular=True),
    "tridiagonal_solve_sequence_length": lambda tf: tf.linalg.tridiagonal_solve(
        (tf.ones([2]), tf.ones([4]), tf.ones([3])), tf.ones([4, 1]),
        diagonals_format="sequence"),
    "eigh_tridiagonal_types": lambda tf: tf.linalg.eigh_tridiagonal(
        tf.ones([3]), tf.ones([2], tf.float64)),
    "eigh_tridiagonal_select": lambda tf: tf.linalg.eigh_tridiagonal(
        tf.ones([3]), tf.ones([2]), select="x"),
    "tridiagonal_matrix_not_square": lambda tf: tf.linalg.tridiagonal_matmul(
        tf.ones([3, 4]), tf.ones([4, 1]), diagonals_format="matrix"),
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
