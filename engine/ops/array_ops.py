"""Array ops (reshape, concat, stack, slicing, zeros, placeholder, ...) as TF 1.x builds them."""

import builtins
import numbers

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.graph import get_default_graph
from engine.ops import autopacking  # noqa: F401  (registers list/tuple -> Pack conversion)
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.cast import cast
from engine.ops.fill_ops import fill, ones, ones_like, zeros, zeros_like  # noqa: F401
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import rank, shape, shape_internal, shape_n, size  # noqa: F401
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import Dimension, TensorShape, as_shape
from engine.framework.tensor_util import constant_value

newaxis = None


def placeholder(dtype, shape=None, name=None):
    shape = TensorShape(None) if shape is None else as_shape(shape)
    return apply_op("Placeholder", dtype=dtype, shape=shape, name=name)


def placeholder_with_default(input, shape, name=None):  # noqa: A002
    return apply_op("PlaceholderWithDefault", input=input, shape=as_shape(shape), name=name)


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor of three placeholders, fed with a SparseTensorValue (or a tuple of
    indices, values and dense_shape), named and shaped as TensorFlow's: NAME/values [?],
    NAME/indices [?, rank] (int64), and NAME/shape (int64 [rank]): a placeholder where `shape`
    is None, else a placeholder_with_default of `shape`, its unknown dimensions -1."""
    from engine.framework.sparse_tensor import SparseTensor
    from engine.framework.tensor_util import constant_value_as_shape

    def named(suffix):
        return None if name is None else f"{name}/{suffix}"

    if shape is None:
        rank = None
        dense_shape = placeholder(dtypes.int64, shape=[rank], name=named("shape"))
        known = constant_value_as_shape(dense_shape)
    else:
        if isinstance(shape, Tensor):
            rank = shape.shape[0]
            known = constant_value_as_shape(shape)
        else:
            rank = len(shape)
            dims = [Dimension(d).value if d is not None else None for d in shape]
            known = TensorShape([None if d in (None, -1) else d for d in dims])
            shape = constant([-1 if d is None else d for d in dims], dtype=dtypes.int64,
                             name=named("shape_default"))
        dense_shape = placeholder_with_default(shape, shape=shape.shape, name=named("shape"))
    result = SparseTensor(
        values=placeholder(dtype, shape=[None], name=named("values")),
        indices=placeholder(dtypes.int64, shape=[None, rank], name=named("indices")),
        dense_shape=dense_shape)
    result.set_shape(known)
    return result


def identity(input, name=None):  # noqa: A002
    return apply_op("Identity", input=input, name=name)


def identity_n(input, name=None):  # noqa: A002
    return apply_op("IdentityN", input=list(input), name=name)


def stop_gradient(input, name=None):  # noqa: A002
    return apply_op("StopGradient", input=input, name=name)


def prevent_gradient(input, message="", name=None):  # noqa: A002
    return apply_op("PreventGradient", input=input, message=message, name=name)


def reshape(tensor, shape, name=None):
    return apply_op("Reshape", tensor=tensor, shape=shape, name=name)


def transpose(a, perm=None, name="transpose", conjugate=False):
    with name_scope(name, "transpose", [a]) as name:
        if not isinstance(a, Tensor):
            a = convert_to_tensor(a, name="a")
        if perm is None:
            rank = a.shape.ndims
            if rank is None:
                perm = apply_op("Range", start=apply_op("Rank", input=a) - 1, limit=-1,
                                delta=-1)
            else:
                perm = np.arange(rank - 1, -1, -1, dtype=np.int32)
        # TensorFlow's ConjugateTranspose only where there is something to conjugate.
        op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
        return apply_op(op_type, x=a, perm=perm, name=name)


def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with get_default_graph().name_scope(name):
            convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            return identity(values[0], name=name)
    return apply_op("ConcatV2", values=list(values), axis=axis, name=name)


def stack(values, axis=0, name="stack"):
    if axis == 0:
        try:
            return convert_to_tensor(values, name=name)
        except (TypeError, ValueError, NotImplementedError):
            pass
    value_shape = convert_to_tensor(values[0], name=name).shape
    if value_shape.ndims is not None:
        expanded = value_shape.ndims + 1
        if axis < -expanded or axis >= expanded:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-expanded}, {expanded})")
    return apply_op("Pack", values=list(values), axis=axis, name=name)


def unstack(value, num=None, axis=0, name="unstack"):
    with name_scope(name, "unstack", [value]) as name:
        value = convert_to_tensor(value)
        if num is None:
            shape = value.shape
            if shape.ndims is None:
                raise ValueError(f"Cannot infer argument `num` from shape {shape}")
            num = shape.dims[axis].value
            if num is None:
                raise ValueError(f"Cannot infer argument `num` from shape {shape}")
        return apply_op("Unpack", value=value, num=num, axis=axis, name=name)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    if isinstance(num_or_size_splits, (numbers.Integral, Dimension)):
        return apply_op("Split", split_dim=axis, value=value, num_split=int(num_or_size_splits),
                        name=name)
    size_splits = convert_to_tensor(num_or_size_splits)
    if num is None:
        shape = size_splits.shape
        num = shape[0].value if shape.ndims else None
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {shape}")
    return apply_op("SplitV", value=value, size_splits=size_splits, split_dim=axis,
                    num_split=num, name=name)


def slice(input_, begin, size, name=None):  # noqa: A001
    return apply_op("Slice", input=input_, begin=begin, size=size, name=name)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    if strides is None:
        strides = ones_like(begin)
    return apply_op("StridedSlice", input=input_, begin=begin, end=end, strides=strides,
                    begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                    new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask, name=name)


def _check_index(idx):
    if isinstance(idx, (numbers.Integral, Dimension)):
        return
    if isinstance(idx, Tensor) and idx.dtype.base_dtype in (dtypes.int16, dtypes.int32,
                                                              dtypes.int64):
        return
    if isinstance(idx, np.ndarray) and idx.ndim == 0 and idx.dtype in (np.int16, np.int32,
                                                                        np.int64):
        return  # a 0-d NumPy integer (a constant_value), as TensorFlow takes it
    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                    "scalar tf.int32/tf.int64 tensors are valid indices, got " + repr(idx))


def _slice_helper(tensor, slice_spec, var=None):
    """Tensor.__getitem__: one StridedSlice with TensorFlow's masks."""
    if isinstance(slice_spec, bool) or (isinstance(slice_spec, Tensor) and
                                        slice_spec.dtype == dtypes.bool):
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    new_axis_mask = shrink_axis_mask = begin_mask = end_mask = ellipsis_mask = 0
    for index, s in enumerate(slice_spec):
        if isinstance(s, builtins.slice):
            index_dtype = None
            for t in (s.start, s.stop, s.step):
                if isinstance(t, Tensor):
                    if t.dtype == dtypes.int64:
                        index_dtype = dtypes.int64
                    elif t.dtype == dtypes.int32 and index_dtype != dtypes.int64:
                        index_dtype = dtypes.int32
                    elif t.dtype == dtypes.int16 and index_dtype is None:
                        index_dtype = dtypes.int16

            def default(value):
                return value if index_dtype is None else constant(value, dtype=index_dtype)
            if s.start is not None:
                _check_index(s.start)
                begin.append(s.start)
            else:
                begin.append(default(0))
                begin_mask |= 1 << index
            if s.stop is not None:
                _check_index(s.stop)
                end.append(s.stop)
            else:
                end.append(default(0))
                end_mask |= 1 << index
            if s.step is not None:
                _check_index(s.step)
                strides.append(s.step)
            else:
                strides.append(default(1))
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= 1 << index
        elif s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= 1 << index
        else:
            _check_index(s)
            begin.append(s)
            end.append(s + 1)
            if isinstance(s, Tensor) and s.dtype in (dtypes.int16, dtypes.int64):
                strides.append(constant(1, dtype=s.dtype))
            else:
                strides.append(1)
            shrink_axis_mask |= 1 << index
    with name_scope(None, "strided_slice", [tensor] + begin + end + strides) as name:
        if begin:
            packed_begin, packed_end, packed_strides = stack(begin), stack(end), stack(strides)
            if dtypes.int64 in (packed_begin.dtype, packed_end.dtype, packed_strides.dtype):
                packed_begin = cast(packed_begin, dtypes.int64)
                packed_end = cast(packed_end, dtypes.int64)
                packed_strides = cast(packed_strides, dtypes.int64)
        else:
            packed_begin = packed_end = packed_strides = constant([], dtype=dtypes.int32)
        return strided_slice(tensor, packed_begin, packed_end, packed_strides,
                             begin_mask=begin_mask, end_mask=end_mask,
                             shrink_axis_mask=shrink_axis_mask, new_axis_mask=new_axis_mask,
                             ellipsis_mask=ellipsis_mask, name=name)


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """TF 1.x tf.boolean_mask: reshape the masked dims flat, Where, Squeeze, GatherV2."""
    with get_default_graph().name_scope(name):
        tensor = convert_to_tensor(tensor, name="tensor")
        mask = convert_to_tensor(mask, name="mask")
        ndims_mask = mask.shape.ndims
        shape_tensor = tensor.shape
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some "
                             "dimensions are None.  E.g. shape=[None] is ok, but shape=None "
                             "is not.")
        axis = 0 if axis is None else axis
        axis_value = constant_value(axis) if isinstance(axis, Tensor) else axis
        if axis_value is not None:
            axis = int(axis_value)
            shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(mask.shape)
        leading_size = apply_op("Prod", input=shape(tensor)[axis:axis + ndims_mask],
                                reduction_indices=[0], keep_dims=False)
        tensor = reshape(tensor, concat([shape(tensor)[:axis], [leading_size],
                                         shape(tensor)[axis + ndims_mask:]], 0))
        if axis_value is not None and shape_tensor.ndims is not None:
            first_dim = shape_tensor[axis:axis + ndims_mask].num_elements()
            tensor.set_shape(as_shape(shape_tensor[:axis]).concatenate(
                [first_dim]).concatenate(shape_tensor[axis + ndims_mask:]))
        mask = reshape(mask, [-1])
        indices = squeeze(where_v2(mask), axis=[1])
        return gather(tensor, indices, axis=axis)


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    axis = deprecated_argument_lookup("axis", axis, "squeeze_dims", squeeze_dims)
    if np.isscalar(axis):
        axis = [axis]
    return apply_op("Squeeze", input=input, squeeze_dims=list(axis or []), name=name)


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    axis = deprecated_argument_lookup("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return apply_op("ExpandDims", input=input, dim=axis, name=name)


def tile(input, multiples, name=None):  # noqa: A002
    return apply_op("Tile", input=input, multiples=multiples, name=name)


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    mode = mode.upper()
    if mode == "CONSTANT":
        if not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and \
                constant_values == 0:
            return apply_op("Pad", input=tensor, paddings=paddings, name=name)
        return apply_op("PadV2", input=tensor, paddings=paddings,
                        constant_values=constant_values, name=name)
    return apply_op("MirrorPad", input=tensor, paddings=paddings, mode=mode, name=name)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    if axis is None:
        axis = batch_dims
    axis_value = constant_value(axis) if isinstance(axis, Tensor) else axis
    sparse_read = getattr(params, "sparse_read", None)
    if sparse_read is not None and axis_value is not None and int(axis_value) == 0:
        # A resource variable reads its rows itself (ResourceGather), as TensorFlow's does.
        return sparse_read(indices, name=name)
    return apply_op("GatherV2", params=params, indices=indices, axis=axis,
                    batch_dims=batch_dims, name=name)


def gather_nd(params, indices, name=None, batch_dims=0):
    return apply_op("GatherNd", params=params, indices=indices, name=name)


def reverse(tensor, axis, name=None):
    return apply_op("ReverseV2", tensor=tensor, axis=axis, name=name)


reverse_v2 = reverse


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    with name_scope(name, "one_hot", [indices, depth, on_value, off_value, axis, dtype]) as name:
        on_exists = on_value is not None
        off_exists = off_value is not None
        if on_exists:
            on_value = convert_to_tensor(on_value, dtype_hint=dtype)
        if off_exists:
            off_value = convert_to_tensor(off_value, dtype_hint=dtype)
        on_dtype = on_value.dtype.base_dtype if on_exists else None
        off_dtype = off_value.dtype.base_dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype != dtype:
                    raise TypeError(f"dtype {dtype} of on_value does not match dtype parameter "
                                    f"{on_dtype}")
                if off_exists and off_dtype != dtype:
                    raise TypeError(f"dtype {dtype} of off_value does not match dtype parameter "
                                    f"{off_dtype}")
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = dtypes.float32
        dtype = dtypes.as_dtype(dtype)
        if not on_exists:
            on_value = convert_to_tensor(1, dtype, name="on_value")
        if not off_exists:
            off_value = convert_to_tensor(0, dtype, name="off_value")
        return apply_op("OneHot", indices=indices, depth=depth, on_value=on_value,
                        off_value=off_value, axis=-1 if axis is None else axis, name=name)


def where(condition, x=None, y=None, name=None):
    """TF 1.x tf.where: Where (coordinates) with one argument, Select with three."""
    if x is None and y is None:
        with name_scope(name, "Where", [condition]) as name:
            condition = convert_to_tensor(condition, preferred_dtype=dtypes.bool,
                                          name="condition")
            return apply_op("Where", input=condition, name=name)
    if x is not None and y is not None:
        return apply_op("Select", condition=condition, t=x, e=y, name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def where_v2(condition, x=None, y=None, name=None):
    if x is None and y is None:
        return where(condition, name=name)
    return apply_op("SelectV2", condition=condition, t=x, e=y, name=name)


def broadcast_to(input, shape, name=None):  # noqa: A002
    return apply_op("BroadcastTo", input=input, shape=shape, name=name)


def invert_permutation(x, name=None):
    return apply_op("InvertPermutation", x=x, name=name)


Tensor.__getitem__ = _slice_helper


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002
                     seq_dim=None, batch_dim=None):
    seq_axis = seq_dim if seq_axis is None else seq_axis
    batch_axis = (batch_dim if batch_dim is not None else 0) if batch_axis is None else batch_axis
    return apply_op("ReverseSequence", input=input, seq_lengths=seq_lengths,
                    seq_dim=seq_axis, batch_dim=batch_axis, name=name)
