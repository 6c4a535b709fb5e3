"""tf.nn.rnn_cell.DropoutWrapper (TF 1.x's legacy wrapper): dropout on a cell's inputs,
outputs and state (an LSTM's h, never its c), each element seeded as TensorFlow seeds it
(md5 of the seed and "<input|state|output>_<index>"), plain or variational (one noise mask
per sequence); plus ResidualWrapper and DeviceWrapper. The wrapped cell's variables keep their
names."""

import hashlib
import numbers

from engine.framework.default_graph import get_default_graph, name_scope
from engine.layers.rnn_cell_base import LSTMStateTuple, RNNCell
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.nest import flatten, pack_sequence_as
from engine.ops.nn_ops import dropout_v2
from engine.ops.random_ops import random_uniform
from engine.ops.tensor_array_ops import TensorArray
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value


def _default_dropout_state_filter_visitor(substate):
    """Which parts of a state dropout reaches: not an LSTM's memory c, nor a TensorArray."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    if isinstance(substate, TensorArray):
        return False
    return True


def _is_nested(value):
    return isinstance(value, (list, tuple, dict))


def _traverse_shallow_structure(traverse_fn, structure):
    """nest.get_traverse_shallow_structure: `structure` cut where `traverse_fn` says, its
    leaves booleans (dropout or not)."""
    to_traverse = traverse_fn(structure)
    if not _is_nested(structure):
        if not isinstance(to_traverse, bool):
            raise TypeError(f"traverse_fn returned structure: {to_traverse} for non-structure: "
                            f"{structure}")
        return to_traverse
    if isinstance(to_traverse, bool):
        if not to_traverse:
            return False
        level = [_traverse_shallow_structure(traverse_fn, b) for b in structure]
    else:
        level = [_traverse_shallow_structure(traverse_fn, b) if t else False
                 for t, b in zip(to_traverse, structure)]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*level)
    return type(structure)(level)


def _enumerated_map_up_to(shallow, map_fn, *structures):
    """map_fn(index, *leaves) over `structures` cut at `shallow`'s leaves, numbered in order."""
    cut = [_flatten_up_to(shallow, s) for s in structures]
    results = [map_fn(i, *leaves) for i, leaves in enumerate(zip(*cut))]
    return pack_sequence_as(shallow, results)


def _flatten_up_to(shallow, structure):
    if not _is_nested(shallow):
        return [structure]
    return [x for s, b in zip(shallow, structure) for x in _flatten_up_to(s, b)]


class _RNNCellWrapperV1(RNNCell):
    """A cell around a cell: called in the scope the wrapped cell would be."""

    def __init__(self, cell, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cell = cell

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.__call__,
                                       scope=scope)

    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    @property
    def trainable_weights(self):
        return self.cell.trainable_weights


class DropoutWrapper(_RNNCellWrapperV1):
    """Dropout on the wrapped cell's inputs, state and outputs (keep probabilities)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(
                dropout_state_filter_visitor):
            raise TypeError(f"dropout_state_filter_visitor must be callable. Received: "
                            f"{dropout_state_filter_visitor}")
        self._dropout_state_filter = (dropout_state_filter_visitor
                                      or _default_dropout_state_filter_visitor)
        with name_scope("DropoutWrapperInit"):
            for prob, attr in ((input_keep_prob, "input_keep_prob"),
                               (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")):
                tensor_prob = convert_to_tensor(prob)
                const_prob = constant_value(tensor_prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError(f"Parameter {attr} must be between 0 and 1. "
                                         f"Received {const_prob}")
                    setattr(self, f"_{attr}", float(const_prob))
                else:
                    setattr(self, f"_{attr}", tensor_prob)
        self._variational_recurrent, self._input_size = variational_recurrent, input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def batch_noise(size, inner_seed):
                shape = array_ops.concat(([1], TensorShape(size).as_list()), 0)
                return random_uniform(shape, seed=inner_seed, dtype=dtype)

            if (not isinstance(self._input_keep_prob, numbers.Real)
                    or self._input_keep_prob < 1.0):
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < "
                                     "1.0 or is unknown, input_size must be provided")
                self._recurrent_input_noise = _enumerated_map_up_to(
                    input_size, lambda i, s: batch_noise(s, self._gen_seed("input", i)),
                    input_size)
            self._recurrent_state_noise = _enumerated_map_up_to(
                cell.state_size, lambda i, s: batch_noise(s, self._gen_seed("state", i)),
                cell.state_size)
            self._recurrent_output_noise = _enumerated_map_up_to(
                cell.output_size, lambda i, s: batch_noise(s, self._gen_seed("output", i)),
                cell.output_size)

    def _gen_seed(self, salt_prefix, index):
        if self._seed is None:
            return None
        string = (str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")
        return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF

    @property
    def wrapped_cell(self):
        return self.cell

    def _dropout(self, values, salt_prefix, recurrent_noise, keep_prob, shallow=None):
        if shallow is None:
            shallow = values
        if not self._variational_recurrent:
            def dropout(i, do_dropout, value):
                if not isinstance(do_dropout, bool) or do_dropout:
                    return dropout_v2(value, rate=1.0 - keep_prob,
                                      seed=self._gen_seed(salt_prefix, i))
                return value
            return _enumerated_map_up_to(shallow, dropout, shallow, values)

        def variational(i, do_dropout, value, noise):
            if not isinstance(do_dropout, bool) or do_dropout:
                binary_tensor = math_ops.floor(keep_prob + noise)
                result = math_ops.divide(value, keep_prob) * binary_tensor
                result.set_shape(value.shape)
                return result
            return value
        return _enumerated_map_up_to(shallow, variational, shallow, values, recurrent_noise)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        def should_dropout(p):
            return not isinstance(p, float) or p < 1

        if should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise,
                                   self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if should_dropout(self._state_keep_prob):
            shallow = _traverse_shallow_structure(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise,
                                      self._state_keep_prob, shallow)
        if should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise,
                                   self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_RNNCellWrapperV1):
    """The wrapped cell's output plus its input (or residual_fn(inputs, outputs))."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs, outputs):
            for i, o in zip(flatten(inputs), flatten(outputs)):
                i.shape.assert_is_compatible_with(o.shape)
            return pack_sequence_as(outputs, [i + o for i, o in zip(flatten(inputs),
                                                                       flatten(outputs))])
        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapperV1):
    """The wrapped cell, its zero state and its step built on one device."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState"):
            with get_default_graph().device(self._device):
                return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with get_default_graph().device(self._device):
            return cell_call_fn(inputs, state, **kwargs)
