"""NumPy CPU kernels: reductions (Sum, Mean, Max, ...), ArgMax/ArgMin, Cumsum, L2Loss.

Every kernel takes the array module as keyword `xp` (NumPy here): engine/kernels/cuda/reduce.py
registers the same kernels with xp=cupy, so both devices compute with one formula.
"""

import numpy as np

from engine.framework import op_families
from engine.kernels import register_table
from engine.kernels.common import check_axis, invalid, reduction_axes, shape_str
from engine.kernels.cpu import compiled_forms, eigen_float32, eigen_reduce


def _innermost(x, axis, keepdims, op):
    """A float32 Sum or Mean ("sum", "mean") over the innermost axes of a matrix of at least
    two rows in TensorFlow's bits (engine/kernels/cpu/eigen_reduce.py: Eigen's order of
    additions), compiled where engine/kernels/compiled/eigen_reduce_numba.py is loaded; else
    None (NumPy's pairwise sums serve)."""
    matrix = eigen_reduce.innermost(x, axis)
    if matrix is None:
        return None
    rows = x.reshape(matrix)
    module = compiled_forms.module("eigen_reduce", x.dtype, x.size)
    if module is not None and module.fits(op, matrix):
        values = module.reduce_rows(op, rows)
    else:
        values = eigen_reduce.row_sums(rows) if op == "sum" else eigen_reduce.row_means(rows)
    values.shape = _reduced_shape(x, axis, keepdims)  # (the array owning its memory: forwarding)
    return values


def _sum(x, axis, keepdims, xp):
    exact = _innermost(x, axis, keepdims, "sum") if xp is np else None
    if exact is None and xp is np:
        exact = _outer(x, axis, keepdims, "sum")
    if exact is not None:
        return exact
    return xp.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _outer(x, axis, keepdims, op):
    """A float32, float64 or float16 Sum or Mean ("sum", "mean") over leading or middle axes
    (float16's: Keras's GlobalAveragePooling2D under mixed_float16), the kept
    ones after them innermost (a bias's gradient through `x + b`, tf.nn.moments over N, H and
    W), in TensorFlow's bits (engine/kernels/cpu/eigen_reduce.outer_sums: Eigen's order of
    additions); compiled (engine/kernels/compiled/reduce_numba.py) for leading axes where it
    is loaded. None where the reduction is of another kind."""
    shape = eigen_reduce.outer(x, axis)
    if shape is None:
        return None
    outer_size, rows, inner = shape
    values = None
    if outer_size == 1:
        module = compiled_forms.module("reduce", x.dtype, x.size)
        if module is not None:
            lanes = eigen_reduce.lanes_of(x.dtype)
            split = inner - inner % lanes if rows >= 16 else 0
            values = module.leading_sum(x.reshape(rows, inner), 1, split)
    if values is None:
        values = eigen_reduce.outer_sums(x.reshape(shape))
    if op == "mean":
        with np.errstate(all="ignore"):
            # a division, as TensorFlow's MeanReducer; a denormal quotient flushed (FTZ)
            values = values / x.dtype.type(rows)
        # (a half quotient is a float32 one rounded to half: FTZ never sees a half denormal)
        tiny = np.abs(values) < np.finfo(x.dtype).tiny
        if x.dtype != np.float16 and tiny.any():
            values = np.where(tiny, np.copysign(x.dtype.type(0), values), values)
    return np.ascontiguousarray(values).reshape(_reduced_shape(x, axis, keepdims))


def _prod(x, axis, keepdims, xp):
    return xp.prod(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _identity_of(x, largest):
    if x.dtype.kind == "f":
        return x.dtype.type(np.inf if largest else -np.inf)
    if x.dtype.kind == "b":
        return largest
    info = np.iinfo(x.dtype)
    return info.max if largest else info.min


def _reduced_shape(x, axis, keepdims):
    return tuple(1 if a in axis else d for a, d in enumerate(x.shape)
                 if keepdims or a not in axis)


def _extreme(largest):
    name = "max" if largest else "min"

    def reduce(x, axis, keepdims, xp):
        if any(x.shape[a] == 0 for a in axis):
            # An empty reduction gives the type's far end, as Eigen's Max/MinReducer (CuPy's
            # max has no `initial`, so both devices fill it in).
            return xp.full(_reduced_shape(x, axis, keepdims), _identity_of(x, not largest),
                           x.dtype)
        return getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    reduce.__name__ = name
    return reduce


def _mean(x, axis, keepdims, xp):
    if x.dtype.kind in "iu":
        # Integer mean: the sum (wrapping in the type) divided with truncation toward zero.
        total = xp.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
        count = 1
        for a in axis:
            count *= x.shape[a]
        if count == 0:
            return xp.zeros_like(total)
        quotient = xp.abs(total) // count
        return xp.where(total < 0, -quotient, quotient).astype(x.dtype)
    exact = _innermost(x, axis, keepdims, "mean") if xp is np else None
    if exact is None and xp is np:
        exact = _outer(x, axis, keepdims, "mean")
    if exact is not None:
        return exact
    with np.errstate(all="ignore"):  # an empty mean is NaN, silently
        return xp.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _all(x, axis, keepdims, xp):
    return xp.all(x, axis=axis, keepdims=keepdims)


def _any(x, axis, keepdims, xp):
    return xp.any(x, axis=axis, keepdims=keepdims)


def _euclidean_norm(x, axis, keepdims, xp):
    """TensorFlow's EuclideanNormReducer: sqrt of the sum of x * conj(x), in x's type (an
    integer's root truncated)."""
    squares = x * xp.conj(x) if x.dtype.kind == "c" else xp.multiply(x, x, dtype=x.dtype)
    total = _sum(squares, axis, keepdims, xp)
    if x.dtype.kind in "iu":
        return xp.sqrt(total.astype(np.float64)).astype(x.dtype)
    return xp.sqrt(total)


REDUCTIONS = {"Sum": _sum, "Prod": _prod, "Max": _extreme(True), "Min": _extreme(False),
              "Mean": _mean, "All": _all, "Any": _any, "EuclideanNorm": _euclidean_norm}


def _reduction(fn):
    def kernel(ctx, x, reduction_indices, xp=np):
        axis = reduction_axes(ctx, reduction_indices, x.ndim)
        return fn(x, axis, ctx.attrs.get("keep_dims", False), xp)
    kernel.__name__ = fn.__name__.lstrip("_")
    return kernel


def _arg_reduction(pick, nan_fill):
    def kernel(ctx, x, dimension, xp=np):
        axis = check_axis(ctx, int(dimension), x.ndim)
        if x.shape[axis] == 0:
            raise invalid(ctx, f"Reduction axis {axis} is empty in shape {shape_str(x.shape)}")
        if x.dtype.kind == "f" and xp.isnan(x).any():
            # Eigen compares with < and >, so a NaN never wins: skip it as TensorFlow does.
            x = xp.where(xp.isnan(x), x.dtype.type(nan_fill), x)
        return getattr(xp, pick)(x, axis=axis).astype(
            ctx.attrs.get("output_type").as_numpy_dtype if "output_type" in ctx.attrs
            else np.int64)
    kernel.__name__ = pick
    return kernel


def _cumulative(accumulate, identity):
    def kernel(ctx, x, axis, xp=np):
        axis = check_axis(ctx, int(axis), x.ndim, "axis")
        exclusive, reverse = ctx.attrs.get("exclusive", False), ctx.attrs.get("reverse", False)
        if reverse:
            x = xp.flip(x, axis)
        result = getattr(xp, accumulate)(x, axis=axis, dtype=x.dtype)
        if exclusive and x.shape[axis]:
            # Shift by one along the axis, the identity coming in first.
            first_shape = x.shape[:axis] + (1,) + x.shape[axis + 1:]
            all_but_last = tuple(slice(0, -1) if a == axis else slice(None)
                                 for a in range(x.ndim))
            result = xp.concatenate([xp.full(first_shape, identity, result.dtype),
                                     result[all_but_last]], axis=axis)
        return xp.flip(result, axis) if reverse else result
    kernel.__name__ = accumulate
    return kernel


def _log_sum_exp(a, b, exp, log1p):
    """scan_ops.h's LogSumExp(a, b): max + log1p(exp(min - max)), the max itself where it is
    below the type's lowest (-inf). Eigen's min and max are std::min's and std::max's (a where
    either is NaN): a NaN input leaves the accumulated value as it was."""
    low, high = np.where(b < a, b, a), np.where(a < b, b, a)
    with np.errstate(all="ignore"):
        total = log1p(exp(low - high)) + high
    return np.where(high < np.finfo(high.dtype).min, high, total)


def _scalar_exp_log1p(dtype):
    """Eigen's scalar exp and log1p of `dtype`: glibc's expf and log1pf for float32."""
    if dtype == np.float32:
        return eigen_float32.scalar_exp, eigen_float32.scalar_log1p
    return np.exp, np.log1p


def cumulative_logsumexp(ctx, x, axis, xp=np):
    """CumulativeLogsumexp: Eigen's scan with LogSumExpReducer along `axis`, from -inf (the
    identity an exclusive scan starts from), reversed where `reverse` says."""
    if np.ndim(axis):
        raise invalid(ctx, f"ScanOp: axis must be a scalar, not {shape_str(np.shape(axis))}")
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise invalid(ctx, f"ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), "
                           f"but got {axis}")
    axis %= x.ndim
    exclusive, reverse = ctx.attrs.get("exclusive", False), ctx.attrs.get("reverse", False)
    work = np.float32 if x.dtype == np.float16 else x.dtype
    moved = np.moveaxis(np.asarray(x, work), axis, 0)
    if reverse:
        moved = moved[::-1]
    exp, log1p = _scalar_exp_log1p(np.dtype(work))
    out = np.empty_like(moved)
    accumulated = np.full(moved.shape[1:], -np.inf, work)
    for i in range(moved.shape[0]):
        if exclusive:
            out[i] = accumulated
            accumulated = _log_sum_exp(accumulated, moved[i], exp, log1p)
        else:
            accumulated = _log_sum_exp(accumulated, moved[i], exp, log1p)
            out[i] = accumulated
    if reverse:
        out = out[::-1]
    return np.ascontiguousarray(np.moveaxis(out, 0, axis)).astype(x.dtype, copy=False)


def l2_loss(ctx, t, xp=np):
    return (xp.sum(xp.square(t), dtype=t.dtype) / t.dtype.type(2)).astype(t.dtype)


KERNELS = {
    **{op: _reduction(REDUCTIONS[op]) for op in op_families.REDUCTIONS},
    "ArgMax": _arg_reduction("argmax", -np.inf), "ArgMin": _arg_reduction("argmin", np.inf),
    "Cumsum": _cumulative("cumsum", 0), "Cumprod": _cumulative("cumprod", 1),
    "L2Loss": l2_loss,
}
# Which inputs TensorFlow's GPU kernels take in host memory (the axes).
HOST_INPUTS = {**{op: (1,) for op in REDUCTIONS}, "ArgMax": (1,), "ArgMin": (1,),
               "Cumsum": (1,), "Cumprod": (1,)}

register_table(KERNELS)
register_table({"CumulativeLogsumexp": cumulative_logsumexp})  # (the CPU's alone: NumPy scans)
