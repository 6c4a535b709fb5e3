"""Segment reductions, unique, setdiff1d, bincount, sequence_mask, meshgrid, linspace, top_k
and scatter_nd as TF 1.x builds them (math_ops.py, array_ops.py, bincount_ops.py, nn_ops.py).
"""

import collections

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def segment_sum(data, segment_ids, name=None):
    return apply_op("SegmentSum", data=data, segment_ids=segment_ids, name=name)


def segment_mean(data, segment_ids, name=None):
    return apply_op("SegmentMean", data=data, segment_ids=segment_ids, name=name)


def segment_max(data, segment_ids, name=None):
    return apply_op("SegmentMax", data=data, segment_ids=segment_ids, name=name)


def segment_min(data, segment_ids, name=None):
    return apply_op("SegmentMin", data=data, segment_ids=segment_ids, name=name)


def segment_prod(data, segment_ids, name=None):
    return apply_op("SegmentProd", data=data, segment_ids=segment_ids, name=name)


def _unsorted(op_type):
    def unsorted_segment(data, segment_ids, num_segments, name=None):
        return apply_op(op_type, data=data, segment_ids=segment_ids,
                        num_segments=num_segments, name=name)
    return unsorted_segment


unsorted_segment_sum = _unsorted("UnsortedSegmentSum")
unsorted_segment_max = _unsorted("UnsortedSegmentMax")
unsorted_segment_min = _unsorted("UnsortedSegmentMin")
unsorted_segment_prod = _unsorted("UnsortedSegmentProd")


# The named outputs TensorFlow's generated wrappers return.
UniqueOutput = collections.namedtuple("Unique", ["y", "idx"])
ListDiffOutput = collections.namedtuple("ListDiff", ["out", "idx"])
TopKV2Output = collections.namedtuple("TopKV2", ["values", "indices"])


def unique(x, out_idx=dtypes.int32, name=None):
    return UniqueOutput(*apply_op("Unique", x=x, out_idx=out_idx, name=name))


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    return ListDiffOutput(*apply_op("ListDiff", x=x, y=y, out_idx=index_dtype, name=name))


def scatter_nd(indices, updates, shape, name=None):
    return apply_op("ScatterNd", indices=indices, updates=updates, shape=shape, name=name)


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    return TopKV2Output(*apply_op("TopKV2", input=input, k=k, sorted=sorted,
                                  index_type=index_type, name=name))


def _all_dimensions(x):
    """A Const of 0..rank-1 when the rank is known, else Range(0, Rank(x), 1)."""
    if x.get_shape().ndims is not None:
        return constant(list(range(x.get_shape().ndims)), dtype=dtypes.int32)
    return apply_op("Range", start=0, limit=array_ops.rank(x), delta=1)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    with name_scope(name, "SequenceMask"):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = apply_op("Max", input=lengths, reduction_indices=_all_dimensions(lengths))
            maxlen = apply_op("Maximum", x=constant(0, maxlen.dtype), y=maxlen)
        else:
            maxlen = convert_to_tensor(maxlen)
        if maxlen.get_shape().ndims is not None and maxlen.get_shape().ndims != 0:
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {maxlen} with shape '{maxlen.get_shape()}' instead")
        row_vector = apply_op("Range", start=constant(0, maxlen.dtype), limit=maxlen,
                              delta=constant(1, maxlen.dtype))
        matrix = apply_op("Cast", x=array_ops.expand_dims(lengths, -1), DstT=maxlen.dtype)
        result = row_vector < matrix
        if dtype is None or result.dtype.is_compatible_with(dtypes.as_dtype(dtype)):
            return result
        return apply_op("Cast", x=result, DstT=dtype)


def meshgrid(*args, **kwargs):
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError("'{}' is an invalid keyword argument for this function".format(
            list(kwargs)[0]))
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    with name_scope(name, "meshgrid"):
        ndim = len(args)
        s0 = (1,) * ndim
        if not ndim:
            return []
        output = [array_ops.reshape(convert_to_tensor(x, name="stack"),
                                    s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(args)]
        shapes = [array_ops.size(x) for x in args]
        output_dtype = convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        mult_fact = array_ops.ones(shapes, output_dtype)
        return [x * mult_fact for x in output]


def _convert_to_int_tensor(tensor, name, dtype=dtypes.int32):
    tensor = convert_to_tensor(tensor, name=name, preferred_dtype=dtype)
    if not tensor.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: {name}) must be of type integer. Received "
                        f"`tensor` = {tensor} of dtype: {tensor.dtype}")
    return apply_op("Cast", x=tensor, DstT=dtype)


def linspace(start, stop, num, name=None, axis=0):
    """tf.linspace (tf.lin_space) as TensorFlow 2.21's linspace_nd builds it."""
    with name_scope(name, "linspace"):
        start = convert_to_tensor(start, name="start")
        stop = convert_to_tensor(stop, name="stop", dtype=start.dtype)
        num_int = _convert_to_int_tensor(num, name="num")
        num = math_ops.cast(num_int, dtype=start.dtype)  # noqa: F841  (built, as TensorFlow)
        broadcast_shape = apply_op("BroadcastArgs", s0=array_ops.shape(start),
                                   s1=array_ops.shape(stop))
        start = array_ops.broadcast_to(start, broadcast_shape)
        stop = array_ops.broadcast_to(stop, broadcast_shape)
        expanded_start = array_ops.expand_dims(start, axis=axis)
        expanded_stop = array_ops.expand_dims(stop, axis=axis)
        shape = array_ops.shape(expanded_start)
        ndims = array_ops.shape(shape)[0]
        axis = array_ops.where_v2(axis >= 0, axis, ndims + axis)
        num_fill = apply_op("Maximum", x=num_int - 2, y=0)
        n_steps = apply_op("Maximum", x=num_int - 1, y=1)
        delta = (expanded_stop - expanded_start) / math_ops.cast(n_steps, expanded_stop.dtype)
        expanded_start = math_ops.cast(expanded_start, delta.dtype)
        expanded_stop = math_ops.cast(expanded_stop, delta.dtype)
        range_end = array_ops.where_v2(num_int >= 0, n_steps, -1)
        desired_range = math_ops.cast(math_ops.range(1, range_end, dtype=dtypes.int64),
                                      delta.dtype)
        mask = apply_op("Equal", x=axis, y=math_ops.range(ndims))
        desired_range_shape = array_ops.where_v2(mask, num_fill, 1)
        desired_range = array_ops.reshape(desired_range, desired_range_shape)
        res = expanded_start + delta * desired_range
        concatenated = array_ops.concat((expanded_start, res, expanded_stop), axis=axis)
        begin = array_ops.zeros_like(shape)
        size = array_ops.concat((shape[0:axis], array_ops.reshape(num_int, [1]),
                                 shape[axis + 1:]), axis=0)
        return array_ops.slice(concatenated, begin, size)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32,
             name=None, axis=None, binary_output=False):
    """tf.bincount (TF 1.x's bincount_v1 without name/axis) as TensorFlow 2.21 builds it."""
    name = "bincount" if name is None else name
    with name_scope(name):
        arr = convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                             "Please specify only one.")
        if not arr.dtype.is_integer:
            arr = math_ops.cast(arr, dtypes.int32)
        axis = 0 if axis is None else axis
        if axis not in (0, -1):
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                             "currently supported.")
        array_is_nonempty = array_ops.size(arr) > 0
        output_size = math_ops.cast(array_is_nonempty, arr.dtype) * (
            math_ops.reduce_max(arr) + 1)
        if minlength is not None:
            minlength = convert_to_tensor(minlength, name="minlength", dtype=arr.dtype)
            output_size = apply_op("Maximum", x=minlength, y=output_size)
        if maxlength is not None:
            maxlength = convert_to_tensor(maxlength, name="maxlength", dtype=arr.dtype)
            output_size = apply_op("Minimum", x=maxlength, y=output_size)
        if axis == 0:
            if weights is not None:
                weights = array_ops.reshape(weights, [-1])
            arr = array_ops.reshape(arr, [-1])
        if weights is None:
            weights = constant([], dtype=dtype or arr.dtype)
        return apply_op("DenseBincount", input=arr, size=output_size, weights=weights,
                        binary_output=binary_output)


def bincount_v1(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32):
    return bincount(arr, weights, minlength, maxlength, dtype)


def _sparse_segment(kind):
    def reduce(data, indices, segment_ids, name=None, num_segments=None,
               sparse_gradient=False):
        if num_segments is not None:
            return apply_op(f"SparseSegment{kind}WithNumSegments", data=data, indices=indices,
                            segment_ids=segment_ids, num_segments=num_segments,
                            sparse_gradient=sparse_gradient, name=name)
        return apply_op(f"SparseSegment{kind}", data=data, indices=indices,
                        segment_ids=segment_ids, sparse_gradient=sparse_gradient, name=name)
    reduce.__name__ = reduce.__qualname__ = {"Sum": "sparse_segment_sum",
                                             "Mean": "sparse_segment_mean",
                                             "SqrtN": "sparse_segment_sqrt_n"}[kind]
    reduce.__doc__ = (f"tf.{reduce.__name__}: the {kind.lower()} of the rows `indices` of "
                      "`data` per segment of the sorted `segment_ids`.")
    return reduce


sparse_segment_sum = _sparse_segment("Sum")
sparse_segment_mean = _sparse_segment("Mean")
sparse_segment_sqrt_n = _sparse_segment("SqrtN")
