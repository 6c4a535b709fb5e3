"""Static shapes of the gradient and training ops, merged into engine.shape_inference's table.

Backprop ops mostly rebuild a shape given as a tensor (Conv2DBackpropInput's input_sizes,
StridedSliceGrad's shape); the apply ops return their variable.
"""

from engine.shape_inference.dims import ShapeError, _dims, _unknown, merge
from engine.shape_inference.elementwise import unchanged
from engine.shape_inference.nn import max_pool_v2, pool
from engine.shape_inference.partial_values import _from_value, _ints, _value


def _shape_from(index):
    return lambda attrs, inputs: _from_value(inputs[index])


def _conv2d_backprop_input(attrs, inputs):
    """TensorFlow's Conv2DBackpropInputShape: the batch dim from out_backprop, the spatial
    dims and depth from input_sizes (of 2 values: the spatial dims, the depth the filter's)."""
    sizes = _from_value(inputs[0])
    if sizes is None or len(sizes) not in (2, 4):
        return sizes
    grad, filters = _dims(inputs[2]), _dims(inputs[1])
    nchw = attrs.get("data_format") == b"NCHW"
    batch = grad[0] if grad is not None and len(grad) == 4 else None
    if len(sizes) == 4:
        depth, spatial = (sizes[1], sizes[2:]) if nchw else (sizes[3], sizes[1:3])
    else:
        depth = filters[2] if filters is not None and len(filters) == 4 else None
        spatial = sizes
    return [batch, depth, *spatial] if nchw else [batch, *spatial, depth]


def _bias_add_grad(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is None:
        return [None]
    return [dims[1] if attrs.get("data_format") == b"NCHW" and len(dims) > 2 else dims[-1]]


def _unsorted_segment_sum(attrs, inputs):
    data, ids, count = (_dims(inputs[0]), _dims(inputs[1]),
                        _ints(inputs[2]))
    if data is None or ids is None:
        return None
    return [count[0] if count else None] + data[len(ids):]


def _broadcast_gradient_args(attrs, inputs):
    return ([None], [None])


def _max_pool_grad_grad(forward):
    """MaxPoolGradGrad(V2): the pool's output shape from orig_input. TensorFlow merges
    orig_input's with grad's and the output's with orig_output's only to check them: what
    orig_output knows does not reach the output."""
    def shape(attrs, inputs):
        output = forward(attrs, inputs)
        merge(_dims(inputs[0]), _dims(inputs[2]))
        merge(output, _dims(inputs[1]))
        return output
    return shape


def _mirror_pad_grad(attrs, inputs):
    """The input's dims less the paddings (TensorFlow's MirrorPadGrad shape function): the
    rank from paddings' first dim, every dim unknown while the paddings are."""
    paddings_dims = _dims(inputs[1])
    if paddings_dims is not None and len(paddings_dims) != 2:
        raise ShapeError(f"Shape must be rank 2 but is rank {len(paddings_dims)}")
    rank = paddings_dims[0] if paddings_dims is not None else None
    if rank is None:
        return None
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != rank:
        raise ShapeError(f"Shape must be rank {rank} but is rank {len(dims)}")
    paddings = _value(inputs[1])
    if paddings is None:
        return _unknown(rank)
    dims = dims if dims is not None else [None] * rank
    result = []
    for d, (before, after) in zip(dims, paddings.reshape(-1, 2).tolist()):
        if before < 0 or after < 0:
            raise ShapeError("Paddings must be non-negative")
        result.append(None if d is None else d - before - after)
    return result


SHAPE_FUNCTIONS = {
    "BiasAddGrad": _bias_add_grad,
    "Conv2DBackpropInput": _conv2d_backprop_input,
    "Conv2DBackpropFilter": _shape_from(1),
    "DepthwiseConv2dNativeBackpropInput": _shape_from(0),
    "DepthwiseConv2dNativeBackpropFilter": _shape_from(1),
    "AvgPoolGrad": _shape_from(0),
    "MaxPoolGrad": unchanged,
    "MaxPoolGradV2": unchanged,
    "MaxPoolGradGrad": _max_pool_grad_grad(pool),
    "MaxPoolGradGradV2": _max_pool_grad_grad(
        lambda attrs, inputs: max_pool_v2(attrs, [inputs[0], inputs[3], inputs[4]])),
    "MirrorPadGrad": _mirror_pad_grad,
    "StridedSliceGrad": _shape_from(0),
    "BroadcastGradientArgs": _broadcast_gradient_args,
    "UnsortedSegmentSum": _unsorted_segment_sum,
    # the sparse updates return their variable (the resource ones return nothing)
    **{f"SparseApply{name}": unchanged
       for name in ("Momentum", "RMSProp", "CenteredRMSProp", "Adagrad", "ProximalAdagrad",
                    "AdagradDA")},
    **{f"{prefix}{name}": unchanged
       for prefix in ("Apply", "ResourceApply")
       for name in ("GradientDescent", "Momentum", "Adam", "RMSProp", "CenteredRMSProp",
                    "Adagrad", "Adadelta", "ProximalGradientDescent", "Ftrl", "FtrlV2",
                    "ProximalAdagrad", "AdagradDA")},
    # SyncReplicasOptimizer's accumulators (kernels/cpu/accumulators.py): a scalar handle
    # and count; what a take returns is unknown to TensorFlow's function (the Python
    # wrapper sets it).
    "ResourceConditionalAccumulator": lambda attrs, inputs: [],
    "ResourceAccumulatorNumAccumulated": lambda attrs, inputs: [],
    "ResourceAccumulatorTakeGradient": lambda attrs, inputs: None,
}
