"""NumPy CPU kernels: shapes and array manipulation (Reshape, ConcatV2, StridedSlice, ...)."""

import numpy as np

from engine.kernels import register, register_table
from engine.kernels.common import check_axis, datatype_string, invalid, shape_str
from engine.kernels.slicing import (SliceError, resolve_shrinks, slice_bounds,
                                    strided_slice_index)


def _out_type(ctx, default=np.int32):
    out_type = ctx.attrs.get("out_type")
    return out_type.as_numpy_dtype if out_type is not None else default


def identity(ctx, x):
    return x


register_table({op: identity for op in (
    "Identity", "StopGradient", "PreventGradient", "PlaceholderWithDefault", "Snapshot",
    "CheckNumerics", "EnsureShape")})
register_table({
    "NoOp": lambda ctx: None,
    "IdentityN": lambda ctx, *inputs: tuple(inputs),
    "Const": lambda ctx: ctx.attrs["value"],
    "ZerosLike": lambda ctx, x: np.zeros_like(x),
    "OnesLike": lambda ctx, x: np.ones_like(x),
    "Shape": lambda ctx, x: np.array(np.shape(x), _out_type(ctx)),
    "ShapeN": lambda ctx, *xs: tuple(np.array(np.shape(x), _out_type(ctx)) for x in xs),
    "Size": lambda ctx, x: np.array(np.size(x), _out_type(ctx)),
    "Rank": lambda ctx, x: np.array(np.ndim(x), np.int32),
    "Where": lambda ctx, x: np.argwhere(x).astype(np.int64),
    "InvertPermutation": lambda ctx, x: np.argsort(x).astype(x.dtype),
})


@register("Placeholder")
@register("PlaceholderV2")
def placeholder(ctx):
    dtype, shape = ctx.attrs["dtype"], ctx.attrs.get("shape")
    message = (f"You must feed a value for placeholder tensor '{ctx.name}' with dtype "
               f"{datatype_string(dtype)}")
    if shape is not None and shape.ndims is not None:
        message += " and shape [" + ",".join(
            "?" if d is None else str(d) for d in shape.as_list()) + "]"
    raise invalid(ctx, message)


@register("Reshape")
def reshape(ctx, tensor, shape):
    dims = np.asarray(shape).reshape(-1).tolist()
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1:
        raise invalid(ctx, f"Only one input size may be -1, not both {unknown[0]} and "
                           f"{unknown[1]}")
    for i, d in enumerate(dims):
        if d < -1:
            raise invalid(ctx, f"Size {i} must be non-negative, not {d}")
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    size = np.size(tensor)
    if unknown:
        if known == 0 or size % known:
            if known == 0 and size == 0:
                dims[unknown[0]] = 0
                return np.reshape(tensor, dims)
            raise invalid(ctx, f"Input to reshape is a tensor with {size} values, but the "
                               f"requested shape requires a multiple of {known}")
        dims[unknown[0]] = size // known
    elif known != size:
        raise invalid(ctx, f"Input to reshape is a tensor with {size} values, but the "
                           f"requested shape has {known}")
    return np.reshape(tensor, dims)


@register("Transpose")
def transpose(ctx, x, perm):
    perm = np.asarray(perm).reshape(-1).tolist()
    if len(perm) != np.ndim(x):
        raise invalid(ctx, f"transpose expects a vector of size {np.ndim(x)}. But input(1) "
                           f"is a vector of size {len(perm)}")
    for i in range(len(perm)):
        if i not in perm:
            raise invalid(ctx, f"{i} is missing from {{{','.join(map(str, perm))}}}.")
    return np.transpose(x, perm)


def _concat(ctx, values, axis):
    axis = int(axis)
    first = np.shape(values[0])
    ndims = len(first)
    if ndims == 0:
        raise invalid(ctx, "ConcatOp : Can't concatenate scalars (use tf.stack instead)")
    if not -ndims <= axis < ndims:
        raise invalid(ctx, f"ConcatOp : Expected concatenating dimensions in the range "
                           f"[{-ndims}, {ndims}), but got {axis}")
    axis %= ndims
    for i, value in enumerate(values[1:], 1):
        shape = np.shape(value)
        if len(shape) != ndims:
            raise invalid(ctx, f"ConcatOp : Ranks of all input tensors should match: "
                               f"shape[0] = {shape_str(first)} vs. shape[{i}] = "
                               f"{shape_str(shape)}")
        for d in range(ndims):
            if d != axis and shape[d] != first[d]:
                raise invalid(ctx, f"ConcatOp : Dimension {d} in both shapes must be equal: "
                                   f"shape[0] = {shape_str(first)} vs. shape[{i}] = "
                                   f"{shape_str(shape)}")
    return np.concatenate(values, axis=axis)


register_table({
    "ConcatV2": lambda ctx, *args: _concat(ctx, args[:-1], args[-1]),
    "Concat": lambda ctx, concat_dim, *values: _concat(ctx, values, concat_dim),
})


@register("Pack")
def pack(ctx, *values):
    first = np.shape(values[0])
    for i, value in enumerate(values[1:], 1):
        if np.shape(value) != first:
            raise invalid(ctx, f"Shapes of all inputs must match: values[0].shape = "
                               f"{shape_str(first)} != values[{i}].shape = "
                               f"{shape_str(np.shape(value))}")
    axis = ctx.attrs.get("axis", 0)
    return np.stack(values, axis=check_axis(ctx, axis, len(first) + 1, "axis"))


@register("Unpack")
def unpack(ctx, value):
    axis = check_axis(ctx, ctx.attrs.get("axis", 0), np.ndim(value), "axis")
    num = ctx.attrs.get("num")
    if num is not None and value.shape[axis] != num:
        raise invalid(ctx, f"Input shape axis {axis} must equal {num}, got shape "
                           f"{shape_str(value.shape)}")
    return tuple(np.moveaxis(value, axis, 0))


@register("Split")
def split(ctx, axis, value):
    num = ctx.attrs["num_split"]
    axis = check_axis(ctx, int(axis), np.ndim(value), "split dimension")
    size = value.shape[axis]
    if size % num:
        raise invalid(ctx, f"Number of ways to split should evenly divide the split "
                           f"dimension, but got split_dim {axis} (size = {size}) and "
                           f"num_split {num}")
    return tuple(np.split(value, num, axis=axis))


@register("SplitV")
def split_v(ctx, value, size_splits, axis):
    axis = check_axis(ctx, int(axis), np.ndim(value), "split dimension")
    sizes = np.asarray(size_splits).reshape(-1).tolist()
    total = value.shape[axis]
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if len(unknown) > 1:
        raise invalid(ctx, "There can only be one -1 in the input.")
    known = sum(s for s in sizes if s != -1)
    if unknown:
        sizes[unknown[0]] = total - known
    if sum(sizes) != total or any(s < 0 for s in sizes):
        raise invalid(ctx, f"Determined shape must either match input shape along "
                           f"split_dim exactly if fully specified, or be less than the size "
                           f"of the input along split_dim if not fully specified.  Got: "
                           f"{known}")
    return tuple(np.split(value, np.cumsum(sizes)[:-1], axis=axis))


@register("Slice")
def slice_(ctx, x, begin, size):
    try:
        begin, sizes = slice_bounds(np.shape(x), begin, size)
    except SliceError as error:
        raise invalid(ctx, str(error)) from None
    return x[tuple(slice(b, b + s) for b, s in zip(begin, sizes))]


@register("StridedSlice")
def strided_slice(ctx, x, begin, end, strides):
    attrs = ctx.attrs
    try:
        index = strided_slice_index(
            np.ndim(x), begin, end, strides, attrs.get("begin_mask", 0),
            attrs.get("end_mask", 0), attrs.get("ellipsis_mask", 0),
            attrs.get("new_axis_mask", 0), attrs.get("shrink_axis_mask", 0))
        index = resolve_shrinks(index, np.shape(x))
    except SliceError as error:
        raise invalid(ctx, str(error)) from None
    return np.asarray(x)[index]


@register("Squeeze")
def squeeze(ctx, x):
    dims = ctx.attrs.get("squeeze_dims") or []
    if not dims:
        return np.reshape(x, [d for d in np.shape(x) if d != 1])
    axes = set()
    for d in dims:
        axis = check_axis(ctx, d, np.ndim(x), "squeeze dimension")
        if x.shape[axis] != 1:
            raise invalid(ctx, f"Can not squeeze dim[{axis}], expected a dimension of 1, "
                               f"got {x.shape[axis]}")
        axes.add(axis)
    return np.reshape(x, [d for i, d in enumerate(np.shape(x)) if i not in axes])


@register("ExpandDims")
def expand_dims(ctx, x, dim):
    ndims = np.ndim(x)
    axis = int(np.asarray(dim).reshape(-1)[0])
    if not -1 - ndims <= axis <= ndims:
        raise invalid(ctx, f"Tried to expand dim index {axis} for tensor with {ndims} "
                           f"dimensions.")
    return np.expand_dims(x, axis)


@register("Tile")
def tile(ctx, x, multiples):
    multiples = np.asarray(multiples).reshape(-1).tolist()
    if len(multiples) != np.ndim(x):
        raise invalid(ctx, f"Expected multiples argument to be a vector of length "
                           f"{np.ndim(x)} but got length {len(multiples)}")
    if any(m < 0 for m in multiples):
        raise invalid(ctx, f"Expected multiples[{min(multiples)}] >= 0, but got "
                           f"{min(multiples)}")
    return np.tile(x, multiples)


def _paddings(ctx, x, paddings):
    paddings = np.asarray(paddings)
    if paddings.shape != (np.ndim(x), 2):
        raise invalid(ctx, f"The first dimension of paddings must be the rank of inputs"
                           f"{shape_str(paddings.shape)}, {shape_str(np.shape(x))}")
    if (paddings < 0).any():
        raise invalid(ctx, f"Paddings must be non-negative: {paddings.min()} "
                           f"{paddings.max()}")
    return paddings.tolist()


register_table({
    "Pad": lambda ctx, x, paddings: np.pad(x, _paddings(ctx, x, paddings)),
    "PadV2": lambda ctx, x, paddings, constant: np.pad(
        x, _paddings(ctx, x, paddings), constant_values=constant),
    "MirrorPad": lambda ctx, x, paddings: np.pad(
        x, _paddings(ctx, x, paddings),
        mode="reflect" if ctx.attrs["mode"] == b"REFLECT" else "symmetric"),
})


@register("Fill")
def fill(ctx, dims, value):
    dims = np.asarray(dims).reshape(-1).tolist()
    if np.ndim(value) != 0:
        raise invalid(ctx, f"value must be a scalar, got shape {shape_str(np.shape(value))}")
    if any(d < 0 for d in dims):
        raise invalid(ctx, f"Dimension {min(dims)} must be >= 0")
    return np.full(dims, value, dtype=value.dtype)


@register("Range")
def range_(ctx, start, limit, delta):
    dtype = np.result_type(start)
    start, limit, delta = start.item(), limit.item(), delta.item()
    if delta == 0:
        raise invalid(ctx, f"Requires delta != 0: {delta}")
    if delta > 0 and start > limit:
        raise invalid(ctx, f"Requires start <= limit when delta > 0: {start}/{limit}")
    if delta < 0 and start < limit:
        raise invalid(ctx, f"Requires start >= limit when delta < 0: {start}/{limit}")
    if dtype.kind in "iu":
        return np.arange(start, limit, delta, dtype=dtype)
    size = int(np.ceil(abs((limit - start) / delta)))
    # TensorFlow accumulates (value += delta) in the output type; a sequential cumsum does too.
    steps = np.full(size, delta, dtype=dtype)
    if size:
        steps[0] = start
    return np.cumsum(steps, dtype=dtype)


def _index_error(ctx, indices, limit):
    bad = np.argwhere((indices < 0) | (indices >= limit))[0]
    position = ",".join(str(int(i)) for i in bad)
    raise invalid(ctx, f"indices[{position}] = {int(indices[tuple(bad)])} is not in "
                       f"[0, {limit})")


def _gather(ctx, params, indices, axis, batch_dims):
    ndims = np.ndim(params)
    axis = check_axis(ctx, int(axis), ndims, "axis")
    limit = params.shape[axis]
    if indices.size and (indices.min() < 0 or indices.max() >= limit):
        _index_error(ctx, indices, limit)
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    batch = params.shape[:batch_dims]
    flat_params = params.reshape((-1,) + params.shape[batch_dims:])
    flat_indices = indices.reshape((-1,) + indices.shape[batch_dims:])
    parts = [np.take(p, i, axis=axis - batch_dims) for p, i in zip(flat_params, flat_indices)]
    out_tail = params.shape[batch_dims:axis] + indices.shape[batch_dims:] + \
        params.shape[axis + 1:]
    return np.stack(parts).reshape(batch + out_tail) if parts else \
        np.empty(batch + out_tail, params.dtype)


@register("GatherV2")
def gather_v2(ctx, params, indices, axis):
    batch_dims = ctx.attrs.get("batch_dims", 0)
    if batch_dims < 0:
        batch_dims += np.ndim(indices)
    return _gather(ctx, params, indices, axis, batch_dims)


@register("Gather")
def gather(ctx, params, indices):
    return _gather(ctx, params, indices, 0, 0)


@register("OneHot")
def one_hot(ctx, indices, depth, on_value, off_value):
    depth = int(depth)
    if depth < 0:
        raise invalid(ctx, f"depth must be non-negative, got: {depth}")
    axis = ctx.attrs.get("axis", -1)
    hot = np.expand_dims(indices, -1) == np.arange(depth, dtype=indices.dtype)
    result = np.where(hot, on_value, off_value)
    if axis != -1:
        result = np.moveaxis(result, -1, axis)
    return result


@register("ReverseV2")
def reverse_v2(ctx, tensor, axis):
    axes = tuple(check_axis(ctx, int(a), np.ndim(tensor), "axis")
                 for a in np.asarray(axis).reshape(-1))
    return np.flip(tensor, axes) if axes else tensor


@register("BroadcastTo")
def broadcast_to(ctx, x, shape):
    target = tuple(np.asarray(shape).reshape(-1).tolist())
    try:
        return np.array(np.broadcast_to(x, target))
    except ValueError:
        raise invalid(ctx, f"Incompatible shapes: {shape_str(np.shape(x))} vs. "
                           f"{shape_str(target)}") from None


@register("BroadcastArgs")
def broadcast_args(ctx, s0, s1):
    try:
        return np.array(np.broadcast_shapes(tuple(s0.tolist()), tuple(s1.tolist())),
                        s0.dtype)
    except ValueError:
        raise invalid(ctx, f"Incompatible shapes: {shape_str(s0)} vs. "
                           f"{shape_str(s1)}") from None
