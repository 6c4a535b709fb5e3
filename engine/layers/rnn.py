"""tf.nn.static_rnn: a cell unrolled over a list of inputs in the variable scope "rnn", its
variables made at the first step and reused after, as TF 1.x's rnn.static_rnn."""

from engine.layers.rnn_cell_base import flatten_state
from engine.ops import array_ops
from engine.ops import variable_scope as vs


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None,
               scope=None):
    """(outputs, state): the cell's output at each step, and its last state."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    if sequence_length is not None:
        raise NotImplementedError("tf.nn.static_rnn's sequence_length is not supported by the "
                                  "engine yet")
    outputs = []
    with vs.variable_scope(scope or "rnn") as varscope:
        first_input = flatten_state(inputs)[0]
        for flat_input in flatten_state(inputs):
            for i, size in enumerate(flat_input.shape.as_list()[1:]):
                if size is None:
                    raise ValueError(f"Input size (dimension {i} of input {flat_input}) must "
                                     f"be accessible via shape inference, but saw value None.")
        fixed = first_input.shape.as_list()[0]
        batch_size = fixed if fixed is not None else array_ops.shape(first_input)[0]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, argument `dtype` must be "
                                 "specified")
            state = cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, state = cell(input_, state)
            outputs.append(output)
        return outputs, state
