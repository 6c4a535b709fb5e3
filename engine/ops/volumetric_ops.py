"""tf.nn.conv3d, max_pool3d and avg_pool3d (TF 1.x's signatures: Conv3D, MaxPool3D and
AvgPool3D, NDHWC) and their gradients as TensorFlow's nn_grad.py registers them."""

from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.nn_ops import _get_sequence
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape


def conv3d(input, filter=None, strides=None, padding=None,  # noqa: A002
           data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    filter = filters if filter is None else filter  # noqa: A001
    return apply_op("Conv3D", input=input, filter=filter, strides=list(strides),
                    padding=padding, data_format=data_format, dilations=list(dilations),
                    name=name)


def _pool3d(op_type, input, ksize, strides, padding, data_format, name,  # noqa: A002
            channel_index):
    with name_scope(name, op_type, [input]) as name:
        data_format = data_format or "NDHWC"
        channel_index = 1 if data_format.startswith("NC") else channel_index
        ksize = _get_sequence(ksize, 3, channel_index, "ksize")
        strides = _get_sequence(strides, 3, channel_index, "strides")
        return apply_op(op_type, input=input, ksize=ksize, strides=strides, padding=padding,
                        data_format=data_format, name=name)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name, 4)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name, 3)


def _conv_attrs(op):
    return dict(dilations=op.get_attr("dilations"), strides=op.get_attr("strides"),
                padding=op.get_attr("padding"), data_format=_format(op))


def _format(op):
    data_format = op.get_attr("data_format")
    return data_format.decode() if isinstance(data_format, bytes) else data_format


def _pool_attrs(op):
    return dict(ksize=op.get_attr("ksize"), strides=op.get_attr("strides"),
                padding=op.get_attr("padding"), data_format=_format(op))


@RegisterGradient("Conv3D")
def _conv3d_grad(op, grad):
    shape_0, shape_1 = array_ops.shape_n([op.inputs[0], op.inputs[1]])
    return [apply_op("Conv3DBackpropInputV2", input_sizes=shape_0, filter=op.inputs[1],
                     out_backprop=grad, **_conv_attrs(op)),
            apply_op("Conv3DBackpropFilterV2", input=op.inputs[0], filter_sizes=shape_1,
                     out_backprop=grad, **_conv_attrs(op))]


@RegisterGradient("Conv3DBackpropInputV2")
def _conv3d_backprop_input_grad(op, grad):
    return [None,
            apply_op("Conv3DBackpropFilterV2", input=grad, filter_sizes=_shape(op.inputs[1]),
                     out_backprop=op.inputs[2], **_conv_attrs(op)),
            apply_op("Conv3D", input=grad, filter=op.inputs[1], **_conv_attrs(op))]


@RegisterGradient("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter_grad(op, grad):
    return [apply_op("Conv3DBackpropInputV2", input_sizes=_shape(op.inputs[0]), filter=grad,
                     out_backprop=op.inputs[2], **_conv_attrs(op)),
            None,
            apply_op("Conv3D", input=op.inputs[0], filter=grad, **_conv_attrs(op))]


@RegisterGradient("AvgPool3D")
def _avg_pool3d_grad(op, grad):
    return apply_op("AvgPool3DGrad", orig_input_shape=_shape(op.inputs[0]), grad=grad,
                    **_pool_attrs(op))


@RegisterGradient("AvgPool3DGrad")
def _avg_pool3d_grad_grad(op, grad):
    return (array_ops.stop_gradient(op.inputs[0]),
            apply_op("AvgPool3D", input=grad, **_pool_attrs(op)))


@RegisterGradient("MaxPool3D")
def _max_pool3d_grad(op, grad):
    return apply_op("MaxPool3DGrad", orig_input=op.inputs[0], orig_output=op.outputs[0],
                    grad=grad, **_pool_attrs(op))


@RegisterGradient("MaxPool3DGrad")
def _max_pool3d_grad_grad(op, grad):
    return (array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            apply_op("MaxPool3DGradGrad", orig_input=op.inputs[0], orig_output=op.inputs[1],
                     grad=grad, **_pool_attrs(op)))


@RegisterGradient("MaxPool3DGradGrad")
def _max_pool3d_grad_grad_grad(op, grad):
    return (array_ops.zeros_like(op.inputs[0]), array_ops.zeros_like(op.inputs[1]),
            apply_op("MaxPool3DGrad", orig_input=op.inputs[0], orig_output=op.inputs[1],
                     grad=grad, **_pool_attrs(op)))
