"""Shape functions of MaxPoolWithArgmax, its gradients, Dilation2D with its backprops and the
fractional pools with their gradients, as TensorFlow's (core/ops/nn_ops.cc)."""

import math

import numpy as np

from engine.shape_inference.dims import ShapeError, _dims, merge_dim
from engine.shape_inference.partial_values import _from_value
from engine.shape_inference.nn import _spatial, pool


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


def fractional_pool(attrs, inputs):
    """[floor(dim / ratio) for each dim], and the row and column boundaries (one more)."""
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != 4:
        raise ShapeError(f"Shape must be rank 4 but is rank {len(dims)}")
    ratio = list(attrs.get("pooling_ratio") or [])
    if len(ratio) != 4:
        raise ShapeError("pooling_ratio field must specify 4 dimensions")
    out = [None if dims is None or dims[i] is None
           else int(math.floor(np.float32(dims[i]) / np.float32(ratio[i]))) for i in range(4)]
    # TensorFlow's function says [rows] and [cols] for the boundaries, one less than the
    # kernel gives.
    return out, [out[1]], [out[2]]


def fractional_avg_pool_grad(attrs, inputs):
    known = _from_value(inputs[0])
    return [None] * 4 if known is None else list(known)


SHAPE_FUNCTIONS = {
    "FractionalMaxPool": fractional_pool, "FractionalAvgPool": fractional_pool,
    "FractionalMaxPoolGrad": max_pool_grad_with_argmax,
    "FractionalAvgPoolGrad": fractional_avg_pool_grad,
    "MaxPoolWithArgmax": max_pool_with_argmax,
    "MaxPoolGradWithArgmax": max_pool_grad_with_argmax,
    "MaxPoolGradGradWithArgmax": max_pool_grad_grad_with_argmax,
    "Dilation2D": dilation2d, "Dilation2DBackpropInput": dilation2d_backprop_input,
    "Dilation2DBackpropFilter": dilation2d_backprop_filter,
}
