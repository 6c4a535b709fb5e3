"""tf.nn.rnn_cell (TF 1.x's legacy cells): BasicRNNCell, GRUCell, BasicLSTMCell and
MultiRNNCell, with TensorFlow's variable names (rnn/basic_lstm_cell/kernel, ...), seeded
initializers and node order; LSTMCell and the wrappers live in their own modules and are shown
here, all of them built on rnn_cell_base.py."""

from engine.framework import dtypes
from engine.layers.cell_wrappers import DeviceWrapper, DropoutWrapper, ResidualWrapper  # noqa: F401
from engine.layers.lstm_cell import LSTMCell  # noqa: F401
from engine.layers.rnn_cell_base import (LayerRNNCell, LSTMStateTuple, RNNCell,  # noqa: F401
                                         zero_state_tensors)
from engine.ops import array_ops, math_ops
from engine.ops import variable_scope as vs
from engine.ops.constant_op import constant
from engine.ops.init_ops import constant_initializer, zeros_initializer
from engine.framework.api_namespace import module_getattr as _module_getattr


class BasicRNNCell(LayerRNNCell):
    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None,
                 **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units, self._activation = num_units, activation or math_ops.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, input_shape):
        depth = self._depth(input_shape)
        self._kernel = self.add_weight("kernel", [depth + self._num_units, self._num_units])
        self._bias = self.add_weight("bias", [self._num_units],
                                     initializer=zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel)
        output = self._activation(math_ops.bias_add(gate_inputs, self._bias))
        return output, output


class GRUCell(LayerRNNCell):
    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units, self._activation = num_units, activation or math_ops.tanh
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, input_shape):
        depth, units = self._depth(input_shape), self._num_units
        self._gate_kernel = self.add_weight("gates/kernel", [depth + units, 2 * units],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/bias", [2 * units], initializer=self._bias_initializer
            if self._bias_initializer is not None else constant_initializer(1.0,
                                                                            dtype=self.dtype))
        self._candidate_kernel = self.add_weight("candidate/kernel", [depth + units, units],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            "candidate/bias", [units], initializer=self._bias_initializer
            if self._bias_initializer is not None else zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel)
        value = math_ops.sigmoid(math_ops.bias_add(gate_inputs, self._gate_bias))
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        r_state = r * state
        candidate = math_ops.matmul(array_ops.concat([inputs, r_state], 1),
                                    self._candidate_kernel)
        c = self._activation(math_ops.bias_add(candidate, self._candidate_bias))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(LayerRNNCell):
    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units, self._forget_bias = num_units, forget_bias
        self._state_is_tuple, self._activation = state_is_tuple, activation or math_ops.tanh

    @property
    def state_size(self):
        units = self._num_units
        return LSTMStateTuple(units, units) if self._state_is_tuple else 2 * units

    output_size = property(lambda self: self._num_units)

    def build(self, input_shape):
        depth = self._depth(input_shape)
        self._kernel = self.add_weight("kernel", [depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_weight("bias", [4 * self._num_units],
                                     initializer=zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        sigmoid, add, multiply = math_ops.sigmoid, math_ops.add, math_ops.multiply
        one = constant(1, dtype=dtypes.int32)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(value=state, num_or_size_splits=2, axis=one)
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel)
        gate_inputs = math_ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=one)
        forget_bias_tensor = constant(self._forget_bias, dtype=f.dtype)
        new_c = add(multiply(c, sigmoid(add(f, forget_bias_tensor))),
                    multiply(sigmoid(i), self._activation(j)))
        new_h = multiply(self._activation(new_c), sigmoid(o))
        new_state = (LSTMStateTuple(new_c, new_h) if self._state_is_tuple
                     else array_ops.concat([new_c, new_h], 1))
        return new_h, new_state


class MultiRNNCell(RNNCell):
    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not isinstance(cells, (list, tuple)):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells, self._state_is_tuple = list(cells), state_is_tuple

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    output_size = property(lambda self: self._cells[-1].output_size)

    def zero_state(self, batch_size, dtype):
        with self._graph_name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return zero_state_tensors(self.state_size, batch_size, dtype)

    @property
    def trainable_weights(self):
        return [w for cell in self._cells for w in cell.trainable_weights]

    def call(self, inputs, state):
        position, current, new_states = 0, inputs, []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    cell_state = state[i]
                else:
                    cell_state = array_ops.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                current, new_state = cell(current, cell_state)
                new_states.append(new_state)
        return current, (tuple(new_states) if self._state_is_tuple
                         else array_ops.concat(new_states, 1))


__getattr__ = _module_getattr("tf.nn.rnn_cell")
