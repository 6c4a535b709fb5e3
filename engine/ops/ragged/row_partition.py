"""RowPartition (row_partition.py): how a RaggedTensor's values split into rows, with
TensorFlow's validation checks and name scopes, so the graphs hold TensorFlow's nodes."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor


def assert_monotonic_increasing(tensor, message=None):
    return check_ops.assert_non_negative(tensor[1:] - tensor[:-1], message=message)


def assert_zero(tensor, message=None):
    return check_ops.assert_equal(tensor, constant(0, dtype=tensor.dtype), message=message)


def convert_partition(partition, name, dtype=None, dtype_hint=None):
    """_convert_row_partition: int64 unless told (an int32 NumPy array stays int32)."""
    if dtype_hint is None:
        dtype_hint = dtypes.int64
    if isinstance(partition, np.ndarray) and partition.dtype == np.int32 and dtype is None:
        partition = convert_to_tensor(partition, name=name)
    else:
        partition = convert_to_tensor(partition, dtype=dtype, dtype_hint=dtype_hint, name=name)
    if partition.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"{name} must have dtype int32 or int64")
    return partition


def _convert_all(values, dtype=None, dtype_hint=None):
    """_convert_all_to_tensors: one dtype for all (the first Tensor's, else int64)."""
    target = dtype
    if target is None:
        target = next((v.dtype for v, _ in values if isinstance(v, Tensor)), None)
    if target is None:
        target = next((dtypes.as_dtype(v.dtype) for v, _ in values
                       if isinstance(v, np.ndarray)), None)
    if target is None:
        target = dtype_hint or dtypes.int64
    if dtype is None:
        return [None if v is None else convert_to_tensor(v, dtype=target, name=name)
                for v, name in values]
    return [None if v is None else math_ops.cast(v, dtype=target, name=name)
            for v, name in values]


def _check_validate(validate):
    if not isinstance(validate, bool):
        raise TypeError("validate must have type bool")


class RowPartition:
    """Row splits and whatever encodings of them a factory already computed."""

    def __init__(self, row_splits, row_lengths=None, value_rowids=None, nrows=None,
                 uniform_row_length=None, nvals=None):
        self._row_splits = row_splits
        self._row_lengths = row_lengths
        self._value_rowids = value_rowids
        self._nrows = nrows
        self._uniform_row_length = uniform_row_length
        self._nvals = nvals

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        _check_validate(validate)
        if isinstance(row_splits, (list, tuple)) and not row_splits:
            raise ValueError("row_splits tensor may not be empty.")
        with name_scope(None, "RowPartitionFromRowSplits", [row_splits]):
            row_splits = convert_partition(row_splits, "row_splits", dtype, dtype_hint)
            row_splits.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_splits do not form a valid RaggedTensor:"
                checks = [check_ops.assert_rank(row_splits, 1, message=msg + "rank"),
                          assert_zero(row_splits[0], message=msg + "zero"),
                          assert_monotonic_increasing(row_splits, message=msg + "monotonic")]
                row_splits = with_dependencies(checks, row_splits)
            return cls(row_splits)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        _check_validate(validate)
        with name_scope(None, "RowPartitionFromRowLengths", [row_lengths]):
            row_lengths = convert_partition(row_lengths, "row_lengths", dtype, dtype_hint)
            row_lengths.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_lengths do not form a valid RowPartition"
                checks = [check_ops.assert_rank(row_lengths, 1, message=msg),
                          check_ops.assert_non_negative(row_lengths, message=msg)]
                row_lengths = with_dependencies(checks, row_lengths)
            row_limits = math_ops.cumsum(row_lengths)
            row_splits = array_ops.concat([[0], row_limits], axis=0)
            return cls(row_splits, row_lengths=row_lengths)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None,
                          dtype_hint=None):
        from engine.ops.segment_ops import bincount
        _check_validate(validate)
        with name_scope(None, "RowPartitionFromValueRowIds", [value_rowids, nrows]):
            value_rowids = convert_partition(value_rowids, "value_rowids", dtype, dtype_hint)
            if nrows is None:
                const_rowids = constant_value(value_rowids)
                if const_rowids is None:
                    nrows = array_ops.concat([value_rowids[-1:], [-1]], axis=0)[0] + 1
                    const_nrows = None
                else:
                    const_nrows = const_rowids[-1] + 1 if const_rowids.size > 0 else 0
                    nrows = convert_to_tensor(const_nrows, value_rowids.dtype, name="nrows")
            else:
                nrows = convert_to_tensor(nrows, value_rowids.dtype, "nrows")
                const_nrows = constant_value(nrows)
                if const_nrows is not None:
                    if const_nrows < 0:
                        raise ValueError("Expected nrows >= 0; got %d" % const_nrows)
                    const_rowids = constant_value(value_rowids)
                    if const_rowids is not None and const_rowids.size > 0:
                        if not const_nrows >= const_rowids[-1] + 1:
                            raise ValueError(
                                "Expected nrows >= value_rowids[-1] + 1; got nrows=%d, "
                                "value_rowids[-1]=%d" % (const_nrows, const_rowids[-1]))
            value_rowids.shape.assert_has_rank(1)
            nrows.shape.assert_has_rank(0)
            if validate:
                msg = "Arguments to from_value_rowids do not form a valid RowPartition"
                checks = [check_ops.assert_rank(value_rowids, 1, message=msg),
                          check_ops.assert_rank(nrows, 0, message=msg),
                          check_ops.assert_non_negative(value_rowids[:1], message=msg),
                          assert_monotonic_increasing(value_rowids, message=msg),
                          check_ops.assert_less(value_rowids[-1:], nrows, message=msg)]
                value_rowids = with_dependencies(checks, value_rowids)
            value_rowids_int32 = math_ops.cast(value_rowids, dtypes.int32)
            nrows_int32 = math_ops.cast(nrows, dtypes.int32)
            row_lengths = bincount(value_rowids_int32, minlength=nrows_int32,
                                   maxlength=nrows_int32, dtype=value_rowids.dtype)
            row_splits = array_ops.concat([[0], math_ops.cumsum(row_lengths)], axis=0)
            if const_nrows is not None:
                row_lengths.set_shape([const_nrows])
                row_splits.set_shape([const_nrows + 1])
            return cls(row_splits, row_lengths=row_lengths, value_rowids=value_rowids,
                       nrows=nrows)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None):
        _check_validate(validate)
        with name_scope(None, "RowPartitionFromRowStarts", [row_starts]):
            row_starts = convert_partition(row_starts, "row_starts", dtype, dtype_hint)
            row_starts.shape.assert_has_rank(1)
            nvals = math_ops.cast(nvals, row_starts.dtype)
            if validate:
                msg = "Arguments to from_row_starts do not form a valid RaggedTensor"
                checks = [check_ops.assert_rank(row_starts, 1, message=msg),
                          assert_zero(row_starts[:1], message=msg),
                          assert_monotonic_increasing(row_starts, message=msg),
                          check_ops.assert_less_equal(row_starts[-1:], nvals, message=msg)]
                row_starts = with_dependencies(checks, row_starts)
            row_splits = array_ops.concat([row_starts, [nvals]], axis=0)
            return cls(row_splits, nvals=nvals)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None):
        _check_validate(validate)
        with name_scope(None, "RowPartitionFromRowLimits", [row_limits]):
            row_limits = convert_partition(row_limits, "row_limits", dtype, dtype_hint)
            row_limits.shape.assert_has_rank(1)
            if validate:
                msg = "Arguments to from_row_limits do not form a valid RaggedTensor"
                checks = [check_ops.assert_rank(row_limits, 1, message=msg),
                          check_ops.assert_non_negative(row_limits[:1], message=msg),
                          assert_monotonic_increasing(row_limits, message=msg)]
                row_limits = with_dependencies(checks, row_limits)
            zero = array_ops.zeros([1], row_limits.dtype)
            row_splits = array_ops.concat([zero, row_limits], axis=0)
            return cls(row_splits)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None,
                                validate=True, dtype=None, dtype_hint=None):
        _check_validate(validate)
        if nrows is None and nvals is None:
            raise ValueError("Either (or both) of nvals and nrows must be specified")
        with name_scope(None, "RowPartitionFromUniformRowLength", [uniform_row_length, nrows]):
            uniform_row_length, nvals, nrows = _convert_all(
                [(uniform_row_length, "uniform_row_length"), (nvals, "nvals"),
                 (nrows, "nrows")], dtype=dtype, dtype_hint=dtype_hint)
            uniform_row_length.shape.assert_has_rank(0)
            const_row_length = constant_value(uniform_row_length)
            if nrows is None:
                if const_row_length is None:
                    rowlen_or_1 = math_ops.maximum(uniform_row_length,
                                                   constant(1, uniform_row_length.dtype))
                    nrows = nvals // rowlen_or_1
                elif const_row_length == 0:
                    nrows = constant(0, dtype=uniform_row_length.dtype)
                else:
                    nrows = nvals // const_row_length
            const_nrows = None if nrows is None else constant_value(nrows)
            const_nvals = None if nvals is None else constant_value(nvals)
            checks = []
            if const_nvals is None and const_nrows is not None and const_row_length is not None:
                const_nvals = const_nrows * const_row_length
                if nvals is not None and validate:
                    checks.append(check_ops.assert_equal(nvals, const_nvals))
                nvals = constant(const_nvals, uniform_row_length.dtype)
            if nvals is None:
                nvals = nrows * uniform_row_length
            if const_nrows is not None and const_row_length is not None:
                row_splits = constant([v * int(const_row_length)
                                       for v in range(int(const_nrows) + 1)],
                                      uniform_row_length.dtype)
            else:
                row_splits = math_ops.range(nrows + 1, dtype=uniform_row_length.dtype) \
                    * uniform_row_length
            if validate:
                if const_nrows is None or const_row_length is None or const_nvals is None:
                    checks.append(check_ops.assert_equal(
                        nrows * uniform_row_length, nvals,
                        ("uniform_row_length", uniform_row_length, "times nrows", nrows,
                         "must equal nvals", nvals)))
                elif const_nrows * const_row_length != const_nvals:
                    raise ValueError("uniform_row_length=%d times nrows=%d must equal nvals=%d"
                                     % (const_row_length, const_nrows, const_nvals))
                if uniform_row_length.shape.rank is None:
                    checks.append(check_ops.assert_rank(
                        uniform_row_length, 0, message="uniform_row_length must be a scalar."))
                if const_row_length is None:
                    checks.append(check_ops.assert_greater_equal(
                        uniform_row_length, constant(0, uniform_row_length.dtype),
                        message="uniform_row_length must be >= 0."))
                elif const_row_length < 0:
                    raise ValueError("uniform_row_length must be >= 0.")
                row_splits = with_dependencies(checks, row_splits)
            return cls(row_splits, uniform_row_length=uniform_row_length, nrows=nrows,
                       nvals=nvals)

    @property
    def dtype(self):
        return self._row_splits.dtype

    def row_splits(self):
        return self._row_splits

    def has_precomputed_value_rowids(self):
        return self._value_rowids is not None

    def value_rowids(self):
        if self._value_rowids is not None:
            return self._value_rowids
        from engine.ops.ragged.segment_ids import row_splits_to_segment_ids
        return row_splits_to_segment_ids(self._row_splits)

    def nvals(self):
        return self._row_splits[-1]

    def nrows(self):
        if self._nrows is not None:
            return self._nrows
        nsplits = self._row_splits.shape.dims[0].value if self._row_splits.shape.ndims else None
        if nsplits is None:
            return array_ops.shape(self._row_splits, out_type=self.dtype)[0] - 1
        return constant(nsplits - 1, dtype=self.dtype)

    def uniform_row_length(self):
        return self._uniform_row_length

    def row_starts(self):
        return self._row_splits[:-1]

    def row_limits(self):
        return self._row_splits[1:]

    def row_lengths(self):
        if self._row_lengths is not None:
            return self._row_lengths
        splits = self._row_splits
        return splits[1:] - splits[:-1]

    @property
    def static_nrows(self):
        if self._row_splits.shape.ndims:
            value = self._row_splits.shape.dims[0].value
            if value is not None:
                return value - 1
        if self._row_lengths is not None and self._row_lengths.shape.ndims:
            value = self._row_lengths.shape.dims[0].value
            if value is not None:
                return value
        if self._nrows is not None:
            value = constant_value(self._nrows)
            return None if value is None else int(value)
        return None

    @property
    def static_uniform_row_length(self):
        if self._uniform_row_length is not None:
            value = constant_value(self._uniform_row_length)
            return None if value is None else int(value)
        return None

    def with_dependencies(self, dependencies):
        return RowPartition(with_dependencies(dependencies, self._row_splits),
                            row_lengths=self._row_lengths, value_rowids=self._value_rowids,
                            nrows=self._nrows, uniform_row_length=self._uniform_row_length)

    def with_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        if dtype == self.dtype:
            return self

        def cast(t):
            return None if t is None else math_ops.cast(t, dtype)
        return RowPartition(cast(self._row_splits), row_lengths=cast(self._row_lengths),
                            value_rowids=cast(self._value_rowids), nrows=cast(self._nrows),
                            uniform_row_length=cast(self._uniform_row_length))

    def merge_precomputed_encodings(self, other, validate=True):
        """One partition for two that must be equal (asserted where they are different
        tensors), as _merge_precomputed_encodings merges an elementwise op's operands'."""
        fields = ("_row_splits", "_row_lengths", "_value_rowids", "_nrows", "_nvals",
                  "_uniform_row_length")
        if self is other or all(getattr(self, f) is getattr(other, f) for f in fields):
            return self
        nrows, nrows_validated = _merge_tensors(self._nrows, other._nrows, "nrows", validate)
        nvals, _ = _merge_tensors(self._nvals, other._nvals, "nvals", validate)
        uniform, uniform_validated = _merge_tensors(
            self._uniform_row_length, other._uniform_row_length, "uniform_row_length", validate)
        if uniform_validated and nrows_validated:
            validate = False
        row_splits, validated = _merge_tensors(self._row_splits, other._row_splits,
                                               "row_splits", validate)
        if validated:
            validate = False
        row_lengths, validated = _merge_tensors(self._row_lengths, other._row_lengths,
                                                "row_lengths", validate)
        if validated:
            validate = False
        value_rowids, _ = _merge_tensors(self._value_rowids, other._value_rowids,
                                         "value_rowids", validate)
        merged = (row_splits, row_lengths, value_rowids, nrows, uniform)
        for candidate in (self, other):
            if all(a is getattr(candidate, f) for a, f in zip(
                    merged, ("_row_splits", "_row_lengths", "_value_rowids", "_nrows",
                             "_uniform_row_length"))):
                return candidate
        return RowPartition(row_splits, row_lengths=row_lengths, value_rowids=value_rowids,
                            nrows=nrows, uniform_row_length=uniform, nvals=nvals)


def _merge_tensors(t1, t2, name, validate):
    if t1 is None:
        return t2, False
    if t2 is None:
        return t1, False
    if t1 is t2:
        return t1, True
    err_msg = ("RowPartition._merge_precomputed_encodings: partitions have incompatible "
               f"{name}")
    if not t1.shape.is_compatible_with(t2.shape):
        raise ValueError(err_msg)
    if validate:
        checks = [check_ops.assert_equal(t1, t2, message=err_msg)]
        return with_dependencies(checks, t1), True
    return t1, False
