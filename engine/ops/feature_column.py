"""tf.feature_column (TF 1.x style) and tf.feature_column.input_layer, building the nodes and
variables TensorFlow 2.21's feature_column.py and feature_column_v2.py build through their
v1 API (`_transform_feature`, `_get_dense_tensor`): each column in a variable scope of its
name under `input_layer`, so `input_layer/<col>_embedding/embedding_weights` is TensorFlow's
variable name and checkpoints interchange.

Columns: numeric, bucketized, categorical with vocabulary list, identity and hash bucket,
crossed, indicator and embedding (combiner mean, sum or sqrtn). A categorical column is
wrapped in an indicator or embedding column to reach input_layer."""

import collections
import math

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import init_scope, name_scope
from engine.framework.graph import GraphKeys, get_collection
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, embedding_ops, lookup_ops, math_ops, sparse_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape
from engine.ops.text_ops import as_string, string_to_hash_bucket_fast

IdWeightPair = collections.namedtuple("IdWeightPair", ("id_tensor", "weight_tensor"))


def _convert_to_tensor_or_sparse_tensor(value):
    if isinstance(value, SparseTensorValue):
        return SparseTensor(value.indices, value.values, value.dense_shape)
    return value if isinstance(value, SparseTensor) else convert_to_tensor(value)


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


def _to_sparse_input_and_drop_ignore_values(input_tensor, ignore_value=None):
    """A dense string or integer tensor as a SparseTensor without the '' or -1 entries."""
    input_tensor = _convert_to_tensor_or_sparse_tensor(input_tensor)
    if isinstance(input_tensor, SparseTensor):
        return input_tensor
    with name_scope(None, "to_sparse_input", (input_tensor, ignore_value)):
        if ignore_value is None:
            if input_tensor.dtype == dtypes.string:
                ignore_value = ""
            elif input_tensor.dtype.is_integer:
                ignore_value = -1
            else:
                ignore_value = input_tensor.dtype.as_numpy_dtype()
        ignore_value = math_ops.cast(ignore_value, input_tensor.dtype, name="ignore_value")
        indices = array_ops.where_v2(math_ops.not_equal(input_tensor, ignore_value),
                                     name="indices")
        return SparseTensor(indices=indices,
                            values=array_ops.gather_nd(input_tensor, indices, name="values"),
                            dense_shape=_shape(input_tensor, out_type=dtypes.int64,
                                               name="dense_shape"))


def _assert_string_or_int(dtype, prefix):
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"{prefix} dtype must be string or integer. dtype: {dtype}.")


class _FeatureColumn:
    """What every column has: a name and its variable scope's name."""

    _fields = ()

    @property
    def _var_scope_name(self):
        return self.name

    def _key(self):
        return (type(self).__name__,) + tuple(repr(getattr(self, f)) for f in self._fields)

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({fields})"


class _DenseColumn(_FeatureColumn):
    pass


class _CategoricalColumn(_FeatureColumn):
    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return IdWeightPair(inputs.get(self), None)


class NumericColumn(_DenseColumn):
    _fields = ("key", "shape", "default_value", "dtype", "normalizer_fn")

    def __init__(self, key, shape, default_value, dtype, normalizer_fn):
        self.key, self.shape, self.default_value = key, shape, default_value
        self.dtype, self.normalizer_fn = dtype, normalizer_fn

    name = property(lambda self: self.key)

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _transform_feature(self, inputs):
        input_tensor = inputs.get(self.key)
        if isinstance(input_tensor, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                             f"SparseTensor is not supported. key: {self.key}")
        if self.normalizer_fn is not None:
            input_tensor = self.normalizer_fn(input_tensor)
        return math_ops.cast(input_tensor, dtypes.float32)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


class BucketizedColumn(_DenseColumn, _CategoricalColumn):
    _fields = ("source_column", "boundaries")

    def __init__(self, source_column, boundaries):
        self.source_column, self.boundaries = source_column, boundaries

    name = property(lambda self: f"{self.source_column.name}_bucketized")

    @property
    def _variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    @property
    def _num_buckets(self):
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    def _transform_feature(self, inputs):
        return apply_op("Bucketize", input=inputs.get(self.source_column),
                        boundaries=[float(b) for b in self.boundaries])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return array_ops.one_hot(indices=math_ops.cast(inputs.get(self), dtypes.int64),
                                 depth=len(self.boundaries) + 1, on_value=1., off_value=0.)

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        """The bucket ids as a SparseTensor [batch, source dims], the k-th dim's ids offset
        by k * (len(boundaries) + 1)."""
        from engine.ops.math_ops import range as _range
        input_tensor = inputs.get(self)
        batch_size = _shape(input_tensor)[0]
        source_dimension = self.source_column.shape[0]
        i1 = array_ops.reshape(array_ops.tile(array_ops.expand_dims(_range(0, batch_size), 1),
                                              [1, source_dimension]), (-1,))
        i2 = array_ops.tile(_range(0, source_dimension), [batch_size])
        bucket_indices = (array_ops.reshape(input_tensor, (-1,))
                          + (len(self.boundaries) + 1) * i2)
        indices = math_ops.cast(array_ops.transpose(array_ops.stack((i1, i2))), dtypes.int64)
        dense_shape = math_ops.cast(array_ops.stack([batch_size, source_dimension]),
                                    dtypes.int64)
        return IdWeightPair(SparseTensor(indices=indices, values=bucket_indices,
                                         dense_shape=dense_shape), None)


class VocabularyListCategoricalColumn(_CategoricalColumn):
    _fields = ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets")

    def __init__(self, key, vocabulary_list, dtype, default_value, num_oov_buckets):
        self.key, self.vocabulary_list, self.dtype = key, vocabulary_list, dtype
        self.default_value, self.num_oov_buckets = default_value, num_oov_buckets

    name = property(lambda self: self.key)
    _num_buckets = property(lambda self: len(self.vocabulary_list) + self.num_oov_buckets)

    def _transform_feature(self, inputs):
        input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if self.dtype.is_integer != input_tensor.dtype.is_integer:
            raise ValueError("Column dtype and SparseTensors dtype must be compatible. "
                             f"key: {self.key}, column dtype: {self.dtype}, tensor dtype: "
                             f"{input_tensor.dtype}")
        _assert_string_or_int(input_tensor.dtype,
                              prefix=f"column_name: {self.key} input_tensor")
        key_dtype = self.dtype
        if input_tensor.dtype.is_integer:
            key_dtype = dtypes.int64
            input_tensor = SparseTensor(input_tensor.indices,
                                        math_ops.cast(input_tensor.values, dtypes.int64),
                                        input_tensor.dense_shape)
        with init_scope():
            table = lookup_ops.index_table_from_tensor(
                vocabulary_list=tuple(self.vocabulary_list), default_value=self.default_value,
                num_oov_buckets=self.num_oov_buckets, dtype=key_dtype,
                name=f"{self.key}_lookup")
        return table.lookup(input_tensor)


class IdentityCategoricalColumn(_CategoricalColumn):
    _fields = ("key", "number_buckets", "default_value")

    def __init__(self, key, number_buckets, default_value):
        self.key, self.number_buckets, self.default_value = key, number_buckets, default_value

    name = property(lambda self: self.key)
    _num_buckets = property(lambda self: self.number_buckets)

    def _transform_feature(self, inputs):
        input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if not input_tensor.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: "
                             f"{input_tensor.dtype}")
        values = input_tensor.values
        if values.dtype != dtypes.int64:
            values = math_ops.cast(values, dtypes.int64, name="values")
        if self.default_value is not None:
            values = math_ops.cast(input_tensor.values, dtypes.int64, name="values")
            num_buckets = math_ops.cast(self.number_buckets, dtypes.int64, name="num_buckets")
            zero = math_ops.cast(0, dtypes.int64, name="zero")
            values = array_ops.where_v2(
                math_ops.logical_or(values < zero, values >= num_buckets, name="out_of_range"),
                array_ops.fill(dims=_shape(values),
                               value=math_ops.cast(self.default_value, dtypes.int64),
                               name="default_values"), values)
        return SparseTensor(indices=input_tensor.indices, values=values,
                            dense_shape=input_tensor.dense_shape)


class HashedCategoricalColumn(_CategoricalColumn):
    _fields = ("key", "hash_bucket_size", "dtype")

    def __init__(self, key, hash_bucket_size, dtype):
        self.key, self.hash_bucket_size, self.dtype = key, hash_bucket_size, dtype

    name = property(lambda self: self.key)
    _num_buckets = property(lambda self: self.hash_bucket_size)

    def _transform_feature(self, inputs):
        input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        _assert_string_or_int(input_tensor.dtype,
                              prefix=f"column_name: {self.key} input_tensor")
        if self.dtype.is_integer != input_tensor.dtype.is_integer:
            raise ValueError("Column dtype and SparseTensors dtype must be compatible. "
                             f"key: {self.key}, column dtype: {self.dtype}, tensor dtype: "
                             f"{input_tensor.dtype}")
        values = input_tensor.values
        if self.dtype != dtypes.string:
            values = as_string(values)
        ids = string_to_hash_bucket_fast(values, self.hash_bucket_size, name="lookup")
        return SparseTensor(input_tensor.indices, ids, input_tensor.dense_shape)


class CrossedColumn(_CategoricalColumn):
    _fields = ("keys", "hash_bucket_size", "hash_key")

    def __init__(self, keys, hash_bucket_size, hash_key):
        self.keys, self.hash_bucket_size, self.hash_key = keys, hash_bucket_size, hash_key

    @property
    def name(self):
        return "_X_".join(sorted(key.name if isinstance(key, _FeatureColumn) else key
                                 for key in _collect_leaf_level_keys(self)))

    _num_buckets = property(lambda self: self.hash_bucket_size)

    def _transform_feature(self, inputs):
        feature_tensors = []
        for key in _collect_leaf_level_keys(self):
            if isinstance(key, str):
                feature_tensors.append(inputs.get(key))
            elif isinstance(key, _CategoricalColumn):
                ids_and_weights = key._get_sparse_tensors(inputs)
                if ids_and_weights.weight_tensor is not None:
                    raise ValueError("crossed_column does not support weight_tensor, but the "
                                     "given column populates weight_tensor. Given column: "
                                     f"{key.name}")
                feature_tensors.append(ids_and_weights.id_tensor)
            else:
                raise ValueError(f"Unsupported column type. Given: {key}")
        return sparse_ops.sparse_cross_hashed(inputs=feature_tensors,
                                              num_buckets=self.hash_bucket_size,
                                              hash_key=self.hash_key)


def _collect_leaf_level_keys(cross):
    keys = []
    for key in cross.keys:
        keys.extend(_collect_leaf_level_keys(key) if isinstance(key, CrossedColumn) else [key])
    return keys


class IndicatorColumn(_DenseColumn):
    _fields = ("categorical_column",)

    def __init__(self, categorical_column):
        self.categorical_column = categorical_column

    name = property(lambda self: f"{self.categorical_column.name}_indicator")

    @property
    def _variable_shape(self):
        return TensorShape([1, self.categorical_column._num_buckets])

    def _transform_feature(self, inputs):
        id_tensor, weight_tensor = self.categorical_column._get_sparse_tensors(inputs)
        if weight_tensor is not None:
            raise NotImplementedError("a weighted categorical column in an indicator column "
                                      "is not supported by the engine yet")
        dense_id_tensor = sparse_ops.sparse_tensor_to_dense(id_tensor, default_value=-1)
        one_hot_id_tensor = array_ops.one_hot(dense_id_tensor,
                                              depth=self._variable_shape[-1],
                                              on_value=1.0, off_value=0.0)
        return math_ops.reduce_sum(one_hot_id_tensor, axis=[-2])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


class EmbeddingColumn(_DenseColumn):
    _fields = ("categorical_column", "dimension", "combiner", "initializer",
               "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm", "trainable")

    def __init__(self, categorical_column, dimension, combiner, initializer,
                 ckpt_to_load_from, tensor_name_in_ckpt, max_norm, trainable):
        self.categorical_column, self.dimension = categorical_column, dimension
        self.combiner, self.initializer = combiner, initializer
        self.ckpt_to_load_from, self.tensor_name_in_ckpt = ckpt_to_load_from, tensor_name_in_ckpt
        self.max_norm, self.trainable = max_norm, trainable

    name = property(lambda self: f"{self.categorical_column.name}_embedding")

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _transform_feature(self, inputs):
        return inputs.get(self.categorical_column)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        from engine.ops.variable_scope import get_variable
        sparse_tensors = self.categorical_column._get_sparse_tensors(
            inputs, weight_collections=weight_collections, trainable=trainable)
        if weight_collections and GraphKeys.GLOBAL_VARIABLES not in weight_collections:
            weight_collections.append(GraphKeys.GLOBAL_VARIABLES)
        embedding_weights = get_variable(
            name="embedding_weights",
            shape=(self.categorical_column._num_buckets, self.dimension),
            dtype=dtypes.float32, initializer=self.initializer,
            trainable=self.trainable and trainable, collections=weight_collections)
        return embedding_ops.safe_embedding_lookup_sparse(
            embedding_weights=embedding_weights, sparse_ids=sparse_tensors.id_tensor,
            sparse_weights=sparse_tensors.weight_tensor, combiner=self.combiner,
            name=f"{self.name}_weights", max_norm=self.max_norm)


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
