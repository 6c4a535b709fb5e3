"""tf.io.RaggedFeature (parsing_config.py): a feature parsed into a RaggedTensor, its values
and partitions read as ragged keys of ParseExampleV2, joined as TensorFlow joins them."""

import collections

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.ragged.ragged_math import reduce_max
from engine.ops.ragged.ragged_tensor import RaggedTensor
from engine.ops.repeat_ops import repeat


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype",
                          "validate"])):
    """A feature whose values (and partition keys) become a RaggedTensor."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    _PARTITION_TYPES = (RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds,
                        UniformRowLength)

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        if value_key is not None:
            if not isinstance(value_key, str):
                raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
            if not value_key:
                raise ValueError("Argument `value_key` must not be empty")
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError("Argument `dtype` must be int64, float32, or bytes; got "
                             f"{dtype!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("Argument `row_splits_dtype` must be int32 or int64; got"
                             f"{row_splits_dtype!r}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError("Argument `partitions` must be a list or tuple. Received"
                            f"partitions={partitions} of type {type(partitions).__name__}.")
        for partition in partitions:
            if not isinstance(partition, cls._PARTITION_TYPES):
                raise TypeError("Argument `partitions` cannot be cast to any of the "
                                f"partition types in {cls._PARTITION_TYPES}; got: "
                                f"{partition!r} with type {type(partition)}")
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


def add_ragged_feature(params, key, feature):
    """_add_ragged_feature: the value key, then each partition's key (int64)."""
    value_key = key if feature.value_key is None else feature.value_key
    _add_ragged_key(params, value_key, feature.dtype, feature.row_splits_dtype)
    for partition in feature.partitions:
        if not isinstance(partition, RaggedFeature.UniformRowLength):
            _add_ragged_key(params, partition.key, dtypes.int64, feature.row_splits_dtype)


def _add_ragged_key(params, key, value_type, split_type):
    if key in params.ragged_keys:
        index = params.ragged_keys.index(key)
        if params.ragged_value_types[index] != value_type:
            raise ValueError(f"Conflicting type {params.ragged_value_types[index]} vs "
                             f"{value_type} for feature {key}.")
        if params.ragged_split_types[index] != split_type:
            raise ValueError(f"Conflicting partition type {params.ragged_split_types[index]} "
                             f"vs {split_type} for feature {key}.")
    else:
        params.ragged_keys.append(key)
        params.ragged_value_types.append(value_type)
        params.ragged_split_types.append(split_type)


def build_ragged_tensors(serialized_shape, ragged_values, ragged_row_splits):
    """_build_ragged_tensors: a batch's as RaggedTensors, one example's values as they are."""
    if serialized_shape.ndims == 0:
        return list(ragged_values)
    return [RaggedTensor.from_row_splits(values, splits, validate=False)
            for values, splits in zip(ragged_values, ragged_row_splits)]


def construct_ragged_features(features, tensor_dict):
    """Each RaggedFeature's RaggedTensor: its values with its partitions added."""
    updates = {}
    for key in sorted(features):
        feature = features[key]
        if not isinstance(feature, RaggedFeature):
            continue
        value_key = key if feature.value_key is None else feature.value_key
        rt = tensor_dict[value_key]
        if isinstance(rt, RaggedTensor):
            outer_splits = None
            if rt.ragged_rank > 1:
                outer_splits = rt.row_splits
                rt = rt.values
            for partition in reversed(feature.partitions):
                rt = _add_batched_partition(rt, partition, tensor_dict, key, feature.validate,
                                            outer_splits)
            if outer_splits is not None:
                rt = RaggedTensor.from_row_splits(rt, outer_splits, validate=feature.validate)
        else:
            for partition in reversed(feature.partitions):
                rt = _add_partition(rt, partition, tensor_dict, feature.row_splits_dtype,
                                    feature.validate)
        updates[key] = rt
    return updates


def _add_partition(values, partition, tensor_dict, row_splits_dtype, validate):
    if isinstance(partition, RaggedFeature.UniformRowLength):
        if isinstance(values, RaggedTensor):
            length = convert_to_tensor(partition.length, dtype=row_splits_dtype)
            return RaggedTensor.from_uniform_row_length(values, length, validate=validate)
        return array_ops.reshape(values, array_ops.concat(
            [[-1, partition.length], array_ops.shape(values)[1:]], axis=0))
    partition_t = math_ops.cast(tensor_dict[partition.key], row_splits_dtype)
    factory = {RaggedFeature.RowSplits: RaggedTensor.from_row_splits,
               RaggedFeature.RowLengths: RaggedTensor.from_row_lengths,
               RaggedFeature.RowStarts: RaggedTensor.from_row_starts,
               RaggedFeature.RowLimits: RaggedTensor.from_row_limits,
               RaggedFeature.ValueRowIds: RaggedTensor.from_value_rowids}[type(partition)]
    return factory(values, partition_t, validate=validate)


def _add_batched_partition(rt, partition, tensor_dict, feature_key, validate,
                           outer_splits=None):
    if isinstance(partition, RaggedFeature.UniformRowLength):
        if rt.ragged_rank > 1:
            length = convert_to_tensor(partition.length, rt.row_splits.dtype)
            return RaggedTensor.from_row_splits(
                RaggedTensor.from_uniform_row_length(rt.values, length, validate=validate),
                rt.row_splits // length, validate=validate)
        reshaped = array_ops.reshape(rt.values, array_ops.concat(
            [[-1, partition.length], array_ops.shape(rt.values)[1:]], axis=0))
        return RaggedTensor.from_row_splits(reshaped, rt.row_splits // partition.length,
                                            validate=validate)
    partition_t = tensor_dict[partition.key]
    if partition_t.values.dtype != rt.row_splits.dtype:
        partition_t = math_ops.cast(partition_t, rt.row_splits.dtype)
    checks = []
    if outer_splits is not None:
        if validate:
            checks.append(check_ops.assert_equal(
                outer_splits, partition_t.row_splits,
                message="Feature %s: values and partitions are not aligned" % feature_key))
        partition_t = partition_t.values
    with get_default_graph().control_dependencies(checks):
        if isinstance(partition, (RaggedFeature.RowSplits, RaggedFeature.RowLimits)):
            if isinstance(partition, RaggedFeature.RowSplits):
                partition_t = partition_t[:, 1:]
            adjusted_limits = partition_t.values + repeat(rt.row_starts(),
                                                          partition_t.row_lengths())
            return partition_t.with_values(
                RaggedTensor.from_row_limits(rt.values, adjusted_limits, validate=validate))
        if isinstance(partition, RaggedFeature.RowStarts):
            adjusted_starts = partition_t.values + repeat(rt.row_starts(),
                                                          partition_t.row_lengths())
            return partition_t.with_values(
                RaggedTensor.from_row_starts(rt.values, adjusted_starts, validate=validate))
        if isinstance(partition, RaggedFeature.RowLengths):
            return partition_t.with_values(
                RaggedTensor.from_row_lengths(rt.values, partition_t.values,
                                              validate=validate))
        if isinstance(partition, RaggedFeature.ValueRowIds):
            nrows = math_ops.maximum(reduce_max(partition_t + 1, axis=1), 0)
            adjusted_rowids = partition_t.values + repeat(
                math_ops.cumsum(nrows, exclusive=True), partition_t.row_lengths())
            return RaggedTensor.from_row_lengths(
                RaggedTensor.from_value_rowids(rt.values, adjusted_rowids, validate=validate),
                nrows, validate=validate)
    raise ValueError(f"Unhandled partition type {partition!r}")
