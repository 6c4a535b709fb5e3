"""NumPy CPU kernel of EditDistance: the Levenshtein distance between the sequences of two
SparseTensors (grouped by every index but the last), as TensorFlow's edit_distance_op.cc
walks them: groups in order of appearance, missing truths and hypotheses handled apart."""

import numpy as np

from engine.framework.errors import InternalError
from engine.kernels import register
from engine.kernels.common import invalid, shape_str


def levenshtein(source, target):
    """gtl::LevenshteinDistance: insertions, deletions and substitutions, each costing 1."""
    if not source:
        return len(target)
    if not target:
        return len(source)
    previous = list(range(len(target) + 1))
    for i, s in enumerate(source, 1):
        current = [i] + [0] * len(target)
        for j, t in enumerate(target, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (0 if s == t else 1))
        previous = current
    return previous[-1]


def _groups(indices, values):
    """[(group key, values)] of consecutive entries sharing every index but the last."""
    groups = []
    for row, value in zip(indices[:, :-1].tolist(), values):
        key = tuple(row)
        if groups and groups[-1][0] == key:
            groups[-1][1].append(value)
        else:
            groups.append((key, [value]))
    return groups


def _validate(ctx, h_indices, h_values, h_shape, t_indices, t_values, t_shape):
    for name, value in (("hypothesis_indices", h_indices), ("truth_indices", t_indices)):
        if np.ndim(value) != 2:
            raise invalid(ctx, f"{name} should be a matrix, but got shape: "
                               f"{shape_str(np.shape(value))}")
    for name, value in (("hypothesis_values", h_values), ("truth_values", t_values),
                        ("hypothesis_shape", h_shape), ("truth_shape", t_shape)):
        if np.ndim(value) != 1:
            raise invalid(ctx, f"{name} should be a vector, but got shape: "
                               f"{shape_str(np.shape(value))}")
    for kind, values, indices in (("hypothesis", h_values, h_indices),
                                  ("truth", t_values, t_indices)):
        if np.size(values) != np.shape(indices)[0]:
            raise invalid(ctx, f"Expected {kind}_values.NumElements == #rows({kind}_indices), "
                               f"their shapes are: {shape_str(np.shape(values))} and "
                               f"{shape_str(np.shape(indices))}")
    for kind, shape, indices in (("hypothesis", h_shape, h_indices),
                                 ("truth", t_shape, t_indices)):
        if np.size(shape) != np.shape(indices)[1]:
            raise invalid(ctx, f"Expected {kind}_shape.NumElements == #cols({kind}_indices), "
                               f"their shapes are: {shape_str(np.shape(shape))} and "
                               f"{shape_str(np.shape(indices))}")
    if np.size(t_shape) < 2:
        raise invalid(ctx, "Input SparseTensors must have rank at least 2, but truth_shape "
                           f"rank is: {np.size(t_shape)}")
    if np.size(h_shape) != np.size(t_shape):
        raise invalid(ctx, "Expected truth and hypothesis to have matching ranks, but their "
                           f"shapes are: {shape_str(np.shape(t_shape))} and "
                           f"{shape_str(np.shape(h_shape))}")


@register("EditDistance")
def edit_distance(ctx, h_indices, h_values, h_shape, t_indices, t_values, t_shape):
    _validate(ctx, h_indices, h_values, h_shape, t_indices, t_values, t_shape)
    normalize = bool(ctx.attrs["normalize"])
    out_shape = [max(int(h), int(t)) for h, t in zip(h_shape[:-1], t_shape[:-1])]
    size = int(np.prod(out_shape))
    if size <= 0:
        raise invalid(ctx, f"Got output shape {shape_str(out_shape)} which has 0 elements")
    output = np.zeros(size, np.float32)
    strides = np.cumprod([1] + out_shape[:0:-1])[::-1].tolist()

    def location(key):
        loc = sum(k * s for k, s in zip(key, strides))
        if not 0 <= loc < size:
            raise InternalError(ctx.node_def, None,
                                f"Got an inner product {loc} which would require writing to "
                                f"outside of the buffer for the output tensor (max elements "
                                f"{size})")
        return loc

    def missing_truth(key, hypothesis):
        distance = np.float32(len(hypothesis))
        output[location(key)] = np.float32(np.inf) if normalize and distance != 0 else distance

    def missing_hypothesis(key, truth):
        output[location(key)] = np.float32(1.0) if normalize else np.float32(len(truth))

    hypotheses, truths = _groups(h_indices, list(h_values)), _groups(t_indices, list(t_values))
    h, t = 0, 0
    while h < len(hypotheses) and t < len(truths):
        (h_key, hypothesis), (t_key, truth) = hypotheses[h], truths[t]
        if t_key == h_key:
            distance = np.float32(levenshtein(truth, hypothesis))
            output[location(t_key)] = distance / np.float32(len(truth)) if normalize \
                else distance
            h, t = h + 1, t + 1
        elif t_key > h_key:
            missing_truth(h_key, hypothesis)
            h += 1
        else:
            missing_hypothesis(t_key, truth)
            t += 1
    for h_key, hypothesis in hypotheses[h:]:
        missing_truth(h_key, hypothesis)
    for t_key, truth in truths[t:]:
        missing_hypothesis(t_key, truth)
    return output.reshape(out_shape)
