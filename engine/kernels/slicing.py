"""TensorFlow's slice specs as NumPy indices: StridedSlice's masks, Slice's begin/size.

Pure functions of shapes and constant arguments, shared by the kernels and by static shape
inference. NumPy's basic indexing clamps out-of-range bounds exactly as TensorFlow's
ValidateStridedSliceOp does, so a StridedSlice is one `x[index]` once the masks are read.
"""

import numpy as np


class SliceError(ValueError):
    """A slice spec TensorFlow rejects; str() is TensorFlow's message."""


def _bits(mask, count):
    return [bool(mask >> i & 1) for i in range(count)]


def strided_slice_index(ndims, begin, end, strides, begin_mask=0, end_mask=0,
                        ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    """The NumPy index tuple equal to TensorFlow's StridedSlice on a rank-`ndims` input.

    >>> strided_slice_index(2, [1, 0], [2, 3], [1, 2], shrink_axis_mask=1)
    (('shrink', 1), slice(0, 3, 2))
    >>> strided_slice_index(3, [0, 1], [0, 2], [1, 1], ellipsis_mask=1)
    (Ellipsis, slice(1, 2, 1))
    """
    begin, end, strides = (np.asarray(v).reshape(-1).tolist() for v in (begin, end, strides))
    if not len(begin) == len(end) == len(strides):
        raise SliceError(f"Expected begin, end, and strides to be 1D equal size tensors, "
                         f"but got shapes [{len(begin)}], [{len(end)}], and "
                         f"[{len(strides)}] instead.")
    count = len(begin)
    ellipsis = _bits(ellipsis_mask, count)
    if sum(ellipsis) > 1:
        raise SliceError("Multiple ellipses in slice spec not allowed")
    new_axis, shrink = _bits(new_axis_mask, count), _bits(shrink_axis_mask, count)
    begin_all, end_all = _bits(begin_mask, count), _bits(end_mask, count)
    index = []
    dims_used = 0
    for i in range(count):
        if ellipsis[i]:
            index.append(Ellipsis)
        elif new_axis[i]:
            index.append(None)
        else:
            stride = strides[i]
            if stride == 0:
                raise SliceError(f"strides[{i}] must be non-zero")
            dims_used += 1
            if shrink[i]:
                if stride <= 0:
                    raise SliceError("only stride 1 allowed on non-range indexing.")
                index.append(("shrink", begin[i]))
            else:
                index.append(slice(None if begin_all[i] else begin[i],
                                   None if end_all[i] else end[i], stride))
    if dims_used > ndims:
        raise SliceError(f"Index out of range using input dim {dims_used - 1}; input has "
                         f"only {ndims} dims")
    return tuple(index)


def resolve_shrinks(index, shape):
    """Replace ("shrink", i) entries by checked integers, given the input's shape."""
    if not any(type(item) is tuple for item in index):
        return index
    resolved, dim = [], 0
    explicit = sum(1 for item in index if item is not None and item is not Ellipsis)
    for item in index:
        if item is Ellipsis:
            dim += len(shape) - explicit
        elif item is None:
            resolved.append(item)
            continue
        elif type(item) is tuple:
            size, value = shape[dim], item[1]
            if not -size <= value < size:
                raise SliceError(f"slice index {value} of dimension {dim} out of bounds.")
            resolved.append(value)
            dim += 1
            continue
        else:
            dim += 1
        resolved.append(item)
    return tuple(resolved)


def strided_slice_shape(shape, **spec):
    """StridedSlice's output shape for an input `shape` whose dims may be None (unknown).

    >>> strided_slice_shape((4, 5), begin=[-1], end=[0], strides=[-2])
    [2, 5]
    >>> strided_slice_shape((4, None, 6), begin=[0, 1], end=[2, 3], strides=[1, 1])
    [2, None, 6]
    """
    index = strided_slice_index(len(shape), **spec)
    explicit = sum(1 for item in index if item is not None and item is not Ellipsis)
    out, dim = [], 0
    for item in index:
        if item is Ellipsis:
            count = len(shape) - explicit
            out.extend(shape[dim:dim + count])
            dim += count
        elif item is None:
            out.append(1)
        elif type(item) is tuple:  # shrink: no output dim, but the index must be in range
            size = shape[dim]
            if size is not None and not -size <= item[1] < size:
                raise SliceError(f"slice index {item[1]} of dimension {dim} out of bounds.")
            dim += 1
        else:
            size = shape[dim]
            out.append(None if size is None else len(range(*item.indices(size))))
            dim += 1
    return out + list(shape[dim:])


def slice_bounds(shape, begin, size):
    """Slice's (begin, size) checked as TensorFlow checks them, -1 sizes resolved."""
    begin = np.asarray(begin).reshape(-1).tolist()
    size = np.asarray(size).reshape(-1).tolist()
    if len(begin) != len(shape) or len(size) != len(shape):
        raise SliceError(f"Expected begin and size arguments to be 1-D tensors of size "
                         f"{len(shape)}, but got shapes [{len(begin)}] and [{len(size)}] "
                         f"instead.")
    sizes = []
    for i, (b, s, dim) in enumerate(zip(begin, size, shape)):
        if s == -1:
            s = dim - b
        if not 0 <= b <= dim:
            raise SliceError(f"Expected begin[{i}] in [0, {dim}], but got {b}")
        if not 0 <= s <= dim - b:
            raise SliceError(f"Expected size[{i}] in [0, {dim - b}], but got {s}")
        sizes.append(s)
    return begin, sizes
