"""tf.metrics at thresholds of TF 1.x (metrics_impl.py): true/false positives/negatives,
precision and recall at each given threshold, sensitivity at a specificity and specificity at
a sensitivity, over counts at each threshold kept in local variables."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, check_ops, math_ops, state_ops
from engine.ops.metrics import _remove_squeezable_dimensions, metric_variable
from engine.ops.metrics_means import _collect
from engine.ops.variable_scope import variable_scope
from engine.ops.weights_broadcast_ops import broadcast_weights

_ALL = ("tp", "fn", "tn", "fp")
_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives",
          "fp": "false_positives"}


def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None,
                                    includes=None):
    """({key: variable}, {key: update op}) of the counts `includes` names at each threshold."""
    if includes is None:
        includes = _ALL
    for include in includes:
        if include not in _ALL:
            raise ValueError(f"Invalid key: {include}")
    graph = get_default_graph()
    with graph.control_dependencies([
            check_ops.assert_greater_equal(
                predictions, math_ops.cast(0.0, dtype=predictions.dtype),
                message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(
                predictions, math_ops.cast(1.0, dtype=predictions.dtype),
                message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=math_ops.cast(predictions, dtypes.float32),
            labels=math_ops.cast(labels, dtype=dtypes.bool), weights=weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtype=dtypes.bool), [1, -1])
    num_predictions = predictions_2d.get_shape().as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = array_ops.tile(array_ops.expand_dims(array_ops.constant(thresholds), [1]),
                                  array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(
        array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]), thresh_tiled)
    pred_is_neg = label_is_neg = None
    if "fn" in includes or "tn" in includes:
        pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    if "fp" in includes or "tn" in includes:
        label_is_neg = math_ops.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.get_shape().assert_is_compatible_with(weights_tiled.get_shape())
    pairs = {"tp": (label_is_pos, pred_is_pos), "fn": (label_is_pos, pred_is_neg),
             "tn": (label_is_neg, pred_is_neg), "fp": (label_is_neg, pred_is_pos)}
    values, update_ops = {}, {}
    for key in _ALL:
        if key not in includes:
            continue
        variable = metric_variable([num_thresholds], dtypes.float32, name=_NAMES[key])
        counted = math_ops.cast(math_ops.logical_and(*pairs[key]), dtypes.float32)
        if weights_tiled is not None:
            counted *= weights_tiled
        update_ops[key] = state_ops.assign_add(variable, math_ops.reduce_sum(counted, 1))
        values[key] = variable
    return values, update_ops


def _count_at_thresholds(key, default_name):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights=weights, includes=(key,))
            value = array_ops.identity(values[key])  # the default strategy's read_var
            _collect(metrics_collections, value)
            _collect(updates_collections, update_ops[key])
            return value, update_ops[key]
    metric.__name__ = f"{default_name}_at_thresholds"
    metric.__doc__ = (f"The weighted count of {default_name.replace('_', ' ')} at each "
                      "threshold: (counts, update_op).")
    return metric


true_positives_at_thresholds = _count_at_thresholds("tp", "true_positives")
false_positives_at_thresholds = _count_at_thresholds("fp", "false_positives")
true_negatives_at_thresholds = _count_at_thresholds("tn", "true_negatives")
false_negatives_at_thresholds = _count_at_thresholds("fn", "false_negatives")


def _ratio_at_thresholds(default_name, other, prefix):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights, includes=("tp", other))
            epsilon = 1e-7

            def compute(tp, fx, op_name):
                return math_ops.divide(tp, epsilon + tp + fx, name=f"{prefix}_{op_name}")
            value = compute(values["tp"], values[other], "value")
            _collect(metrics_collections, value)
            update_op = compute(update_ops["tp"], update_ops[other], "update_op")
            _collect(updates_collections, update_op)
            return value, update_op
    metric.__name__ = default_name
    metric.__doc__ = (f"tp / (tp + {other}) at each threshold: ({prefix}, update_op).")
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision_at_thresholds", "fp", "precision")
recall_at_thresholds = _ratio_at_thresholds("recall_at_thresholds", "fn", "recall")


def _thresholds(num_thresholds, last):
    kepsilon = 1e-7
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - kepsilon] + inner + [last]


def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The sensitivity at the threshold whose specificity is nearest `specificity`."""
    if specificity < 0 or specificity > 1:
        raise ValueError("`specificity` must be in the range [0, 1]. Currently, `specificity` "
                         f"got {specificity}.")
    with variable_scope(name, "sensitivity_at_specificity", (predictions, labels, weights)):
        kepsilon = 1e-7
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, _thresholds(num_thresholds, 1.0 + kepsilon), weights)

        def compute(tp, tn, fp, fn, op_name):
            specificities = math_ops.divide(tn, tn + fp + kepsilon)
            tf_index = math_ops.argmin(math_ops.abs(specificities - specificity), 0)
            tf_index = math_ops.cast(tf_index, dtypes.int32)
            return math_ops.divide(tp[tf_index], tp[tf_index] + fn[tf_index] + kepsilon,
                                   op_name)
        sensitivity = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        _collect(metrics_collections, sensitivity)
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        _collect(updates_collections, update_op)
        return sensitivity, update_op


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The specificity at the last threshold whose sensitivity is nearest `sensitivity`."""
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError("`sensitivity` must be in the range [0, 1]. Currently, `sensitivity` "
                         f"is {sensitivity}.")
    with variable_scope(name, "specificity_at_sensitivity", (predictions, labels, weights)):
        kepsilon = 1e-7
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, _thresholds(num_thresholds, 1.0 - kepsilon), weights)

        def compute(tp, tn, fp, fn, op_name):
            sensitivities = math_ops.divide(tp, tp + fn + kepsilon)
            min_val = math_ops.reduce_min(math_ops.abs(sensitivities - sensitivity))
            indices_at_minval = math_ops.equal(math_ops.abs(sensitivities - sensitivity),
                                               min_val)
            indices_at_minval = math_ops.cast(indices_at_minval, dtypes.int64)
            indices_at_minval = math_ops.cumsum(indices_at_minval)
            tf_index = math_ops.argmax(indices_at_minval, 0)
            tf_index = math_ops.cast(tf_index, dtypes.int32)
            return math_ops.divide(tn[tf_index], tn[tf_index] + fp[tf_index] + kepsilon,
                                   op_name)
        specificity = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        _collect(metrics_collections, specificity)
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        _collect(updates_collections, update_op)
        return specificity, update_op
