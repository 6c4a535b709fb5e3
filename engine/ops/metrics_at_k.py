"""tf.metrics of the top k predictions of TF 1.x (metrics_impl.py): precision_at_k,
recall_at_k, precision_at_top_k, recall_at_top_k, sparse_precision_at_k,
average_precision_at_k and sparse_average_precision_at_k: set sizes of the top k ids against
the labels (dense or sparse), running float64 totals in local variables."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.ops import array_ops, math_ops, set_ops, state_ops
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import fill, ones_like, zeros_like
from engine.ops.math_grad import reduced_shape
from engine.ops.metrics import metric_variable
from engine.ops.metrics_means import _collect
from engine.ops.segment_ops import top_k
from engine.ops.shape_ops import rank as _rank, shape as _shape, size as _size
from engine.ops.sparse_math_ops import sparse_concat
from engine.ops.sparse_ops import sparse_reshape, sparse_retain
from engine.ops.weights_broadcast_ops import assert_broadcastable, broadcast_weights


def _to_tensor_or_sparse(value):
    if isinstance(value, SparseTensorValue):
        return SparseTensor(value.indices, value.values, value.dense_shape)
    if isinstance(value, SparseTensor):
        return value
    return convert_to_tensor(value)


def _components(sparse):
    return sparse.indices, sparse.values, sparse.dense_shape


def _at_k_name(name, k=None, class_id=None):
    name = "%s_at_%d" % (name, k) if k is not None else "%s_at_k" % name
    if class_id is not None:
        name = "%s_class%d" % (name, class_id)
    return name


def _select_class_id(ids, selected_id):
    ids = _to_tensor_or_sparse(ids)
    if isinstance(ids, SparseTensor):
        return sparse_retain(ids, math_ops.equal(ids.values, selected_id))
    ids_shape = _shape(ids, out_type=dtypes.int64)
    ids_last_dim = _size(ids_shape) - 1
    filled_selected_id_shape = reduced_shape(ids_shape, array_ops.reshape(ids_last_dim, [1]))
    filled_selected_id = fill(filled_selected_id_shape,
                              math_ops.cast(selected_id, dtypes.int64))
    result = set_ops.set_intersection(filled_selected_id, ids)
    return SparseTensor(indices=result.indices, values=result.values, dense_shape=ids_shape)


def _maybe_select_class_id(labels, predictions_idx, selected_id=None):
    if selected_id is None:
        return labels, predictions_idx
    return (_select_class_id(labels, selected_id),
            _select_class_id(predictions_idx, selected_id))


def _weighted(count, weights):
    count = math_ops.cast(count, dtypes.float64)
    if weights is None:
        return count
    with get_default_graph().control_dependencies((assert_broadcastable(weights, count),)):
        weights = math_ops.cast(weights, dtypes.float64)
        return math_ops.multiply(count, weights)


def _sparse_true_positive_at_k(labels, predictions_idx, class_id=None, weights=None,
                               name=None):
    with name_scope(name, "true_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        tp = set_ops.set_size(set_ops.set_intersection(predictions_idx, labels))
        return _weighted(tp, weights)


def _sparse_false_negative_at_k(labels, predictions_idx, class_id=None, weights=None):
    with name_scope(None, "false_negatives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fn = set_ops.set_size(set_ops.set_difference(predictions_idx, labels, aminusb=False))
        return _weighted(fn, weights)


def _sparse_false_positive_at_k(labels, predictions_idx, class_id=None, weights=None):
    with name_scope(None, "false_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fp = set_ops.set_size(set_ops.set_difference(predictions_idx, labels, aminusb=True))
        return _weighted(fp, weights)


def _streaming_count(count_fn, prefix):
    def streaming(labels, predictions_idx, k=None, class_id=None, weights=None, name=None):
        with name_scope(name, _at_k_name(prefix, k, class_id=class_id),
                        (predictions_idx, labels, weights)) as scope:
            count = count_fn(predictions_idx=predictions_idx, labels=labels,
                             class_id=class_id, weights=weights)
            batch_total = math_ops.cast(math_ops.reduce_sum(count), dtypes.float64)
            var = metric_variable([], dtypes.float64, name=scope)
            return var, state_ops.assign_add(var, batch_total, name="update")
    return streaming


_streaming_sparse_true_positive_at_k = _streaming_count(_sparse_true_positive_at_k,
                                                        "true_positive")
_streaming_sparse_false_negative_at_k = _streaming_count(_sparse_false_negative_at_k,
                                                         "false_negative")
_streaming_sparse_false_positive_at_k = _streaming_count(_sparse_false_positive_at_k,
                                                         "false_positive")


def _maybe_expand_labels(labels, predictions):
    with name_scope(None, "expand_labels", (labels, predictions)) as scope:
        labels = _to_tensor_or_sparse(labels)
        if isinstance(labels, SparseTensor):
            # a cond of SparseTensors is one of their component tensors, as TF flattens it
            return SparseTensor(*cond(
                math_ops.equal(_rank(predictions), _size(labels.dense_shape) + 1),
                lambda: _components(sparse_reshape(labels, shape=array_ops.concat(
                    (labels.dense_shape, (1,)), 0), name=scope)),
                lambda: _components(labels)))
        labels_rank = labels.get_shape().ndims
        if labels_rank is not None:
            predictions_rank = predictions.get_shape().ndims
            if predictions_rank is not None:
                if predictions_rank == labels_rank:
                    return labels
                if predictions_rank == labels_rank + 1:
                    return array_ops.expand_dims(labels, -1, name=scope)
                raise ValueError(f"Unexpected labels shape {labels.get_shape()} for predictions "
                                 f"shape {predictions.get_shape()}. Predictions rank should be "
                                 "the same rank as labels rank or labels rank plus one .")
        return cond(math_ops.equal(_rank(predictions), _rank(labels) + 1),
                    lambda: array_ops.expand_dims(labels, -1, name=scope), lambda: labels)


def _ratio_at_top_k(default_name, other_streaming):
    def metric(labels, predictions_idx, k=None, class_id=None, weights=None,
               metrics_collections=None, updates_collections=None, name=None):
        with name_scope(name, _at_k_name(default_name, k, class_id=class_id),
                        (predictions_idx, labels, weights)) as scope:
            labels = _maybe_expand_labels(labels, predictions_idx)
            top_k_idx = math_ops.cast(predictions_idx, dtypes.int64)
            tp, tp_update = _streaming_sparse_true_positive_at_k(
                predictions_idx=top_k_idx, labels=labels, k=k, class_id=class_id,
                weights=weights)
            other, other_update = other_streaming(
                predictions_idx=top_k_idx, labels=labels, k=k, class_id=class_id,
                weights=weights)
            value = math_ops.divide(tp, math_ops.add(tp, other), name=scope)
            _collect(metrics_collections, value)
            update = math_ops.divide(tp_update, math_ops.add(tp_update, other_update),
                                     name="update")
            _collect(updates_collections, update)
            return value, update
    metric.__name__ = f"{default_name}_at_top_k"
    metric.__doc__ = (f"The {default_name} of the given top k ids against the labels: "
                      f"({default_name}, update_op).")
    return metric


precision_at_top_k = _ratio_at_top_k("precision", _streaming_sparse_false_positive_at_k)
recall_at_top_k = _ratio_at_top_k("recall", _streaming_sparse_false_negative_at_k)


def _ratio_at_k(default_name, at_top_k):
    def metric(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with name_scope(name, _at_k_name(default_name, k, class_id=class_id),
                        (predictions, labels, weights)) as scope:
            _, top_k_idx = top_k(predictions, k)
            return at_top_k(labels=labels, predictions_idx=top_k_idx, k=k, class_id=class_id,
                            weights=weights, metrics_collections=metrics_collections,
                            updates_collections=updates_collections, name=scope)
    metric.__name__ = f"{default_name}_at_k"
    metric.__doc__ = (f"The {default_name} of the top k predictions against the labels: "
                      f"({default_name}, update_op).")
    return metric


precision_at_k = _ratio_at_k("precision", precision_at_top_k)
recall_at_k = _ratio_at_k("recall", recall_at_top_k)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """precision_at_k under its older name."""
    return precision_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                          weights=weights, metrics_collections=metrics_collections,
                          updates_collections=updates_collections, name=name)


def _expand_and_tile(tensor, multiple, dim=0, name=None):
    if multiple < 1:
        raise ValueError(f"Invalid argument multiple={multiple} for expand_and_tile  call. "
                         "`multiple` must be an integer > 0")
    with name_scope(name, "expand_and_tile", (tensor, multiple, dim)) as scope:
        tensor = _to_tensor_or_sparse(tensor)
        if isinstance(tensor, SparseTensor):
            if dim < 0:
                expand_dims = array_ops.reshape(_size(tensor.dense_shape) + dim, [1])
            else:
                expand_dims = [dim]
            expanded_shape = array_ops.concat(
                (array_ops.slice(tensor.dense_shape, [0], expand_dims), [1],
                 array_ops.slice(tensor.dense_shape, expand_dims, [-1])), 0,
                name="expanded_shape")
            expanded = sparse_reshape(tensor, shape=expanded_shape, name="expand")
            if multiple == 1:
                return expanded
            return sparse_concat(dim - 1 if dim < 0 else dim, [expanded] * multiple, name=scope)
        expanded = array_ops.expand_dims(tensor, dim if dim >= 0 else dim - 1, name="expand")
        if multiple == 1:
            return expanded
        ones = ones_like(_shape(tensor))
        tile_multiples = array_ops.concat((ones[:dim], (multiple,), ones[dim:]), 0,
                                          name="multiples")
        return array_ops.tile(expanded, tile_multiples, name=scope)


def _num_relevant(labels, k):
    if k < 1:
        raise ValueError(f"Invalid k={k}")
    with name_scope(None, "num_relevant", (labels,)) as scope:
        labels = _to_tensor_or_sparse(labels)
        if isinstance(labels, SparseTensor):
            return math_ops.minimum(set_ops.set_size(labels), k, name=scope)
        num_labels = math_ops.reduce_sum(
            array_ops.where_v2(math_ops.greater_equal(labels, 0), ones_like(labels),
                               zeros_like(labels)), axis=-1)
        return math_ops.minimum(num_labels, k, name=scope)


def _sparse_average_precision_at_top_k(labels, predictions_idx):
    with name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.get_shape().ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.get_shape().as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, "
                             "it is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        predictions_idx_per_k = array_ops.expand_dims(predictions_idx, -1,
                                                      name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, multiple=k, dim=-1, name="labels_per_k")
        relevant_per_k = _sparse_true_positive_at_k(labels_per_k, predictions_idx_per_k,
                                                    name="relevant_per_k")
        tp_per_k = math_ops.cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = math_ops.cumsum(ones_like(relevant_per_k), axis=-1,
                                          name="retrieved_per_k")
        precision_per_k = math_ops.divide(math_ops.cast(tp_per_k, dtypes.float64),
                                          math_ops.cast(retrieved_per_k, dtypes.float64),
                                          name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(
            precision_per_k, math_ops.cast(relevant_per_k, dtypes.float64),
            name="relevant_precision_per_k")
        precision_sum = math_ops.reduce_sum(relevant_precision_per_k, axis=(-1,),
                                            name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k), dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _streaming_sparse_average_precision_at_top_k(labels, predictions_idx, weights=None,
                                                 metrics_collections=None,
                                                 updates_collections=None, name=None):
    with name_scope(name, "average_precision_at_top_k",
                    (predictions_idx, labels, weights)) as scope:
        average_precision = _sparse_average_precision_at_top_k(
            predictions_idx=predictions_idx, labels=labels)
        if weights is not None:
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float64),
                                        average_precision)
            average_precision = math_ops.multiply(average_precision, weights)
        with name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = metric_variable([], dtypes.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(_size(average_precision, name="batch_max"),
                                          dtypes.float64)
            else:
                batch_max = math_ops.reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = metric_variable([], dtypes.float64, name=total_scope)
            batch_total = math_ops.reduce_sum(average_precision, name="batch_total")
            total_update = state_ops.assign_add(total_var, batch_total, name="update")
        mean_average_precision = math_ops.div_no_nan(total_var, max_var, name="mean")
        _collect(metrics_collections, mean_average_precision)
        update = math_ops.div_no_nan(total_update, max_update, name=scope)
        _collect(updates_collections, update)
        return mean_average_precision, update


def _clean_out_of_range_indices(labels, num_classes):
    is_sparse = isinstance(labels, (SparseTensor, SparseTensorValue))

    def clean(values):
        return array_ops.where_v2(math_ops.greater_equal(values, num_classes),
                                  -1 * ones_like(values), values)

    def clean_labels():
        if is_sparse:
            return type(labels)(indices=labels.indices, values=clean(labels.values),
                                dense_shape=labels.dense_shape)
        return clean(labels)
    max_labels = math_ops.reduce_max(labels.values if is_sparse else labels)
    if is_sparse:
        return SparseTensor(*cond(math_ops.greater_equal(max_labels, num_classes),
                                  lambda: _components(clean_labels()),
                                  lambda: _components(labels)))
    return cond(math_ops.greater_equal(max_labels, num_classes), clean_labels, lambda: labels)


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The mean average precision of the top k predictions: (mean, update_op)."""
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with name_scope(name, _at_k_name("average_precision", k),
                    (predictions, labels, weights)) as scope:
        _, predictions_idx = top_k(predictions, k)
        labels = _clean_out_of_range_indices(
            labels, math_ops.cast(_shape(predictions)[-1], dtypes.int64))
        return _streaming_sparse_average_precision_at_top_k(
            labels=labels, predictions_idx=predictions_idx, weights=weights,
            metrics_collections=metrics_collections,
            updates_collections=updates_collections, name=scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None,
                                  metrics_collections=None, updates_collections=None,
                                  name=None):
    """average_precision_at_k under its older name."""
    return average_precision_at_k(labels=labels, predictions=predictions, k=k,
                                  weights=weights, metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)
