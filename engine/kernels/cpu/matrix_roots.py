"""NumPy CPU kernels of MatrixSquareRoot and MatrixLogarithm: the principal square root and
logarithm of each square matrix, through its eigendecomposition in double precision (where
TensorFlow's Eigen goes through a Schur decomposition: the values agree to rounding)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


def _square_matrices(ctx, x):
    x = np.asarray(x)
    if x.ndim < 2:
        raise invalid(ctx, f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise invalid(ctx, "Input matrix must be square.")
    return x


def _eigen_function(x, function, real_result):
    """function applied to each matrix's eigenvalues: V f(w) V^-1, in complex128."""
    n = x.shape[-1]
    out = np.empty(x.shape, np.complex128)
    for index, matrix in enumerate(x.reshape(-1, n, n)):
        values, vectors = np.linalg.eig(matrix.astype(np.complex128))
        out.reshape(-1, n, n)[index] = (vectors * function(values)) @ np.linalg.inv(vectors)
    if real_result:
        return out.real
    return out


@register("MatrixSquareRoot")
def matrix_square_root(ctx, x):
    """The root whose eigenvalues have non-negative real parts; NaN where a real matrix has a
    negative real eigenvalue (no real root, as Eigen's real Schur method finds)."""
    x = _square_matrices(ctx, x)
    if x.size == 0:
        return x.copy()
    real = x.dtype.kind != "c"
    root = _eigen_function(x, np.sqrt, real)
    if real:
        n = x.shape[-1]
        for index, matrix in enumerate(x.reshape(-1, n, n)):
            values = np.linalg.eigvals(matrix.astype(np.float64))
            if np.any((values.real < 0) & (np.abs(values.imag) <= 1e-12 * np.abs(values.real))):
                root.reshape(-1, n, n)[index] = np.nan
    return root.astype(x.dtype)


@register("MatrixLogarithm")
def matrix_logarithm(ctx, x):
    x = _square_matrices(ctx, x)
    if x.size == 0:
        return x.copy()
    return _eigen_function(x, np.log, False).astype(x.dtype)
