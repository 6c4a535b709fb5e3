"""SdcaOptimizer's CPU kernel (core/kernels/sdca_ops.cc, sdca_internal.cc): one pass of
stochastic dual coordinate ascent over the examples, each example's dual updated by its loss
(kernels/cpu/sdca_losses.py) against w.x of the shrunk weights plus the deltas so far, the
weight deltas and the example state [dual, primal loss, dual loss, weight] returned.

Arithmetic follows TensorFlow's types: w.x and the duals in double, sparse weights read as
float and shrunk in double, dense rows and their shrunk weights multiplied and summed in
float32 (in index order: TensorFlow's Eigen sums agree below 8 values), sparse deltas added in
double and stored as float. The order of the examples is TensorFlow's: adaptive sampling
(each example drawn by its probability, a drawn one kept with chance 0.1^times drawn) or a
shuffle, both from an unseeded generator in TensorFlow, so only one-example runs repeat.
"""

import math

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str, split_outputs
from engine.kernels.cpu.sdca_losses import UPDATERS


def _f32_sum(values):
    total = np.float32(0)
    for v in np.asarray(values, np.float32).reshape(-1):
        total = np.float32(total + v)
    return total


class _Model:
    """Nominal weights (float) and their deltas (the op's outputs), sparse by index."""

    def __init__(self, sparse_indices, sparse_weights, dense_weights):
        self.sparse_ids = [{int(index): j for j, index in enumerate(np.asarray(ix).reshape(-1))}
                           for ix in sparse_indices]
        self.sparse_nominals = [np.asarray(w, np.float32).reshape(-1) for w in sparse_weights]
        self.sparse_deltas = [np.zeros_like(w) for w in self.sparse_nominals]
        self.dense_nominals = [np.asarray(w, np.float32).reshape(-1) for w in dense_weights]
        self.dense_deltas = [np.zeros_like(w) for w in self.dense_nominals]


def _shrink(weight, shrinkage):
    shrunk = max(abs(weight) - shrinkage, 0.0)
    return math.copysign(shrunk, weight) if shrunk > 0.0 else 0.0


def _shrink_f32(weights, shrinkage):
    shrinkage = np.float32(shrinkage)
    with np.errstate(invalid="ignore"):
        return np.sign(weights) * np.maximum(np.abs(weights) - shrinkage, np.float32(0))


class _Example:
    __slots__ = ("weight", "label", "sparse", "dense", "squared_norm")


def _examples(ctx, example_weights, example_labels, sparse_example_indices,
              sparse_feature_indices, sparse_feature_values, dense_features, model):
    weights = np.asarray(example_weights, np.float32).reshape(-1)
    labels = np.asarray(example_labels, np.float32).reshape(-1)
    count = weights.size
    if labels.size != count:
        raise invalid(ctx, f"Expected {count} example labels but got {labels.size}")
    examples = []
    for e in range(count):
        example = _Example()
        example.weight, example.label = weights[e], labels[e]
        example.sparse, example.dense = [], []
        examples.append(example)
    for i, (rows, features) in enumerate(zip(sparse_example_indices, sparse_feature_indices)):
        rows = np.asarray(rows).reshape(-1)
        features = np.asarray(features).reshape(-1)
        values = (np.asarray(sparse_feature_values[i], np.float32).reshape(-1)
                  if i < len(sparse_feature_values) else None)
        end = 0
        for e, example in enumerate(examples):
            start = end
            while end < rows.size and rows[end] == e:
                end += 1
            indices = features[start:end]
            for index in indices.tolist():
                if index not in model.sparse_ids[i]:
                    raise invalid(ctx, f"Found sparse feature indices out of valid range: "
                                       f"{index}")
            if len(set(indices.tolist())) != indices.size:
                raise invalid(ctx, "Duplicate index in sparse vector.")
            example.sparse.append((indices, None if values is None else values[start:end]))
    for matrix in dense_features:
        matrix = np.asarray(matrix, np.float32)
        for e, example in enumerate(examples):
            example.dense.append(matrix[e])
    for example in examples:
        norm = 0.0
        for indices, values in example.sparse:
            norm += float(_f32_sum(values * values)) if values is not None else indices.size
        for row in example.dense:
            norm += float(_f32_sum(row * row))
        example.squared_norm = norm
    return examples


def _wx(example, model, partitions, shrinkage, l2):
    """(w.x with the deltas scaled by the partitions, w.x of the nominals, normalised
    squared norm), as ComputeWxAndWeightedExampleNorm."""
    wx = prev_wx = 0.0
    for group, (indices, values) in enumerate(example.sparse):
        ids = model.sparse_ids[group]
        for k, index in enumerate(indices.tolist()):
            value = 1.0 if values is None else float(values[k])
            j = ids[index]
            nominal = model.sparse_nominals[group][j]
            weight = float(np.float32(nominal + np.float32(
                model.sparse_deltas[group][j] * np.float32(partitions))))
            prev_wx += value * _shrink(float(nominal), shrinkage)
            wx += value * _shrink(weight, shrinkage)
    for group, row in enumerate(example.dense):
        nominals = model.dense_nominals[group]
        weights = nominals + model.dense_deltas[group] * np.float32(partitions)
        prev_wx += float(_f32_sum(row * _shrink_f32(nominals, shrinkage)))
        wx += float(_f32_sum(row * _shrink_f32(weights, shrinkage)))
    return wx, prev_wx, example.squared_norm / l2


def _update_deltas(example, model, delta):
    for group, (indices, values) in enumerate(example.sparse):
        ids, deltas = model.sparse_ids[group], model.sparse_deltas[group]
        for k, index in enumerate(indices.tolist()):
            value = 1.0 if values is None else float(values[k])
            j = ids[index]
            deltas[j] = np.float32(float(deltas[j]) + value * delta)
    for group, row in enumerate(example.dense):
        model.dense_deltas[group] += row * np.float32(delta)


def _adaptive_order(examples, model, state, updater, partitions, shrinkage, l2, rng):
    count = len(examples)
    probabilities = np.zeros(count)
    for e, example in enumerate(examples):
        label = updater.convert_label(float(example.label))
        wx = _wx(example, model, partitions, shrinkage, l2)[0]
        kappa = float(state[e, 0]) + updater.primal_derivative(wx, label, 1.0)
        probabilities[e] = float(example.weight) * math.sqrt(
            example.squared_norm + l2 * updater.smoothness) * abs(kappa)
    total = probabilities.sum()
    if count == 1:
        return [0]
    cumulative = probabilities / total if total > 0 else np.full(count, 1.0 / count)
    order, drawn, retries = [0] * count, [0] * count, 0
    filled = 0
    while filled < count and retries < count:
        picked = int(rng.choice(count, p=cumulative))
        if rng.random() > 0.1 ** drawn[picked]:
            retries += 1
            continue
        drawn[picked] += 1
        order[filled] = picked
        filled += 1
    return order


@register("SdcaOptimizer")
@register("SdcaOptimizerV2")  # the same inputs; its attr is "adaptive"
def sdca_optimizer(ctx, *inputs):
    attrs = ctx.attrs
    n_sparse, n_values = attrs["num_sparse_features"], attrs["num_sparse_features_with_values"]
    n_dense = attrs["num_dense_features"]
    if n_sparse + n_dense == 0:
        raise invalid(ctx, "Requires at least one feature to train.")
    inputs = list(inputs)

    def take(n):
        taken = inputs[:n]
        del inputs[:n]
        return taken

    sparse_example_indices, sparse_feature_indices = take(n_sparse), take(n_sparse)
    sparse_feature_values, dense_features = take(n_values), take(n_dense)
    (example_weights,), (example_labels,) = take(1), take(1)
    sparse_indices, sparse_weights, dense_weights = take(n_sparse), take(n_sparse), take(n_dense)
    (example_state_data,) = take(1)
    loss = attrs["loss_type"]
    loss = loss.decode() if isinstance(loss, bytes) else loss
    updater = UPDATERS[loss]
    l1, l2 = np.float32(attrs["l1"]), np.float32(attrs["l2"])
    shrinkage = float(np.float32(l1 / l2))
    partitions = int(attrs["num_loss_partitions"])
    model = _Model(sparse_indices, sparse_weights, dense_weights)
    examples = _examples(ctx, example_weights, example_labels, sparse_example_indices,
                         sparse_feature_indices, sparse_feature_values, dense_features, model)
    state = np.array(example_state_data, np.float32)
    if state.shape != (len(examples), 4):
        raise invalid(ctx, f"Expected shape {shape_str((len(examples), 4))} for "
                           f"example_state_data, got {shape_str(state.shape)}")
    rng = np.random.default_rng()
    try:
        if attrs.get("adaptative", attrs.get("adaptive", False)):
            order = _adaptive_order(examples, model, state, updater, partitions, shrinkage,
                                    float(l2), rng)
        else:
            order = list(rng.permutation(len(examples)))
        for index in order:
            example = examples[index]
            dual, weight = float(state[index, 0]), float(example.weight)
            label = updater.convert_label(float(example.label))
            wx, prev_wx, norm = _wx(example, model, partitions, shrinkage, float(l2))
            new_dual = updater.updated_dual(partitions, label, weight, dual, wx, norm)
            _update_deltas(example, model, (new_dual - dual) * weight / float(l2))
            state[index] = (new_dual, updater.primal_loss(prev_wx, label, weight),
                            updater.dual_loss(dual, label, weight), weight)
    except ValueError as error:
        raise invalid(ctx, str(error)) from None
    return split_outputs((state, *model.sparse_deltas, *model.dense_deltas))
