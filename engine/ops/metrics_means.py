"""tf.metrics' means of TF 1.x beyond tf.metrics.mean (metrics_impl.py): mean_iou,
mean_per_class_accuracy, mean_relative_error, mean_cosine_distance, mean_tensor and
percentage_below, with their local variables (LOCAL_VARIABLES, METRIC_VARIABLES) and update
ops as TensorFlow 2.21 builds them."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops, state_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import ones, ones_like, zeros_like
from engine.ops.linalg_ops import diag_part
from engine.ops.metrics import _remove_squeezable_dimensions, mean, metric_variable
from engine.ops.shape_ops import size as _size
from engine.ops.statistics_ops import confusion_matrix
from engine.ops.variable_scope import variable_scope
from engine.ops.weights_broadcast_ops import broadcast_weights

def _collect(collections, value):
    if collections:
        get_default_graph().add_to_collections(collections, value)


def _streaming_confusion_matrix(labels, predictions, num_classes, weights=None):
    total_cm = metric_variable([num_classes, num_classes], dtypes.float64,
                               name="total_confusion_matrix")
    predictions = math_ops.cast(predictions, dtypes.int64)
    labels = math_ops.cast(labels, dtypes.int64)
    num_classes = math_ops.cast(num_classes, dtypes.int64)
    if predictions.get_shape().ndims > 1:
        predictions = array_ops.reshape(predictions, [-1])
    if labels.get_shape().ndims > 1:
        labels = array_ops.reshape(labels, [-1])
    if weights is not None and weights.get_shape().ndims > 1:
        weights = array_ops.reshape(weights, [-1])
    current_cm = confusion_matrix(labels, predictions, num_classes, weights=weights,
                                  dtype=dtypes.float64)
    return total_cm, state_ops.assign_add(total_cm, current_cm)


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """The mean intersection-over-union of the classes seen: (mean_iou, update_op), the
    update op adding to the running confusion matrix."""
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total_cm, update_op = _streaming_confusion_matrix(labels, predictions, num_classes,
                                                          weights)
        sum_over_row = math_ops.cast(math_ops.reduce_sum(total_cm, 0), dtypes.float32)
        sum_over_col = math_ops.cast(math_ops.reduce_sum(total_cm, 1), dtypes.float32)
        cm_diag = math_ops.cast(diag_part(total_cm), dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid_entries = math_ops.reduce_sum(
            math_ops.cast(math_ops.not_equal(denominator, 0), dtype=dtypes.float32))
        denominator = array_ops.where(math_ops.greater(denominator, 0), denominator,
                                      ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        mean_iou_v = array_ops.where(math_ops.greater(num_valid_entries, 0),
                                     math_ops.reduce_sum(iou, name="mean_iou")
                                     / num_valid_entries, 0)
        _collect(metrics_collections, mean_iou_v)
        _collect(updates_collections, update_op)
        return mean_iou_v, update_op


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of each class's accuracy: (mean_accuracy, update_op)."""
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = math_ops.cast(labels, dtypes.int64)
        if labels.get_shape().ndims > 1:
            labels = array_ops.reshape(labels, [-1])
        if predictions.get_shape().ndims > 1:
            predictions = array_ops.reshape(predictions, [-1])
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones_v = ones([_size(labels)], dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            if weights.get_shape().ndims > 1:
                weights = array_ops.reshape(weights, [-1])
            weights = math_ops.cast(weights, dtypes.float32)
            is_correct *= weights
            ones_v *= weights
        update_total_op = state_ops.scatter_add(total, labels, ones_v)
        update_count_op = state_ops.scatter_add(count, labels, is_correct)
        per_class_accuracy = math_ops.div_no_nan(count, math_ops.maximum(total, 0))
        mean_accuracy_v = math_ops.reduce_mean(per_class_accuracy, name="mean_accuracy")
        _collect(metrics_collections, mean_accuracy_v)
        update_op = math_ops.div_no_nan(update_count_op, math_ops.maximum(update_total_op, 0),
                                        name="update_op")
        _collect(updates_collections, update_op)
        return mean_accuracy_v, update_op


def _squeeze_one_side(labels, predictions):
    """confusion_matrix.remove_squeezable_dimensions of statically known ranks."""
    with name_scope(None, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        p_rank, l_rank = predictions.shape.ndims, labels.shape.ndims
        if p_rank is None or l_rank is None:
            raise NotImplementedError("tf.metrics with inputs of unknown rank is not "
                                      "supported by the engine yet")
        if p_rank - l_rank == 1 and predictions.shape.dims[-1].is_compatible_with(1):
            predictions = array_ops.squeeze(predictions, [-1])
        elif p_rank - l_rank == -1 and labels.shape.dims[-1].is_compatible_with(1):
            labels = array_ops.squeeze(labels, [-1])
        return labels, predictions


def mean_relative_error(labels, predictions, normalizer, weights=None,
                        metrics_collections=None, updates_collections=None, name=None):
    """The mean of |labels - predictions| / normalizer (0 where normalizer is 0)."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    predictions, normalizer = _squeeze_one_side(predictions, normalizer)
    predictions.get_shape().assert_is_compatible_with(normalizer.get_shape())
    relative_errors = array_ops.where(
        math_ops.equal(normalizer, 0.0), zeros_like(labels),
        math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 minus the mean dot product along `dim` of unit-normalised labels and predictions."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    radial_diffs = math_ops.multiply(predictions, labels)
    radial_diffs = math_ops.reduce_sum(radial_diffs, axis=[dim], keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None,
                                    name or "mean_cosine_distance")
    mean_distance = math_ops.subtract(1.0, mean_distance)
    update_op = math_ops.subtract(1.0, update_op)
    _collect(metrics_collections, mean_distance)
    _collect(updates_collections, update_op)
    return mean_distance, update_op


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
    """The element-wise (weighted) mean of every `values` seen: (mean, update_op)."""
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable(values.get_shape(), dtypes.float32, name="total_tensor")
        count = metric_variable(values.get_shape(), dtypes.float32, name="count_tensor")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total_op = state_ops.assign_add(total, values)
        with get_default_graph().control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        _collect(metrics_collections, mean_t)
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        _collect(updates_collections, update_op)
        return mean_t, update_op


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The (weighted) share of values below `threshold`: (percentage, update_op)."""
    is_below_threshold = math_ops.cast(math_ops.less(values, threshold), dtypes.float32)
    return mean(is_below_threshold, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")
