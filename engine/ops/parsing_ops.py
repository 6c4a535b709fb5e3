"""tf.parse_example and tf.parse_single_example with FixedLenFeature and VarLenFeature, as
TensorFlow builds them (parsing_ops.py, parsing_config.py): one ParseExampleV2 node fed the
sorted keys and the dense defaults, its sparse outputs wrapped as SparseTensors.

FixedLenSequenceFeature (allow_missing) is a dense key whose first dimension is None: the
kernel pads each example's values to the batch's longest with the feature's default_value.
parse_sequence_example and parse_single_sequence_example build one ParseSequenceExampleV2
node (context: VarLenFeature, FixedLenFeature; feature lists: VarLenFeature,
FixedLenSequenceFeature). RaggedFeature (parse_example, parse_single_example) is in
engine/ops/ragged/parsing.py.
"""

import collections
import re

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.logging_ops import Assert
from engine.ops.op_def_library import apply_op
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import as_shape


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length per example, parsed into a SparseTensor."""


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a fixed shape, parsed into a dense Tensor (default_value where missing)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor built from an Example's index feature(s) and value feature
    (tf.sparse.merge of the VarLenFeatures parsed for them); size is the dense shape."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature of any number of `shape`-shaped values per example, parsed into a dense
    Tensor padded with default_value (0 or "" if None); parse_example needs allow_missing."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


def _prepend_none_dimension(features):
    """The features, each FixedLenSequenceFeature's shape with a leading None."""
    if not features:
        return features
    modified = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires "
                                 "allow_missing to be True.")
            modified[key] = FixedLenSequenceFeature([None] + list(feature.shape), feature.dtype,
                                                    feature.allow_missing,
                                                    feature.default_value)
    return modified


class _ParseOpParams:
    """The sparse and dense keys, types, shapes and defaults of a feature dict, keys sorted."""

    def __init__(self):
        self.sparse_keys, self.sparse_types = [], []
        self.dense_keys, self.dense_types, self.dense_shapes = [], [], []
        self.dense_defaults = {}
        self.ragged_keys, self.ragged_value_types, self.ragged_split_types = [], [], []

    @classmethod
    def from_features(cls, features):
        params = cls()
        for key in sorted(features):
            feature = features[key]
            if isinstance(feature, VarLenFeature):
                params._add_varlen(key, feature)
            elif isinstance(feature, FixedLenFeature):
                params._add_fixed_len(key, feature)
            elif isinstance(feature, FixedLenSequenceFeature):
                params._add_fixed_len_sequence(key, feature)
            elif isinstance(feature, SparseFeature):
                params._add_sparse_feature(key, feature)
            elif isinstance(feature, _ragged_parsing().RaggedFeature):
                _ragged_parsing().add_ragged_feature(params, key, feature)
            else:
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                                 f"'{key}'")
        return params

    def _add_varlen(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
        self.sparse_keys.append(key)
        self.sparse_types.append(dtypes.as_dtype(feature.dtype))

    def _add_fixed_len(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = as_shape(feature.shape)
        if feature.shape and shape.ndims and shape.dims[0].value is None:
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider "
                             f"using FixedLenSequenceFeature. Received feature={feature}.")
        if not shape.is_fully_defined():
            raise ValueError(f"All dimensions of shape for feature {key} need to be known "
                             f"but received {feature.shape!s}.")
        self.dense_keys.append(key)
        self.dense_shapes.append(shape)
        self.dense_types.append(dtypes.as_dtype(feature.dtype))
        if feature.default_value is not None:
            self.dense_defaults[key] = feature.default_value

    def _add_sparse_key(self, key, dtype):
        if key in self.sparse_keys:
            original = self.sparse_types[self.sparse_keys.index(key)]
            if original != dtype:
                raise ValueError(f"Conflicting type {original} vs {dtype} for feature {key}.")
        else:
            self.sparse_keys.append(key)
            self.sparse_types.append(dtype)

    def _add_sparse_feature(self, key, feature):
        if not feature.index_key:
            raise ValueError(f"Missing index_key for SparseFeature {feature}.")
        if not feature.value_key:
            raise ValueError(f"Missing value_key for SparseFeature {feature}.")
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        index_keys = feature.index_key
        if isinstance(index_keys, str):
            index_keys = [index_keys]
        for index_key in sorted(index_keys):
            self._add_sparse_key(index_key, dtypes.int64)
        self._add_sparse_key(feature.value_key, dtypes.as_dtype(feature.dtype))

    def _add_fixed_len_sequence(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        self.dense_keys.append(key)
        self.dense_shapes.append(as_shape(feature.shape))
        self.dense_types.append(dtypes.as_dtype(feature.dtype))
        if feature.allow_missing:
            self.dense_defaults[key] = None
        if feature.default_value is not None:
            self.dense_defaults[key] = feature.default_value

    def dense_defaults_vec(self):
        """One tensor per dense key: its default reshaped to the feature's shape, or an empty
        constant (the feature is required)."""
        defaults = []
        for key, shape, dtype in zip(self.dense_keys, self.dense_shapes, self.dense_types):
            default = self.dense_defaults.get(key)
            if shape.ndims and shape.dims[0].value is None:
                # A sequence feature's default is its scalar padding value.
                if default is None:
                    default = convert_to_tensor("" if dtype == dtypes.string else 0,
                                                dtype=dtype)
                else:
                    key_name = "padding_" + re.sub("[^A-Za-z0-9_.\\-/]", "_", key)
                    default = convert_to_tensor(default, dtype=dtype, name=key_name)
                    default = array_ops.reshape(default, [])
            elif default is None:
                default = constant([], dtype=dtype)
            elif not isinstance(default, Tensor):
                key_name = "key_" + re.sub("[^A-Za-z0-9_.\\-/]", "_", key)
                default = convert_to_tensor(default, dtype=dtype, name=key_name)
                default = array_ops.reshape(default, shape)
            defaults.append(default)
        return defaults


def parse_example(serialized, features, name=None, example_names=None):
    """{key: Tensor (FixedLenFeature) or SparseTensor (VarLenFeature)} of a batch (vector) of
    serialized tf.train.Examples."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    params = _ParseOpParams.from_features(_prepend_none_dimension(features))
    if not params.sparse_keys and not params.dense_keys and not params.ragged_keys:
        raise ValueError("Must provide at least one feature key.")
    with name_scope(name, "ParseExample", [serialized, example_names]):
        names = [] if example_names is None else example_names
        serialized = convert_to_tensor(serialized, name="serialized")
        num_sparse, num_dense = len(params.sparse_keys), len(params.dense_keys)
        outputs = apply_op("ParseExampleV2", serialized=serialized, names=names,
                           sparse_keys=params.sparse_keys, dense_keys=params.dense_keys,
                           ragged_keys=params.ragged_keys,
                           dense_defaults=params.dense_defaults_vec(),
                           num_sparse=num_sparse, sparse_types=params.sparse_types,
                           ragged_value_types=params.ragged_value_types,
                           ragged_split_types=params.ragged_split_types,
                           dense_shapes=params.dense_shapes, name=name)
        if not isinstance(outputs, list):
            outputs = [outputs]
        indices = outputs[:num_sparse]
        values = outputs[num_sparse:2 * num_sparse]
        shapes = outputs[2 * num_sparse:3 * num_sparse]
        dense = outputs[3 * num_sparse:3 * num_sparse + num_dense]
        num_ragged = len(params.ragged_keys)
        ragged_start = 3 * num_sparse + num_dense
        ragged = _ragged_parsing().build_ragged_tensors(
            serialized.shape, outputs[ragged_start:ragged_start + num_ragged],
            outputs[ragged_start + num_ragged:ragged_start + 2 * num_ragged])
        sparse = [SparseTensor(i, v, s) for i, v, s in zip(indices, values, shapes)]
        outputs = dict(zip(params.sparse_keys + params.dense_keys + params.ragged_keys,
                           sparse + dense + ragged))
    return _construct_sparse_features(features, outputs)


def _ragged_parsing():
    """engine/ops/ragged/parsing.py (RaggedFeature), imported when first needed."""
    from engine.ops.ragged import parsing
    return parsing


def _construct_sparse_features(features, tensor_dict):
    """Each SparseFeature's SparseTensor (tf.sparse.merge of its index and value keys); the
    keys the features did not ask for dropped."""
    from engine.ops.sparse_ops import sparse_merge

    tensor_dict = dict(tensor_dict)
    updates = {}
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, SparseFeature):
            if isinstance(feature.index_key, str):
                ids = tensor_dict[feature.index_key]
            else:
                ids = [tensor_dict[index_key] for index_key in feature.index_key]
            updates[key] = sparse_merge(ids, tensor_dict[feature.value_key],
                                        vocab_size=feature.size,
                                        already_sorted=feature.already_sorted)
    tensor_dict.update(updates)
    tensor_dict.update(_ragged_parsing().construct_ragged_features(features, tensor_dict))
    for key in set(tensor_dict) - set(features):
        del tensor_dict[key]
    return tensor_dict


def _assert_scalar(value, name):
    rank = value.shape.ndims
    if rank is None:
        check = Assert(math_ops.equal(array_ops.rank(value), 0),
                       [f"Input {name} must be a scalar"], name=f"{name.capitalize()}IsScalar")
        result = with_dependencies([check], value, name=f"{name}Dependencies")
        result.set_shape([])
        return result
    if rank == 0:
        return value
    raise ValueError(f"Input {name} must be a scalar")


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None,
               bytes=None):  # noqa: A002
    """Each string's bytes as numbers of out_type: one more dimension, the count per string."""
    if input_bytes is None:
        input_bytes = bytes
    return apply_op("DecodeRaw", bytes=input_bytes, out_type=out_type,
                    little_endian=little_endian, name=name)


NotDifferentiable("DecodeRaw")


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """One tensor per column of the CSV records, each of the records' shape; a column's
    record_defaults entry is its type and the value of an empty field ([] if required)."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1]
                                       for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    return apply_op("DecodeCSV", records=records, record_defaults=record_defaults,
                    field_delim=field_delim, use_quote_delim=use_quote_delim,
                    na_value=na_value, select_cols=select_cols, name=name)


def parse_single_example(serialized, features, name=None, example_names=None):
    """parse_example of one serialized Example (a scalar): no batch dimension."""
    if features is None:
        raise ValueError("Invalid argument: features cannot be None.")
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    with name_scope(name, "ParseSingleExample", [serialized, example_names]):
        serialized = convert_to_tensor(serialized, name="serialized")
        serialized = _assert_scalar(serialized, "serialized")
        return parse_example(serialized, features, example_names=example_names)


def _parse_sequence_example_raw(serialized, debug_name, context, feature_list, name=None):
    """One ParseSequenceExampleV2 node: (context dict, feature-list dict, dense lengths)."""
    if not (context.sparse_keys or context.dense_keys or feature_list.sparse_keys
            or feature_list.dense_keys):
        raise ValueError("Must provide at least one feature key.")
    with name_scope(name, "ParseSequenceExample", [serialized]):
        debug_name = [] if debug_name is None else debug_name
        assumed_empty = []
        for key, value in feature_list.dense_defaults.items():
            if value is not None:
                raise ValueError("Value feature_list.dense_defaults[%s] must be None" % key)
            assumed_empty.append(key)
        serialized = convert_to_tensor(serialized, name="serialized")
        num_cs, num_cd = len(context.sparse_keys), len(context.dense_keys)
        num_ls, num_ld = len(feature_list.sparse_keys), len(feature_list.dense_keys)
        outputs = apply_op(
            "ParseSequenceExampleV2", serialized=serialized, debug_name=debug_name,
            context_sparse_keys=context.sparse_keys, context_dense_keys=context.dense_keys,
            context_ragged_keys=[], feature_list_sparse_keys=feature_list.sparse_keys,
            feature_list_dense_keys=feature_list.dense_keys, feature_list_ragged_keys=[],
            feature_list_dense_missing_assumed_empty=[
                key in assumed_empty for key in feature_list.dense_keys],
            context_dense_defaults=context.dense_defaults_vec(), Ncontext_sparse=num_cs,
            Nfeature_list_sparse=num_ls, Nfeature_list_dense=num_ld,
            context_sparse_types=context.sparse_types, context_ragged_value_types=[],
            context_ragged_split_types=[], feature_list_dense_types=feature_list.dense_types,
            feature_list_sparse_types=feature_list.sparse_types,
            feature_list_ragged_value_types=[], feature_list_ragged_split_types=[],
            context_dense_shapes=context.dense_shapes,
            feature_list_dense_shapes=feature_list.dense_shapes, name=name)
        if not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        outputs = list(outputs)
        take = iter(outputs)

        def next_n(count):
            return [next(take) for _ in range(count)]

        cs_indices, cs_values, cs_shapes = next_n(num_cs), next_n(num_cs), next_n(num_cs)
        cd_values = next_n(num_cd)
        ls_indices, ls_values, ls_shapes = next_n(num_ls), next_n(num_ls), next_n(num_ls)
        ld_values, ld_lengths = next_n(num_ld), next_n(num_ld)
        context_output = dict(zip(
            context.sparse_keys + context.dense_keys,
            [SparseTensor(i, v, s) for i, v, s in zip(cs_indices, cs_values, cs_shapes)]
            + cd_values))
        list_output = dict(zip(
            feature_list.sparse_keys + feature_list.dense_keys,
            [SparseTensor(i, v, s) for i, v, s in zip(ls_indices, ls_values, ls_shapes)]
            + ld_values))
        return context_output, list_output, dict(zip(feature_list.dense_keys, ld_lengths))


def _sequence_params(context_features, sequence_features):
    return (_ParseOpParams.from_features(context_features or {}),
            _ParseOpParams.from_features(sequence_features or {}))


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """A batch (vector) of serialized tf.train.SequenceExamples: (context dict, feature-list
    dict, dict of the dense feature lists' lengths)."""
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, "
                         "but at least one should have values.")
    context, feature_list = _sequence_params(context_features, sequence_features)
    with name_scope(name, "ParseSequenceExample", [serialized, example_names]):
        return _parse_sequence_example_raw(serialized, example_names, context, feature_list,
                                           name)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """One serialized tf.train.SequenceExample (a scalar): (context dict, feature-list dict)."""
    if not (context_features or sequence_features):
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    context, feature_list = _sequence_params(context_features, sequence_features)
    with name_scope(name, "ParseSingleSequenceExample", [serialized, example_name]):
        with name_scope(name, "ParseSingleExample", [serialized, example_name]):
            serialized = convert_to_tensor(serialized, name="serialized")
            serialized = _assert_scalar(serialized, "serialized")
        return _parse_sequence_example_raw(serialized, example_name, context, feature_list,
                                           name)[:2]

