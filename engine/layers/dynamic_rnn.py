"""tf.nn.dynamic_rnn and tf.nn.bidirectional_dynamic_rnn over inputs whose number of steps is
known when the graph is built: the cell is unrolled step by step (not a while loop over
TensorArrays, as TensorFlow builds it), with TensorFlow's variables ("rnn/basic_lstm_cell/
kernel", "bidirectional_rnn/fw/..."), outputs and states, sequence_length included (zero
outputs and the state carried through past each row's length)."""

from engine import dtypes
from engine.layers.rnn_cell import _flatten, _map
from engine.ops import array_ops, math_ops
from engine.ops import variable_scope as vs
from engine.ops.convert import convert_to_tensor


def _pack_like(structure, leaves):
    leaves = iter(leaves)
    return _map(lambda _: next(leaves), structure)


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """(outputs [batch, time, output] or time-major, final state)."""
    with vs.variable_scope(scope or "rnn") as varscope:
        inputs = convert_to_tensor(inputs, name="inputs")
        time_axis = 0 if time_major else 1
        dims = inputs.shape.as_list() if inputs.shape.ndims is not None else None
        if dims is None or len(dims) < 3 or dims[time_axis] is None:
            raise NotImplementedError("tf.nn.dynamic_rnn over a number of steps unknown when "
                                      "the graph is built is not supported by the engine yet")
        steps = array_ops.unstack(inputs, axis=time_axis)
        batch = dims[1 - time_axis]
        batch_size = batch if batch is not None else array_ops.shape(inputs)[1 - time_axis]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If there is no initial_state, you must give a dtype.")
            state = cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
        if sequence_length is not None:
            sequence_length = math_ops.cast(convert_to_tensor(sequence_length,
                                                              name="sequence_length"),
                                            dtypes.int32)
        outputs = []
        for time, step in enumerate(steps):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(step, state)
            if sequence_length is not None:
                # rows already past their length: a zero output, the state carried on
                valid = math_ops.less(time, sequence_length)
                output = array_ops.where(valid, output, array_ops.zeros_like(output))
                new_state = _pack_like(new_state, [
                    array_ops.where(valid, new, old)
                    for new, old in zip(_flatten(new_state), _flatten(state))])
            state = new_state
            outputs.append(output)
        return array_ops.stack(outputs, axis=time_axis), state


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """((outputs_fw, outputs_bw), (state_fw, state_bw)): the backward cell reads each row's
    steps reversed (within its length) and its outputs are reversed back."""
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)

    def reverse(tensor):
        if sequence_length is not None:
            return array_ops.reverse_sequence(tensor, sequence_length, seq_axis=time_axis,
                                    batch_axis=batch_axis)
        return array_ops.reverse(tensor, axis=[time_axis])

    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length,
                                              initial_state_fw, dtype, time_major=time_major,
                                              scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_outputs, state_bw = dynamic_rnn(cell_bw, reverse(inputs),
                                                     sequence_length, initial_state_bw, dtype,
                                                     time_major=time_major, scope=bw_scope)
    return (output_fw, reverse(reversed_outputs)), (state_fw, state_bw)
