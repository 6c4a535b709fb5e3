"""tf.losses (TF 1.x): weighted losses reduced as TensorFlow's losses_impl reduces them
(mean_squared_error, absolute_difference, cosine_distance, hinge_loss, log_loss,
mean_pairwise_squared_error, sigmoid_, softmax_ and sparse_softmax_cross_entropy), and the
LOSSES and REGULARIZATION_LOSSES collections (get_losses, get_regularization_loss).

The default reduction, SUM_BY_NONZERO_WEIGHTS, divides the weighted sum by the number of
elements whose weight is not zero (DivNoNan "value"); the loss joins GraphKeys.LOSSES.
Shape checks TensorFlow makes at run time (assert_broadcastable with partly unknown
shapes) are made statically here where the shapes allow, and skipped otherwise.
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import GraphKeys, add_to_collection, get_collection, get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.ops import no_op
from engine.ops.convert import convert_to_tensor
from engine.framework.tensor_util import constant_value
from engine.framework.deprecation import deprecated_argument_lookup
from engine.ops.constant_op import constant
from engine.ops.nn_ops import (relu, softmax_cross_entropy_with_logits_v2,
                               sparse_softmax_cross_entropy_with_logits)


class Reduction:
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


def _assert_broadcastable(weights, values):
    """weights_broadcast_ops.assert_broadcastable: a NoOp when the static shapes show weights
    broadcast to values, ValueError when they show it cannot; unknown shapes are not checked
    at run time here (TensorFlow adds an Assert under a cond)."""
    graph = get_default_graph()
    with name_scope(None, "assert_broadcastable", [weights, values]):
        with graph.name_scope("weights") as weights_scope:
            weights = convert_to_tensor(weights, name=weights_scope)
            weights_shape = array_ops.shape(weights, name="shape")
            weights_rank = array_ops.rank(weights, name="rank")
        with graph.name_scope("values") as values_scope:
            values = convert_to_tensor(values, name=values_scope)
            values_shape = array_ops.shape(values, name="shape")
            values_rank = array_ops.rank(values, name="rank")
        w_rank, v_rank = constant_value(weights_rank), constant_value(values_rank)
        if w_rank is not None and v_rank is not None:
            if w_rank == 0:
                return no_op(name="static_scalar_check_success")
            if w_rank != v_rank:
                raise ValueError(f"{_NOT_BROADCASTABLE} values.rank={v_rank}. weights.rank="
                                 f"{w_rank}. values.shape={values.shape}. weights.shape="
                                 f"{weights.shape}. Received weights={weights}, "
                                 f"values={values}")
            w_shape, v_shape = constant_value(weights_shape), constant_value(values_shape)
            if w_shape is not None and v_shape is not None:
                for i, (dw, dv) in enumerate(zip(w_shape.tolist(), v_shape.tolist())):
                    if dw not in (1, dv):
                        raise ValueError(f"{_NOT_BROADCASTABLE} Mismatch at dim {i}. "
                                         f"values.shape={v_shape}, weights.shape={w_shape}. "
                                         f"Received weights={weights}, values={values}")
                return no_op(name="static_dims_check_success")
        return no_op(name="dynamic_check_skipped")


_NOT_BROADCASTABLE = "weights can not be broadcast to values."


def _broadcast_weights(weights, values):
    with name_scope(None, "broadcast_weights", [weights, values]) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        if weights.shape.is_fully_defined() and values.shape.is_fully_defined() \
                and weights.shape.is_compatible_with(values.shape):
            return weights
        with get_default_graph().control_dependencies([_assert_broadcastable(weights,
                                                                             values)]):
            return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def _num_elements(losses):
    with name_scope(None, "num_elements", [losses]) as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), dtype=losses.dtype)


def _num_present(losses, weights, per_batch=False):
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with name_scope(None, "num_present", [losses, weights]) as scope:
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        present = array_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                  array_ops.ones_like(weights))
        present = _broadcast_weights(present, losses)
        if per_batch:
            return math_ops.reduce_sum(present, axis=math_ops.range(1, array_ops.rank(present)),
                                       keepdims=True, name=scope)
        return math_ops.reduce_sum(present, name=scope)


def _safe_mean(losses, num_present):
    total_loss = math_ops.reduce_sum(losses)
    return math_ops.div_no_nan(total_loss, num_present, name="value")


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    Reduction.validate(reduction)
    with name_scope(scope, "weighted_loss", [losses, weights]):
        with get_default_graph().control_dependencies([_assert_broadcastable(weights,
                                                                             losses)]):
            losses = convert_to_tensor(losses)
            input_dtype = losses.dtype
            losses = math_ops.cast(losses, dtype=dtypes.float32)
            weights = math_ops.cast(weights, dtype=dtypes.float32)
            weighted_losses = math_ops.multiply(losses, weights)
            if reduction == Reduction.NONE:
                loss = weighted_losses
            else:
                loss = math_ops.reduce_sum(weighted_losses)
                if reduction == Reduction.MEAN:
                    loss = _safe_mean(loss, math_ops.reduce_sum(
                        array_ops.ones_like(losses) * weights))
                elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                    loss = _safe_mean(loss, _num_present(losses, weights))
                elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                    loss = _safe_mean(loss, _num_elements(losses))
            loss = math_ops.cast(loss, input_dtype)
            if loss_collection:
                add_to_collection(loss_collection, loss)
            return loss


def _require(**arguments):
    """TensorFlow's error for the first of `arguments` (in order) that is None."""
    for name, value in arguments.items():
        if value is None:
            raise ValueError(f"Argument `{name}` must not be None.")


def _float32_pair(predictions, labels):
    """Both cast to float32 (predictions first, as losses_impl does), their shapes compatible."""
    predictions = math_ops.cast(predictions, dtype=dtypes.float32)
    labels = math_ops.cast(labels, dtype=dtypes.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return predictions, labels


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(labels=labels, predictions=predictions)
    with name_scope(scope, "mean_squared_error", [predictions, labels, weights]) as scope:
        predictions, labels = _float32_pair(predictions, labels)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(onehot_labels=onehot_labels, logits=logits)
    with name_scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights]) as scope:
        logits = convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(onehot_labels.shape)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[-1], logits.dtype)
            smooth_positives = 1.0 - label_smoothing
            smooth_negatives = label_smoothing / num_classes
            onehot_labels = onehot_labels * smooth_positives + smooth_negatives
        onehot_labels = array_ops.stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits,
                                                      name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(labels=labels, logits=logits)
    with name_scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights]) as scope:
        labels, logits = _remove_squeezable_dimensions(labels, logits, expected_rank_diff=1)
        weights = convert_to_tensor(weights)
        if weights.shape.ndims is not None and labels.shape.ndims is not None \
                and weights.shape.ndims - labels.shape.ndims == 1:
            weights = array_ops.squeeze(weights, [-1])
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                          name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def _remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0):
    """confusion_matrix.remove_squeezable_dimensions where both ranks are static."""
    with name_scope(None, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        p_shape, l_shape = predictions.shape, labels.shape
        if p_shape.ndims is None or l_shape.ndims is None:
            raise ValueError("sparse_softmax_cross_entropy needs labels and logits of known "
                             "rank on the engine")
        rank_diff = p_shape.ndims - l_shape.ndims
        if rank_diff == expected_rank_diff + 1 and p_shape.as_list()[-1] in (1, None):
            predictions = array_ops.squeeze(predictions, [-1])
        elif rank_diff == expected_rank_diff - 1 and l_shape.as_list()[-1] in (1, None):
            labels = array_ops.squeeze(labels, [-1])
        return labels, predictions


def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(labels=labels, predictions=predictions)
    with name_scope(scope, "absolute_difference", [predictions, labels, weights]) as scope:
        predictions, labels = _float32_pair(predictions, labels)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    axis = deprecated_argument_lookup("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _require(labels=labels, predictions=predictions)
    with name_scope(scope, "cosine_distance_loss", [predictions, labels, weights]) as scope:
        predictions, labels = _float32_pair(predictions, labels)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - math_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(labels=labels, logits=logits)
    with name_scope(scope, "hinge_loss", [logits, labels, weights]) as scope:
        logits = math_ops.cast(logits, dtype=dtypes.float32)
        labels = math_ops.cast(labels, dtype=dtypes.float32)
        logits.shape.assert_is_compatible_with(labels.shape)
        all_ones = array_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        losses = relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    _require(labels=labels, predictions=predictions)
    with name_scope(scope, "log_loss", [predictions, labels, weights]) as scope:
        predictions, labels = _float32_pair(predictions, labels)
        losses = -math_ops.multiply(labels, math_ops.log(predictions + epsilon)) - \
            math_ops.multiply((1 - labels), math_ops.log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=GraphKeys.LOSSES):
    _require(labels=labels, predictions=predictions)
    with name_scope(scope, "mean_pairwise_squared_error", [predictions, labels, weights]):
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        labels = math_ops.cast(labels, dtype=dtypes.float32)
        with get_default_graph().control_dependencies([_assert_broadcastable(weights,
                                                                             labels)]):
            predictions = math_ops.cast(predictions, dtype=dtypes.float32)
            predictions.shape.assert_is_compatible_with(labels.shape)
            diffs = math_ops.subtract(predictions, labels)
            axis = math_ops.range(1, array_ops.rank(diffs))
            sum_squares_diff_per_batch = math_ops.reduce_sum(math_ops.square(diffs), axis=axis,
                                                             keepdims=True)
            num_present_per_batch = _num_present(diffs, weights, per_batch=True)
            term1 = 2.0 * math_ops.div_no_nan(
                sum_squares_diff_per_batch, math_ops.maximum(num_present_per_batch - 1, 0),
                name="value")
            sum_diff = math_ops.reduce_sum(diffs, axis=axis, keepdims=True)
            term2 = 2.0 * math_ops.div_no_nan(
                math_ops.square(sum_diff),
                math_ops.maximum(math_ops.multiply(num_present_per_batch,
                                                   num_present_per_batch - 1), 0),
                name="value")
            weighted_losses = math_ops.multiply(term1 - term2, weights)
            loss = math_ops.reduce_sum(weighted_losses)
            mean_loss = array_ops.where(math_ops.reduce_sum(num_present_per_batch) > 0, loss,
                                        array_ops.zeros_like(loss), name="value")
            add_loss(mean_loss, loss_collection)
            return mean_loss


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    from engine.ops.sampled_losses import sigmoid_cross_entropy_with_logits
    _require(multi_class_labels=multi_class_labels, logits=logits)
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    [logits, multi_class_labels, weights]) as scope:
        logits = convert_to_tensor(logits)
        multi_class_labels = math_ops.cast(multi_class_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(multi_class_labels.shape)
        if label_smoothing > 0:
            multi_class_labels = (multi_class_labels * (1 - label_smoothing) +
                                  0.5 * label_smoothing)
        losses = sigmoid_cross_entropy_with_logits(labels=multi_class_labels, logits=logits,
                                                   name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of REGULARIZATION_LOSSES (AddN `name`), or a constant 0.0 when there are none."""
    losses = get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant(0.0)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    return get_collection(loss_collection, scope)


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    if loss_collection:
        add_to_collection(loss_collection, loss)


__all__ = ["Reduction", "compute_weighted_loss", "mean_squared_error", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy", "get_losses", "add_loss", "absolute_difference",
           "cosine_distance", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
           "sigmoid_cross_entropy", "get_regularization_loss"]
