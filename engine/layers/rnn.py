"""tf.nn.static_rnn: a cell unrolled over a list of inputs in the variable scope "rnn", its
variables made at the first step and reused after, as TF 1.x's rnn.static_rnn (with a
sequence_length, each step a tf.cond as TensorFlow's _rnn_step);
static_bidirectional_rnn, two of them (scopes fw and bw) over the inputs and their reverse;
and static_state_saving_rnn, its state taken from and saved to a state saver."""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.layers.dynamic_rnn import _copy_some_through, _infer_state_dtype
from engine.layers.rnn_cell_base import concat_shape, flatten_state
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
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
        if sequence_length is not None:
            sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"Argument `sequence_length` must be a vector of length "
                                 f"{batch_size}. Received sequence_length={sequence_length}.")
            state_dtype = _infer_state_dtype(dtype, state)
            flat_zero_output = []
            for size in flatten(cell.output_size):
                zero = array_ops.zeros(array_ops.stack(concat_shape(batch_size, size)),
                                       state_dtype)
                zero.set_shape(TensorShape([fixed]).concatenate(as_shape(size)))
                flat_zero_output.append(zero)
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            min_length = math_ops.reduce_min(sequence_length)
            max_length = math_ops.reduce_max(sequence_length)
        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            if sequence_length is None:
                output, state = cell(input_, state)
            else:
                output, state = _rnn_step(time, sequence_length, min_length, max_length,
                                          flat_zero_output, state,
                                          lambda input_=input_, state=state: cell(input_, state),
                                          cell.output_size)
            outputs.append(output)
        return outputs, state


def _rnn_step(time, sequence_length, min_length, max_length, flat_zero_output, state,
              call_cell, output_size):
    """TensorFlow's rnn._rnn_step with conditionals: past every length, zeros out and the state
    through; before the shortest, the cell's step; between, the cell's step where a row is
    still running, else zeros and the state it had."""
    flat_state = flatten(state)
    copy_cond = time >= sequence_length  # made first, as TensorFlow's

    def maybe_copy_some_through():
        new_output, new_state = call_cell()
        flat_new_output, flat_new_state = flatten(new_output), flatten(new_state)
        return cond(time < min_length, lambda: flat_new_output + flat_new_state,
                    lambda: sum(_copy_some_through(copy_cond, flat_zero_output, flat_state,
                                                   flat_new_output, flat_new_state), []))

    result = cond(time >= max_length, lambda: list(flat_zero_output) + flat_state,
                  maybe_copy_some_through)
    final_output, final_state = result[:len(flat_zero_output)], result[len(flat_zero_output):]
    for output, zero in zip(final_output, flat_zero_output):
        output.set_shape(zero.shape)
    for substate, old in zip(final_state, flat_state):
        substate.set_shape(old.shape)
    return (pack_sequence_as(output_size, final_output),
            pack_sequence_as(state, final_state))


def _reverse_seq(input_seq, lengths):
    """TensorFlow's rnn._reverse_seq: the steps reversed, each row within its own length."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_input_seq = [flatten(input_) for input_ in input_seq]
    flat_results = [[] for _ in input_seq]
    for sequence in zip(*flat_input_seq):
        reversed_steps = array_ops.unstack(array_ops.reverse_sequence(
            array_ops.stack(sequence), lengths, 0, 1))
        for step, flat_result in zip(reversed_steps, flat_results):
            step.set_shape(TensorShape(None) if sequence[0].shape.ndims is None
                           else TensorShape([None] * sequence[0].shape.ndims))
            flat_result.append(step)
    return [pack_sequence_as(input_, flat_result)
            for input_, flat_result in zip(input_seq, flat_results)]


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
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                              dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
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
