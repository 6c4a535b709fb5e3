"""tf.no_op, tf.group, tf.tuple and with_dependencies, as TF 1.x builds them."""

import builtins

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops.array_ops import identity
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.framework.operation import Operation
from engine.framework.tensor import Tensor


def no_op(name=None):
    return apply_op("NoOp", name=name)


def _flatten(values):
    for value in values:
        if isinstance(value, (list, builtins.tuple)):
            yield from _flatten(value)
        elif isinstance(value, dict):
            yield from _flatten([value[k] for k in sorted(value)])
        elif value is not None:
            yield value


def _group_control_deps(device, deps, name=None):
    graph = get_default_graph()
    with graph.control_dependencies(deps):
        if device is None:
            return no_op(name=name)
        with graph.device(device):
            return no_op(name=name)


def group(*inputs, **kwargs):
    """A NoOp with a control input on each of `inputs` (one NoOp per device when they differ)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {', '.join(kwargs)}")
    with name_scope(name, "group_deps", list(_flatten(inputs))) as name:
        if not inputs:
            return no_op(name=name)
        ops_on_device = {}
        for inp in _flatten(inputs):
            if not hasattr(inp, "device"):
                raise TypeError(f"'inputs' should be zero or more (nested) Tensors. Received "
                                f"'{inp}' with type '{type(inp)}'.")
            ops_on_device.setdefault(inp.device, []).append(inp)
        if len(ops_on_device) == 1:
            (device, deps), = ops_on_device.items()
            return _group_control_deps(device, deps, name=name)
        deps = [_group_control_deps(device, ops_on_device[device])
                for device in sorted(ops_on_device, key=lambda d: "" if d is None else d)]
        with get_default_graph().control_dependencies(deps):
            return no_op(name=name)


def with_dependencies(dependencies, output_tensor, name=None):
    graph = get_default_graph()
    with name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as name:
        with graph.colocate_with(output_tensor):
            with graph.control_dependencies(dependencies):
                return identity(convert_to_tensor(output_tensor), name=name)


def _is_tf_type(value):
    """A tensor, or a resource variable (TensorFlow's BaseResourceVariable is a core.Tensor,
    a ref variable is not)."""
    return isinstance(value, Tensor) or getattr(value, "is_tensor_like", False)


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001  (TensorFlow's name)
    with name_scope(name, "tuple", [t for t in tensors if t is not None]) as name:
        # A resource variable is a tensor type to TensorFlow (is_tf_type): it is gated by its
        # op (an assign's, for what an assign returns) and read under the gate.
        tensors = [t if _is_tf_type(t) or isinstance(t, Operation) or t is None
                   else convert_to_tensor(t) for t in tensors]
        gating_ops = [t if isinstance(t, Operation) else t.op for t in tensors if t is not None]
        for c in control_inputs or ():
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError(f"'control_inputs' must only contain Operation or Tensor. "
                                f"Received: {type(c)}")
            gating_ops.append(c)
        gating_ops = sorted(set(gating_ops), key=lambda op: op._id)
        if not gating_ops:
            raise ValueError("'tensors' must have at least one Tensor. Received: "
                             f"{tensors}.")
        gate = group(*gating_ops)
        result = []
        for t in tensors:
            if _is_tf_type(t):
                result.append(with_dependencies([gate], t))
            elif isinstance(t, Operation):
                with get_default_graph().control_dependencies([gate]):
                    result.append(group(t))
            else:
                result.append(None)
        return result
