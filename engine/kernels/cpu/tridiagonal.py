"""NumPy CPU kernels of TridiagonalMatMul and TridiagonalSolve: products and solves with
tridiagonal matrices given by their three diagonals, batched over the leading dimensions,
with TensorFlow's error texts."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid



class _Singular(Exception):
    """A zero pivot: TensorFlow's kernel gives the system's solution as NaNs."""


@register("TridiagonalMatMul")
def tridiagonal_mat_mul(ctx, superdiag, maindiag, subdiag, rhs):
    """rhs [..., M, N] multiplied by the matrix of diagonals [..., 1, M] each: row i is
    sub[i] * rhs[i-1] + main[i] * rhs[i] + super[i] * rhs[i+1], summed in that order."""
    m = rhs.shape[-2]
    for name, diagonal in (("superdiagonal", superdiag), ("main diagonal", maindiag),
                           ("subdiagonal", subdiag)):
        if diagonal.ndim < 2 or diagonal.shape[-2] != 1 or diagonal.shape[-1] != m:
            raise invalid(ctx, f"Invalid {name} shape.")
    sup = np.swapaxes(superdiag, -1, -2)
    main = np.swapaxes(maindiag, -1, -2)
    sub = np.swapaxes(subdiag, -1, -2)
    result = main * rhs
    if m > 1:
        result[..., 1:, :] = sub[..., 1:, :] * rhs[..., :-1, :] + result[..., 1:, :]
        result[..., :-1, :] = result[..., :-1, :] + sup[..., :-1, :] * rhs[..., 1:, :]
    return result


def _solve_pivoting(ctx, diags, rhs):
    """LAPACK's gtsv: Gaussian elimination with partial pivoting, then back substitution."""
    du, d, dl = (np.array(diags[k], dtype=rhs.dtype) for k in range(3))
    n = d.shape[0]
    b = np.array(rhs, copy=True)
    du2 = np.zeros_like(d)
    dl = np.concatenate([dl[1:], dl[:1] * 0])  # dl[i] multiplies x[i] in row i + 1
    for i in range(n - 1):
        if abs(d[i]) >= abs(dl[i]):
            if d[i] == 0:
                raise _Singular
            fact = dl[i] / d[i]
            d[i + 1] -= fact * du[i]
            b[i + 1] -= fact * b[i]
        else:
            fact = d[i] / dl[i]
            d[i] = dl[i]
            temp = d[i + 1]
            d[i + 1] = du[i] - fact * temp
            if i < n - 2:
                du2[i] = du[i + 1]
                du[i + 1] = -fact * du2[i]
            du[i] = temp
            b[i], b[i + 1] = b[i + 1].copy(), b[i] - fact * b[i + 1]
    if d[n - 1] == 0:
        raise _Singular
    x = np.empty_like(b)
    x[n - 1] = b[n - 1] / d[n - 1]
    if n > 1:
        x[n - 2] = (b[n - 2] - du[n - 2] * x[n - 1]) / d[n - 2]
    for i in range(n - 3, -1, -1):
        x[i] = (b[i] - du[i] * x[i + 1] - du2[i] * x[i + 2]) / d[i]
    return x


def _perturbed_pivot(perturb, pivot, row):
    """(pivot, row) with a tiny pivot nudged (by perturb, doubling) or scaled up until
    neither row / pivot nor 1 / pivot overflows: LAPACK xLAGTS's safeguard, as TensorFlow's
    kernel applies it."""
    finfo = np.finfo(row.dtype)
    one = finfo.dtype.type(1)
    small = one / finfo.max
    safemin = finfo.tiny if small < finfo.tiny else (one + finfo.eps) * small
    bignum = one / safemin
    abs_pivot = abs(pivot)
    if abs_pivot >= one:
        return pivot, row
    perturb = np.copysign(max(abs(perturb), safemin), pivot.real)
    largest = np.max(np.abs(row)) if row.size else finfo.dtype.type(0)
    while abs_pivot < one:
        if abs_pivot < safemin:
            if abs_pivot == 0 or largest * safemin > abs_pivot:
                pivot, perturb = pivot + perturb, perturb * 2
            else:
                return pivot * bignum, row * bignum
        elif largest > abs_pivot * bignum:
            pivot, perturb = pivot + perturb, perturb * 2
        else:
            break
        abs_pivot = abs(pivot)
    return pivot, row


def _solve_perturbing(ctx, diags, rhs):
    """Pivoted elimination that keeps going through a numerically singular matrix (xLAGTF,
    then xLAGTS's back substitution with tiny pivots perturbed by eps * max |U|): what
    inverse iteration solves with (T - lambda I)."""
    sup, diag, sub = (np.asarray(diags[k], dtype=rhs.dtype) for k in range(3))
    n = diag.shape[0]
    eps = np.finfo(rhs.dtype).eps
    one = rhs.dtype.type(1)
    x = np.array(rhs, copy=True)
    if n == 1:
        pivot, row = _perturbed_pivot(eps * abs(diag[0]), diag[0], x[0])
        return (row * (one / pivot))[None]
    u = np.zeros((n, 3), rhs.dtype)
    u[0, 0], u[0, 1] = diag[0], sup[0]
    max_abs_u = max(abs(u[0, 0]), abs(u[0, 1]))
    scale1 = abs(u[0, 0]) + abs(u[0, 1])
    for k in range(n - 1):
        u[k + 1, 0] = diag[k + 1]
        scale2 = abs(sub[k + 1]) + abs(u[k + 1, 0])
        if k < n - 2:
            scale2 += abs(sup[k + 1])
        if sub[k + 1] == 0:
            scale1 = scale2
            u[k + 1, 1] = sup[k + 1]
            u[k, 2] = 0
            x[k + 1] = rhs[k + 1]
        else:
            piv1 = 0 if u[k, 0] == 0 else abs(u[k, 0]) / scale1
            piv2 = abs(sub[k + 1]) / scale2
            if piv2 <= piv1:
                scale1 = scale2
                factor = sub[k + 1] / u[k, 0]
                u[k + 1, 0] = diag[k + 1] - factor * u[k, 1]
                u[k + 1, 1] = sup[k + 1]
                u[k, 2] = 0
                x[k + 1] = rhs[k + 1] - factor * x[k]
            else:
                factor = u[k, 0] / sub[k + 1]
                u[k, 0] = sub[k + 1]
                u[k + 1, 0] = u[k, 1] - factor * diag[k + 1]
                u[k, 1] = diag[k + 1]
                if k < n - 2:
                    u[k, 2] = sup[k + 1]
                    u[k + 1, 1] = -factor * sup[k + 1]
                x[k + 1] = x[k] - factor * rhs[k + 1]
                x[k] = rhs[k + 1]
        if k < n - 2:
            max_abs_u = max(max_abs_u, *np.abs(u[k]))
    max_abs_u = max(max_abs_u, abs(u[n - 1, 0]))
    tol = eps * max_abs_u
    pivot, row = _perturbed_pivot(tol, u[n - 1, 0], x[n - 1].copy())
    x[n - 1] = row * (one / pivot)
    pivot = u[n - 2, 0]
    pivot, row = _perturbed_pivot(np.copysign(tol, pivot.real), pivot,
                                  x[n - 2] - u[n - 2, 1] * x[n - 1])
    x[n - 2] = row * (one / pivot)
    for k in range(n - 3, -1, -1):
        pivot = u[k, 0]
        pivot, row = _perturbed_pivot(np.copysign(tol, pivot.real), pivot,
                                      x[k] - u[k, 1] * x[k + 1] - u[k, 2] * x[k + 2])
        x[k] = row * (one / pivot)
    return x


def _solve_thomas(ctx, diags, rhs):
    """The Thomas algorithm (no pivoting): a zero pivot is an error."""
    du, d, dl = (np.asarray(diags[k], dtype=rhs.dtype) for k in range(3))
    n = d.shape[0]
    if n == 1:
        if d[0] == 0:
            raise _Singular
        return rhs / d[0]
    u = np.empty(n, rhs.dtype)
    y = np.empty_like(rhs)
    if d[0] == 0:
        raise _Singular
    u[0] = du[0] / d[0]
    y[0] = rhs[0] / d[0]
    for i in range(1, n):
        denominator = d[i] - dl[i] * u[i - 1]
        if denominator == 0:
            raise _Singular
        u[i] = du[i] / denominator
        y[i] = (rhs[i] - dl[i] * y[i - 1]) / denominator
    for i in range(n - 2, -1, -1):
        y[i] -= u[i] * y[i + 1]
    return y


@register("TridiagonalSolve")
def tridiagonal_solve(ctx, diagonals, rhs):
    """x with A x = rhs for the matrix A of diagonals [..., 3, M] (superdiagonal, main
    diagonal, subdiagonal; the superdiagonal's last and the subdiagonal's first unused);
    NaNs for a system whose elimination meets a zero pivot, as TensorFlow's CPU kernel."""
    if diagonals.ndim < 2:
        raise invalid(ctx, f"Expected diagonals to have rank at least 2, got {diagonals.ndim}")
    if rhs.ndim != diagonals.ndim:
        raise invalid(ctx, f"Expected the rank of rhs to be {diagonals.ndim} or "
                           f"{diagonals.ndim - 1}, got {rhs.ndim}")
    if diagonals.shape[-2] != 3:
        raise invalid(ctx, "Expected diagonals to be provided as a matrix with 3 rows, got "
                           f"{diagonals.shape[-2]} rows.")
    if diagonals.shape[-1] != rhs.shape[-2]:
        raise invalid(ctx, "Expected the same number of left-hand sides and right-hand sides, "
                           f"got {diagonals.shape[-1]} and {rhs.shape[-2]}.")
    pivoting = bool(ctx.attr("partial_pivoting", True))
    if bool(ctx.attr("perturb_singular", False)):
        if not pivoting:
            raise invalid(ctx, "Setting perturb_singular requires also setting "
                               "partial_pivoting.")
        solve = _solve_perturbing
    else:
        solve = _solve_pivoting if pivoting else _solve_thomas
    batch = np.broadcast_shapes(diagonals.shape[:-2], rhs.shape[:-2])
    diagonals = np.broadcast_to(diagonals, batch + diagonals.shape[-2:])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    out = np.empty(rhs.shape, rhs.dtype)
    if rhs.shape[-2] == 0:
        return out
    flat_out = out.reshape(-1, *rhs.shape[-2:])
    for index, (diags, b) in enumerate(zip(diagonals.reshape(-1, *diagonals.shape[-2:]),
                                           rhs.reshape(-1, *rhs.shape[-2:]))):
        try:
            flat_out[index] = solve(ctx, diags, b)
        except _Singular:
            flat_out[index] = np.nan
    return out
