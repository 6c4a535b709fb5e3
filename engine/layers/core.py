"""tf.layers.Dense, Dropout and Flatten (and their functions), as TF 1.x built them."""

import functools
import operator

from engine.layers.base import Layer, smart_cond
from engine.ops import array_ops, linalg_ops, math_ops, nn_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.init_ops import zeros_initializer
from engine.framework.tensor_shape import TensorShape


class Dense(Layer):
    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.units, self.activation, self.use_bias = int(units), activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        last_dim = input_shape[-1] if input_shape.ndims else None
        if last_dim is None or getattr(last_dim, "value", last_dim) is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        last_dim = int(getattr(last_dim, "value", last_dim))
        self.kernel = self.add_weight("kernel", [last_dim, self.units],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.bias = (self.add_weight("bias", [self.units], initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer)
                     if self.use_bias else None)
        self.built = True

    def call(self, inputs):
        rank = inputs.shape.ndims
        if rank == 2 or rank is None:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            outputs = linalg_ops.tensordot(inputs, self.kernel, [[rank - 1], [0]])
            # Keras gives the product the input's static shape back (unknown dimensions too).
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = math_ops.bias_add(outputs, self.bias)
        return self.activation(outputs) if self.activation is not None else outputs


class Dropout(Layer):
    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=False):
        if isinstance(self.rate, (int, float)) and self.rate == 0:
            return array_ops.identity(inputs)
        return smart_cond(training,
                          lambda: nn_ops.dropout_v2(inputs, self.rate,
                                                    self._noise_shape(inputs), seed=self.seed),
                          lambda: array_ops.identity(inputs))

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        shape = array_ops.shape(inputs)
        return convert_to_tensor([shape[i] if size is None else size
                                  for i, size in enumerate(self.noise_shape)])


class Flatten(Layer):
    def __init__(self, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        if self.data_format == "channels_first" and inputs.shape.ndims and inputs.shape.ndims > 2:
            order = [0] + list(range(2, inputs.shape.ndims)) + [1]
            inputs = array_ops.transpose(inputs, order)
        shape = inputs.shape
        if shape.ndims == 1:
            return array_ops.expand_dims(inputs, axis=1)
        dims = shape.as_list()
        if None not in dims[1:]:
            flattened = constant([-1, functools.reduce(operator.mul, dims[1:], 1)])
        elif dims[0] is not None:
            flattened = constant([int(dims[0]), -1])
        else:
            flattened = [array_ops.shape(inputs)[0], -1]
        return array_ops.reshape(inputs, flattened)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
          trainable=True, name=None, reuse=None):
    layer = Dense(units, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)(inputs,
                                                                         training=training)


def flatten(inputs, name=None, data_format="channels_last"):
    return Flatten(name=name, data_format=data_format)(inputs)
