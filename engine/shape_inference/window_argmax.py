"""Shape functions of MaxPoolWithArgmax, its gradients and Dilation2D with its backprops, as
TensorFlow's (core/ops/nn_ops.cc)."""

from engine.shape_inference.dims import _dims, merge_dim
from engine.shape_inference.nn import _hw, _spatial, pool


def max_pool_with_argmax(attrs, inputs):
    """MaxPool's shape, twice."""
    out = pool(attrs, inputs)
    return out, out


def max_pool_grad_with_argmax(attrs, inputs):
    return _dims(inputs[0])


def max_pool_grad_grad_with_argmax(attrs, inputs):
    return pool(attrs, inputs)


def dilation2d(attrs, inputs):
    """[batch, out_rows, out_cols, depth] for a filter [rows, cols, depth] whose taps are
    `rates` apart."""
    filters = _dims(inputs[1]) or [None] * 3
    dims = _dims(inputs[0])
    depth = merge_dim(dims[3] if dims else None, filters[2])
    return _spatial(dict(attrs, dilations=attrs.get("rates")), dims, filters[:2], depth)


def dilation2d_backprop_input(attrs, inputs):
    return _dims(inputs[0])


def dilation2d_backprop_filter(attrs, inputs):
    return _dims(inputs[1])


SHAPE_FUNCTIONS = {
    "MaxPoolWithArgmax": max_pool_with_argmax,
    "MaxPoolGradWithArgmax": max_pool_grad_with_argmax,
    "MaxPoolGradGradWithArgmax": max_pool_grad_grad_with_argmax,
    "Dilation2D": dilation2d, "Dilation2DBackpropInput": dilation2d_backprop_input,
    "Dilation2DBackpropFilter": dilation2d_backprop_filter,
}
