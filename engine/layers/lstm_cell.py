"""tf.nn.rnn_cell.LSTMCell (TF 1.x's legacy cell): peepholes, a projection, cell and
projection clipping, forget_bias, tuple or concatenated state, with TensorFlow's variable
names (kernel, bias, w_f_diag, w_i_diag, w_o_diag, projection/kernel) so checkpoints
interchange."""

from engine.layers.rnn_cell_base import LayerRNNCell, LSTMStateTuple
from engine.ops import array_ops, math_ops
from engine.ops.init_ops import zeros_initializer


class LSTMCell(LayerRNNCell):
    """The long short-term memory cell of Hochreiter & Schmidhuber, with the peepholes of
    Gers & Schmidhuber and the projection of Sak et al., as TensorFlow's LSTMCell."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        if num_unit_shards is not None or num_proj_shards is not None:
            raise NotImplementedError("LSTMCell's num_unit_shards and num_proj_shards (sharded "
                                      "variables) are not supported by the engine yet")
        self._num_units, self._use_peepholes = num_units, use_peepholes
        self._cell_clip, self._initializer = cell_clip, initializer
        self._num_proj, self._proj_clip = num_proj, proj_clip
        self._forget_bias, self._state_is_tuple = forget_bias, state_is_tuple
        self._activation = activation or math_ops.tanh
        if num_proj:
            self._state_size = (LSTMStateTuple(num_units, num_proj) if state_is_tuple
                                else num_units + num_proj)
            self._output_size = num_proj
        else:
            self._state_size = (LSTMStateTuple(num_units, num_units) if state_is_tuple
                                else 2 * num_units)
            self._output_size = num_units

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def build(self, input_shape):
        depth = self._depth(input_shape)
        h_depth = self._num_units if self._num_proj is None else self._num_proj
        self._kernel = self.add_weight("kernel", [depth + h_depth, 4 * self._num_units],
                                       initializer=self._initializer)
        self._bias = self.add_weight("bias", [4 * self._num_units],
                                     initializer=zeros_initializer(dtype=self.dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", [self._num_units],
                                             initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", [self._num_units],
                                             initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", [self._num_units],
                                             initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/kernel",
                                                [self._num_units, self._num_proj],
                                                initializer=self._initializer)
        self.built = True

    def call(self, inputs, state):
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = array_ops.slice(state, [0, self._num_units], [-1, num_proj])
        if inputs.shape.with_rank(2).as_list()[1] is None:
            raise ValueError(f"Could not infer input size from inputs.get_shape()[-1]."
                             f"Received input shape: {inputs.shape}")
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel)
        lstm_matrix = math_ops.bias_add(lstm_matrix, self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = (LSTMStateTuple(c, m) if self._state_is_tuple
                     else array_ops.concat([c, m], 1))
        return m, new_state
