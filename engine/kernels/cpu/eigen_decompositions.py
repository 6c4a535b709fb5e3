"""NumPy CPU kernels of SelfAdjointEigV2 and Svd, with the signs TensorFlow's give.

An eigenvector or singular vector is defined up to its sign; TensorFlow's CPU kernels return
the one Eigen's algorithm arrives at, and programs print it (a PCA's projections, say). So
SelfAdjointEigV2 follows Eigen's SelfAdjointEigenSolver step by step (scaling, Householder
tridiagonalization, implicit symmetric QR steps with Wilkinson shifts and Givens rotations,
selection sort of the eigenvalues; Eigen/src/Eigenvalues/SelfAdjointEigenSolver.h), in the
input's precision. Svd (Eigen's BDCSVD, which for fewer than 16 columns is Eigen's JacobiSVD)
takes LAPACK's singular values and vectors, each pair of vectors signed as JacobiSVD signs
them where that is known (`_sign_like_eigen`), documented as the one place the engine may
print a singular vector of the opposite sign to TensorFlow's.
"""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.linalg_solvers import matrices

_MAX_ITERATIONS = 30  # Eigen's SelfAdjointEigenSolver::m_maxIterations, per row


def _hypot(x, y):
    """Eigen's numext::hypot: the larger magnitude times sqrt(1 + ratio**2)."""
    p, q = max(abs(x), abs(y)), min(abs(x), abs(y))
    if p == 0:
        return p
    ratio = q / p
    return p * np.sqrt(type(p)(1) + ratio * ratio)


def _givens(p, q):
    """Eigen's JacobiRotation::makeGivens for reals: (c, s)."""
    one = type(p)(1)
    if q == 0:
        return (-one if p < 0 else one), type(p)(0)
    if p == 0:
        return type(p)(0), (one if q < 0 else -one)
    if abs(p) > abs(q):
        t = q / p
        u = np.sqrt(one + t * t)
        if p < 0:
            u = -u
        c = one / u
        return c, -t * c
    t = p / q
    u = np.sqrt(one + t * t)
    if q < 0:
        u = -u
    s = -one / u
    return -t * s, s


def _dot(x, y):
    """x . y of two vectors, or each row of a matrix x with y: the products rounded, then
    NumPy's own summation (in order under eight terms, pairwise over more). Not BLAS: its
    sdot and sgemv sum in an order of the kernel the CPU chose (OpenBLAS's Haswell and
    SkylakeX kernels round a PCA's 4x4 covariance's small eigenvalues apart, 0.01001333
    against 0.01001286), so the values here do not change with the machine."""
    return np.add.reduce(x * y, axis=-1)


def _tridiagonalize(mat):
    """Eigen's tridiagonalization_inplace on the lower triangle of `mat` (changed in place):
    (diagonal, subdiagonal, the Householder vectors and coefficients)."""
    n = mat.shape[0]
    dtype = mat.dtype.type
    tol = np.finfo(mat.dtype).tiny
    vectors, taus = [], []
    for i in range(n - 1):
        column = mat[i + 1:, i].copy()
        c0, tail = column[0], column[1:]
        tail_norm2 = _dot(tail, tail) if tail.size else dtype(0)
        if tail_norm2 <= tol:
            tau, beta, essential = dtype(0), c0, np.zeros_like(tail)
        else:
            beta = np.sqrt(c0 * c0 + tail_norm2)
            if c0 >= 0:
                beta = -beta
            essential = tail / (c0 - beta)
            tau = (beta - c0) / beta
        v = np.concatenate([[dtype(1)], essential]).astype(mat.dtype)
        corner = mat[i + 1:, i + 1:]
        symmetric = np.tril(corner) + np.tril(corner, -1).T
        h = _dot(symmetric, tau * v)
        h = h + (tau * dtype(-0.5) * _dot(h, v)) * v
        updated = symmetric - (np.outer(v, h) + np.outer(h, v))
        mat[i + 1:, i + 1:] = np.tril(updated) + np.triu(corner, 1)
        mat[i + 1, i] = beta
        mat[i + 2:, i] = essential
        vectors.append(v)
        taus.append(tau)
    diagonal = np.diagonal(mat).copy()
    subdiagonal = np.array([mat[i + 1, i] for i in range(n - 1)], mat.dtype)
    return diagonal, subdiagonal, vectors, taus


def _householder_q(n, vectors, taus, dtype):
    """The product of the reflectors I - tau v v' (reflector i acting on rows i+1 on)."""
    q = np.eye(n, dtype=dtype)
    for i in range(len(vectors) - 1, -1, -1):
        v, tau = vectors[i], taus[i]
        block = q[i + 1:, i + 1:]
        q[i + 1:, i + 1:] = block - tau * np.outer(v, _dot(block.T, v))
    return q


def _qr_step(diag, subdiag, start, end, q):
    """Eigen's tridiagonal_qr_step: one Francis step with a Wilkinson shift on rows
    start..end, the rotations applied to the columns of q (when given)."""
    dtype = diag.dtype.type
    td = (diag[end - 1] - diag[end]) * dtype(0.5)
    e = subdiag[end - 1]
    mu = diag[end]
    if td == 0:
        mu -= abs(e)
    elif e != 0:
        e2 = e * e
        h = _hypot(td, e)
        if e2 == 0:
            mu -= e / ((td + (h if td > 0 else -h)) / e)
        else:
            mu -= e2 / (td + (h if td > 0 else -h))
    x, z = diag[start] - mu, subdiag[start]
    k = start
    while k < end and z != 0:
        c, s = _givens(x, z)
        sdk = s * diag[k] + c * subdiag[k]
        dkp1 = s * subdiag[k] + c * diag[k + 1]
        diag[k] = (c * (c * diag[k] - s * subdiag[k])
                   - s * (c * subdiag[k] - s * diag[k + 1]))
        diag[k + 1] = s * sdk + c * dkp1
        subdiag[k] = c * sdk - s * dkp1
        if k > start:
            subdiag[k - 1] = c * subdiag[k - 1] - s * z
        x = subdiag[k]
        if k < end - 1:
            z = -s * subdiag[k + 1]
            subdiag[k + 1] = c * subdiag[k + 1]
        if q is not None:  # Q = Q * G, G's transpose applied to columns k and k + 1
            left, right = q[:, k].copy(), q[:, k + 1].copy()
            q[:, k] = c * left - s * right
            q[:, k + 1] = s * left + c * right
        k += 1


def self_adjoint_eigen(matrix, compute_vectors):
    """(eigenvalues ascending, eigenvectors as columns or None) of the symmetric matrix whose
    lower triangle `matrix` holds, as Eigen's SelfAdjointEigenSolver computes them."""
    n = matrix.shape[0]
    dtype = matrix.dtype.type
    if n == 1:
        return matrix[0].copy(), np.ones((1, 1), matrix.dtype)
    mat = np.tril(matrix).astype(matrix.dtype)
    scale = np.abs(mat).max()
    if scale == 0:
        scale = dtype(1)
    mat = np.tril(mat / scale) + np.triu(mat, 1)
    diag, subdiag, vectors, taus = _tridiagonalize(mat)
    q = _householder_q(n, vectors, taus, matrix.dtype) if compute_vectors else None
    tiny, precision_inv = np.finfo(matrix.dtype).tiny, dtype(1) / np.finfo(matrix.dtype).eps
    end, start, iterations = n - 1, 0, 0
    while end > 0:
        for i in range(start, end):
            if abs(subdiag[i]) < tiny:
                subdiag[i] = 0
            else:
                scaled = precision_inv * subdiag[i]
                if scaled * scaled <= abs(diag[i]) + abs(diag[i + 1]):
                    subdiag[i] = 0
        while end > 0 and subdiag[end - 1] == 0:
            end -= 1
        if end <= 0:
            break
        iterations += 1
        if iterations > _MAX_ITERATIONS * n:
            return None  # no convergence
        start = end - 1
        while start > 0 and subdiag[start - 1] != 0:
            start -= 1
        _qr_step(diag, subdiag, start, end, q)
    for i in range(n - 1):  # Eigen's selection sort, swapping the vectors along
        k = int(np.argmin(diag[i:]))
        if k > 0:
            diag[[i, i + k]] = diag[[i + k, i]]
            if q is not None:
                q[:, [i, i + k]] = q[:, [i + k, i]]
    return diag * scale, q


@register("SelfAdjointEigV2")
def self_adjoint_eig_v2(ctx, x):
    (x,) = matrices(ctx, x)
    if x.shape[-1] != x.shape[-2]:
        raise invalid(ctx, "Input matrix must be square.")
    compute_v = ctx.attr("compute_v", True)
    n = x.shape[-1]
    values = np.zeros(x.shape[:-1], x.dtype)
    vectors = np.zeros(x.shape if compute_v else (0,), x.dtype)
    for index in np.ndindex(x.shape[:-2]):
        if n == 0:
            continue
        result = self_adjoint_eigen(x[index], compute_v)
        if result is None:  # Eigen did not converge: TensorFlow fills NaN
            values[index] = np.nan
            if compute_v:
                vectors[index] = np.nan
            continue
        values[index] = result[0]
        if compute_v:
            vectors[index] = result[1]
    return values, vectors


def _sign_like_eigen(u, v):
    """Singular vector pairs signed as Eigen's JacobiSVD leaves them, where LAPACK's may
    differ: the largest-magnitude entry of each right singular vector positive."""
    columns = np.arange(v.shape[-1])
    flip = np.sign(v[np.argmax(np.abs(v), axis=0), columns])
    flip[flip == 0] = 1
    return u * flip, v * flip


@register("Svd")
def svd(ctx, x):
    (x,) = matrices(ctx, x)
    compute_uv, full = ctx.attr("compute_uv", True), ctx.attr("full_matrices", False)
    rows, cols = x.shape[-2:]
    p = min(rows, cols)
    s = np.zeros(x.shape[:-2] + (p,), x.dtype)
    if not compute_uv:
        if x.size:
            s[...] = np.linalg.svd(x, compute_uv=False)
        return s, np.zeros((0,), x.dtype), np.zeros((0,), x.dtype)
    u_cols, v_cols = (rows, cols) if full else (p, p)
    u = np.zeros(x.shape[:-2] + (rows, u_cols), x.dtype)
    v = np.zeros(x.shape[:-2] + (cols, v_cols), x.dtype)
    if x.size == 0:
        if full:
            u[...], v[...] = np.eye(rows, dtype=x.dtype), np.eye(cols, dtype=x.dtype)
        return s, u, v
    for index in np.ndindex(x.shape[:-2]):
        left, values, right_h = np.linalg.svd(x[index], full_matrices=full)
        right = right_h.conj().T
        left[:, :p], right[:, :p] = _sign_like_eigen(left[:, :p], right[:, :p])
        s[index], u[index], v[index] = values, left, right
    return s, u, v
