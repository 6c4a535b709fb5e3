"""tf.nn.dynamic_rnn and tf.nn.bidirectional_dynamic_rnn as TensorFlow 1.x builds them
(rnn.py): a tf.while_loop ("rnn/while") over TensorArrays, the inputs unstacked into one
("rnn/TensorArray_1", time-major) and the cell's outputs written into another, stacked after
the loop. With sequence_length, rows past their length get zero outputs and keep their state
(Select on time >= sequence_length), and the loop stops at the longest length. Gradients flow
through the while loop's gradient and the TensorArray gradients.
"""

from engine.framework import dtypes
from engine.framework.default_graph import get_default_graph, name_scope
from engine.layers.rnn_cell_base import concat_shape
from engine.ops import array_ops, math_ops
from engine.ops import variable_scope as vs
from engine.ops.constant_op import constant
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.logging_ops import Assert
from engine.ops.nest import flatten, map_structure, pack_sequence_as
from engine.ops.tensor_array_ops import TensorArray
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.framework.tensor_util import constant_value


def _transpose_batch_time(x):
    """`x` with its first two axes swapped, keeping what is known of its shape."""
    static = x.shape
    if static.ndims is not None and static.ndims < 2:
        return x
    x_t = array_ops.transpose(x, array_ops.concat(
        ([1, 0], math_ops.range(2, array_ops.rank(x))), axis=0))
    if static.ndims is not None:
        dims = static.as_list()
        x_t.set_shape(TensorShape([dims[1], dims[0]]).concatenate(static[2:]))
    return x_t


def _best_effort_input_batch_size(flat_input):
    for input_ in flat_input:
        shape = input_.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError(f"Input tensor should have rank >= 2. Received input={input_} of "
                             f"rank {shape.ndims}")
        batch_size = shape.as_list()[1]
        if batch_size is not None:
            return batch_size
    return array_ops.shape(flat_input[0])[1]


def _infer_state_dtype(explicit_dtype, state):
    if explicit_dtype is not None:
        return explicit_dtype
    inferred = [element.dtype for element in flatten(state)]
    if not inferred:
        raise ValueError(f"Unable to infer dtype from argument state={state}.")
    if any(d != inferred[0] for d in inferred):
        raise ValueError(f"Argument state={state} has tensors of different inferred dtypes. "
                         f"Unable to infer a single representative dtype. Dtypes received: "
                         f"{inferred}")
    return inferred[0]


def _maybe_tensor_shape_from_tensor(shape):
    if isinstance(shape, Tensor):
        return as_shape(constant_value(shape))
    return shape


def _copy_some_through(copy_cond, flat_zero_output, flat_state, flat_new_output,
                        flat_new_state):
    """Rows past their length: the zero output and the state they had (rnn._rnn_step with
    skip_conditionals, as dynamic_rnn calls it)."""
    graph = get_default_graph()

    def copy_one_through(old, new):
        if new.shape.ndims == 0:
            return new
        with graph.colocate_with(new):
            return array_ops.where(copy_cond, old, new)

    outputs = [copy_one_through(z, n) for z, n in zip(flat_zero_output, flat_new_output)]
    states = [copy_one_through(s, n) for s, n in zip(flat_state, flat_new_state)]
    for output, zero in zip(outputs, flat_zero_output):
        output.set_shape(zero.shape)
    for state, old in zip(states, flat_state):
        state.set_shape(old.shape)
    return outputs, states


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """(outputs [batch, time, output] or time-major, final state)."""
    with vs.variable_scope(scope or "rnn"):
        flat_input = flatten(inputs)
        if not time_major:
            flat_input = [convert_to_tensor(input_) for input_ in flat_input]
            flat_input = tuple(_transpose_batch_time(input_) for input_ in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"Argument sequence_length must be a vector of length "
                                 f"batch_size. Received sequence_length={sequence_length} of "
                                 f"shape: {sequence_length.shape}")
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
        batch_size = _best_effort_input_batch_size(flat_input)
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, argument `dtype` must be "
                                 "specified")
            if getattr(cell, "get_initial_state", None) is not None:
                state = cell.get_initial_state(inputs=None, batch_size=batch_size,
                                               dtype=dtype)
            else:
                state = cell.zero_state(batch_size, dtype)

        if sequence_length is not None:
            x_shape = array_ops.shape(sequence_length)
            packed_shape = array_ops.stack([batch_size])
            check = Assert(math_ops.reduce_all(math_ops.equal(x_shape, packed_shape)),
                           [f"Expected shape for Tensor {sequence_length.name} is ",
                            packed_shape, " but saw shape: ", x_shape])
            with get_default_graph().control_dependencies([check]):
                sequence_length = array_ops.identity(sequence_length, name="CheckSeqLen")
        inputs = pack_sequence_as(inputs, list(flat_input))
        outputs, final_state = _dynamic_rnn_loop(cell, inputs, state, parallel_iterations,
                                                 swap_memory, sequence_length, dtype)
        if not time_major:
            outputs = map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory,
                      sequence_length=None, dtype=None):
    """The while loop over time-major `inputs`: (outputs, final state)."""
    state = initial_state
    flat_input = flatten(inputs)
    flat_output_size = flatten(cell.output_size)
    time_steps = array_ops.shape(flat_input[0])[0]
    batch_size = _best_effort_input_batch_size(flat_input)
    inputs_got_shape = tuple(input_.shape.with_rank_at_least(3) for input_ in flat_input)
    const_time_steps, const_batch_size = inputs_got_shape[0].as_list()[:2]
    for i, shape in enumerate(inputs_got_shape):
        if not shape[2:].is_fully_defined():
            raise ValueError(f"Input size (depth of inputs) must be accessible via shape "
                             f"inference, but saw value None for input={flat_input[i]}.")
        got_time_steps, got_batch_size = shape.as_list()[:2]
        if const_time_steps != got_time_steps:
            raise ValueError(f"Time steps is not the same for all the elements in the input "
                             f"in a batch. Received time steps={got_time_steps} for "
                             f"input={flat_input[i]}.")
        if const_batch_size != got_batch_size:
            raise ValueError(f"Batch_size is not the same for all the elements in the input. "
                             f"Received batch size={got_batch_size} for "
                             f"input={flat_input[i]}.")
    state_dtype = _infer_state_dtype(dtype, state)
    # rnn_cell_impl._concat (concat_shape here) gives a shape tensor, which array_ops.stack
    # passes through
    flat_zero_output = tuple(array_ops.zeros(concat_shape(batch_size, size), state_dtype)
                             for size in flat_output_size)
    if sequence_length is not None:
        min_sequence_length = math_ops.reduce_min(sequence_length)  # noqa: F841 (TF builds it)
        max_sequence_length = math_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = constant(0, dtype=dtypes.int32, name="time")
    with name_scope("dynamic_rnn") as scope:
        base_name = scope

    def create_ta(name, element_shape, dtype):
        return TensorArray(dtype=dtype, size=time_steps, element_shape=element_shape,
                           tensor_array_name=base_name + name)

    output_ta = tuple(
        create_ta(f"output_{i}", TensorShape([const_batch_size]).concatenate(
            _maybe_tensor_shape_from_tensor(size)), state_dtype)
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(create_ta(f"input_{i}", input_.shape[1:], input_.dtype)
                     for i, input_ in enumerate(flat_input))
    input_ta = tuple(ta.unstack(input_) for ta, input_ in zip(input_ta, flat_input))

    def time_step(time, output_ta_t, state):
        input_t = tuple(ta.read(time) for ta in input_ta)
        for input_, shape in zip(input_t, inputs_got_shape):
            input_.set_shape(shape[1:])
        input_t = pack_sequence_as(inputs, list(input_t))
        if sequence_length is not None:
            copy_cond = time >= sequence_length  # made before the cell, as TensorFlow does
        output, new_state = cell(input_t, state)
        flat_output, flat_new_state = flatten(output), flatten(new_state)
        if sequence_length is not None:
            flat_output, flat_new_state = _copy_some_through(
                copy_cond, flat_zero_output, flatten(state), flat_output, flat_new_state)
            new_state = pack_sequence_as(state, flat_new_state)
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, flat_output))
        return (time + 1, output_ta_t, new_state)

    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(
        cond=lambda time, *_: time < loop_bound, body=time_step,
        loop_vars=(time, output_ta, state), parallel_iterations=parallel_iterations,
        maximum_iterations=time_steps, swap_memory=swap_memory)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, output_size in zip(final_outputs, flat_output_size):
        output.set_shape(concat_shape([const_time_steps, const_batch_size], output_size,
                                 static=True))
    return pack_sequence_as(cell.output_size, list(final_outputs)), final_state


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """((outputs_fw, outputs_bw), (state_fw, state_bw)): the backward cell reads each row's
    steps reversed (within its length) and its outputs are reversed back."""
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(
                cell_fw, inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)

        def reverse(input_):
            if sequence_length is not None:
                return array_ops.reverse_sequence(input_, sequence_length, seq_axis=time_axis,
                                                  batch_axis=batch_axis)
            return array_ops.reverse(input_, axis=[time_axis])

        with vs.variable_scope("bw") as bw_scope:
            inputs_reverse = map_structure(reverse, inputs)
            tmp, state_bw = dynamic_rnn(
                cell_bw, inputs_reverse, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = reverse(tmp)
    return (output_fw, output_bw), (state_fw, state_bw)
