"""NumPy CPU kernels of the linear-algebra ops: MatrixInverse, MatrixDeterminant, Cholesky,
Einsum, the diagonal ops (Diag, DiagPart, MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3)
and MatrixBandPart; batched over leading dimensions as TensorFlow's, with its error texts."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import threaded_matmul


def _square(ctx, x):
    x = np.asarray(x)
    if x.ndim < 2:
        raise invalid(ctx, f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise invalid(ctx, f"Input matrix must be square.")
    return x


@register("MatrixInverse")
def matrix_inverse(ctx, x):
    x = _square(ctx, x)
    if ctx.attr("adjoint", False):
        x = np.conj(np.swapaxes(x, -1, -2))
    if x.size == 0:
        return x.copy()
    try:
        inverse = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise invalid(ctx, "Input is not invertible.") from None
    if not np.all(np.isfinite(inverse)):
        raise invalid(ctx, "Input is not invertible.")
    return inverse.astype(x.dtype)


@register("MatrixDeterminant")
def matrix_determinant(ctx, x):
    x = _square(ctx, x)
    return np.asarray(np.linalg.det(x) if x.size else np.ones(x.shape[:-2]), x.dtype)


@register("Cholesky")
def cholesky(ctx, x):
    """Lower-triangular factor of each matrix; only the lower triangle is read (Eigen's LLT).
    A matrix that is not positive definite gives NaN below and on the diagonal, as
    TensorFlow 2.21's CPU kernel does (no error)."""
    x = _square(ctx, x)
    n = x.shape[-1]
    matrices = x.reshape((-1, n, n))
    out = np.zeros_like(matrices)
    for i, matrix in enumerate(matrices):
        lower = np.tril(matrix)
        try:
            out[i] = np.linalg.cholesky(lower + np.conj(np.tril(matrix, -1)).T)
        except np.linalg.LinAlgError:
            out[i] = np.where(np.tri(n, dtype=bool), np.nan, 0.0)
    return out.reshape(x.shape)


@register("Einsum")
def einsum(ctx, *inputs):
    equation = ctx.attr("equation")
    equation = equation.decode() if isinstance(equation, bytes) else equation
    arrays = [np.asarray(x) for x in inputs]
    result = _contraction(equation, *arrays) if len(arrays) == 2 else None
    if result is None:
        result = np.einsum(equation, *arrays)
    result = np.asarray(result, arrays[0].dtype)
    return result if result.flags.c_contiguous else result.copy(order="C")


def _contraction(equation, a, b):
    """A two-operand einsum as TensorFlow's Einsum kernel computes it: each operand's own
    summed labels reduced first, then both transposed to [batch, free, contracted] and
    multiplied as one batched product (BLAS), the product transposed to the output's order.
    np.einsum's own loops took 15 ms of a small Keras encoder's 38 (its attention's
    projections), against 1 ms this way. None where the equation has an ellipsis, no "->",
    a label repeated within an operand, or batch dimensions of different sizes (np.einsum
    serves)."""
    inputs, arrow, out = equation.replace(" ", "").partition("->")
    la, comma, lb = inputs.partition(",")
    if ("." in equation or not arrow or not comma or len(set(la)) != len(la)
            or len(set(lb)) != len(lb)
            or len(set(out)) != len(out) or len(la) != a.ndim or len(lb) != b.ndim
            or any(c not in la and c not in lb for c in out)):
        return None
    own_a = [c for c in la if c not in lb and c not in out]
    own_b = [c for c in lb if c not in la and c not in out]
    if own_a:
        a = a.sum(axis=tuple(la.index(c) for c in own_a))
        la = "".join(c for c in la if c not in own_a)
    if own_b:
        b = b.sum(axis=tuple(lb.index(c) for c in own_b))
        lb = "".join(c for c in lb if c not in own_b)
    size = {}
    for labels, array in ((la, a), (lb, b)):
        for c, n in zip(labels, array.shape):
            if size.setdefault(c, n) != n:
                return None
    batch = [c for c in out if c in la and c in lb]
    contracted = [c for c in la if c in lb and c not in out]
    free_a = [c for c in la if c not in lb]
    free_b = [c for c in lb if c not in la]

    def count(labels):
        return int(np.prod([size[c] for c in labels], dtype=np.int64))

    left = a.transpose([la.index(c) for c in batch + free_a + contracted]).reshape(
        count(batch), count(free_a), count(contracted))
    right = b.transpose([lb.index(c) for c in batch + contracted + free_b]).reshape(
        count(batch), count(contracted), count(free_b))
    product = threaded_matmul.batch_matmul(left, right).reshape(
        [size[c] for c in batch + free_a + free_b])
    order = batch + free_a + free_b
    return product.transpose([order.index(c) for c in out])


@register("Diag")
def diag(ctx, diagonal):
    diagonal = np.asarray(diagonal)
    if diagonal.ndim < 1:
        raise invalid(ctx, f"Input must be at least rank 1, got 0")
    flat = diagonal.reshape(-1)
    out = np.zeros((flat.size, flat.size), diagonal.dtype)
    out[np.arange(flat.size), np.arange(flat.size)] = flat
    return out.reshape(diagonal.shape + diagonal.shape)


@register("DiagPart")
def diag_part(ctx, x):
    x = np.asarray(x)
    half = x.ndim // 2
    if x.ndim % 2 or x.ndim == 0 or x.shape[:half] != x.shape[half:]:
        raise invalid(ctx, f"The input tensor must have even and equal-sized dimensions: "
                           f"{shape_str(x.shape)}")
    size = int(np.prod(x.shape[:half]))
    return x.reshape(size, size)[np.arange(size), np.arange(size)].reshape(x.shape[:half])


def _band(ctx, k):
    k = np.asarray(k).reshape(-1).tolist()
    lower, upper = (k[0], k[0]) if len(k) == 1 else (k[0], k[1])
    if lower > upper:
        raise invalid(ctx, f"lower_diag_index must not be larger than upper_diag_index: "
                           f"{lower} > {upper}")
    return int(lower), int(upper)


def _diag_len(rows, cols, d):
    return min(rows + min(0, d), cols - max(0, d))


def _offset(align, d, max_len, length):
    """Where diagonal d starts in its row of the packed form (TensorFlow's `align`)."""
    super_right = align in ("RIGHT_LEFT", "RIGHT_RIGHT")
    sub_right = align in ("LEFT_RIGHT", "RIGHT_RIGHT")
    right = super_right if d >= 0 else sub_right
    return max_len - length if right else 0


def _align(ctx):
    align = ctx.attr("align", "RIGHT_LEFT")
    return align.decode() if isinstance(align, bytes) else align


def _diagonals(ctx, rows, cols, lower, upper, max_len):
    """(row in the packed form, its slice there, the matrix's row and column indices) of each
    diagonal from `upper` down to `lower` of a rows x cols matrix that has any element."""
    align = _align(ctx)
    for row, d in enumerate(range(upper, lower - 1, -1)):
        length = _diag_len(rows, cols, d)
        if length <= 0:
            continue
        start = _offset(align, d, max_len, length)
        index = np.arange(length)
        yield row, slice(start, start + length), index - min(d, 0), index + max(d, 0)


@register("MatrixDiagV3")
def matrix_diag_v3(ctx, diagonal, k, num_rows, num_cols, padding_value):
    diagonal = np.asarray(diagonal)
    lower, upper = _band(ctx, k)
    if lower == upper:
        diagonal = diagonal[..., None, :]
    max_len = diagonal.shape[-1]
    min_rows, min_cols = max_len - min(upper, 0), max_len + max(lower, 0)
    rows, cols = int(num_rows), int(num_cols)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows < min_rows or cols < min_cols:
        raise invalid(ctx, f"The number of rows or columns is not consistent with the "
                           f"specified d_lower, d_upper, and diagonal.")
    batch = diagonal.shape[:-2]
    out = np.full(batch + (rows, cols), np.asarray(padding_value).item(), diagonal.dtype)
    for row, packed, i, j in _diagonals(ctx, rows, cols, lower, upper, max_len):
        out[..., i, j] = diagonal[..., row, packed]
    return out


@register("MatrixDiagPartV3")
def matrix_diag_part_v3(ctx, x, k, padding_value):
    x = np.asarray(x)
    lower, upper = _band(ctx, k)
    rows, cols = x.shape[-2], x.shape[-1]
    max_len = max(_diag_len(rows, cols, d) for d in range(lower, upper + 1))
    out = np.full(x.shape[:-2] + (upper - lower + 1, max(max_len, 0)),
                  np.asarray(padding_value).item(), x.dtype)
    for row, packed, i, j in _diagonals(ctx, rows, cols, lower, upper, max_len):
        out[..., row, packed] = x[..., i, j]
    return out[..., 0, :] if lower == upper else out


@register("MatrixSetDiagV3")
def matrix_set_diag_v3(ctx, x, diagonal, k):
    x, diagonal = np.array(x), np.asarray(diagonal)
    lower, upper = _band(ctx, k)
    if lower == upper:
        diagonal = diagonal[..., None, :]
    rows, cols = x.shape[-2], x.shape[-1]
    max_len = diagonal.shape[-1]
    for row, packed, i, j in _diagonals(ctx, rows, cols, lower, upper, max_len):
        x[..., i, j] = diagonal[..., row, packed]
    return x


@register("MatrixBandPart")
def matrix_band_part(ctx, x, num_lower, num_upper):
    x = np.asarray(x)
    lower, upper = int(num_lower), int(num_upper)
    rows, cols = x.shape[-2], x.shape[-1]
    if lower > rows:
        raise invalid(ctx, f"num_lower must be negative or less or equal to number of rows "
                           f"({rows}) got: {lower}")
    if upper > cols:
        raise invalid(ctx, f"num_upper must be negative or less or equal to number of "
                           f"columns ({cols}) got: {upper}")
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, np.zeros((), x.dtype))
