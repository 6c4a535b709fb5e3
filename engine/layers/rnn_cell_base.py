"""What every RNN cell is built on: RNNCell and LayerRNNCell, the LSTM state pair and the
zero state. A module of its own so that LSTMCell and the wrappers subclass RNNCell without
importing rnn_cell.py, which shows them as tf.nn.rnn_cell."""

import collections

import numpy as np

from engine.framework import dtypes
from engine.layers.base import Layer
from engine.ops import array_ops
from engine.ops import variable_scope as vs
from engine.ops.constant_op import constant
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's (cell state, output) pair."""

    __slots__ = ()

    @property
    def dtype(self):
        if self.c.dtype != self.h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {self.c.dtype} vs "
                            f"{self.h.dtype}")
        return self.c.dtype


def flatten_state(structure):
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten_state(item)]
    return [structure]


def _map_state(fn, structure):
    if isinstance(structure, LSTMStateTuple):
        return LSTMStateTuple(*(_map_state(fn, s) for s in structure))
    if isinstance(structure, (list, tuple)):
        return type(structure)(_map_state(fn, s) for s in structure)
    return fn(structure)


def concat_shape(prefix, suffix, static=False):
    """[prefix..., suffix...] as a shape tensor, or as a static list with static=True."""
    if isinstance(prefix, Tensor):
        p, p_static = prefix, constant_value(prefix)
        if p.shape.ndims == 0:
            p = array_ops.expand_dims(p, 0)
        p_static = None if p_static is None else np.atleast_1d(p_static).tolist()
    else:
        shape = TensorShape(prefix)
        p_static = shape.as_list() if shape.ndims is not None else None
        p = constant(shape.as_list(), dtype=dtypes.int32) if shape.is_fully_defined() else None
    shape = TensorShape(suffix)
    s_static = shape.as_list() if shape.ndims is not None else None
    s = constant(shape.as_list(), dtype=dtypes.int32) if shape.is_fully_defined() else None
    if static:
        shape = TensorShape(p_static).concatenate(s_static)
        return shape.as_list() if shape.ndims is not None else None
    return array_ops.concat((p, s), 0)


def zero_state_tensors(state_size, batch_size, dtype):
    def zeros_of(size):
        shape = concat_shape(batch_size, size)
        zeros = array_ops.zeros(shape, dtype=dtype)
        zeros.set_shape(concat_shape(batch_size, size, static=True))
        return zeros
    return _map_state(zeros_of, state_size)


class RNNCell(Layer):
    """A cell: (output, new_state) = cell(inputs, state), its variables in its scope."""

    def __call__(self, inputs, state, scope=None):
        if scope is not None:
            with vs.variable_scope(scope) as scope:
                return super().__call__(inputs, state, scope=scope)
        with vs.variable_scope(vs.get_variable_scope()):
            return super().__call__(inputs, state)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            batch_size = array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size, dtype):
        with self._graph_name_scope(type(self).__name__ + "ZeroState"):
            return zero_state_tensors(self.state_size, batch_size, dtype)

    @staticmethod
    def _graph_name_scope(name):
        from engine.framework.graph import get_default_graph
        return get_default_graph().name_scope(name)

    def _depth(self, input_shape):
        depth = TensorShape(input_shape).as_list()[-1]
        if depth is None:
            raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: "
                             f"{TensorShape(input_shape)}")
        return depth


class LayerRNNCell(RNNCell):
    """A cell that is a layer: called without RNNCell's re-entry of the current scope."""

    def __call__(self, inputs, state, scope=None):
        return Layer.__call__(self, inputs, state, scope=scope)
