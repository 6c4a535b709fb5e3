"""tf.nn.raw_rnn: a cell run in a tf.while_loop whose inputs, emitted outputs, next state and
finishing come from the caller's loop_fn, each step's emit written to TensorArrays
("rnn_output_<i>"), rows already finished copied through (Select), as TF 1.x's rnn.raw_rnn
builds it."""

from engine.framework import dtypes
from engine.framework.default_graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.layers.dynamic_rnn import _maybe_tensor_shape_from_tensor
from engine.layers.rnn import assert_like_rnncell
from engine.layers.rnn_cell_base import concat_shape
from engine.ops import array_ops, math_ops
from engine.ops import variable_scope as vs
from engine.ops.constant_op import constant
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import zeros
from engine.ops.nest import assert_same_structure, flatten, pack_sequence_as
from engine.ops.tensor_array_ops import TensorArray


def _map2(fn, first, second):
    """fn over the leaves of two structures alike, in the first one's structure."""
    return pack_sequence_as(first, [fn(a, b) for a, b in zip(flatten(first), flatten(second))])


def _batch_size(flat_input):
    """(the batch size, its static value or None): the first input's first dimension (the
    others' must agree), else that input's shape's first element as a tensor."""
    sizes = [TensorShape(input_.shape).as_list()[0] if TensorShape(input_.shape).ndims
             else None for input_ in flat_input]
    static = sizes[0]
    for size in sizes[1:]:
        if static is not None and size is not None and size != static:
            raise ValueError(f"Dimensions {static} and {size} are not compatible")
    if static is not None:
        return static, static
    return array_ops.shape(flat_input[0])[0], None


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """(emit_ta, final_state, final_loop_state): the emitted outputs as TensorArrays (of
    cell.output_size's structure unless loop_fn gave an emit structure), the last state, and
    loop_fn's loop state (None when it gave none)."""
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    parallel_iterations = parallel_iterations or 32
    with vs.variable_scope(scope or "rnn"):
        time = constant(0, dtype=dtypes.int32)
        (elements_finished, next_input, initial_state, emit_structure,
         init_loop_state) = loop_fn(time, None, None, None)
        flat_input = flatten(next_input)
        loop_state = (init_loop_state if init_loop_state is not None
                      else constant(0, dtype=dtypes.int32))
        batch_size, const_batch_size = _batch_size(flat_input)
        assert_same_structure(initial_state, cell.state_size)
        flat_state = [convert_to_tensor(s) for s in flatten(initial_state)]
        state = pack_sequence_as(initial_state, flat_state)
        if emit_structure is not None:
            flat_emit_structure = flatten(emit_structure)
            flat_emit_size = [emit.shape if emit.shape.is_fully_defined()
                              else array_ops.shape(emit) for emit in flat_emit_structure]
            flat_emit_dtypes = [emit.dtype for emit in flat_emit_structure]
        else:
            emit_structure = cell.output_size
            flat_emit_size = flatten(emit_structure)
            flat_emit_dtypes = [flat_state[0].dtype] * len(flat_emit_size)
        flat_emit_ta = [
            TensorArray(dtype=dtype_i, dynamic_size=True,
                        element_shape=TensorShape([const_batch_size]).concatenate(
                            _maybe_tensor_shape_from_tensor(size_i)),
                        size=0, name=f"rnn_output_{i}")
            for i, (dtype_i, size_i) in enumerate(zip(flat_emit_dtypes, flat_emit_size))]
        emit_ta = pack_sequence_as(emit_structure, flat_emit_ta)
        flat_zero_emit = [zeros(concat_shape(batch_size, size_i), dtype_i)
                          for size_i, dtype_i in zip(flat_emit_size, flat_emit_dtypes)]
        zero_emit = pack_sequence_as(emit_structure, flat_zero_emit)

        def condition(unused_time, elements_finished, *_):
            return math_ops.logical_not(math_ops.reduce_all(elements_finished))

        def body(time, elements_finished, current_input, emit_ta, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            assert_same_structure(state, cell_state)
            assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            (next_finished, next_input, next_state, emit_output,
             next_loop_state) = loop_fn(next_time, next_output, cell_state, loop_state)
            assert_same_structure(state, next_state)
            assert_same_structure(current_input, next_input)
            assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current, candidate):
                def copy_fn(cur_i, cand_i):
                    if isinstance(cur_i, TensorArray) or cur_i.shape.ndims == 0:
                        return cand_i
                    with get_default_graph().colocate_with(cand_i):
                        return array_ops.where(elements_finished, cur_i, cand_i)
                return _map2(copy_fn, current, candidate)

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = _map2(lambda ta, emit: ta.write(time, emit), emit_ta, emit_output)
            elements_finished = math_ops.logical_or(elements_finished, next_finished)
            return (next_time, elements_finished, next_input, emit_ta, next_state,
                    loop_state)

        returned = while_loop(condition, body,
                              loop_vars=[time, elements_finished, next_input, emit_ta, state,
                                         loop_state],
                              parallel_iterations=parallel_iterations,
                              swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state
