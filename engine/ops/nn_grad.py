"""Gradients of the nn ops: activations (through their *Grad ops), softmax and the cross
entropies, bias_add, conv2d and pooling, l2_loss, and the second-order gradients of the
activation, bias, conv and pool gradient ops; ported from TensorFlow's nn_grad.py."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient, is_zeros_tensor
from engine.ops.op_def_library import apply_op

# A bool per row: nothing to differentiate (TensorFlow registers nothing; its outputs carry
# no gradient either way).
NotDifferentiable("InTopKV2")


@RegisterGradient("Softmax")
def _softmax_grad(op, grad_softmax):
    softmax = op.outputs[0]
    sum_channels = math_ops.reduce_sum(grad_softmax * softmax, -1, keepdims=True)
    return (grad_softmax - sum_channels) * softmax


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    softmax = math_ops.exp(op.outputs[0])
    return grad - math_ops.reduce_sum(grad, -1, keepdims=True) * softmax


@RegisterGradient("BiasAdd")
def _bias_add_grad(op, received_grad):
    data_format = op.get_attr("data_format")
    return received_grad, apply_op("BiasAddGrad", out_backprop=received_grad,
                                   data_format=data_format)


@RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op, received_grad):
    """The bias gradient tiled back over the batch and spatial dims of BiasAddGrad's input."""
    data_format = op.get_attr("data_format")
    shape = array_ops.shape(op.inputs[0])
    bias_shape = array_ops.shape(received_grad)
    if data_format == b"NCHW":
        expanded_shape = array_ops.concat([array_ops.ones_like(shape[:1]), bias_shape,
                                           array_ops.ones_like(shape[2:])], 0)
        tile_mults = array_ops.concat([shape[:1], [1], shape[2:]], 0)
    else:
        expanded_shape = array_ops.concat([array_ops.ones_like(shape[:-1]), bias_shape], 0)
        tile_mults = array_ops.concat([shape[:-1], [1]], 0)
    expanded_grad = array_ops.reshape(received_grad, expanded_shape)
    return array_ops.tile(expanded_grad, tile_mults)


@RegisterGradient("BiasAddV1")
def _bias_add_grad_v1(op, received_grad):
    rank = array_ops.rank(received_grad)
    reduction_dim_tensor = math_ops.range(rank - 1)
    return received_grad, math_ops.reduce_sum(received_grad, reduction_dim_tensor)


RegisterGradient("Relu")(lambda op, grad: apply_op("ReluGrad", gradients=grad,
                                                   features=op.outputs[0]))
RegisterGradient("Relu6")(lambda op, grad: apply_op("Relu6Grad", gradients=grad,
                                                    features=op.outputs[0]))
RegisterGradient("Elu")(lambda op, grad: apply_op("EluGrad", gradients=grad,
                                                  outputs=op.outputs[0]))
RegisterGradient("Selu")(lambda op, grad: apply_op("SeluGrad", gradients=grad,
                                                   outputs=op.outputs[0]))
RegisterGradient("Softplus")(lambda op, grad: grad * math_ops.sigmoid(op.inputs[0]))
RegisterGradient("Softsign")(lambda op, grad: apply_op("SoftsignGrad", gradients=grad,
                                                       features=op.inputs[0]))


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    return apply_op("LeakyReluGrad", gradients=grad, features=op.inputs[0],
                    alpha=op.get_attr("alpha"))


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op, grad):
    x = op.inputs[1]
    return apply_op("ReluGrad", gradients=grad, features=x), array_ops.zeros_like(x)


@RegisterGradient("Relu6Grad")
def _relu6_grad_grad(op, grad):
    x = op.inputs[1]
    return apply_op("Relu6Grad", gradients=grad, features=x), array_ops.zeros_like(x)


@RegisterGradient("EluGrad")
def _elu_grad_grad(op, grad):
    elu_x = op.inputs[1]
    return (apply_op("EluGrad", gradients=grad, outputs=elu_x),
            array_ops.where(elu_x < 0, grad * op.inputs[0], array_ops.zeros_like(elu_x)))


@RegisterGradient("SeluGrad")
def _selu_grad_grad(op, grad):
    selu_x = op.inputs[1]
    return (apply_op("SeluGrad", gradients=grad, outputs=selu_x),
            array_ops.where(selu_x < 0., grad * op.inputs[0], array_ops.zeros_like(selu_x)))


@RegisterGradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, grad):
    x = op.inputs[1]
    return (apply_op("LeakyReluGrad", gradients=grad, features=x, alpha=op.get_attr("alpha")),
            array_ops.zeros_like(x))


@RegisterGradient("L2Loss")
def _l2_loss_grad(op, grad):
    return op.inputs[0] * grad


def _broadcast_mul(vec, mat):
    vec = array_ops.expand_dims(vec, -1)
    return vec * mat


def _cross_entropy_grad(op, grad_loss, grad_grad):
    softmax_grad = op.outputs[1]
    grad = _broadcast_mul(grad_loss, softmax_grad)
    logits = op.inputs[0]
    if grad_grad is not None and not is_zeros_tensor(grad_grad):
        softmax = apply_op("Softmax", logits=logits)
        grad += ((grad_grad - array_ops.squeeze(
            math_ops.matmul(array_ops.expand_dims(grad_grad, 1),
                            array_ops.expand_dims(softmax, 2)), axis=1)) * softmax)
    return grad


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _softmax_cross_entropy_grad(op, grad_loss, grad_grad):
    grad = _cross_entropy_grad(op, grad_loss, grad_grad)
    logits = op.inputs[0]
    return grad, _broadcast_mul(grad_loss, -apply_op("LogSoftmax", logits=logits))


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_cross_entropy_grad(op, grad_loss, grad_grad):
    return _cross_entropy_grad(op, grad_loss, grad_grad), None


def _conv_attrs(op):
    return dict(strides=op.get_attr("strides"), padding=op.get_attr("padding"),
                explicit_paddings=op.get_attr("explicit_paddings"),
                use_cudnn_on_gpu=op.get_attr("use_cudnn_on_gpu"),
                data_format=op.get_attr("data_format"), dilations=op.get_attr("dilations"))


@RegisterGradient("Conv2D")
def _conv2d_grad(op, grad):
    attrs = _conv_attrs(op)
    shape_0, shape_1 = array_ops.shape_n([op.inputs[0], op.inputs[1]])
    return [apply_op("Conv2DBackpropInput", input_sizes=shape_0, filter=op.inputs[1],
                     out_backprop=grad, **attrs),
            apply_op("Conv2DBackpropFilter", input=op.inputs[0], filter_sizes=shape_1,
                     out_backprop=grad, **attrs)]


@RegisterGradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    attrs = _conv_attrs(op)
    return [None,
            apply_op("Conv2DBackpropFilter", input=grad,
                     filter_sizes=array_ops.shape(op.inputs[1]), out_backprop=op.inputs[2],
                     **attrs),
            apply_op("Conv2D", input=grad, filter=op.inputs[1], **attrs)]


@RegisterGradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    attrs = _conv_attrs(op)
    return [apply_op("Conv2DBackpropInput", input_sizes=array_ops.shape(op.inputs[0]),
                     filter=grad, out_backprop=op.inputs[2], **attrs),
            None,
            apply_op("Conv2D", input=op.inputs[0], filter=grad, **attrs)]


@RegisterGradient("AvgPool")
def _avg_pool_grad(op, grad):
    return apply_op("AvgPoolGrad", orig_input_shape=array_ops.shape(op.inputs[0],
                                                                    out_type=dtypes.int32),
                    grad=grad, ksize=op.get_attr("ksize"), strides=op.get_attr("strides"),
                    padding=op.get_attr("padding"), data_format=op.get_attr("data_format"))


@RegisterGradient("MaxPool")
def _max_pool_grad(op, grad):
    return apply_op("MaxPoolGrad", orig_input=op.inputs[0], orig_output=op.outputs[0],
                    grad=grad, ksize=op.get_attr("ksize"), strides=op.get_attr("strides"),
                    padding=op.get_attr("padding"),
                    explicit_paddings=op.get_attr("explicit_paddings"),
                    data_format=op.get_attr("data_format"))


@RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, grad):
    return (array_ops.stop_gradient(op.inputs[0]),
            apply_op("AvgPool", value=grad, ksize=op.get_attr("ksize"),
                     strides=op.get_attr("strides"), padding=op.get_attr("padding"),
                     data_format=op.get_attr("data_format")))


@RegisterGradient("MaxPoolV2")
def _max_pool_v2_grad(op, grad):
    return (apply_op("MaxPoolGradV2", orig_input=op.inputs[0], orig_output=op.outputs[0],
                     grad=grad, ksize=op.inputs[1], strides=op.inputs[2],
                     padding=op.get_attr("padding"), data_format=op.get_attr("data_format")),
            None, None)


# The max pool gradients' own gradients: nothing to the pooled input and output (the
# choice of maximum is piecewise constant), and the incoming gradient picked from or sent to
# each window's maximum.

@RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad(op, grad):
    return (array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            apply_op("MaxPoolGradGrad", orig_input=op.inputs[0], orig_output=op.inputs[1],
                     grad=grad, ksize=op.get_attr("ksize"), strides=op.get_attr("strides"),
                     padding=op.get_attr("padding"), data_format=op.get_attr("data_format")))


@RegisterGradient("MaxPoolGradV2")
def _max_pool_grad_grad_v2(op, grad):
    return (array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            apply_op("MaxPoolGradGradV2", orig_input=op.inputs[0], orig_output=op.inputs[1],
                     grad=grad, ksize=op.inputs[3], strides=op.inputs[4],
                     padding=op.get_attr("padding"), data_format=op.get_attr("data_format")),
            None, None)


@RegisterGradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, grad):
    return (array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            apply_op("MaxPoolGrad", orig_input=op.inputs[0], orig_output=op.inputs[1],
                     grad=grad, ksize=op.get_attr("ksize"), strides=op.get_attr("strides"),
                     padding=op.get_attr("padding"), data_format=op.get_attr("data_format")))


@RegisterGradient("SoftplusGrad")
def _softplus_grad_grad(op, grad):
    dy, x = op.inputs
    with get_default_graph().control_dependencies([grad]):
        ddy = apply_op("SoftplusGrad", gradients=grad, features=x)
        d2x = grad * dy / (math_ops.exp(-x) + 2.0 + math_ops.exp(x))
        return ddy, d2x


__all__ = []


def _depthwise_attrs(op):
    return dict(dilations=op.get_attr("dilations"), strides=op.get_attr("strides"),
                padding=op.get_attr("padding"),
                explicit_paddings=op.get_attr("explicit_paddings"),
                data_format=op.get_attr("data_format"))


@RegisterGradient("DepthwiseConv2dNative")
def _depthwise_conv2d_native_grad(op, grad):
    attrs = _depthwise_attrs(op)
    return [apply_op("DepthwiseConv2dNativeBackpropInput",
                     input_sizes=array_ops.shape(op.inputs[0]), filter=op.inputs[1],
                     out_backprop=grad, **attrs),
            apply_op("DepthwiseConv2dNativeBackpropFilter", input=op.inputs[0],
                     filter_sizes=array_ops.shape(op.inputs[1]), out_backprop=grad, **attrs)]


@RegisterGradient("DepthwiseConv2dNativeBackpropInput")
def _depthwise_conv2d_native_backprop_input_grad(op, grad):
    attrs = _depthwise_attrs(op)
    return [None,
            apply_op("DepthwiseConv2dNativeBackpropFilter", input=grad,
                     filter_sizes=array_ops.shape(op.inputs[1]), out_backprop=op.inputs[2],
                     **attrs),
            apply_op("DepthwiseConv2dNative", input=grad, filter=op.inputs[1], **attrs)]


@RegisterGradient("DepthwiseConv2dNativeBackpropFilter")
def _depthwise_conv2d_native_backprop_filter_grad(op, grad):
    attrs = _depthwise_attrs(op)
    return [apply_op("DepthwiseConv2dNativeBackpropInput",
                     input_sizes=array_ops.shape(op.inputs[0]), filter=grad,
                     out_backprop=op.inputs[2], **attrs),
            None,
            apply_op("DepthwiseConv2dNative", input=op.inputs[0], filter=grad, **attrs)]


@RegisterGradient("LRN")
def _lrn_grad(op, grad):
    return [apply_op("LRNGrad", input_grads=grad, input_image=op.inputs[0],
                     output_image=op.outputs[0], depth_radius=op.get_attr("depth_radius"),
                     bias=op.get_attr("bias"), alpha=op.get_attr("alpha"),
                     beta=op.get_attr("beta"))]
