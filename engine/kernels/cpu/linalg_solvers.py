"""NumPy CPU kernels of the solvers: MatrixSolve, MatrixTriangularSolve, MatrixSolveLs,
LogMatrixDeterminant, Cross and Qr, batched over leading dimensions as TensorFlow's
LinearAlgebraOp kernels are, with their checks and error texts (linalg_ops_common.cc)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str


def matrices(ctx, *tensors):
    """TensorFlow's LinearAlgebraOp::AnalyzeInputs: each input of rank >= 2, all of one rank
    and one batch shape."""
    tensors = [np.asarray(t) for t in tensors]
    rank = tensors[0].ndim
    if rank < 2:
        raise invalid(ctx, f"Input tensor 0 must have rank >= 2, got {rank}")
    for t in tensors[1:]:
        if t.ndim != rank:
            raise invalid(ctx, "All input tensors must have the same rank.")
        if t.shape[:-2] != tensors[0].shape[:-2]:
            raise invalid(ctx, "All input tensors must have the same outer dimensions.")
    return tensors


def square_solver(ctx, matrix, rhs):
    """ValidateSquareSolver's checks of (matrix, rhs)."""
    if matrix.shape[-1] != matrix.shape[-2]:
        raise invalid(ctx, "First input (lhs) must be a square matrix.")
    if matrix.shape[-2] != rhs.shape[-2]:
        raise invalid(ctx, "Input matrix and rhs are incompatible.")


def adjoint(x):
    return np.conj(np.swapaxes(x, -1, -2))


@register("MatrixSolve")
def matrix_solve(ctx, matrix, rhs):
    """Eigen's PartialPivLU solve; an exactly zero pivot is TensorFlow's error."""
    matrix, rhs = matrices(ctx, matrix, rhs)
    square_solver(ctx, matrix, rhs)
    if ctx.attr("adjoint", False):
        matrix = adjoint(matrix)
    out = np.zeros(rhs.shape, rhs.dtype)
    if matrix.shape[-1] == 0 or rhs.shape[-1] == 0:
        return out
    try:
        return np.linalg.solve(matrix, rhs).astype(rhs.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise invalid(ctx, "Input matrix is not invertible.") from None


def triangular_solve(matrix, rhs, lower, conjugate_transpose):
    """Forward (lower) or back substitution, every column of rhs at once; a zero on the
    diagonal gives infinities and NaNs, as Eigen's triangular solve does."""
    if conjugate_transpose:
        matrix, lower = adjoint(matrix), not lower
    triangle = np.tril(matrix) if lower else np.triu(matrix)
    n = matrix.shape[-1]
    out = np.zeros(np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:],
                   np.result_type(matrix, rhs))
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(all="ignore"):
        for i in order:
            known = (slice(0, i) if lower else slice(i + 1, n))
            partial = np.einsum("...k,...kj->...j", triangle[..., i, known], out[..., known, :])
            out[..., i, :] = (rhs[..., i, :] - partial) / triangle[..., i, i][..., None]
    return out


@register("MatrixTriangularSolve")
def matrix_triangular_solve(ctx, matrix, rhs):
    matrix, rhs = np.asarray(matrix), np.asarray(rhs)
    if matrix.ndim < 2 or rhs.ndim < 2:
        raise invalid(ctx, f"In[{0 if matrix.ndim < 2 else 1}] ndims must be >= 2: "
                           f"{matrix.ndim if matrix.ndim < 2 else rhs.ndim}")
    if matrix.shape[-1] != matrix.shape[-2]:
        raise invalid(ctx, f"In[0] matrices in the last dimensions must be square "
                           f"({matrix.shape[-1]} =/= {matrix.shape[-2]})")
    try:
        np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    except ValueError:
        raise invalid(ctx, f"In[0] and In[1] must have compatible batch dimensions: "
                           f"{shape_str(matrix.shape)} vs. {shape_str(rhs.shape)}") from None
    if matrix.shape[-1] != rhs.shape[-2]:
        raise invalid(ctx, f"In[0] and In[1] mismatch inner dimensions: "
                           f"{shape_str(matrix.shape)} vs. {shape_str(rhs.shape)}")
    return triangular_solve(matrix, rhs, ctx.attr("lower", True), ctx.attr("adjoint", False))


@register("LogMatrixDeterminant")
def log_matrix_determinant(ctx, x):
    """(sign, log|det|) from the LU factors; a singular matrix gives (0, -inf)."""
    (x,) = matrices(ctx, x)
    if x.shape[-1] != x.shape[-2]:
        raise invalid(ctx, "Input matrix must be square.")
    if x.shape[-1] == 0:
        return np.ones(x.shape[:-2], x.dtype), np.zeros(x.shape[:-2], x.dtype)
    sign, log_abs = np.linalg.slogdet(x)
    return np.asarray(sign, x.dtype), np.asarray(log_abs, x.dtype)


def cholesky_solve(gramian, rhs):
    """Solves gramian @ x = rhs through its lower Cholesky factor (Eigen's LLT)."""
    chol = np.linalg.cholesky(gramian)
    return triangular_solve(chol, triangular_solve(chol, rhs, True, False), True, True)


@register("MatrixSolveLs")
def matrix_solve_ls(ctx, matrix, rhs, l2_regularizer):
    """fast: the regularised normal equations through Cholesky, of the first kind for a
    tall matrix, the second for a wide one; otherwise the minimum-norm least-squares
    solution (Eigen's CompleteOrthogonalDecomposition)."""
    matrix, rhs = matrices(ctx, matrix, rhs)
    if matrix.shape[-2] != rhs.shape[-2]:
        raise invalid(ctx, "Input matrix and rhs are incompatible.")
    l2 = float(np.asarray(l2_regularizer))
    rows, cols = matrix.shape[-2:]
    out = np.zeros(matrix.shape[:-2] + (cols, rhs.shape[-1]), matrix.dtype)
    if rows == 0 or cols == 0 or rhs.shape[-1] == 0:
        return out
    if not ctx.attr("fast", True):
        for index in np.ndindex(matrix.shape[:-2]):
            out[index] = np.linalg.lstsq(matrix[index], rhs[index], rcond=None)[0]
        return out
    with np.errstate(all="ignore"):
        if rows >= cols:
            gramian = adjoint(matrix) @ matrix + l2 * np.eye(cols, dtype=matrix.dtype)
            solved = _llt_solve(ctx, gramian, adjoint(matrix) @ rhs)
        else:
            gramian = matrix @ adjoint(matrix) + l2 * np.eye(rows, dtype=matrix.dtype)
            solved = adjoint(matrix) @ _llt_solve(ctx, gramian, rhs)
    return solved.astype(matrix.dtype, copy=False)


def _llt_solve(ctx, gramian, rhs):
    try:
        return cholesky_solve(gramian, rhs)
    except np.linalg.LinAlgError:
        raise invalid(ctx, "Input matrix was rank deficient or ill-conditioned. Try "
                           "setting fast=False or provide a larger l2_regularizer > 0.") \
            from None


@register("Cross")
def cross(ctx, a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise invalid(ctx, f"Both inputs must be of same shape: {shape_str(a.shape)} vs. "
                           f"{shape_str(b.shape)}")
    if a.ndim < 1:
        raise invalid(ctx, f"Input must be at least 1D{shape_str(a.shape)}")
    if a.shape[-1] != 3:
        raise invalid(ctx, f"Trailing dimension must be of size 3: {shape_str(a.shape)}")
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


@register("Qr")
def qr(ctx, x):
    """Householder QR (Eigen's HouseholderQR, LAPACK's geqrf: one sign convention, R's
    diagonal of the opposite sign to each column's leading element)."""
    (x,) = matrices(ctx, x)
    full = ctx.attr("full_matrices", False)
    rows, cols = x.shape[-2:]
    q_cols = rows if full else min(rows, cols)
    q = np.zeros(x.shape[:-2] + (rows, q_cols), x.dtype)
    r = np.zeros(x.shape[:-2] + (q_cols, cols), x.dtype)
    if x.size == 0:
        if full:
            q[...] = np.eye(rows, dtype=x.dtype)
        return q, r
    for index in np.ndindex(x.shape[:-2]):
        q[index], r[index] = np.linalg.qr(x[index], mode="complete" if full else "reduced")
    return q, r


@register("Lu")
def lu(ctx, x):
    """Eigen's PartialPivLU (unblocked): in each column the row of the largest |value| (the
    first of equals) swapped up, the column below divided by the pivot, the rank-1 update;
    (L below the unit diagonal and U in one matrix, the row order p with x[p] = L U). An
    exactly zero (or NaN) pivot is TensorFlow's error."""
    x = np.asarray(x)
    if x.ndim < 2:
        raise invalid(ctx, f"Input tensor must have rank >= 2, got {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise invalid(ctx, "Input matrix must be square.")
    n = x.shape[-1]
    index_type = ctx.attr("output_idx_type").as_numpy_dtype
    lu = x.reshape((-1, n, n)).copy()
    perm = np.tile(np.arange(n), (lu.shape[0], 1))
    rows = np.arange(lu.shape[0])
    with np.errstate(all="ignore"):
        for k in range(n):
            pivot = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
            lu[rows, [k], :], lu[rows, pivot, :] = lu[rows, pivot, :], lu[rows, [k], :]
            perm[rows, k], perm[rows, pivot] = perm[rows, pivot], perm[rows, k]
            head = lu[:, k, k]
            nonzero = head != 0
            lu[nonzero, k + 1:, k] /= head[nonzero, None]
            lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
        if n and not (np.abs(np.diagonal(lu, axis1=1, axis2=2)).min() > 0):
            raise invalid(ctx, "Input is not invertible.")
    return lu.reshape(x.shape), perm.reshape(x.shape[:-1]).astype(index_type)
