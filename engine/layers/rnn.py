"""tf.nn.static_rnn: a cell unrolled over a list of inputs in the variable scope "rnn", its
variables made at the first step and reused after, as TF 1.x's rnn.static_rnn;
static_bidirectional_rnn, two of them (scopes fw and bw) over the inputs and their reverse;
and static_state_saving_rnn, its state taken from and saved to a state saver."""

from engine.layers.rnn_cell_base import flatten_state
from engine.ops import array_ops
from engine.framework.default_graph import get_default_graph
from engine.ops.nest import flatten, is_nested, pack_sequence_as
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


def assert_like_rnncell(cell_name, cell):
    """TypeError naming what `cell` lacks to be used as an RNNCell, as TensorFlow's."""
    conditions = [hasattr(cell, "output_size"), hasattr(cell, "state_size"),
                  hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
                  callable(cell)]
    errors = ["'output_size' property is missing", "'state_size' property is missing",
              "either 'zero_state' or 'get_initial_state' method is required",
              "is not callable"]
    if not all(conditions):
        missing = [error for error, met in zip(errors, conditions) if not met]
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: "
                        f"{', '.join(missing)}.")


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """(outputs, output_state_fw, output_state_bw): each step's forward and backward outputs
    concatenated on their last axis, and each direction's last state."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                                    sequence_length, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = list(reversed(inputs))
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                              dtype, sequence_length, scope=bw_scope)
    output_bw = list(reversed(tmp))
    flat_outputs = tuple(array_ops.concat([fw, bw], 1)
                         for fw, bw in zip(flatten(output_fw), flatten(output_bw)))
    return pack_sequence_as(output_fw, flat_outputs), output_state_fw, output_state_bw


def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None,
                            scope=None):
    """(outputs, state) of static_rnn from state_saver.state(name), the last state saved with
    state_saver.save_state(name, value) before the last output and the state are read."""
    state_size = cell.state_size
    state_is_tuple = is_nested(state_size)
    if state_is_tuple != is_nested(state_name):
        raise ValueError(f"Argument `state_name` should be the same type as "
                         f"`cell.state_size`. Received: state_name={state_name!s}, "
                         f"cell.state_size={state_size!s}.")
    if state_is_tuple:
        state_name_flat, state_size_flat = flatten(state_name), flatten(state_size)
        if len(state_name_flat) != len(state_size_flat):
            raise ValueError(f"Number of elements in argument `state_name` and "
                             f"`cell.state_size` are mismatched. Received "
                             f"state_name={state_name} with {len(state_name_flat)} elements "
                             f"and cell.state_size={cell.state_size} with "
                             f"{len(state_size_flat)} elements.")
        initial_state = pack_sequence_as(state_size,
                                         [state_saver.state(s) for s in state_name_flat])
    else:
        initial_state = state_saver.state(state_name)
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state,
                                sequence_length=sequence_length, scope=scope)
    if state_is_tuple:
        flat_state = flatten(state)
        save_state = [state_saver.save_state(name, substate)
                      for name, substate in zip(flatten(state_name), flat_state)]
    else:
        save_state = [state_saver.save_state(state_name, state)]
    with get_default_graph().control_dependencies(save_state):
        last_output = outputs[-1]
        outputs[-1] = pack_sequence_as(last_output, [array_ops.identity(output)
                                                     for output in flatten(last_output)])
        if state_is_tuple:
            state = pack_sequence_as(state, [array_ops.identity(s) for s in flat_state])
        else:
            state = array_ops.identity(state)
    return outputs, state
