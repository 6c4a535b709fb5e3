"""The control flow v1 ops as TensorFlow 1.x's control_flow_ops builds them: switch, merge,
_enter, exit_, _next_iteration, loop_cond, control_trigger (Ref* forms for ref tensors), with
the static shapes TensorFlow's shape functions give these forwarding ops."""

from engine.ops.array_ops import identity
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.framework.tensor_shape import as_shape


def _is_ref(tensor):
    return tensor.dtype._is_ref_dtype


def switch(data, pred, dtype=None, name=None):
    """(output_false, output_true): `data` forwarded to the output `pred` selects."""
    graph = get_default_graph()
    with graph.name_scope(name or "Switch") as scope:
        data = convert_to_tensor(data, dtype=dtype, name="data", as_ref=True)
        pred = convert_to_tensor(pred, name="pred")
        outputs = apply_op("RefSwitch" if _is_ref(data) else "Switch", name=scope,
                           data=data, pred=pred)
        return tuple(_with_shape(t, data.shape) for t in outputs)


def _switch_ref_or_tensor(data, pred, name="Switch"):
    """switch, colocated with `data` (TensorFlow's _SwitchRefOrTensor)."""
    data = convert_to_tensor(data, name="data", as_ref=True)
    with get_default_graph().colocate_with(data, ignore_existing=True):
        return switch(data, pred, name=name)


def merge(inputs, name=None):
    """(output, value_index): the first available of `inputs`."""
    if any(inp is None for inp in inputs):
        raise ValueError(f"At least one of the merge inputs is None: {inputs}")
    graph = get_default_graph()
    with graph.name_scope(name or "Merge") as scope:
        inputs = [convert_to_tensor(inp, as_ref=True) for inp in inputs]
        op_type = "RefMerge" if all(_is_ref(t) for t in inputs) else "Merge"
        output, index = apply_op(op_type, name=scope, inputs=inputs)
        shape = inputs[0].shape
        for t in inputs[1:]:
            shape = _most_specific_common(shape, t.shape)
        return _with_shape(output, shape), index


def _enter(tensor, frame_name, is_constant=False, parallel_iterations=10, use_ref=True,
           use_input_shape=True, name=None):
    tensor = convert_to_tensor(tensor, as_ref=True)
    op_type = "RefEnter" if _is_ref(tensor) and use_ref else "Enter"
    result = apply_op(op_type, name=name or "Enter", data=tensor, frame_name=frame_name,
                      is_constant=is_constant, parallel_iterations=parallel_iterations)
    if use_input_shape:
        result._shape = tensor.shape
    return result


def exit_(tensor, name=None):
    tensor = convert_to_tensor(tensor, as_ref=True)
    return _with_shape(apply_op("RefExit" if _is_ref(tensor) else "Exit", name=name or "Exit",
                                data=tensor), tensor.shape)


def _next_iteration(tensor, name=None):
    tensor = convert_to_tensor(tensor, as_ref=True)
    return _with_shape(apply_op("RefNextIteration" if _is_ref(tensor) else "NextIteration",
                                name=name or "NextIteration", data=tensor), tensor.shape)


def _with_shape(tensor, shape):
    """The shapes TensorFlow's shape functions give the forwarding ops (their inputs')."""
    tensor._shape = shape
    return tensor


def _most_specific_common(a, b):
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return as_shape(None)
    return as_shape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def loop_cond(pred, name=None):
    return _with_shape(apply_op("LoopCond", name=name or "LoopCond", input=pred), as_shape([]))


def control_trigger(name=None):
    return apply_op("ControlTrigger", name=name)


def _identity(tensor, name=None):
    tensor = convert_to_tensor(tensor, as_ref=True)
    if _is_ref(tensor):
        return apply_op("RefIdentity", name=name or "RefIdentity", input=tensor)
    return identity(tensor, name=name)
