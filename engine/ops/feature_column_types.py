"""The column types of tf.feature_column (engine/ops/feature_column.py makes them): what
each builds from the features through TensorFlow 2.21's v1 methods (`_transform_feature`,
`_get_dense_tensor`, `_get_sparse_tensors`), node for node as TensorFlow's
feature_column_v2.py builds them."""

import collections

from engine.framework import dtypes
from engine.framework.default_graph import init_scope, name_scope
from engine.framework.graph import GraphKeys
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, embedding_ops, lookup_ops, math_ops, segment_ops, sparse_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape
from engine.ops.text_ops import as_string, string_to_hash_bucket_fast

IdWeightPair = collections.namedtuple("IdWeightPair", ("id_tensor", "weight_tensor"))


def _convert_to_tensor_or_sparse_tensor(value):
    if isinstance(value, SparseTensorValue):
        return SparseTensor(value.indices, value.values, value.dense_shape)
    return value if isinstance(value, SparseTensor) else convert_to_tensor(value)


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
        input_tensor, key_dtype = _vocabulary_input(self, inputs)
        with init_scope():
            table = lookup_ops.index_table_from_tensor(
                vocabulary_list=tuple(self.vocabulary_list), default_value=self.default_value,
                num_oov_buckets=self.num_oov_buckets, dtype=key_dtype,
                name=f"{self.key}_lookup")
        return table.lookup(input_tensor)


def _vocabulary_input(column, inputs):
    """(the column's sparse input, the lookup table's key dtype) of a vocabulary column, as
    TensorFlow's list and file columns both make them: integer ids cast to int64."""
    input_tensor = _to_sparse_input_and_drop_ignore_values(inputs.get(column.key))
    if column.dtype.is_integer != input_tensor.dtype.is_integer:
        raise ValueError("Column dtype and SparseTensors dtype must be compatible. "
                         f"key: {column.key}, column dtype: {column.dtype}, tensor dtype: "
                         f"{input_tensor.dtype}")
    _assert_string_or_int(input_tensor.dtype, prefix=f"column_name: {column.key} input_tensor")
    if not input_tensor.dtype.is_integer:
        return input_tensor, column.dtype
    return SparseTensor(input_tensor.indices, math_ops.cast(input_tensor.values, dtypes.int64),
                        input_tensor.dense_shape), dtypes.int64


class VocabularyFileCategoricalColumn(_CategoricalColumn):
    _fields = ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
               "default_value", "file_format")

    def __init__(self, key, vocabulary_file, vocabulary_size, num_oov_buckets, dtype,
                 default_value, file_format):
        self.key, self.vocabulary_file, self.vocabulary_size = key, vocabulary_file, \
            vocabulary_size
        self.num_oov_buckets, self.dtype, self.default_value = num_oov_buckets, dtype, \
            default_value
        self.file_format = file_format

    name = property(lambda self: self.key)
    _num_buckets = property(lambda self: self.vocabulary_size + self.num_oov_buckets)

    def _transform_feature(self, inputs):
        input_tensor, key_dtype = _vocabulary_input(self, inputs)
        with init_scope():
            table = lookup_ops.index_table_from_file(
                vocabulary_file=self.vocabulary_file, num_oov_buckets=self.num_oov_buckets,
                vocab_size=self.vocabulary_size, default_value=self.default_value,
                key_dtype=key_dtype, name=f"{self.key}_lookup")
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


class WeightedCategoricalColumn(_CategoricalColumn):
    _fields = ("categorical_column", "weight_feature_key", "dtype")

    def __init__(self, categorical_column, weight_feature_key, dtype):
        self.categorical_column, self.weight_feature_key = categorical_column, weight_feature_key
        self.dtype = dtype

    name = property(lambda self: f"{self.categorical_column.name}_weighted_by_"
                                 f"{self.weight_feature_key}")
    _num_buckets = property(lambda self: self.categorical_column._num_buckets)

    def _transform_weight_tensor(self, weight_tensor):
        if weight_tensor is None:
            raise ValueError(f"Missing weights {self.weight_feature_key}.")
        weight_tensor = _convert_to_tensor_or_sparse_tensor(weight_tensor)
        if self.dtype != weight_tensor.dtype.base_dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got "
                             f"{weight_tensor.dtype}.")
        if not isinstance(weight_tensor, SparseTensor):
            weight_tensor = _to_sparse_input_and_drop_ignore_values(weight_tensor,
                                                                    ignore_value=0.0)
        if not weight_tensor.dtype.is_floating:
            weight_tensor = SparseTensor(weight_tensor.indices,
                                         math_ops.cast(weight_tensor.values, dtypes.float32),
                                         weight_tensor.dense_shape)
        return weight_tensor

    def _transform_feature(self, inputs):
        weight_tensor = self._transform_weight_tensor(inputs.get(self.weight_feature_key))
        return (inputs.get(self.categorical_column), weight_tensor)

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        tensors = inputs.get(self)
        return IdWeightPair(tensors[0], tensors[1])


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
        size = self._variable_shape[-1]
        if weight_tensor is not None:
            # the weights at their ids (out-of-vocabulary -1 sliced off), duplicates summed
            weighted = sparse_ops.sparse_merge(sp_ids=id_tensor, sp_values=weight_tensor,
                                               vocab_size=int(size))
            weighted = sparse_ops.sparse_slice(weighted, [0, 0], weighted.dense_shape)
            return segment_ops.scatter_nd(weighted.indices, weighted.values,
                                          weighted.dense_shape)
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
