"""tf.feature_column (TF 1.x style) and tf.feature_column.input_layer, building the nodes and
variables TensorFlow 2.21's feature_column.py and feature_column_v2.py build through their
v1 API (`_transform_feature`, `_get_dense_tensor`): each column in a variable scope of its
name under `input_layer`, so `input_layer/<col>_embedding/embedding_weights` is TensorFlow's
variable name and checkpoints interchange.

Columns: numeric, bucketized, categorical with vocabulary list or file, identity and hash
bucket, weighted, crossed, indicator and embedding (combiner mean, sum or sqrtn). A categorical column is
wrapped in an indicator or embedding column to reach input_layer."""

import collections.abc
import math
import os

import numpy as np

from engine.framework import dtypes
from engine.framework.graph import GraphKeys, get_collection
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, sparse_ops
from engine.ops.feature_column_types import (  # noqa: F401  (the column types, re-exported)
    BucketizedColumn, CrossedColumn, EmbeddingColumn, HashedCategoricalColumn,
    IdentityCategoricalColumn, IdWeightPair, IndicatorColumn, NumericColumn,
    VocabularyFileCategoricalColumn, VocabularyListCategoricalColumn,
    WeightedCategoricalColumn, _CategoricalColumn,
    _DenseColumn, _FeatureColumn, _assert_string_or_int, _convert_to_tensor_or_sparse_tensor)
from engine.ops.shape_ops import shape as _shape


class _LazyBuilder:
    """The features, each raw one as a tensor of rank >= 2 and each column's transformation
    built once, where first asked for (inside that column's scope)."""

    def __init__(self, features):
        self._features = features.copy()
        self._feature_tensors = {}

    def get(self, key):
        if key in self._feature_tensors:
            return self._feature_tensors[key]
        if isinstance(key, str):
            if key not in self._features:
                raise ValueError(f"Feature {key} is not in features dictionary.")
            feature = self._get_raw_feature_as_tensor(key)
            self._feature_tensors[key] = feature
            return feature
        if not isinstance(key, _FeatureColumn):
            raise TypeError(f'"key" must be either a "str" or "_FeatureColumn". Given: {key}')
        transformed = key._transform_feature(self)
        if transformed is None:
            raise ValueError(f"Column {key.name} is not supported.")
        self._feature_tensors[key] = transformed
        return transformed

    def _get_raw_feature_as_tensor(self, key):
        feature = _convert_to_tensor_or_sparse_tensor(self._features[key])
        rank = feature.get_shape().ndims
        if rank is None:
            raise NotImplementedError(f"Feature (key: {key}) of unknown rank is not supported "
                                      "by the engine's feature columns yet")
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {feature}")
        if rank != 1:
            return feature
        if isinstance(feature, SparseTensor):
            return sparse_ops.sparse_reshape(feature, [_shape(feature)[0], 1])
        return array_ops.expand_dims(feature, -1)


# -- the column constructors ------------------------------------------------------------------

def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32,
                   normalizer_fn=None):
    """A dense column of the feature `key` as float32, `normalizer_fn` applied first
    (`default_value` is what parsing a tf.Example fills in; kept, as TensorFlow keeps it)."""
    shape = _check_shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    default_value = _check_default_value(shape, default_value, dtype, key)
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


def _check_shape(shape, key):
    if not isinstance(shape, (list, tuple)):
        shape = [shape]
    shape = tuple(shape)
    for dimension in shape:
        if not isinstance(dimension, int):
            raise TypeError(f"shape dimensions must be integer. shape: {shape}, key: {key}")
        if dimension < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, "
                             f"key: {key}")
    return shape


def _nested(value):
    return isinstance(value, (list, tuple))


def _flatten(value):
    return [x for v in value for x in _flatten(v)] if _nested(value) else [value]


def _as_tuple(value):
    return tuple(_as_tuple(v) for v in value) if _nested(value) else value


def _filled(shape, value):
    return tuple(_filled(shape[1:], value) for _ in range(shape[0])) if shape else value


def _shape_fits(value, shape):
    if _nested(value) != bool(shape):
        return False
    if not shape:
        return True
    return len(value) == shape[0] and all(_shape_fits(v, shape[1:]) for v in value)


def _check_default_value(shape, default_value, dtype, key):
    """TensorFlow's feature_column utils.check_default_value: a scalar filled to `shape`, or
    nested values of that shape, ints or (for a float column) floats."""
    if default_value is None:
        return None
    if isinstance(default_value, int):
        return _filled(shape, default_value)
    if isinstance(default_value, float) and dtype.is_floating:
        return _filled(shape, default_value)
    if callable(getattr(default_value, "tolist", None)):
        default_value = default_value.tolist()
    if _nested(default_value):
        if not _shape_fits(default_value, shape):
            raise ValueError(f"The shape of default_value must be equal to given shape. "
                             f"default_value: {default_value}, shape: {shape}, key: {key}")
        flat = _flatten(default_value)
        if all(isinstance(v, int) for v in flat):
            return _as_tuple(default_value)
        if any(isinstance(v, float) for v in flat) and dtype.is_floating:
            return _as_tuple(default_value)
    raise TypeError(f"default_value must be compatible with dtype. default_value: "
                    f"{default_value}, dtype: {dtype}, key: {key}")


def bucketized_column(source_column, boundaries):
    """A numeric column's values one-hot in the buckets `boundaries` splits them into."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: "
                         f"{source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must be a sorted list.")
    for i in range(len(boundaries) - 1):
        if boundaries[i] >= boundaries[i + 1]:
            raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
    """Ids of the strings (or integers) of `vocabulary_list` by position, others -1 or
    hashed into `num_oov_buckets` ids after them."""
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: "
                         f"{key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: "
                         f"{key}")
    vocabulary_dtype = dtypes.as_dtype(np.array(vocabulary_list).dtype)
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    _assert_string_or_int(vocabulary_dtype, prefix=f"column_name: {key} vocabulary")
    if dtype is None:
        dtype = vocabulary_dtype
    elif dtype.is_integer != vocabulary_dtype.is_integer:
        raise ValueError(f"dtype {dtype} and vocabulary dtype {vocabulary_dtype} do not match, "
                         f"column_name: {key}")
    _assert_string_or_int(dtype, prefix=f"column_name: {key}")
    return VocabularyListCategoricalColumn(key, tuple(vocabulary_list), dtype, default_value,
                                           num_oov_buckets)


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            num_oov_buckets=0, default_value=None,
                                            dtype=dtypes.string):
    """Ids of the lines of a vocabulary file (one key a line, by line number), others -1 (or
    `default_value`) or hashed into `num_oov_buckets` ids after them."""
    from engine.lib_io import file_io
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if str(vocabulary_file).endswith("tfrecord.gz"):
        raise NotImplementedError("vocabulary files in TFRecord (tfrecord.gz) are not "
                                  "supported by the engine's feature columns yet")
    if vocabulary_size is None:
        if not os.path.exists(vocabulary_file):
            raise ValueError(f"vocabulary_file in {key} does not exist.")
        with file_io.open_input(vocabulary_file) as stream:
            vocabulary_size = sum(1 for _ in file_io.read_lines(stream, vocabulary_file))
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    _assert_string_or_int(dtype, prefix=f"column_name: {key}")
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")
    return VocabularyFileCategoricalColumn(
        key, vocabulary_file, vocabulary_size, 0 if num_oov_buckets is None else num_oov_buckets,
        dtype, -1 if default_value is None else default_value, None)


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """The integer feature `key` as ids in [0, num_buckets)."""
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), "
                         f"column_name {key}")
    return IdentityCategoricalColumn(key, num_buckets, default_value)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """The feature `key` hashed (FarmHash Fingerprint64) into `hash_bucket_size` ids."""
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    _assert_string_or_int(dtype, prefix=f"column_name: {key}")
    return HashedCategoricalColumn(key, hash_bucket_size, dtype)


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The crosses of string features and categorical columns, hashed into
    `hash_bucket_size` ids (SparseCross with FingerprintCat64)."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, _CategoricalColumn)):
            raise ValueError("Unsupported key type. All keys must be either string, or "
                             f"categorical column except HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for "
                             "crossing. Hashing before crossing will increase probability of "
                             "collision. Instead, use the feature name as a string. Given: "
                             f"{key}")
    return CrossedColumn(tuple(keys), hash_bucket_size, hash_key)


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """A categorical column whose ids carry the weights of the feature `weight_feature_key`
    (the same shape; 0.0 weights dropped): summed per id by an indicator column, the
    combiner's weights in an embedding column."""
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


def indicator_column(categorical_column):
    """A categorical column as a multi-hot dense column."""
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: "
                         f"{categorical_column}")
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True, use_safe_embedding_lookup=True):
    """A categorical column's ids as `dimension`-wide learned embeddings, combined per row."""
    from engine.ops import init_ops
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("embedding_column's ckpt_to_load_from is not supported by "
                                  "the engine yet")
    if not use_safe_embedding_lookup:
        raise NotImplementedError("embedding_column's use_safe_embedding_lookup=False is not "
                                  "supported by the engine yet")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of "
                         f"column_name: {categorical_column.name}")
    if initializer is None:
        initializer = init_ops.truncated_normal_initializer(mean=0.0,
                                                            stddev=1 / math.sqrt(dimension))
    return EmbeddingColumn(categorical_column, dimension, combiner, initializer, None, None,
                           max_norm, trainable)


# -- input_layer -------------------------------------------------------------------------------

def _normalize_feature_columns(feature_columns):
    if isinstance(feature_columns, _FeatureColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, collections.abc.Iterator):
        feature_columns = list(feature_columns)
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError(f"Items of feature_columns must be a _FeatureColumn. Given "
                             f"(type {type(column)}): {column}.")
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    name_to_column = {}
    for column in feature_columns:
        if column.name in name_to_column:
            raise ValueError(f"Duplicate feature column name found for columns: {column} and "
                             f"{name_to_column[column.name]}. This usually means that these "
                             "columns refer to same base feature. Either one must be "
                             "discarded or a duplicated but renamed item must be inserted in "
                             "features dict.")
        name_to_column[column.name] = column
    return feature_columns


def _verify_static_batch_size_equality(tensors, columns):
    expected_batch_size = None
    for i, tensor in enumerate(tensors):
        batch_size = tensor.shape[0]
        batch_size = getattr(batch_size, "value", batch_size)
        if batch_size is not None:
            if expected_batch_size is None:
                bath_size_column_index = i
                expected_batch_size = batch_size
            elif expected_batch_size != batch_size:
                raise ValueError(
                    "Batch size (first dimension) of each feature must be same. Batch size "
                    f"of columns ({columns[bath_size_column_index].name}, {columns[i].name}): "
                    f"({expected_batch_size}, {batch_size})")


def input_layer(features, feature_columns, weight_collections=None, trainable=True,
                cols_to_vars=None, cols_to_output_tensors=None):
    """The dense tensor [batch, sum of the columns' widths] of `features` (a dict of
    tensors) through `feature_columns`, concatenated in the order of their names."""
    from engine.ops.variable_scope import get_variable_scope, variable_scope
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, _DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a "
                             "categorical column with an embedding_column or indicator_column. "
                             f"Given: {column}")
    weight_collections = list(weight_collections or [])
    if GraphKeys.GLOBAL_VARIABLES not in weight_collections:
        weight_collections.append(GraphKeys.GLOBAL_VARIABLES)
    if GraphKeys.MODEL_VARIABLES not in weight_collections:
        weight_collections.append(GraphKeys.MODEL_VARIABLES)
    with variable_scope(None, default_name="input_layer", values=features.values()):
        builder = _LazyBuilder(features)
        output_tensors, ordered_columns = [], []
        for column in sorted(feature_columns, key=lambda x: x.name):
            ordered_columns.append(column)
            with variable_scope(None, default_name=column._var_scope_name):
                tensor = column._get_dense_tensor(builder,
                                                  weight_collections=weight_collections,
                                                  trainable=trainable)
                num_elements = column._variable_shape.num_elements()
                batch_size = _shape(tensor)[0]
                output_tensor = array_ops.reshape(tensor, shape=(batch_size, num_elements))
                output_tensors.append(output_tensor)
                if cols_to_vars is not None:
                    cols_to_vars[column] = get_collection(GraphKeys.GLOBAL_VARIABLES,
                                                          scope=get_variable_scope().name)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = output_tensor
        _verify_static_batch_size_equality(output_tensors, ordered_columns)
        return array_ops.concat(output_tensors, 1)
