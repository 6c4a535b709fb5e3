"""tf.metrics.auc as TF 1.x builds it (metrics_impl.py): true/false positives and negatives
at each threshold in local variables (METRIC_VARIABLES), their update ops, and the area under
the ROC or PR curve by the trapezoidal rule (or the minoring and majoring Riemann sums)."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, check_ops, math_ops, state_ops
from engine.ops.metrics import _remove_squeezable_dimensions, metric_variable
from engine.ops.variable_scope import variable_scope

_KEPSILON = 1e-7
_EPSILON = 1.0e-6


def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None):
    graph = get_default_graph()
    with graph.control_dependencies([
            check_ops.assert_greater_equal(
                predictions, math_ops.cast(0.0, dtype=predictions.dtype),
                message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(
                predictions, math_ops.cast(1.0, dtype=predictions.dtype),
                message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=math_ops.cast(predictions, dtype=dtypes.float32),
            labels=math_ops.cast(labels, dtype=dtypes.bool), weights=weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtype=dtypes.bool), [1, -1])
    num_predictions = predictions_2d.shape.as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = array_ops.tile(
        array_ops.expand_dims(array_ops.constant(thresholds), [1]),
        array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(
        array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]), thresh_tiled)
    pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    label_is_neg = math_ops.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = math_ops.multiply(math_ops.cast(weights, dtypes.float32),
                                    array_ops.ones_like(predictions))
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
    values, update_ops = {}, {}
    for key, name, (label, pred) in (
            ("tp", "true_positives", (label_is_pos, pred_is_pos)),
            ("fn", "false_negatives", (label_is_pos, pred_is_neg)),
            ("tn", "true_negatives", (label_is_neg, pred_is_neg)),
            ("fp", "false_positives", (label_is_neg, pred_is_pos))):
        variable = metric_variable([num_thresholds], dtypes.float32, name=name)
        counted = math_ops.cast(math_ops.logical_and(label, pred), dtype=dtypes.float32)
        if weights_tiled is not None:
            counted *= weights_tiled
        update_ops[key] = state_ops.assign_add(variable, math_ops.reduce_sum(counted, 1))
        values[key] = variable
    return values, update_ops


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """(auc, update_op) over `num_thresholds` thresholds in [0, 1], as TensorFlow 1.x."""
    graph = get_default_graph()
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if summation_method not in ("trapezoidal", "careful_interpolation", "minoring",
                                    "majoring"):
            raise ValueError(f"Invalid summation_method: {summation_method}")
        if curve == "PR" and summation_method == "careful_interpolation":
            raise NotImplementedError("tf.metrics.auc's careful_interpolation of PR curves is "
                                      "not supported by the engine yet")
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
            thresholds = [0.0 - _KEPSILON] + list(thresholds) + [1.0 + _KEPSILON]
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
            thresholds = [0.0 - _KEPSILON] + thresholds + [1.0 + _KEPSILON]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute_auc(tp, fn, tn, fp, name):
            rec = math_ops.divide(tp + _EPSILON, tp + fn + _EPSILON)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + _EPSILON), rec
            else:
                x, y = rec, math_ops.divide(tp + _EPSILON, tp + fp + _EPSILON)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                return math_ops.reduce_sum(
                    math_ops.multiply(x[:num_thresholds - 1] - x[1:],
                                      (y[:num_thresholds - 1] + y[1:]) / 2.), name=name)
            pick = math_ops.minimum if summation_method == "minoring" else math_ops.maximum
            return math_ops.reduce_sum(
                math_ops.multiply(x[:num_thresholds - 1] - x[1:],
                                  pick(y[:num_thresholds - 1], y[1:])), name=name)

        auc_value = compute_auc(values["tp"], values["fn"], values["tn"], values["fp"],
                                "value")
        if metrics_collections:
            graph.add_to_collections(metrics_collections, auc_value)
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                update_ops["fp"], "update_op")
        if updates_collections:
            graph.add_to_collections(updates_collections, update_op)
        return auc_value, update_op
