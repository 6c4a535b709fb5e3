"""NumPy CPU kernels: shapes and array manipulation (Reshape, ConcatV2, StridedSlice, ...)."""

import numpy as np

from engine.kernels import register, register_table
from engine.kernels.common import check_axis, datatype_string, invalid, shape_str, split_outputs
from engine.kernels.tensor_list import TensorList, zeros_like_list
from engine.kernels.slicing import (SliceError, resolve_shrinks, slice_bounds,
                                    strided_slice_index)


def out_dtype(ctx, default=np.int32):
    """The NumPy dtype of the op's `out_type` attr, or `default` when it has none."""
    out_type = ctx.attrs.get("out_type")
    return out_type.as_numpy_dtype if out_type is not None else default


def identity(ctx, x):
    return x


def identity_n(ctx, *inputs):
    """IdentityN: its inputs, one value (not a tuple of one) when it has one, as every kernel
    returns its single output (an inlined call's stand-in is usually of one output)."""
    return inputs[0] if len(inputs) == 1 else tuple(inputs)


register_table({op: identity for op in (
    "Identity", "StopGradient", "PreventGradient", "PlaceholderWithDefault")})
register_table({
    # TensorFlow's SnapshotOp copies (an input aliasing a variable is read now, not later).
    "Snapshot": lambda ctx, x: np.copy(x),
    "NoOp": lambda ctx: None,
    "IdentityN": identity_n,
    "Const": lambda ctx: ctx.attrs["value"],
    "ZerosLike": lambda ctx, x: zeros_like_list(x, np.zeros_like) if isinstance(x, TensorList)
    else np.zeros_like(x),
    "OnesLike": lambda ctx, x: np.ones_like(x),
    "Shape": lambda ctx, x: np.array(np.shape(x), out_dtype(ctx)),
    "ShapeN": lambda ctx, *xs: tuple(np.array(np.shape(x), out_dtype(ctx)) for x in xs),
    "Size": lambda ctx, x: np.array(np.size(x), out_dtype(ctx)),
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
    return np.reshape(tensor, reshape_dims(ctx, np.size(tensor), shape))


def reshape_dims(ctx, size, shape):
    """Reshape's target dims for an input of `size` values, -1 resolved, or TF's error."""
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
    if unknown:
        if known == 0 or size % known:
            if known == 0 and size == 0:
                dims[unknown[0]] = 0
                return dims
            raise invalid(ctx, f"Input to reshape is a tensor with {size} values, but the "
                               f"requested shape requires a multiple of {known}")
        dims[unknown[0]] = size // known
    elif known != size:
        raise invalid(ctx, f"Input to reshape is a tensor with {size} values, but the "
                           f"requested shape has {known}")
    return dims


@register("Transpose")
def transpose(ctx, x, perm):
    return np.transpose(x, transpose_perm(ctx, np.ndim(x), perm))


@register("ConjugateTranspose")
def conjugate_transpose(ctx, x, perm):
    """Transpose, then the complex conjugate (a real tensor's is itself)."""
    y = transpose(ctx, x, perm)
    return np.conj(y) if y.dtype.kind == "c" else y


def transpose_perm(ctx, ndims, perm):
    perm = np.asarray(perm).reshape(-1).tolist()
    if len(perm) != ndims:
        raise invalid(ctx, f"transpose expects a vector of size {ndims}. But input(1) "
                           f"is a vector of size {len(perm)}")
    for i in range(len(perm)):
        if i not in perm:
            raise invalid(ctx, f"{i} is missing from {{{','.join(map(str, perm))}}}.")
    return perm


def _concat(ctx, values, axis):
    return np.concatenate(values, axis=concat_axis(ctx, [np.shape(v) for v in values], axis))


def concat_axis(ctx, shapes, axis):
    """ConcatV2's axis made non-negative once the inputs' `shapes` are checked."""
    axis = int(axis)
    first = shapes[0]
    ndims = len(first)
    if ndims == 0:
        raise invalid(ctx, "ConcatOp : Can't concatenate scalars (use tf.stack instead)")
    if not -ndims <= axis < ndims:
        raise invalid(ctx, f"ConcatOp : Expected concatenating dimensions in the range "
                           f"[{-ndims}, {ndims}), but got {axis}")
    axis %= ndims
    for i, shape in enumerate(shapes[1:], 1):
        if len(shape) != ndims:
            raise invalid(ctx, f"ConcatOp : Ranks of all input tensors should match: "
                               f"shape[0] = {shape_str(first)} vs. shape[{i}] = "
                               f"{shape_str(shape)}")
        for d in range(ndims):
            if d != axis and shape[d] != first[d]:
                raise invalid(ctx, f"ConcatOp : Dimension {d} in both shapes must be equal: "
                                   f"shape[0] = {shape_str(first)} vs. shape[{i}] = "
                                   f"{shape_str(shape)}")
    return axis


register_table({
    "ConcatV2": lambda ctx, *args: _concat(ctx, args[:-1], args[-1]),
    "Concat": lambda ctx, concat_dim, *values: _concat(ctx, values, concat_dim),
})


@register("Pack")
def pack(ctx, *values):
    return np.stack(values, axis=pack_axis(ctx, [np.shape(v) for v in values]))


def pack_axis(ctx, shapes):
    first = shapes[0]
    for i, shape in enumerate(shapes[1:], 1):
        if shape != first:
            raise invalid(ctx, f"Shapes of all inputs must match: values[0].shape = "
                               f"{shape_str(first)} != values[{i}].shape = "
                               f"{shape_str(shape)}")
    axis = ctx.attrs.get("axis", 0)
    return check_axis(ctx, axis, len(first) + 1, "axis")


@register("Unpack")
def unpack(ctx, value):
    return split_outputs(np.moveaxis(value, unpack_axis(ctx, value.shape), 0))


def unpack_axis(ctx, shape):
    axis = check_axis(ctx, ctx.attrs.get("axis", 0), len(shape), "axis")
    num = ctx.attrs.get("num")
    if num is not None and shape[axis] != num:
        raise invalid(ctx, f"Input shape axis {axis} must equal {num}, got shape "
                           f"{shape_str(shape)}")
    return axis


@register("Split")
def split(ctx, axis, value):
    num = ctx.attrs["num_split"]
    return split_outputs(np.split(value, num, axis=split_axis(ctx, value.shape, axis, num)))


def split_axis(ctx, shape, axis, num):
    axis = check_axis(ctx, int(axis), len(shape), "split dimension")
    size = shape[axis]
    if size % num:
        raise invalid(ctx, f"Number of ways to split should evenly divide the split "
                           f"dimension, but got split_dim {axis} (size = {size}) and "
                           f"num_split {num}")
    return axis


@register("SplitV")
def split_v(ctx, value, size_splits, axis):
    axis, sizes = split_v_sizes(ctx, value.shape, size_splits, axis)
    return split_outputs(np.split(value, np.cumsum(sizes)[:-1], axis=axis))


def split_v_sizes(ctx, shape, size_splits, axis):
    """SplitV's (axis, sizes), the one -1 size resolved, or TF's error."""
    axis = check_axis(ctx, int(axis), len(shape), "split dimension")
    sizes = np.asarray(size_splits).reshape(-1).tolist()
    total = shape[axis]
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
    return axis, sizes


@register("Slice")
def slice_(ctx, x, begin, size):
    return x[slice_index(ctx, np.shape(x), begin, size)]


def slice_index(ctx, shape, begin, size):
    """Slice's (begin, size) as a tuple of Python slices, or TF's error."""
    try:
        begin, sizes = slice_bounds(shape, begin, size)
    except SliceError as error:
        raise invalid(ctx, str(error)) from None
    return tuple(slice(b, b + s) for b, s in zip(begin, sizes))


@register("StridedSlice")
def strided_slice(ctx, x, begin, end, strides):
    return np.asarray(x)[strided_slice_spec(ctx, np.shape(x), begin, end, strides)]


def strided_slice_spec(ctx, shape, begin, end, strides):
    """StridedSlice's NumPy index for an input of `shape`, the node's masks read."""
    attrs = ctx.attrs
    try:
        index = strided_slice_index(
            len(shape), begin, end, strides, attrs.get("begin_mask", 0),
            attrs.get("end_mask", 0), attrs.get("ellipsis_mask", 0),
            attrs.get("new_axis_mask", 0), attrs.get("shrink_axis_mask", 0))
        return resolve_shrinks(index, shape)
    except SliceError as error:
        raise invalid(ctx, str(error)) from None


@register("Squeeze")
def squeeze(ctx, x):
    return np.reshape(x, squeeze_shape(ctx, np.shape(x)))


def squeeze_shape(ctx, shape):
    dims = ctx.attrs.get("squeeze_dims") or []
    if not dims:
        return [d for d in shape if d != 1]
    axes = set()
    for d in dims:
        axis = check_axis(ctx, d, len(shape), "squeeze dimension")
        if shape[axis] != 1:
            raise invalid(ctx, f"Can not squeeze dim[{axis}], expected a dimension of 1, "
                               f"got {shape[axis]}")
        axes.add(axis)
    return [d for i, d in enumerate(shape) if i not in axes]


@register("ExpandDims")
def expand_dims(ctx, x, dim):
    return np.expand_dims(x, expand_axis(ctx, np.ndim(x), dim))


def expand_axis(ctx, ndims, dim):
    axis = int(np.asarray(dim).reshape(-1)[0])
    if not -1 - ndims <= axis <= ndims:
        raise invalid(ctx, f"Tried to expand dim index {axis} for tensor with {ndims} "
                           f"dimensions.")
    return axis


@register("Tile")
def tile(ctx, x, multiples):
    return np.tile(x, tile_multiples(ctx, np.ndim(x), multiples))


def tile_multiples(ctx, ndims, multiples):
    multiples = np.asarray(multiples).reshape(-1).tolist()
    if len(multiples) != ndims:
        raise invalid(ctx, f"Expected multiples argument to be a vector of length "
                           f"{ndims} but got length {len(multiples)}")
    if any(m < 0 for m in multiples):
        raise invalid(ctx, f"Expected multiples[{min(multiples)}] >= 0, but got "
                           f"{min(multiples)}")
    return multiples


def _paddings(ctx, x, paddings):
    return pad_widths(ctx, np.shape(x), paddings)


def pad_widths(ctx, shape, paddings):
    """Pad's paddings as [[before, after], ...] per dim, checked against the input's shape."""
    paddings = np.asarray(paddings)
    if paddings.shape != (len(shape), 2):
        raise invalid(ctx, f"The first dimension of paddings must be the rank of inputs"
                           f"{shape_str(paddings.shape)}, {shape_str(shape)}")
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
    return np.full(fill_dims(ctx, dims, np.shape(value)), value, dtype=value.dtype)


def fill_dims(ctx, dims, value_shape):
    dims = np.asarray(dims).reshape(-1).tolist()
    if len(value_shape) != 0:
        raise invalid(ctx, f"value must be a scalar, got shape {shape_str(value_shape)}")
    if any(d < 0 for d in dims):
        raise invalid(ctx, f"Dimension {min(dims)} must be >= 0")
    return dims


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


def index_error(ctx, indices, limit):
    """TF's error naming the first of host `indices` outside [0, limit)."""
    bad = np.argwhere((indices < 0) | (indices >= limit))[0]
    # A scalar index is named without brackets: "indices = 5", as TensorFlow's SliceDebugString.
    where = f"[{','.join(str(int(i)) for i in bad)}]" if len(bad) else ""
    raise invalid(ctx, f"indices{where} = {int(indices[tuple(bad)])} is not in [0, {limit})")


def _gather(ctx, params, indices, axis, batch_dims):
    ndims = np.ndim(params)
    axis = check_axis(ctx, int(axis), ndims, "axis")
    limit = params.shape[axis]
    if indices.size and (indices.min() < 0 or indices.max() >= limit):
        index_error(ctx, indices, limit)
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
    return _gather(ctx, params, indices, axis, gather_batch_dims(ctx, np.ndim(indices)))


def gather_batch_dims(ctx, indices_ndims):
    batch_dims = ctx.attrs.get("batch_dims", 0)
    return batch_dims + indices_ndims if batch_dims < 0 else batch_dims


@register("Gather")
def gather(ctx, params, indices):
    return _gather(ctx, params, indices, 0, 0)


@register("OneHot")
def one_hot(ctx, indices, depth, on_value, off_value):
    depth = one_hot_depth(ctx, depth)
    axis = ctx.attrs.get("axis", -1)
    hot = np.expand_dims(indices, -1) == np.arange(depth, dtype=indices.dtype)
    result = np.where(hot, on_value, off_value)
    if axis != -1:
        result = np.moveaxis(result, -1, axis)
    return result


def one_hot_depth(ctx, depth):
    depth = int(depth)
    if depth < 0:
        raise invalid(ctx, f"depth must be non-negative, got: {depth}")
    return depth


@register("ReverseV2")
def reverse_v2(ctx, tensor, axis):
    axes = reverse_axes(ctx, np.ndim(tensor), axis)
    return np.flip(tensor, axes) if axes else tensor


def reverse_axes(ctx, ndims, axis):
    return tuple(check_axis(ctx, int(a), ndims, "axis") for a in np.asarray(axis).reshape(-1))


@register("BroadcastTo")
def broadcast_to(ctx, x, shape):
    target = tuple(np.asarray(shape).reshape(-1).tolist())
    try:
        return np.array(np.broadcast_to(x, target))
    except ValueError:
        raise broadcast_to_error(ctx, np.shape(x), target) from None


def broadcast_to_error(ctx, shape, target):
    return invalid(ctx, f"Incompatible shapes: {shape_str(shape)} vs. {shape_str(target)}")


@register("BroadcastArgs")
def broadcast_args(ctx, s0, s1):
    try:
        return np.array(np.broadcast_shapes(tuple(s0.tolist()), tuple(s1.tolist())),
                        s0.dtype)
    except ValueError:
        raise invalid(ctx, f"Incompatible shapes: {shape_str(s0)} vs. "
                           f"{shape_str(s1)}") from None
