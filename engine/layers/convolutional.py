"""tf.layers.Conv2D, MaxPooling2D and AveragePooling2D (and their functions)."""

from engine.layers.base import Layer
from engine.ops import math_ops, nn_ops
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
        outputs = nn_ops.conv2d(inputs, self.kernel, strides=list(self.strides),
                                padding=self.padding, data_format=data_format,
                                dilations=list(self.dilation_rate), name="Conv2D")
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias, data_format=data_format)
        return self.activation(outputs) if self.activation is not None else outputs


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
