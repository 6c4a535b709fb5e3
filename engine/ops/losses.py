"""tf.losses (TF 1.x): weighted losses reduced as TensorFlow's losses_impl reduces them.

The default reduction, SUM_BY_NONZERO_WEIGHTS, divides the weighted sum by the number of
elements whose weight is not zero (DivNoNan "value"); the loss joins GraphKeys.LOSSES.
Shape checks TensorFlow makes at run time (assert_broadcastable with partly unknown
shapes) are made statically here where the shapes allow, and skipped otherwise.
"""

from engine import dtypes
from engine.graph import GraphKeys, add_to_collection, get_collection, get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.control_flow_ops import no_op
from engine.ops.convert import convert_to_tensor
from engine.ops.nn_ops import (softmax_cross_entropy_with_logits_v2,
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


def _scope(name, default, values):
    from engine.graph import _get_graph_from_inputs
    values = [v for v in values if hasattr(v, "graph")]
    graph = _get_graph_from_inputs(values) if values else get_default_graph()
    return graph.name_scope(default if name is None else name)


def _assert_broadcastable(weights, values):
    """The static part of weights_broadcast_ops.assert_broadcastable."""
    with _scope(None, "assert_broadcastable", [weights, values]):
        weights = convert_to_tensor(weights, name="weights")
        values = convert_to_tensor(values, name="values")
        if weights.shape.ndims == 0:
            return no_op(name="static_scalar_check_success")
        w, v = weights.shape, values.shape
        if w.ndims is not None and v.ndims is not None:
            if w.ndims not in (0, v.ndims):
                raise ValueError(f"weights can not be broadcast to values. values.rank="
                                 f"{v.ndims}. weights.rank={w.ndims}. values.shape={v}. "
                                 f"weights.shape={w}.")
            if w.is_fully_defined() and v.is_fully_defined():
                for dw, dv in zip(w.as_list(), v.as_list()):
                    if dw not in (1, dv):
                        raise ValueError(f"weights can not be broadcast to values. "
                                         f"values.shape={v}. weights.shape={w}.")
                return no_op(name="static_shapes_check_success")
        return no_op(name="static_scalar_check_success")


def _broadcast_weights(weights, values):
    with _scope(None, "broadcast_weights", [weights, values]) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        if weights.shape.is_fully_defined() and values.shape.is_fully_defined() \
                and weights.shape.is_compatible_with(values.shape):
            return weights
        with get_default_graph().control_dependencies([_assert_broadcastable(weights,
                                                                             values)]):
            return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def _num_elements(losses):
    with _scope(None, "num_elements", [losses]) as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), dtype=losses.dtype)


def _num_present(losses, weights):
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with _scope(None, "num_present", [losses, weights]) as scope:
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        present = array_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                  array_ops.ones_like(weights))
        present = _broadcast_weights(present, losses)
        return math_ops.reduce_sum(present, name=scope)


def _safe_mean(losses, num_present):
    total_loss = math_ops.reduce_sum(losses)
    return math_ops.div_no_nan(total_loss, num_present, name="value")


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    Reduction.validate(reduction)
    with _scope(scope, "weighted_loss", [losses, weights]):
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


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError("Argument `predictions` must not be None.")
    with _scope(scope, "mean_squared_error", [predictions, labels, weights]) as scope:
        predictions = math_ops.cast(predictions, dtype=dtypes.float32)
        labels = math_ops.cast(labels, dtype=dtypes.float32)
        predictions.shape.assert_is_compatible_with(labels.shape)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    if onehot_labels is None:
        raise ValueError("Argument `onehot_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with _scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights]) as scope:
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
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with _scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights]) as scope:
        labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
        labels_rank, logits_rank = labels.shape.ndims, logits.shape.ndims
        if labels_rank is not None and logits_rank is not None \
                and labels_rank - logits_rank == 0 and labels.shape.as_list()[-1] in (1, None):
            labels = array_ops.squeeze(labels, [-1])
        weights = convert_to_tensor(weights)
        if weights.shape.ndims is not None and labels.shape.ndims is not None \
                and weights.shape.ndims - labels.shape.ndims == 1:
            weights = array_ops.squeeze(weights, [-1])
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                          name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    return get_collection(loss_collection, scope)


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    if loss_collection:
        add_to_collection(loss_collection, loss)


__all__ = ["Reduction", "compute_weighted_loss", "mean_squared_error", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy", "get_losses", "add_loss"]
