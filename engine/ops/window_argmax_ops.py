"""tf.nn.max_pool_with_argmax, dilation2d, erosion2d, fractional_max_pool and
fractional_avg_pool (TensorFlow's nn_ops.py), and the gradients of MaxPoolWithArgmax,
Dilation2D and the fractional pools (nn_grad.py)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         Targmax=None, name=None, output_dtype=None,  # noqa: N803
                         include_batch_in_index=False):
    """(max pool, flat index of each maximum in input: ((b * height + y) * width + x) *
    channels + c, without the batch term unless include_batch_in_index)."""
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    targmax = output_dtype if output_dtype is not None else Targmax
    return tuple(apply_op("MaxPoolWithArgmax", input=input, ksize=ksize, strides=strides,
                          padding=padding, Targmax=targmax or dtypes.int64,
                          include_batch_in_index=include_batch_in_index, name=name))


@RegisterGradient("MaxPoolWithArgmax")
def _max_pool_grad_with_argmax(op, grad, unused_argmax_grad):
    del unused_argmax_grad
    return apply_op("MaxPoolGradWithArgmax", input=op.inputs[0], grad=grad,
                    argmax=op.outputs[1], ksize=op.get_attr("ksize"),
                    strides=op.get_attr("strides"), padding=op.get_attr("padding"),
                    include_batch_in_index=op.get_attr("include_batch_in_index"))


def dilation2d(input, filter=None, strides=None, rates=None, padding=None,  # noqa: A002
               name=None, filters=None, dilations=None):
    """Grayscale dilation: the max over each window of input + filter."""
    filter = filters if filters is not None else filter  # noqa: A001
    rates = dilations if dilations is not None else rates
    return apply_op("Dilation2D", input=input, filter=filter, strides=strides, rates=rates,
                    padding=padding, name=name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """Grayscale erosion, as -dilation2d(-value, kernel reversed in both spatial dims)."""
    with name_scope(name, "erosion2d", [value, kernel]) as name:
        return math_ops.negative(apply_op(
            "Dilation2D", input=math_ops.negative(value),
            filter=array_ops.reverse_v2(kernel, [0, 1]), strides=strides, rates=rates,
            padding=padding, name=name))


@RegisterGradient("Dilation2D")
def _dilation2d_grad(op, grad):
    attrs = dict(strides=op.get_attr("strides"), rates=op.get_attr("rates"),
                 padding=op.get_attr("padding"))
    return [apply_op("Dilation2DBackpropInput", input=op.inputs[0], filter=op.inputs[1],
                     out_backprop=grad, **attrs),
            apply_op("Dilation2DBackpropFilter", input=op.inputs[0], filter=op.inputs[1],
                     out_backprop=grad, **attrs)]


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """(max over regions of about 1/ratio the input, row boundaries, column boundaries), the
    regions drawn from the node's Philox stream of (seed, seed2)."""
    return tuple(apply_op("FractionalMaxPool", value=value, pooling_ratio=pooling_ratio,
                          pseudo_random=pseudo_random, overlapping=overlapping,
                          deterministic=deterministic, seed=seed, seed2=seed2, name=name))


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """fractional_max_pool's regions, averaged."""
    return tuple(apply_op("FractionalAvgPool", value=value, pooling_ratio=pooling_ratio,
                          pseudo_random=pseudo_random, overlapping=overlapping,
                          deterministic=deterministic, seed=seed, seed2=seed2, name=name))


@RegisterGradient("FractionalMaxPool")
def _fractional_max_pool_grad(op, grad_0, unused_grad_1, unused_grad_2):
    return apply_op("FractionalMaxPoolGrad", orig_input=op.inputs[0],
                    orig_output=op.outputs[0], out_backprop=grad_0,
                    row_pooling_sequence=op.outputs[1], col_pooling_sequence=op.outputs[2],
                    overlapping=op.get_attr("overlapping"))


@RegisterGradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op, grad_0, unused_grad_1, unused_grad_2):
    return apply_op("FractionalAvgPoolGrad",
                    orig_input_tensor_shape=op.inputs[0].shape.as_list(),
                    out_backprop=grad_0, row_pooling_sequence=op.outputs[1],
                    col_pooling_sequence=op.outputs[2], overlapping=op.get_attr("overlapping"))
