"""tf.feature_column (and tf.compat.v1.feature_column): the TF 1.x feature columns and
input_layer (engine/ops/feature_column.py); the sparse ops under them: tf.sparse_segment_sum,
_mean, _sqrt_n, tf.sparse_reshape, tf.sparse_fill_empty_rows, tf.sparse_retain,
tf.sparse_tensor_to_dense, tf.sparse_to_dense, tf.sparse_reorder, tf.sparse_slice,
tf.sparse_merge, also in tf.sparse with tf.sparse.cross and cross_hashed."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.api import special_math as _special_math
from engine.ops import feature_column as _fc
from engine.ops import segment_ops as _segment_ops
from engine.ops import sparse_ops as _sparse_ops

sparse_segment_sum = _segment_ops.sparse_segment_sum
sparse_segment_mean = _segment_ops.sparse_segment_mean
sparse_segment_sqrt_n = _segment_ops.sparse_segment_sqrt_n
sparse_reshape = _sparse_ops.sparse_reshape
sparse_fill_empty_rows = _sparse_ops.sparse_fill_empty_rows
sparse_retain = _sparse_ops.sparse_retain
sparse_tensor_to_dense = _sparse_ops.sparse_tensor_to_dense
sparse_to_dense = _sparse_ops.sparse_to_dense
sparse_reorder = _sparse_ops.sparse_reorder
sparse_slice = _sparse_ops.sparse_slice
sparse_merge = _sparse_ops.sparse_merge
for _name, _function in (("segment_sum", sparse_segment_sum), ("segment_mean", sparse_segment_mean),
                         ("segment_sqrt_n", sparse_segment_sqrt_n), ("reshape", sparse_reshape),
                         ("fill_empty_rows", sparse_fill_empty_rows), ("retain", sparse_retain),
                         ("to_dense", sparse_tensor_to_dense), ("cross", _sparse_ops.sparse_cross),
                         ("cross_hashed", _sparse_ops.sparse_cross_hashed),
                         ("reorder", sparse_reorder), ("slice", sparse_slice),
                         ("merge", sparse_merge)):
    setattr(_special_math.sparse, _name, _function)

feature_column = _Namespace("tf.feature_column", **{name: getattr(_fc, name) for name in (
    "numeric_column", "bucketized_column", "categorical_column_with_vocabulary_list",
    "categorical_column_with_vocabulary_file",
    "categorical_column_with_identity", "categorical_column_with_hash_bucket",
    "weighted_categorical_column", "crossed_column", "indicator_column", "embedding_column", "input_layer")})

__all__ = ["feature_column", "sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n",
           "sparse_reshape", "sparse_fill_empty_rows", "sparse_retain",
           "sparse_tensor_to_dense", "sparse_to_dense", "sparse_reorder", "sparse_slice",
           "sparse_merge"]
