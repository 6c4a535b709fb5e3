"""RaggedTensor <-> Tensor and SparseTensor (ragged_tensor.py's from_tensor, to_tensor,
from_sparse): the nodes TensorFlow builds, RaggedTensorToTensor underneath to_tensor."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.segment_ids import convert_to_int_tensor
from engine.ops.segment_ops import sequence_mask


def _dim(shape, index):
    if shape.ndims is None or index >= shape.ndims:
        return None
    return shape.dims[index].value


def from_tensor(cls, tensor, lengths, padding, ragged_rank, name, row_splits_dtype):
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
    if ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. "
                         f"Received {ragged_rank}.")
    with name_scope(name, "RaggedFromTensor", [tensor, lengths, padding]):
        tensor = convert_to_tensor(tensor, name="tensor")
        if tensor.shape.rank is not None and tensor.shape.rank < 2:
            raise ValueError(f"The rank of a RaggedTensor must be greater than 1, i.e., a "
                             f"list of scalars won't have ragged dimensions. Received "
                             f"argument `tensor` with rank {tensor.shape.rank}.")
        tensor.shape.with_rank_at_least(ragged_rank + 1)
        input_shape = array_ops.shape(tensor, out_type=row_splits_dtype)
        ncols = input_shape[1]

        if (lengths is not None and isinstance(lengths, (list, tuple)) and len(lengths)
                and not isinstance(lengths[0], (int, float))):
            if ragged_rank not in (1, len(lengths)):
                raise ValueError(f"If Argument `lengths` is a tuple of row_lengths, argument "
                                 f"`ragged_rank` must be len(lengths): {len(lengths)}. "
                                 f"Received ragged_rank: {ragged_rank}.")
            tensor.shape.with_rank_at_least(len(lengths) + 1)
            num_tokens = math_ops.reduce_sum(lengths[-1])
            ones_mask = array_ops.ones([num_tokens], dtype=dtypes.bool)
            ragged_mask = cls.from_nested_row_lengths(ones_mask, lengths, validate=False)
            dense_ragged_mask = ragged_mask.to_tensor(default_value=False)
            masked_data = array_ops.boolean_mask(tensor, dense_ragged_mask)
            return cls.from_nested_row_lengths(masked_data, lengths, validate=False)

        if ragged_rank > 1:
            if tensor.shape.is_fully_defined():
                input_shape = tensor.shape.as_list()
                dim_size = np.cumprod(input_shape)
                new_shape = [int(dim_size[ragged_rank - 1])] + input_shape[ragged_rank:]
            else:
                dim_size = math_ops.cumprod(input_shape)
                new_shape = array_ops.concat(
                    [[dim_size[ragged_rank - 1]], input_shape[ragged_rank:]], axis=0)
            flattened = array_ops.reshape(tensor, new_shape)
            result = cls.from_tensor(flattened, lengths, padding,
                                     row_splits_dtype=row_splits_dtype)
            for axis in range(ragged_rank - 1, 0, -1):
                dim_len = _dim(tensor.shape, axis)
                if dim_len is None:
                    dim_len = input_shape[axis]
                else:
                    dim_len = constant(dim_len, row_splits_dtype)
                nrows = dim_size[axis - 1]
                if isinstance(nrows, np.integer):
                    nrows = int(nrows)
                result = cls.from_uniform_row_length(result, dim_len, nrows=nrows,
                                                     validate=False)
            return result

        if padding is not None:
            from engine.ops.control_flow.cond import cond
            padding = convert_to_tensor(padding, name="padding", dtype=tensor.dtype)
            padding.shape.assert_is_compatible_with(tensor.shape[2:])
            has_default_value = math_ops.equal(padding, tensor)
            tensor_rank = array_ops.rank(tensor)
            reduce_axis = math_ops.range(2, tensor_rank)
            has_default = cond(tensor_rank > 2,
                               lambda: math_ops.reduce_all(has_default_value, axis=reduce_axis),
                               lambda: has_default_value)
            has_default.set_shape(TensorShape([None, None]))
            has_default.set_shape(tensor.shape[:2])
            has_nondefault = math_ops.logical_not(has_default)
            has_nondefault = math_ops.cast(has_nondefault, row_splits_dtype)
            length_for_nondefault_value = (
                has_nondefault * array_ops.expand_dims(math_ops.range(1, ncols + 1), 0))
            lengths = math_ops.reduce_max(length_for_nondefault_value, axis=1)

        if lengths is not None:
            lengths = convert_to_int_tensor(lengths, "lengths", row_splits_dtype)
            lengths.shape.assert_has_rank(1)
            lengths = math_ops.minimum(lengths, ncols)
            lengths = math_ops.maximum(lengths, 0)
            limits = math_ops.cumsum(lengths)
            splits = array_ops.concat([array_ops.zeros([1], row_splits_dtype), limits], axis=0)
            mask = sequence_mask(lengths, maxlen=ncols)
            values = array_ops.boolean_mask(tensor, mask)
            return cls.from_row_splits(values, splits, validate=False)

        values_shape = array_ops.concat([[input_shape[0] * input_shape[1]], input_shape[2:]],
                                        axis=0)
        values = array_ops.reshape(tensor, values_shape)
        const_nrows = _dim(tensor.shape, 0)
        const_ncols = _dim(tensor.shape, 1)
        nrows = input_shape[0] if const_nrows is None else constant(const_nrows,
                                                                     row_splits_dtype)
        ncols = input_shape[1] if const_ncols is None else constant(const_ncols,
                                                                     row_splits_dtype)
        return cls.from_uniform_row_length(values, ncols, nrows=nrows, validate=False)


def _partition_inputs(rt):
    """_get_row_partition_type_tensor_pairs: how RaggedTensorToTensor reads the rows."""
    partitions = rt._nested_row_partitions
    tail = []
    for partition in partitions[1:]:
        if partition.has_precomputed_value_rowids():
            tail.append(("VALUE_ROWIDS", partition.value_rowids()))
        else:
            tail.append(("ROW_SPLITS", partition.row_splits()))
    if partitions[0]._value_rowids is not None:
        return [("FIRST_DIM_SIZE", partitions[0].nrows()),
                ("VALUE_ROWIDS", partitions[0].value_rowids())] + tail
    return [("ROW_SPLITS", partitions[0].row_splits())] + tail


def to_tensor(rt, default_value=None, name=None, shape=None):
    with name_scope(name, "RaggedToTensor", [rt, default_value, shape]):
        if default_value is not None:
            default_value = convert_to_tensor(default_value, name="default_value",
                                              dtype=rt.dtype)
        pairs = _partition_inputs(rt)
        types = [kind for kind, _ in pairs]
        tensors = [t for _, t in pairs]
        if default_value is None:
            default_value = array_ops.zeros((), rt.dtype)
        if (isinstance(shape, (list, tuple)) and any(isinstance(v, Tensor) for v in shape)
                and all(isinstance(v, (int, Tensor)) for v in shape)):
            shape = array_ops.stack(shape)
        shape_tensor = as_shape_tensor(shape, tensors[0].dtype)
        tensor = apply_op("RaggedTensorToTensor", shape=shape_tensor, values=rt.flat_values,
                          default_value=default_value, row_partition_types=types,
                          row_partition_tensors=tensors)
        ragged_shape = rt.shape
        if ragged_shape.rank is not None and not isinstance(shape, Tensor):
            shape = as_shape(shape)
            if shape.rank is None:
                output_shape = ragged_shape
            else:
                output_shape = [s1 if s1 is not None else s2
                                for s1, s2 in zip(shape.as_list(), ragged_shape.as_list())]
            tensor.set_shape(output_shape)
        return tensor


def _assert_ragged_right(indices):
    from engine.ops.logging_ops import Assert
    prefix = indices[:, :-1]
    suffix = indices[:, -1]
    prefix_changed = math_ops.reduce_any(math_ops.not_equal(prefix[1:], prefix[:-1]), axis=1)
    index_ok = array_ops.where(prefix_changed, math_ops.equal(suffix[1:], 0),
                               math_ops.equal(suffix[1:], suffix[:-1] + 1))
    ok = math_ops.logical_and(math_ops.reduce_all(math_ops.equal(suffix[:1], 0)),
                              math_ops.reduce_all(index_ok))
    message = ["SparseTensor is not right-ragged", "SparseTensor.indices =", indices]
    return [Assert(ok, message)]


def from_sparse(cls, st_input, name, row_splits_dtype):
    from engine.framework.graph import get_default_graph
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if not isinstance(st_input, SparseTensor):
        raise TypeError(f"Argument `st_input` must be of type SparseTensor, but is of type "
                        f"{type(st_input).__name__}.")
    with name_scope(name, "RaggedFromSparse", [st_input]):
        rank_from_shape = _dim(st_input.dense_shape.shape, 0)
        rank_from_indices = _dim(st_input.indices.shape, 1)
        if rank_from_shape != 2 and rank_from_indices != 2:
            raise ValueError("rank(st_input) must be 2.")
        with get_default_graph().control_dependencies(_assert_ragged_right(st_input.indices)):
            segment_ids = math_ops.cast(st_input.indices[:, 0], row_splits_dtype)
            num_segments = math_ops.cast(st_input.dense_shape[0], row_splits_dtype)
            return cls.from_value_rowids(st_input.values, segment_ids, num_segments,
                                         validate=False)


def as_shape_tensor(shape, dtype):
    """_shape_as_tensor: a shape (or None) as the RaggedTensorToTensor `shape` input."""
    if dtype != dtypes.int64 and dtype != dtypes.int32:
        raise ValueError(f"Expected int64 or int32 for dtype: got {dtype}.")
    if isinstance(shape, Tensor):
        if shape.dtype != dtypes.int64 and shape.dtype != dtypes.int32:
            return math_ops.cast(shape, dtype)
        return shape
    shape = as_shape(shape)
    if not shape:
        return constant(-1, dtype=dtype)
    return constant([(-1 if x is None else x) for x in shape.as_list()], dtype=dtype)
