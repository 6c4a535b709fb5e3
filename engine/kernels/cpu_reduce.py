"""NumPy CPU kernels: reductions (Sum, Mean, Max, ...), ArgMax/ArgMin, Cumsum, L2Loss."""

import numpy as np

from engine.kernels import register, register_table
from engine.kernels.common import check_axis, invalid, reduction_axes, shape_str


def _sum(x, axis, keepdims):
    return np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _prod(x, axis, keepdims):
    return np.prod(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _identity_of(x, largest):
    if x.dtype.kind == "f":
        return x.dtype.type(np.inf if largest else -np.inf)
    if x.dtype.kind == "b":
        return largest
    info = np.iinfo(x.dtype)
    return info.max if largest else info.min


def _max(x, axis, keepdims):
    # An empty reduction gives the lowest value of the type, as Eigen's MaxReducer.
    return np.max(x, axis=axis, keepdims=keepdims, initial=_identity_of(x, False))


def _min(x, axis, keepdims):
    return np.min(x, axis=axis, keepdims=keepdims, initial=_identity_of(x, True))


def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":
        # Integer mean: the sum (wrapping in the type) divided with truncation toward zero.
        total = np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
        count = 1
        for a in axis:
            count *= x.shape[a]
        if count == 0:
            return np.zeros_like(total)
        quotient = np.abs(total) // count
        return np.where(total < 0, -quotient, quotient).astype(x.dtype)
    if x.size == 0 or any(x.shape[a] == 0 for a in axis):
        with np.errstate(all="ignore"):
            return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _all(x, axis, keepdims):
    return np.all(x, axis=axis, keepdims=keepdims)


def _any(x, axis, keepdims):
    return np.any(x, axis=axis, keepdims=keepdims)


REDUCTIONS = {"Sum": _sum, "Prod": _prod, "Max": _max, "Min": _min, "Mean": _mean,
              "All": _all, "Any": _any}


def _reduction(fn):
    def kernel(ctx, x, reduction_indices):
        axis = reduction_axes(ctx, reduction_indices, x.ndim)
        return fn(x, axis, ctx.attrs.get("keep_dims", False))
    kernel.__name__ = fn.__name__.lstrip("_")
    return kernel


register_table({op: _reduction(fn) for op, fn in REDUCTIONS.items()})


def _arg_reduction(pick, nan_fill):
    def kernel(ctx, x, dimension):
        axis = check_axis(ctx, int(dimension), x.ndim)
        if x.shape[axis] == 0:
            raise invalid(ctx, f"Reduction axis {axis} is empty in shape {shape_str(x.shape)}")
        if x.dtype.kind == "f" and np.isnan(x).any():
            # Eigen compares with < and >, so a NaN never wins: skip it as TensorFlow does.
            x = np.where(np.isnan(x), x.dtype.type(nan_fill), x)
        return pick(x, axis=axis).astype(ctx.attrs.get("output_type").as_numpy_dtype
                                         if "output_type" in ctx.attrs else np.int64)
    return kernel


register_table({"ArgMax": _arg_reduction(np.argmax, -np.inf),
                "ArgMin": _arg_reduction(np.argmin, np.inf)})


def _cumulative(accumulate, identity):
    def kernel(ctx, x, axis):
        axis = check_axis(ctx, int(axis), x.ndim, "axis")
        exclusive, reverse = ctx.attrs.get("exclusive", False), ctx.attrs.get("reverse", False)
        if reverse:
            x = np.flip(x, axis)
        result = accumulate(x, axis=axis, dtype=x.dtype)
        if exclusive:
            pad = [(0, 0)] * x.ndim
            pad[axis] = (1, 0)
            result = np.pad(result, pad, constant_values=identity)
            result = np.delete(result, -1, axis=axis) if x.shape[axis] else result[
                tuple(slice(0, 0) if a == axis else slice(None) for a in range(x.ndim))]
        return np.flip(result, axis) if reverse else result
    return kernel


register_table({"Cumsum": _cumulative(np.cumsum, 0), "Cumprod": _cumulative(np.cumprod, 1)})


@register("L2Loss")
def l2_loss(ctx, t):
    return (np.sum(np.square(t), dtype=t.dtype) / t.dtype.type(2)).astype(t.dtype)
