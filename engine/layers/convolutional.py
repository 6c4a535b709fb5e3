"""tf.layers.Conv2D, MaxPooling2D and AveragePooling2D, Conv1D, MaxPooling1D and
AveragePooling1D, Conv3D, MaxPooling3D and AveragePooling3D (and their functions)."""

from engine.layers.base import Layer
from engine.ops import array_ops, math_ops, nn_ops
from engine.ops.init_ops import zeros_initializer
from engine.framework.tensor_shape import TensorShape


def _pair(value, name):
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) != 2:
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. "
                         f"Received: {name}={value}")
    return value


def _tf_data_format(data_format):
    return "NCHW" if data_format == "channels_first" else "NHWC"


class Conv2D(Layer):
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), activation=None,
                 use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.filters, self.kernel_size = int(filters), _pair(kernel_size, "kernel_size")
        self.strides, self.padding = _pair(strides, "strides"), padding.upper()
        self.data_format = data_format or "channels_last"
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def build(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        channels = input_shape[1 if self.data_format == "channels_first" else -1]
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs should be defined. The input_"
                             f"shape received is {TensorShape(input_shape)}, where axis -1 "
                             f"(0-based) is the channel dimension, which found to be `None`.")
        self.kernel = self.add_weight("kernel", self.kernel_size + (channels, self.filters),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.bias = (self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer)
                     if self.use_bias else None)
        self.built = True

    def call(self, inputs):
        data_format = _tf_data_format(self.data_format)
        if self.dilation_rate != (1, 1):
            outputs = _dilated(inputs, self.kernel, self.padding, self.strides,
                               self.dilation_rate, data_format, "Conv2D")
        else:
            outputs = nn_ops.conv2d(inputs, self.kernel, strides=list(self.strides),
                                    padding=self.padding, data_format=data_format,
                                    dilations=list(self.dilation_rate), name="Conv2D")
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias, data_format=data_format)
        return self.activation(outputs) if self.activation is not None else outputs


def _dilated(inputs, kernel, padding, strides, dilation_rate, data_format, name):
    """tf_keras's convolution_op with a dilation rate above 1: tf.nn.convolution, which builds
    it over SpaceToBatchND's blocks; the static shape set back as the layer's
    compute_output_shape gives it (the blocks' arithmetic loses the batch size)."""
    from engine.ops.nn_conv_wrappers import convolution
    outputs = convolution(inputs, kernel, padding, strides=list(strides),
                          dilations=list(dilation_rate), data_format=data_format, name=name)
    shape = inputs.shape.as_list() if inputs.shape.ndims is not None else None
    if shape is not None:
        spatial = range(2, len(shape)) if data_format.startswith("NC") else \
            range(1, len(shape) - 1)
        kernel_dims = kernel.shape.as_list()
        for k, axis in enumerate(spatial):
            shape[axis] = _output_length(shape[axis], kernel_dims[k], padding, strides[k],
                                         dilation_rate[k])
        shape[1 if data_format.startswith("NC") else -1] = kernel_dims[-1]
        outputs.set_shape(shape)
    return outputs


def _output_length(length, size, padding, stride, dilation):
    """conv_utils.conv_output_length ("causal" padding already applied: VALID)."""
    if length is None:
        return None
    if padding != "SAME":
        length -= size + (size - 1) * (dilation - 1) - 1
    return (length + stride - 1) // stride


class _Pooling2D(Layer):
    _pool = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = _pair(strides if strides is not None else pool_size, "strides")
        self.padding, self.data_format = padding.upper(), data_format or "channels_last"

    def call(self, inputs):
        if self.data_format == "channels_last":
            ksize, strides = (1,) + self.pool_size + (1,), (1,) + self.strides + (1,)
        else:
            ksize, strides = (1, 1) + self.pool_size, (1, 1) + self.strides
        return type(self)._pool(inputs, ksize=list(ksize), strides=list(strides),
                                padding=self.padding,
                                data_format=_tf_data_format(self.data_format))


class MaxPooling2D(_Pooling2D):
    _pool = staticmethod(nn_ops.max_pool)


class AveragePooling2D(_Pooling2D):
    _pool = staticmethod(nn_ops.avg_pool)


MaxPool2D, AvgPool2D, Convolution2D = MaxPooling2D, AveragePooling2D, Conv2D


def _single(value, name):
    if isinstance(value, int):
        return (value,)
    value = tuple(int(v) for v in value)
    if len(value) != 1:
        raise ValueError(f"The `{name}` argument must be a tuple of 1 integers. "
                         f"Received: {name}={value}")
    return value


class Conv1D(Conv2D):
    """Keras' Conv1D as tf.layers builds it: tf.nn.convolution named Conv1D (ExpandDims,
    Conv2D, Squeeze), then BiasAdd; kernel [width, in, filters]."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, **kwargs):
        super().__init__(filters, 1, padding=padding, data_format=data_format, **kwargs)
        self.kernel_size = _single(kernel_size, "kernel_size")
        self.strides = _single(strides, "strides")
        self.dilation_rate = _single(dilation_rate, "dilation_rate")
        if self.padding not in ("SAME", "VALID", "CAUSAL"):
            raise ValueError(f"The `padding` argument must be a list/tuple or one of "
                             f"\"valid\", \"same\" (or \"causal\", only for `Conv1D). "
                             f"Received: {padding}")

    def call(self, inputs):
        from engine.ops.nn_extra_ops import conv1d
        data_format = "NCW" if self.data_format == "channels_first" else "NWC"
        padding = self.padding
        if padding == "CAUSAL":  # tf_keras pads the past, then convolves VALID
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            batch_rank = 1 if inputs.shape.ndims is None else inputs.shape.ndims - 2
            pairs = [[left, 0], [0, 0]] if data_format == "NWC" else [[0, 0], [left, 0]]
            inputs = array_ops.pad(inputs, [[0, 0]] * batch_rank + pairs)
            padding = "VALID"
        if self.dilation_rate != (1,):
            outputs = _dilated(inputs, self.kernel, padding, self.strides, self.dilation_rate,
                               data_format, "Conv1D")
        else:
            outputs = conv1d(inputs, self.kernel, stride=list(self.strides), padding=padding,
                             data_format=data_format, dilations=list(self.dilation_rate),
                             name="Conv1D")
        if self.use_bias and self.data_format == "channels_first":
            outputs = outputs + array_ops.reshape(self.bias, (1, self.filters, 1))
        elif self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias, data_format="NHWC")
        return self.activation(outputs) if self.activation is not None else outputs


class _Pooling1D(Layer):
    """Keras' Pooling1D: the input expanded at axis 2 (3 channels-first), pooled in 2-D with a
    window of 1 there, squeezed back."""
    _pool = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _single(pool_size, "pool_size")
        self.strides = _single(strides if strides is not None else pool_size, "strides")
        self.padding, self.data_format = padding.upper(), data_format or "channels_last"

    def call(self, inputs):
        pad_axis = 2 if self.data_format == "channels_last" else 3
        inputs = array_ops.expand_dims(inputs, pad_axis)
        if self.data_format == "channels_last":
            ksize, strides = (1,) + self.pool_size + (1, 1), (1,) + self.strides + (1, 1)
        else:
            ksize, strides = (1, 1) + self.pool_size + (1,), (1, 1) + self.strides + (1,)
        outputs = type(self)._pool(inputs, ksize=list(ksize), strides=list(strides),
                                   padding=self.padding,
                                   data_format=_tf_data_format(self.data_format))
        return array_ops.squeeze(outputs, [pad_axis])


class MaxPooling1D(_Pooling1D):
    _pool = staticmethod(nn_ops.max_pool)


class AveragePooling1D(_Pooling1D):
    _pool = staticmethod(nn_ops.avg_pool)


MaxPool1D, AvgPool1D, Convolution1D = MaxPooling1D, AveragePooling1D, Conv1D


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
           dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
           activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
           trainable=True, name=None, reuse=None):
    layer = Conv1D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                   _reuse=reuse, _scope=name)
    return layer(inputs)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    return MaxPooling1D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name)(inputs)


def average_pooling1d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    return AveragePooling1D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name)(inputs)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    layer = Conv2D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                   _reuse=reuse, _scope=name)
    return layer(inputs)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name)(inputs)


def average_pooling2d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name)(inputs)


def _triple(value, name):
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(int(v) for v in value)
    if len(value) != 3:
        raise ValueError(f"The `{name}` argument must be a tuple of 3 integers. "
                         f"Received: {name}={value}")
    return value


class Conv3D(Conv2D):
    """Keras' Conv3D as tf.layers builds it: tf.nn.convolution named Conv3D (one Conv3D op),
    then BiasAdd; kernel [depth, height, width, in, filters]."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(filters, 1, padding=padding, data_format=data_format, **kwargs)
        self.kernel_size = _triple(kernel_size, "kernel_size")
        self.strides = _triple(strides, "strides")
        self.dilation_rate = _triple(dilation_rate, "dilation_rate")
        if self.data_format != "channels_last":
            raise NotImplementedError("tf.layers.conv3d with channels_first is not supported "
                                      "by the engine yet")

    def call(self, inputs):
        from engine.ops.volumetric_ops import conv3d
        outputs = conv3d(inputs, self.kernel, strides=[1, *self.strides, 1],
                         padding=self.padding, data_format="NDHWC",
                         dilations=[1, *self.dilation_rate, 1], name="Conv3D")
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias, data_format="NHWC")
        return self.activation(outputs) if self.activation is not None else outputs


class _Pooling3D(Layer):
    _pool = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _triple(pool_size, "pool_size")
        self.strides = _triple(strides if strides is not None else pool_size, "strides")
        self.padding, self.data_format = padding.upper(), data_format or "channels_last"
        if self.data_format != "channels_last":
            raise NotImplementedError("tf.layers 3-D pooling with channels_first is not "
                                      "supported by the engine yet")

    def call(self, inputs):
        return type(self)._pool(inputs, ksize=[1, *self.pool_size, 1],
                                strides=[1, *self.strides, 1], padding=self.padding,
                                data_format="NDHWC")


class MaxPooling3D(_Pooling3D):
    @staticmethod
    def _pool(inputs, **kwargs):
        from engine.ops.volumetric_ops import max_pool3d
        return max_pool3d(inputs, name="MaxPool3D", **kwargs)


class AveragePooling3D(_Pooling3D):
    @staticmethod
    def _pool(inputs, **kwargs):
        from engine.ops.volumetric_ops import avg_pool3d
        return avg_pool3d(inputs, name="AvgPool3D", **kwargs)


MaxPool3D, AvgPool3D, Convolution3D = MaxPooling3D, AveragePooling3D, Conv3D


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None,
           use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    layer = Conv3D(filters, kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer, trainable=trainable, name=name,
                   _reuse=reuse, _scope=name)
    return layer(inputs)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    return MaxPooling3D(pool_size, strides, padding=padding, data_format=data_format,
                        name=name)(inputs)


def average_pooling3d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    return AveragePooling3D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name)(inputs)
