"""tf.RaggedTensor (ragged_tensor.py): values split into rows by a RowPartition, the
factories with TensorFlow's checks and name scopes, and the methods of graph mode."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.row_partition import RowPartition, convert_partition


def _check_validate(validate):
    if not isinstance(validate, bool):
        raise TypeError(f"Argument `validate` must have type bool. Received {validate}.")


def convert_values(value):
    """_convert_to_ragged_tensor_values: a Tensor or RaggedTensor as it is, else a Tensor."""
    if isinstance(value, (Tensor, RaggedTensor)):
        return value
    return convert_to_tensor(value, name="values")


def nrows_of(tensor, out_type=dtypes.int32):
    if isinstance(tensor, RaggedTensor):
        return tensor.nrows(out_type=out_type)
    return array_ops.shape(tensor, out_type=out_type)[0]


def _partition_dtype(values):
    return values._row_partition.dtype if isinstance(values, RaggedTensor) else None


def is_ragged(value):
    return isinstance(value, RaggedTensor)


class RaggedTensor:
    """A tensor with one or more ragged dimensions: `values` split into rows."""

    def __init__(self, values, row_partition, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_partition = row_partition

    # ---- factories ----------------------------------------------------------------------
    @classmethod
    def _from_row_partition(cls, values, row_partition, validate=True):
        _check_validate(validate)
        if isinstance(values, RaggedTensor):
            if values._row_partition.dtype != row_partition.dtype:
                raise ValueError(
                    "Argument `row_partition` of RaggedTensor with name: partition must have "
                    "same dtype as Argument `values`. "
                    f"({row_partition.dtype} vs. {values._row_partition.dtype}).")
        else:
            values = convert_values(values)
        if row_partition.has_precomputed_value_rowids():
            values.shape[:1].assert_is_compatible_with(row_partition.value_rowids().shape)
        if validate:
            msg = "Arguments to _from_row_partition do not form a valid RaggedTensor"
            nvals = nrows_of(values, row_partition.dtype)
            checks = [check_ops.assert_equal(
                math_ops.cast(row_partition.nvals(), row_partition.dtype), nvals, message=msg)]
            if not isinstance(values, RaggedTensor):
                checks.append(check_ops.assert_rank_at_least(values, 1))
            row_partition = row_partition.with_dependencies(checks)
        return cls(values, row_partition, internal=True)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        _check_validate(validate)
        with name_scope(name, "RaggedFromValueRowIds", [values, value_rowids, nrows]):
            partition = RowPartition.from_value_rowids(
                value_rowids, nrows=nrows, validate=validate,
                dtype_hint=_partition_dtype(values))
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowSplits", [values, row_splits]):
            partition = RowPartition.from_row_splits(
                row_splits, validate=validate, dtype_hint=_partition_dtype(values))
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowLengths", [values, row_lengths]):
            partition = RowPartition.from_row_lengths(
                row_lengths, validate=validate, dtype_hint=_partition_dtype(values))
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowStarts", [values, row_starts]):
            values = convert_values(values)
            partition = RowPartition.from_row_starts(
                row_starts, nvals=nrows_of(values), validate=validate,
                dtype_hint=_partition_dtype(values))
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowLimits", [values, row_limits]):
            values = convert_values(values)
            partition = RowPartition.from_row_limits(
                row_limits, validate=validate, dtype_hint=_partition_dtype(values))
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        _check_validate(validate)
        with name_scope(name, "RaggedFromUniformRowLength",
                        [values, uniform_row_length, nrows]):
            values = convert_values(values)
            dtype = _partition_dtype(values)
            uniform_row_length = convert_partition(uniform_row_length, "UniformRowLength",
                                                   dtype)
            nvals = _nvals_uniform_row_length(values, uniform_row_length)
            partition = RowPartition.from_uniform_row_length(
                uniform_row_length, nvals=nvals, nrows=nrows, validate=validate,
                dtype_hint=dtype)
            return cls._from_row_partition(values, partition, validate=validate)

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        _check_validate(validate)
        if isinstance(nested_value_rowids, Tensor):
            raise TypeError(f"Argument `nested_value_rowids` must be a list of Tensors. "
                            f"Received {nested_value_rowids}.")
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        with name_scope(name, "RaggedFromNestedValueRowIds",
                        [flat_values] + list(nested_value_rowids) + list(nested_nrows)):
            result = flat_values
            for value_rowids, nrows in reversed(list(zip(nested_value_rowids,
                                                         nested_nrows))):
                result = cls.from_value_rowids(result, value_rowids, nrows,
                                               validate=validate)
            return result

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        _check_validate(validate)
        if isinstance(nested_row_splits, Tensor):
            raise TypeError(f"Argument `nested_row_splits` must be a list of Tensors. "
                            f"Received {nested_row_splits}.")
        with name_scope(name, "RaggedFromNestedRowSplits",
                        [flat_values] + list(nested_row_splits)):
            result = flat_values
            for splits in reversed(nested_row_splits):
                result = cls.from_row_splits(result, splits, validate=validate)
            return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        _check_validate(validate)
        if isinstance(nested_row_lengths, Tensor):
            raise TypeError(f"Argument `nested_row_lengths` must be a list of Tensors. "
                            f"Received {nested_row_lengths}.")
        with name_scope(name, "RaggedFromNestedRowlengths",
                        [flat_values] + list(nested_row_lengths)):
            result = flat_values
            for lengths in reversed(nested_row_lengths):
                result = cls.from_row_lengths(result, lengths, validate=validate)
            return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64):
        from engine.ops.ragged.conversion import from_tensor
        return from_tensor(cls, tensor, lengths, padding, ragged_rank, name, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        from engine.ops.ragged.conversion import from_sparse
        return from_sparse(cls, st_input, name, row_splits_dtype)

    # ---- properties ---------------------------------------------------------------------
    dtype = property(lambda self: self._values.dtype)
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_partition.row_splits())
    uniform_row_length = property(lambda self: self._row_partition.uniform_row_length())
    row_splits_dtype = property(lambda self: self._row_partition.dtype)

    @property
    def graph(self):
        return self.row_splits.graph

    @property
    def shape(self):
        nrows = self._row_partition.static_nrows
        ncols = self._row_partition.static_uniform_row_length
        return TensorShape([nrows, ncols]).concatenate(self._values.shape[1:])

    def get_shape(self):
        return self.shape

    @property
    def ragged_rank(self):
        if isinstance(self._values, RaggedTensor):
            return self._values.ragged_rank + 1
        return 1

    @property
    def _nested_row_partitions(self):
        partitions = [self._row_partition]
        values = self._values
        while isinstance(values, RaggedTensor):
            partitions.append(values._row_partition)
            values = values.values
        return tuple(partitions)

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        splits = [self.row_splits]
        values = self._values
        while isinstance(values, RaggedTensor):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    # ---- methods ------------------------------------------------------------------------
    def value_rowids(self, name=None):
        with name_scope(name, "RaggedValueRowIds", [self]):
            return self._row_partition.value_rowids()

    def nested_value_rowids(self, name=None):
        with name_scope(name, "RaggedNestedValueRowIds", [self]):
            ids = [self.value_rowids()]
            values = self._values
            while isinstance(values, RaggedTensor):
                ids.append(values.value_rowids())
                values = values.values
            return tuple(ids)

    def nrows(self, out_type=None, name=None):
        with name_scope(name, "RaggedNRows", [self]):
            if out_type is None:
                return self._row_partition.nrows()
            return math_ops.cast(self._row_partition.nrows(), dtype=out_type)

    def row_starts(self, name=None):
        with name_scope(name, "RaggedRowStarts", [self]):
            return self._row_partition.row_starts()

    def row_limits(self, name=None):
        with name_scope(name, "RaggedRowLimits", [self]):
            return self._row_partition.row_limits()

    def row_lengths(self, axis=1, name=None):
        from engine.ops.repeat_ops import get_positive_axis
        if axis == 0:
            return self._row_partition.nrows()
        if axis == 1:
            return self._row_partition.row_lengths()
        with name_scope(name, "RaggedRowLengths", [self]):
            axis = get_positive_axis(axis, self.shape.rank, ndims_name="rank(self)")
            if axis == 0:
                return self.nrows()
            if axis == 1:
                splits = self.row_splits
                return splits[1:] - splits[:-1]
            if isinstance(self._values, RaggedTensor):
                return self.with_values(self._values.row_lengths(axis - 1))
            shape = array_ops.shape(self._values, out_type=self._row_partition.dtype)
            return self.with_values(
                array_ops.ones(shape[:axis - 1], self._row_partition.dtype) * shape[axis - 1])

    def nested_row_lengths(self, name=None):
        with name_scope(name, "RaggedNestedRowLengths", [self]):
            lengths = []
            rt = self
            while isinstance(rt, RaggedTensor):
                lengths.append(rt.row_lengths())
                rt = rt.values
            return tuple(lengths)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        out_type = self._row_partition.dtype if out_type is None else dtypes.as_dtype(out_type)
        with name_scope(name, "RaggedBoundingBox", [self, axis]):
            nested_splits = self.nested_row_splits
            if isinstance(axis, int):
                if axis == 0:
                    return array_ops.shape(nested_splits[0], out_type=out_type)[0] - 1
                if axis == 1:
                    result = math_ops.maximum(math_ops.reduce_max(self.row_lengths()), 0)
                    if out_type != self._row_partition.dtype:
                        result = math_ops.cast(result, out_type)
                    return result
            splits_shape = array_ops.shape(self.row_splits, out_type=out_type)
            flat_values_shape = array_ops.shape(self.flat_values, out_type=out_type)
            ragged_dimensions = [splits_shape[0] - 1] + [
                math_ops.maximum(math_ops.reduce_max(splits[1:] - splits[:-1]), 0)
                for splits in nested_splits]
            inner_dimensions = flat_values_shape[1:]
            if out_type != self._row_partition.dtype:
                ragged_dimensions = [math_ops.cast(d, out_type) for d in ragged_dimensions]
            bbox = array_ops.concat([array_ops.stack(ragged_dimensions), inner_dimensions],
                                    axis=0)
            return bbox if axis is None else array_ops.gather(bbox, axis)

    def with_values(self, new_values):
        new_values = convert_values(new_values)
        new_values.shape.with_rank_at_least(1)
        self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
        if (isinstance(new_values, RaggedTensor)
                and self._row_partition.dtype != new_values.row_splits.dtype):
            raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to "
                             "compatible dtypes.")
        return RaggedTensor(new_values, self._row_partition, internal=True)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(convert_values(new_values))

    def with_row_splits_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits` dtype must be int32 or int64. "
                             f"Received {dtype}.")
        if self._row_partition.dtype == dtype:
            return self
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        return RaggedTensor(values, self._row_partition.with_dtype(dtype), internal=True)

    def merge_dims(self, outer_axis, inner_axis):
        from engine.ops.repeat_ops import get_positive_axis
        outer_axis = get_positive_axis(outer_axis, self.shape.rank, axis_name="outer_axis",
                                       ndims_name="rank(self)")
        inner_axis = get_positive_axis(inner_axis, self.shape.rank, axis_name="inner_axis",
                                       ndims_name="rank(self)")
        if not outer_axis <= inner_axis:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to "
                             f"inner_axis ({inner_axis}).")
        return merge_dims(self, outer_axis, inner_axis)

    def to_tensor(self, default_value=None, name=None, shape=None):
        from engine.ops.ragged.conversion import to_tensor
        return to_tensor(self, default_value, name, shape)

    def to_sparse(self, name=None):
        from engine.framework.sparse_tensor import SparseTensor
        with name_scope(name, "RaggedToSparse", [self]):
            indices, values, dense_shape = apply_op(
                "RaggedTensorToSparse", rt_nested_splits=list(self.nested_row_splits),
                rt_dense_values=self.flat_values, name=name)
            return SparseTensor(indices, values, dense_shape)

    def to_list(self):
        raise ValueError("to_list can only be used in eager mode.")

    def numpy(self):
        raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")

    def consumers(self):
        return self._consumers()

    def _consumers(self):
        from engine.ops.nest import flatten
        return [op for t in flatten(self._fetch_tensors()) for op in t.consumers()]

    def _fetch_tensors(self):
        """The nested row splits and the flat values, as Session.run fetches them."""
        return list(self.nested_row_splits) + [self.flat_values]

    def _feed_components(self):
        return tuple(self._fetch_tensors()), "RaggedTensorValue"

    def __repr__(self):
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self.row_splits)

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    __hash__ = object.__hash__


def _nvals_uniform_row_length(values, uniform_row_length):
    const_nvals = values.shape.dims[0].value if values.shape.ndims else None
    if const_nvals is not None:
        return constant(const_nvals, uniform_row_length.dtype)
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=uniform_row_length.dtype)
    return array_ops.shape(values, out_type=uniform_row_length.dtype)[0]


def merge_dims(value, outer_axis, inner_axis):
    if outer_axis == inner_axis:
        return value
    while outer_axis == 0 and isinstance(value, RaggedTensor):
        value = value.values
        inner_axis -= 1
        if inner_axis == 0:
            return value
    if not isinstance(value, RaggedTensor):
        if value.shape.is_fully_defined():
            old_shape = value.shape.as_list()
            new_shape = old_shape[:outer_axis] + [-1] + old_shape[inner_axis + 1:]
        else:
            old_shape = array_ops.shape(value)
            new_shape = array_ops.concat(
                [old_shape[:outer_axis], [-1], old_shape[inner_axis + 1:]], axis=0)
        return array_ops.reshape(value, new_shape)
    if outer_axis > 1:
        return value.with_values(merge_dims(value.values, outer_axis - 1, inner_axis - 1))
    new_values = value.values
    new_splits = value.row_splits
    for axis in range(outer_axis, inner_axis):
        if isinstance(new_values, RaggedTensor):
            new_splits = array_ops.gather(new_values.row_splits, new_splits)
            new_values = new_values.values
        else:
            shape_split = inner_axis - axis + 1
            if new_values.shape.is_fully_defined():
                old_shape = new_values.shape.as_list()
                new_shape = [-1] + old_shape[shape_split:]
                flat_size = int(np.prod(old_shape[1:shape_split], dtype=np.int64))
            else:
                old_shape = array_ops.shape(new_values)
                new_shape = array_ops.concat([[-1], old_shape[shape_split:]], axis=0)
                flat_size = math_ops.cast(math_ops.reduce_prod(old_shape[1:shape_split]),
                                          new_splits.dtype)
            new_values = array_ops.reshape(new_values, new_shape)
            new_splits = new_splits * flat_size
            break
    return RaggedTensor.from_row_splits(new_values, new_splits)
