"""Static shapes of the gradient and training ops, merged into engine.shape_inference's table.

Backprop ops mostly rebuild a shape given as a tensor (Conv2DBackpropInput's input_sizes,
StridedSliceGrad's shape); the apply ops return their variable.
"""

from engine.shape_inference.dims import _dims
from engine.shape_inference.elementwise import unchanged
from engine.shape_inference.partial_values import _from_value, _ints


def _shape_from(index):
    return lambda attrs, inputs: _from_value(inputs[index])


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


SHAPE_FUNCTIONS = {
    "BiasAddGrad": _bias_add_grad,
    "Conv2DBackpropInput": _shape_from(0),
    "Conv2DBackpropFilter": _shape_from(1),
    "DepthwiseConv2dNativeBackpropInput": _shape_from(0),
    "DepthwiseConv2dNativeBackpropFilter": _shape_from(1),
    "AvgPoolGrad": _shape_from(0),
    "MaxPoolGrad": unchanged,
    "StridedSliceGrad": _shape_from(0),
    "BroadcastGradientArgs": _broadcast_gradient_args,
    "UnsortedSegmentSum": _unsorted_segment_sum,
    # the sparse updates return their variable (the resource ones return nothing)
    **{f"SparseApply{name}": unchanged
       for name in ("Momentum", "RMSProp", "CenteredRMSProp", "Adagrad")},
    **{f"{prefix}{name}": unchanged
       for prefix in ("Apply", "ResourceApply")
       for name in ("GradientDescent", "Momentum", "Adam", "RMSProp", "CenteredRMSProp",
                    "Adagrad", "Adadelta", "ProximalGradientDescent", "Ftrl", "FtrlV2")},
    # SyncReplicasOptimizer's accumulators (kernels/cpu/accumulators.py): a scalar handle
    # and count; what a take returns is unknown to TensorFlow's function (the Python
    # wrapper sets it).
    "ResourceConditionalAccumulator": lambda attrs, inputs: [],
    "ResourceAccumulatorNumAccumulated": lambda attrs, inputs: [],
    "ResourceAccumulatorTakeGradient": lambda attrs, inputs: None,
}
