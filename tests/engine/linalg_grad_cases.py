"""Numeric-gradient cases for the linear-algebra family, merged into test_gradients.CASES
(same format: name -> (function of the input tensors, input values[, placeholder shapes]))."""

import numpy as np

import engine as tf

_RNG = np.random.RandomState(32)


def _rand(*shape):
    return _RNG.uniform(-1.0, 1.0, size=shape)


def _well_conditioned(n):
    return _rand(n, n) + 3.0 * np.eye(n)


def _spd(n):
    m = _rand(n, n)
    return m @ m.T + n * np.eye(n)


def _symmetric_apart(n):
    """A symmetric matrix with well separated eigenvalues (the gradient divides by gaps)."""
    q, _ = np.linalg.qr(_rand(n, n))
    return q @ np.diag(np.arange(1.0, n + 1.0) * 1.5) @ q.T


def _spread_singular_values(rows, cols):
    u, _ = np.linalg.qr(_rand(rows, rows))
    v, _ = np.linalg.qr(_rand(cols, cols))
    s = np.zeros((rows, cols))
    s[np.arange(min(rows, cols)), np.arange(min(rows, cols))] = 3.0 - np.arange(min(rows, cols))
    return u @ s @ v.T


def _symmetrised(f):
    """f of the symmetric matrix whose lower triangle x holds (the ops read only that)."""
    return lambda x: f(tf.matrix_band_part(x, -1, 0) + tf.matrix_transpose(
        tf.matrix_band_part(x, -1, 0)) - tf.matrix_diag(tf.matrix_diag_part(x)))


CASES = {
    "Cross": (lambda u, v: tf.cross(u, v), [_rand(2, 3), _rand(2, 3)]),
    "MatrixSolve": (lambda a, b: tf.matrix_solve(a, b), [_well_conditioned(3), _rand(3, 2)]),
    "MatrixSolve_adjoint": (lambda a, b: tf.matrix_solve(a, b, adjoint=True),
                            [_well_conditioned(3), _rand(3, 2)]),
    "MatrixTriangularSolve": (lambda a, b: tf.matrix_triangular_solve(a, b),
                              [_well_conditioned(3), _rand(3, 2)]),
    "MatrixTriangularSolve_upper_adjoint": (
        lambda a, b: tf.matrix_triangular_solve(a, b, lower=False, adjoint=True),
        [_well_conditioned(3), _rand(3, 2)]),
    "LogMatrixDeterminant": (lambda a: tf.linalg.slogdet(a)[1],
                             [np.stack([_well_conditioned(3), -_well_conditioned(3)])]),
    "Cholesky": (_symmetrised(tf.cholesky), [_spd(3)]),
    "Qr": (lambda a: sum(tf.reduce_sum(t * w) for t, w in zip(tf.qr(a), (0.7, 1.3))),
           [_rand(4, 3)]),
    "Qr_wide": (lambda a: sum(tf.reduce_sum(t * w) for t, w in zip(tf.qr(a), (0.7, 1.3))),
                [_rand(2, 3)]),
    "SelfAdjointEigV2": (_symmetrised(lambda a: tf.self_adjoint_eig(a)[0]),
                         [_symmetric_apart(3)]),
    "SelfAdjointEigV2_vectors": (
        _symmetrised(lambda a: tf.abs(tf.self_adjoint_eig(a)[1])), [_symmetric_apart(3)]),
    "Svd_values": (lambda a: tf.svd(a, compute_uv=False), [_spread_singular_values(4, 3)]),
    "Svd_vectors": (lambda a: sum(tf.reduce_sum(tf.abs(t)) for t in tf.svd(a)),
                    [_spread_singular_values(3, 4)]),
    "MatrixSolveLs": (lambda a, b: tf.matrix_solve_ls(a, b, fast=True, l2_regularizer=0.1),
                      [_rand(5, 3), _rand(5, 2)]),
    "MatrixSolveLs_op": (lambda a, b: tf.linalg.lstsq(tf.tile(a, [300, 1, 1]), tf.tile(b, [300, 1, 1])),
                         [_rand(1, 12, 12) + 4 * np.eye(12), _rand(1, 12, 1)]),
    "Einsum": (lambda a, b, c: tf.einsum("ij,jk,kl->il", a, b, c),
               [_rand(2, 3), _rand(3, 4), _rand(4, 2)]),
    "Einsum_reduce": (lambda a: tf.einsum("ijk->j", a), [_rand(2, 3, 4)]),
    "MatrixSquareRoot": (lambda a: tf.linalg.sqrtm(a), [_well_conditioned(3)]),
    "TridiagonalMatMul": (lambda d, r: tf.linalg.tridiagonal_matmul(d, r),
                          [_rand(2, 3, 4), _rand(2, 4, 3)]),
    "TridiagonalSolve": (lambda d, r: tf.linalg.tridiagonal_solve(d, r),
                         [_rand(3, 4) + np.array([[0.0], [3.0], [0.0]]), _rand(4, 2)]),
    "Einsum_ellipsis": (lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
                        [_rand(2, 2, 3), _rand(1, 3, 2)]),
}
