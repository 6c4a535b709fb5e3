"""tf.sparse's arithmetic (add, concat, mask, maximum, minimum, the reductions, reset_shape,
softmax, split, to_indicator, transpose, from_dense, eye, expand_dims, bincount) with their TF 1.x
top-level names (tf.sparse_add, ...), tf.sparse_matmul, tf.serialize_sparse,
tf.serialize_many_sparse and tf.deserialize_many_sparse (also in tf.io); the TF 1.x streaming
metrics beyond the basic ones (tf.metrics.mean_iou, ..._at_thresholds, ..._at_k)."""

from engine.api import input_output as _input_output
from engine.api import math_and_nn as _math_and_nn
from engine.ops import metrics_at_k as _metrics_at_k
from engine.ops import metrics_means as _metrics_means
from engine.ops import metrics_thresholds as _metrics_thresholds
from engine.api import special_math as _special_math
from engine.ops import sparse_math_ops as _sparse_math
from engine.ops import sparse_math_grad as _sparse_math_grad  # noqa: F401  (registers gradients)

sparse_add = _sparse_math.sparse_add
sparse_concat = _sparse_math.sparse_concat
sparse_mask = _sparse_math.sparse_mask
sparse_maximum = _sparse_math.sparse_maximum
sparse_minimum = _sparse_math.sparse_minimum
sparse_reduce_max = _sparse_math.sparse_reduce_max
sparse_reduce_max_sparse = _sparse_math.sparse_reduce_max_sparse
sparse_reduce_sum = _sparse_math.sparse_reduce_sum
sparse_reduce_sum_sparse = _sparse_math.sparse_reduce_sum_sparse
sparse_reset_shape = _sparse_math.sparse_reset_shape
sparse_softmax = _sparse_math.sparse_softmax
sparse_split = _sparse_math.sparse_split
sparse_to_indicator = _sparse_math.sparse_to_indicator
sparse_transpose = _sparse_math.sparse_transpose
sparse_matmul = _sparse_math.sparse_matmul
serialize_sparse = _sparse_math.serialize_sparse
serialize_many_sparse = _sparse_math.serialize_many_sparse
deserialize_many_sparse = _sparse_math.deserialize_many_sparse

for _name, _function in (("add", sparse_add), ("concat", sparse_concat), ("mask", sparse_mask),
                         ("maximum", sparse_maximum), ("minimum", sparse_minimum),
                         ("reduce_max", sparse_reduce_max),
                         ("reduce_max_sparse", sparse_reduce_max_sparse),
                         ("reduce_sum", sparse_reduce_sum),
                         ("reduce_sum_sparse", sparse_reduce_sum_sparse),
                         ("reset_shape", sparse_reset_shape), ("softmax", sparse_softmax),
                         ("split", sparse_split), ("to_indicator", sparse_to_indicator),
                         ("transpose", sparse_transpose),
                         ("from_dense", _sparse_math.from_dense),
                         ("eye", _sparse_math.sparse_eye),
                         ("expand_dims", _sparse_math.sparse_expand_dims),
                         ("bincount", _sparse_math.sparse_bincount)):
    setattr(_special_math.sparse, _name, _function)
for _name in ("serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse"):
    setattr(_input_output.io, _name, getattr(_sparse_math, _name))

for _module, _names in (
        (_metrics_means, ("mean_iou", "mean_per_class_accuracy", "mean_relative_error",
                          "mean_cosine_distance", "mean_tensor", "percentage_below")),
        (_metrics_thresholds, ("true_positives_at_thresholds", "false_positives_at_thresholds",
                               "true_negatives_at_thresholds", "false_negatives_at_thresholds",
                               "precision_at_thresholds", "recall_at_thresholds",
                               "sensitivity_at_specificity", "specificity_at_sensitivity")),
        (_metrics_at_k, ("precision_at_k", "recall_at_k", "precision_at_top_k",
                         "recall_at_top_k", "sparse_precision_at_k", "average_precision_at_k",
                         "sparse_average_precision_at_k"))):
    for _name in _names:
        setattr(_math_and_nn.metrics, _name, getattr(_module, _name))

__all__ = ["sparse_add", "sparse_concat", "sparse_mask", "sparse_maximum", "sparse_minimum",
           "sparse_reduce_max", "sparse_reduce_max_sparse", "sparse_reduce_sum",
           "sparse_reduce_sum_sparse", "sparse_reset_shape", "sparse_softmax", "sparse_split",
           "sparse_to_indicator", "sparse_transpose", "sparse_matmul", "serialize_sparse",
           "serialize_many_sparse", "deserialize_many_sparse"]
