"""tf.metrics (mean, accuracy, true/false positives/negatives, precision, recall and the mean
squared, absolute and root mean squared errors): running totals in local variables, as TF 1.x.

Each returns (value, update_op): update_op adds a batch to the totals in LOCAL_VARIABLES (also
METRIC_VARIABLES) and gives the new mean; value reads the mean so far. Run
tf.local_variables_initializer() first, as with TensorFlow.
"""

from engine.framework import dtypes
from engine.framework.graph import GraphKeys, get_default_graph
from engine.ops import array_ops, check_ops, math_ops, state_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.variable_scope import variable_scope
from engine.ops.variables import Variable
from engine.ops.weights_broadcast_ops import broadcast_weights


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A zero-initialised local variable in LOCAL_VARIABLES and METRIC_VARIABLES."""
    return Variable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                    validate_shape=validate_shape, name=name)


def _remove_squeezable_dimensions(predictions, labels, weights):
    """Drops a trailing size-1 dimension where one side has one rank more (static ranks)."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        with get_default_graph().name_scope("remove_squeezable_dimensions"):
            predictions = convert_to_tensor(predictions)
            labels = convert_to_tensor(labels)
            p_shape, l_shape = predictions.shape, labels.shape
            if p_shape.ndims is None or l_shape.ndims is None:
                raise NotImplementedError("tf.metrics with inputs of unknown rank is not "
                                          "supported by the engine yet")
            rank_diff = p_shape.ndims - l_shape.ndims
            if rank_diff == 1 and p_shape.dims[-1].is_compatible_with(1):
                predictions = array_ops.squeeze(predictions, [-1])
            elif rank_diff == -1 and l_shape.dims[-1].is_compatible_with(1):
                labels = array_ops.squeeze(labels, [-1])
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    if weights.shape.ndims == 0:
        return predictions, labels, weights
    weights_rank, predictions_rank = weights.shape.ndims, predictions.shape.ndims
    if weights_rank is not None and predictions_rank is not None:
        if weights_rank - predictions_rank == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif predictions_rank - weights_rank == 1:
            weights = array_ops.expand_dims(weights, [-1])
        return predictions, labels, weights
    # A rank known only when run: TensorFlow's conds on the ranks' difference.
    from engine.ops.control_flow.cond import cond
    weights_rank_tensor = array_ops.rank(weights)
    rank_diff = weights_rank_tensor - array_ops.rank(predictions)

    def maybe_expand_weights():
        return cond(math_ops.equal(rank_diff, -1),
                    lambda: array_ops.expand_dims(weights, [-1]), lambda: weights)

    if weights_rank is not None and not weights.shape.dims[-1].is_compatible_with(1):
        def maybe_squeeze_weights():
            return weights
    else:
        def maybe_squeeze_weights():
            return array_ops.squeeze(weights, [-1])

    def maybe_adjust_weights():
        return cond(math_ops.equal(rank_diff, 1), maybe_squeeze_weights, maybe_expand_weights)

    weights = cond(math_ops.equal(weights_rank_tensor, 0), lambda: weights,
                   maybe_adjust_weights)
    return predictions, labels, weights


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of every value seen: (mean, update_op)."""
    graph = get_default_graph()
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total_op = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with graph.control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        if metrics_collections:
            graph.add_to_collections(metrics_collections, mean_t)
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        if updates_collections:
            graph.add_to_collections(updates_collections, update_op)
        return mean_t, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """How often predictions equal labels: (accuracy, update_op)."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections,
                name or "accuracy")


def _count_condition(values, weights=None, metrics_collections=None, updates_collections=None):
    """A running weighted count of true values: (the count read, update_op)."""
    graph = get_default_graph()
    check_ops.assert_type(values, dtypes.bool)
    count = metric_variable([], dtypes.float32, name="count")
    values = math_ops.cast(values, dtypes.float32)
    if weights is not None:
        with graph.control_dependencies([check_ops.assert_rank_in(
                weights, (0, array_ops.rank(values)))]):
            weights = math_ops.cast(weights, dtypes.float32)
            values = math_ops.multiply(values, weights)
    value_tensor = array_ops.identity(count)  # the default strategy's read_var
    if metrics_collections:
        graph.add_to_collections(metrics_collections, value_tensor)
    update_op = state_ops.assign_add(count, math_ops.reduce_sum(values))
    if updates_collections:
        graph.add_to_collections(updates_collections, update_op)
    return value_tensor, update_op


def _condition_metric(default_name, label_value, prediction_value):
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, dtype=dtypes.bool),
                math_ops.cast(labels, dtype=dtypes.bool), weights)
            condition = math_ops.logical_and(math_ops.equal(labels, label_value),
                                             math_ops.equal(predictions, prediction_value))
            return _count_condition(condition, weights, metrics_collections,
                                    updates_collections)
    metric.__name__ = default_name
    metric.__doc__ = (f"The weighted count of {default_name.replace('_', ' ')}: "
                      f"(count, update_op).")
    return metric


true_positives = _condition_metric("true_positives", True, True)
false_positives = _condition_metric("false_positives", False, True)
false_negatives = _condition_metric("false_negatives", True, False)
true_negatives = _condition_metric("true_negatives", False, False)


def _ratio_metric(default_name, other):
    """precision (tp / (tp + fp)) or recall (tp / (tp + fn)), 0 before anything counted."""
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        graph = get_default_graph()
        with variable_scope(name, default_name, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, dtype=dtypes.bool),
                math_ops.cast(labels, dtype=dtypes.bool), weights)
            true_p, true_p_update = true_positives(labels, predictions, weights)
            false_x, false_x_update = other(labels, predictions, weights)

            def compute(tp, fx, op_name):
                return array_ops.where(math_ops.greater(tp + fx, 0),
                                       math_ops.divide(tp, tp + fx), 0, op_name)
            value = compute(true_p, false_x, "value")
            if metrics_collections:
                graph.add_to_collections(metrics_collections, value)
            update_op = compute(true_p_update, false_x_update, "update_op")
            if updates_collections:
                graph.add_to_collections(updates_collections, update_op)
            return value, update_op
    metric.__name__ = default_name
    return metric


precision = _ratio_metric("precision", false_positives)
recall = _ratio_metric("recall", false_negatives)


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    squared_error = math_ops.squared_difference(labels, predictions)
    return mean(squared_error, weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    absolute_errors = math_ops.abs(predictions - labels)
    return mean(absolute_errors, weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    graph = get_default_graph()
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse_op = mean_squared_error(labels, predictions, weights, None, None,
                                            name or "root_mean_squared_error")
    rmse = math_ops.sqrt(mse)
    if metrics_collections:
        graph.add_to_collections(metrics_collections, rmse)
    update_rmse_op = math_ops.sqrt(update_mse_op)
    if updates_collections:
        graph.add_to_collections(updates_collections, update_rmse_op)
    return rmse, update_rmse_op


METRICS = ("mean", "accuracy", "true_positives", "false_positives", "false_negatives",
           "true_negatives", "precision", "recall", "mean_squared_error",
           "mean_absolute_error", "root_mean_squared_error")
