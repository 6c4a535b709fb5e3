"""tf.layers.Conv2DTranspose, Conv3DTranspose, SeparableConv1D and SeparableConv2D (and their
functions), as tf_keras's legacy layers build them: TensorFlow's variable names,
glorot-uniform kernels, graph nodes."""

from engine.layers.base import Layer
from engine.layers.convolutional import _pair, _single, _tf_data_format, _triple
from engine.ops import array_ops, math_ops, nn_conv_wrappers, nn_extra_ops
from engine.ops.init_ops import zeros_initializer
from engine.ops.shape_ops import shape as _shape
from engine.ops.spatial_ops import separable_conv2d as _separable_conv2d
from engine.framework.tensor_shape import TensorShape


def _channels(layer, input_shape):
    input_shape = TensorShape(input_shape).as_list()
    channels = input_shape[1 if layer.data_format == "channels_first" else -1]
    if channels is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found "
                         "`None`.")
    return int(channels)


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0,
                         dilation=1):
    """keras's conv_utils.deconv_output_length."""
    if input_length is None:
        return None
    filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return input_length * stride + max(filter_size - stride, 0)
        if padding == "full":
            return input_length * stride - (stride + filter_size - 2)
        return input_length * stride
    pad = {"same": filter_size // 2, "valid": 0, "full": filter_size - 1}[padding]
    return (input_length - 1) * stride + filter_size - 2 * pad + output_padding


class _Conv(Layer):
    def _common(self, filters, kernel_size, strides, padding, data_format, dilation_rate,
                activation, use_bias, bias_initializer, bias_regularizer):
        self.filters, self.kernel_size = int(filters), _pair(kernel_size, "kernel_size")
        self.strides, self.padding = _pair(strides, "strides"), padding.lower()
        self.data_format = data_format or "channels_last"
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        self.activation, self.use_bias = activation, use_bias
        self.bias_initializer, self.bias_regularizer = bias_initializer, bias_regularizer

    def _bias_and_activation(self, outputs):
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias,
                                        data_format=_tf_data_format(self.data_format))
        return self.activation(outputs) if self.activation is not None else outputs

    def _add_bias(self):
        self.bias = (self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer)
                     if self.use_bias else None)


class Conv2DTranspose(_Conv):
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 output_padding=None, dilation_rate=(1, 1), **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._common(filters, kernel_size, strides, padding, data_format, dilation_rate,
                     activation, use_bias, bias_initializer, bias_regularizer)
        self.kernel_initializer, self.kernel_regularizer = kernel_initializer, \
            kernel_regularizer
        self.output_padding = None if output_padding is None \
            else _pair(output_padding, "output_padding")
        if self.dilation_rate != (1, 1):
            raise NotImplementedError("tf.layers.Conv2DTranspose with a dilation rate is not "
                                      "supported by the engine yet")

    def build(self, input_shape):
        channels = _channels(self, input_shape)
        self.kernel = self.add_weight("kernel", self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self._add_bias()
        self.built = True

    def call(self, inputs):
        inputs_shape = _shape(inputs)
        batch_size = inputs_shape[0]
        h_axis, w_axis = (2, 3) if self.data_format == "channels_first" else (1, 2)
        dims = inputs.shape.as_list() if inputs.shape.ndims is not None else [None] * 4
        height = dims[h_axis] if dims[h_axis] is not None else inputs_shape[h_axis]
        width = dims[w_axis] if dims[w_axis] is not None else inputs_shape[w_axis]
        out_pad_h, out_pad_w = self.output_padding or (None, None)
        out_height = deconv_output_length(height, self.kernel_size[0], self.padding,
                                          out_pad_h, self.strides[0], self.dilation_rate[0])
        out_width = deconv_output_length(width, self.kernel_size[1], self.padding,
                                         out_pad_w, self.strides[1], self.dilation_rate[1])
        if self.data_format == "channels_first":
            output_shape = (batch_size, self.filters, out_height, out_width)
            strides = (1, 1) + self.strides
        else:
            output_shape = (batch_size, out_height, out_width, self.filters)
            strides = (1,) + self.strides + (1,)
        output_shape = array_ops.stack(list(output_shape))
        # keras's backend.conv2d_transpose tests `output_shape[0] is None`: a StridedSlice.
        output_shape[0]  # noqa: B018
        outputs = nn_extra_ops.conv2d_transpose(
            inputs, self.kernel, output_shape, list(strides), padding=self.padding.upper(),
            data_format=_tf_data_format(self.data_format))
        if inputs.shape.ndims is not None:
            static = list(dims)
            static[h_axis] = deconv_output_length(dims[h_axis], self.kernel_size[0],
                                                  self.padding, out_pad_h, self.strides[0],
                                                  self.dilation_rate[0])
            static[w_axis] = deconv_output_length(dims[w_axis], self.kernel_size[1],
                                                  self.padding, out_pad_w, self.strides[1],
                                                  self.dilation_rate[1])
            static[1 if self.data_format == "channels_first" else 3] = self.filters
            outputs.set_shape(static)
        return self._bias_and_activation(outputs)


class SeparableConv2D(_Conv):
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=zeros_initializer(),
                 depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._common(filters, kernel_size, strides, padding, data_format, dilation_rate,
                     activation, use_bias, bias_initializer, bias_regularizer)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer, self.pointwise_initializer = depthwise_initializer, \
            pointwise_initializer
        self.depthwise_regularizer, self.pointwise_regularizer = depthwise_regularizer, \
            pointwise_regularizer

    def build(self, input_shape):
        channels = _channels(self, input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", (1, 1, self.depth_multiplier * channels, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer)
        self._add_bias()
        self.built = True

    def call(self, inputs):
        if self.data_format == "channels_last":
            strides = (1,) + self.strides + (1,)
        else:
            strides = (1, 1) + self.strides
        outputs = _separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                    strides=list(strides), padding=self.padding.upper(),
                                    rate=list(self.dilation_rate),
                                    data_format=_tf_data_format(self.data_format))
        return self._bias_and_activation(outputs)


class SeparableConv1D(SeparableConv2D):
    """keras's SeparableConv1D: the input and both kernels expanded to 2-D (a height of 1),
    separable_conv2d, the bias, then the height squeezed away."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, depth_multiplier=1, **kwargs):
        super().__init__(filters, 1, padding=padding, data_format=data_format,
                         depth_multiplier=depth_multiplier, **kwargs)
        self.kernel_size = _single(kernel_size, "kernel_size")
        self.strides = _single(strides, "strides")
        self.dilation_rate = _single(dilation_rate, "dilation_rate")
        if self.padding == "causal":
            raise NotImplementedError("tf.layers.SeparableConv1D with causal padding is not "
                                      "supported by the engine yet")

    def build(self, input_shape):
        channels = _channels(self, input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", (1, self.depth_multiplier * channels, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer)
        self._add_bias()
        self.built = True

    def call(self, inputs):
        if self.data_format == "channels_last":
            strides, spatial_start_dim = (1,) + self.strides * 2 + (1,), 1
        else:
            strides, spatial_start_dim = (1, 1) + self.strides * 2, 2
        inputs = array_ops.expand_dims(inputs, spatial_start_dim)
        depthwise_kernel = array_ops.expand_dims(self.depthwise_kernel, 0)
        pointwise_kernel = array_ops.expand_dims(self.pointwise_kernel, 0)
        outputs = _separable_conv2d(inputs, depthwise_kernel, pointwise_kernel,
                                    strides=list(strides), padding=self.padding.upper(),
                                    rate=[1, *self.dilation_rate],
                                    data_format=_tf_data_format(self.data_format))
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias,
                                        data_format=_tf_data_format(self.data_format))
        outputs = array_ops.squeeze(outputs, [spatial_start_dim])
        return self.activation(outputs) if self.activation is not None else outputs


class Conv3DTranspose(_Conv):
    """keras's Conv3DTranspose: the output's depth, height and width computed from the
    input's dynamic shape, conv3d_transpose, then the static shape and the bias."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 output_padding=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._common(filters, 1, 1, padding, data_format, 1, activation, use_bias,
                     bias_initializer, bias_regularizer)
        self.kernel_size, self.strides = _triple(kernel_size, "kernel_size"), \
            _triple(strides, "strides")
        self.dilation_rate = (1, 1, 1)
        self.kernel_initializer, self.kernel_regularizer = kernel_initializer, \
            kernel_regularizer
        self.output_padding = None if output_padding is None \
            else _triple(output_padding, "output_padding")
        if self.data_format != "channels_last":
            raise NotImplementedError("tf.layers.Conv3DTranspose with channels_first is not "
                                      "supported by the engine yet")

    def build(self, input_shape):
        channels = _channels(self, input_shape)
        self.kernel = self.add_weight("kernel", self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self._add_bias()
        self.built = True

    def _output_lengths(self, lengths):
        out_pads = self.output_padding or (None, None, None)
        return [deconv_output_length(length, size, self.padding, out_pad, stride)
                for length, size, out_pad, stride in zip(lengths, self.kernel_size, out_pads,
                                                          self.strides)]

    def call(self, inputs):
        inputs_shape = _shape(inputs)
        batch_size = inputs_shape[0]
        lengths = self._output_lengths([inputs_shape[axis] for axis in (1, 2, 3)])
        output_shape = array_ops.stack([batch_size, *lengths, self.filters])
        outputs = nn_conv_wrappers.conv3d_transpose_v2(
            inputs, self.kernel, output_shape, (1, *self.strides, 1), data_format="NDHWC",
            padding=self.padding.upper())
        if inputs.shape.ndims:
            dims = inputs.shape.as_list()
            outputs.set_shape([dims[0], *self._output_lengths(dims[1:4]), self.filters])
        return self._bias_and_activation(outputs)


Convolution2DTranspose = Deconvolution2D = Deconv2D = Conv2DTranspose
Convolution3DTranspose = Deconvolution3D = Deconv3D = Conv3DTranspose
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                            _reuse=reuse, _scope=name)
    return layer(inputs)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    layer = SeparableConv2D(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, dilation_rate=dilation_rate,
                            depth_multiplier=depth_multiplier, activation=activation,
                            use_bias=use_bias, depthwise_initializer=depthwise_initializer,
                            pointwise_initializer=pointwise_initializer,
                            bias_initializer=bias_initializer,
                            depthwise_regularizer=depthwise_regularizer,
                            pointwise_regularizer=pointwise_regularizer,
                            bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                            _reuse=reuse, _scope=name)
    return layer(inputs)


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    layer = Conv3DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                            _reuse=reuse, _scope=name)
    return layer(inputs)


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    layer = SeparableConv1D(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, dilation_rate=dilation_rate,
                            depth_multiplier=depth_multiplier, activation=activation,
                            use_bias=use_bias, depthwise_initializer=depthwise_initializer,
                            pointwise_initializer=pointwise_initializer,
                            bias_initializer=bias_initializer,
                            depthwise_regularizer=depthwise_regularizer,
                            pointwise_regularizer=pointwise_regularizer,
                            bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                            _reuse=reuse, _scope=name)
    return layer(inputs)
