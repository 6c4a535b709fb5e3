"""TF 1.x's statistics made of other ops, built as TensorFlow builds them (math_ops.py,
nn_impl.py): tf.math.reduce_variance and reduce_std, unsorted_segment_mean and
unsorted_segment_sqrt_n, polyval; tf.nn.weighted_moments, sufficient_statistics,
normalize_moments and log_poisson_loss."""

import math

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.ops import array_ops, math_ops, shape_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import ones, ones_like, zeros_like
from engine.ops.segment_ops import unsorted_segment_sum


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name or "reduce_variance"):
        input_tensor = convert_to_tensor(input_tensor)
        means = math_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError(f"Input must be either real or complex. Received integer type "
                            f"{means.dtype}.")
        diff = input_tensor - means
        if diff.dtype.is_complex:
            raise NotImplementedError("tf.math.reduce_variance of complex values is not "
                                      "supported by the engine yet")
        return math_ops.reduce_mean(math_ops.square(diff), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name or "reduce_std"):
        input_tensor = convert_to_tensor(input_tensor)
        variance = reduce_variance(input_tensor, axis=axis, keepdims=keepdims)
        return math_ops.sqrt(variance)


def _unsorted_segment_n(data, segment_ids, num_segments):
    num_segments = convert_to_tensor(num_segments)
    segment_ids_shape = shape_ops.shape_internal(segment_ids)
    ones_tensor = ones(segment_ids_shape, dtype=data.dtype)
    n = unsorted_segment_sum(ones_tensor, segment_ids, num_segments)
    broadcastable_shape = array_ops.concat(
        [num_segments[None], ones([shape_ops.rank(data) - shape_ops.rank(segment_ids)],
                                  dtype=num_segments.dtype)], axis=0)
    n = array_ops.reshape(n, broadcastable_shape)
    return math_ops.maximum(n, 1)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    with name_scope(name, "UnsortedSegmentMean"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        return unsorted_segment_sum(data, segment_ids, num_segments) / n


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    with name_scope(name, "UnsortedSegmentSqrtN"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        return unsorted_segment_sum(data, segment_ids, num_segments) / math_ops.sqrt(n)


def polyval(coeffs, x, name=None):
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    with name_scope(name, "polyval", list(coeffs) + [x]) as name:
        x = convert_to_tensor(x, name="x")
        if len(coeffs) < 1:
            return zeros_like(x, name=name)
        coeffs = [convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    keep_dims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keep_dims = bool(keep_dims)
    with name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = convert_to_tensor(x, name="x")
        frequency_weights = convert_to_tensor(frequency_weights, name="frequency_weights")
        needs_cast = x.dtype == dtypes.float16
        if needs_cast:
            x = math_ops.cast(x, dtypes.float32)
        if frequency_weights.dtype != x.dtype:
            frequency_weights = math_ops.cast(frequency_weights, x.dtype)
        weighted_input_sum = math_ops.reduce_sum(frequency_weights * x, axes,
                                                 name="weighted_input_sum", keepdims=True)
        broadcasted_weights = frequency_weights + zeros_like(x)
        sum_of_weights = math_ops.reduce_sum(broadcasted_weights, axes, name="sum_of_weights",
                                             keepdims=True)
        weighted_mean = math_ops.div_no_nan(weighted_input_sum, sum_of_weights)
        weighted_distsq = math_ops.reduce_sum(
            frequency_weights * math_ops.squared_difference(x, weighted_mean), axes,
            name="weighted_distsq", keepdims=True)
        weighted_variance = math_ops.div_no_nan(weighted_distsq, sum_of_weights)
        if not keep_dims:
            weighted_mean = array_ops.squeeze(weighted_mean, axis=axes)
            weighted_variance = array_ops.squeeze(weighted_variance, axis=axes)
        if needs_cast:
            weighted_mean = math_ops.cast(weighted_mean, dtypes.float16)
            weighted_variance = math_ops.cast(weighted_variance, dtypes.float16)
        return weighted_mean, weighted_variance


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    axes = list(set(axes))
    keep_dims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keep_dims = bool(keep_dims)
    with name_scope(name, "sufficient_statistics", [x, shift]):
        x = convert_to_tensor(x, name="x")
        x_shape = x.shape
        if x_shape.ndims is not None and all(x_shape.dims[d].value is not None for d in axes):
            counts = 1
            for d in axes:
                counts *= x_shape.dims[d].value
            counts = constant(counts, dtype=x.dtype)
        else:
            rank = shape_ops.rank(x)
            positive_axes = [axis + rank if axis < 0 else axis for axis in axes]
            x_dims = array_ops.gather(math_ops.cast(shape_ops.shape(x), x.dtype), positive_axes)
            counts = math_ops.reduce_prod(x_dims, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, name="shift")
            m_ss = math_ops.subtract(x, shift)
            v_ss = math_ops.squared_difference(x, shift)
        else:
            m_ss = x
            v_ss = math_ops.square(x)
        m_ss = math_ops.reduce_sum(m_ss, axes, keepdims=keep_dims, name="mean_ss")
        v_ss = math_ops.reduce_sum(v_ss, axes, keepdims=keep_dims, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    with name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor),
                                     math_ops.square(shifted_mean), name="variance")
    return mean, variance


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    with name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                             f"({log_input.shape} vs {targets.shape}).")
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = constant(0.5, dtype=targets.dtype)
            two_pi = constant(2 * math.pi, dtype=targets.dtype)
            stirling_approx = (targets * math_ops.log(targets)) - targets + (
                point_five * math_ops.log(two_pi * targets))
            zeros = zeros_like(targets, dtype=targets.dtype)
            ones_ = ones_like(targets, dtype=targets.dtype)
            cond = math_ops.logical_and(targets >= zeros, targets <= ones_)
            result += array_ops.where(cond, zeros, stirling_approx)
        return result


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """tf.confusion_matrix (tf.math.confusion_matrix): counts (or summed weights) of each
    (label, prediction) pair, scattered with ScatterNd after TensorFlow's range checks."""
    from engine.ops import check_ops
    from engine.ops.control_flow.ops import with_dependencies
    from engine.ops.losses import _remove_squeezable_dimensions
    from engine.ops.segment_ops import scatter_nd
    with name_scope(name, "confusion_matrix", (predictions, labels, num_classes, weights)):
        labels, predictions = _remove_squeezable_dimensions(
            convert_to_tensor(labels, name="labels"),
            convert_to_tensor(predictions, name="predictions"))
        predictions = math_ops.cast(predictions, dtypes.int64)
        labels = math_ops.cast(labels, dtypes.int64)
        labels = with_dependencies([check_ops.assert_non_negative(
            labels, message="`labels` contains negative values")], labels)
        predictions = with_dependencies([check_ops.assert_non_negative(
            predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = math_ops.maximum(math_ops.reduce_max(predictions),
                                           math_ops.reduce_max(labels)) + 1
        else:
            num_classes_int64 = math_ops.cast(num_classes, dtypes.int64)
            labels = with_dependencies([check_ops.assert_less(
                labels, num_classes_int64, message="`labels` out of bound")], labels)
            predictions = with_dependencies([check_ops.assert_less(
                predictions, num_classes_int64, message="`predictions` out of bound")],
                predictions)
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
            predictions.shape.assert_is_compatible_with(weights.shape)
            weights = math_ops.cast(weights, dtype)
        shape = array_ops.stack([num_classes, num_classes])
        indices = array_ops.stack([labels, predictions], axis=1)
        values = ones_like(predictions, dtype) if weights is None else weights
        return scatter_nd(indices=indices, updates=values,
                          shape=math_ops.cast(shape, dtypes.int64))
