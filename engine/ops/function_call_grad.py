"""The gradient of a tf.function call (PartitionedCall, StatefulPartitionedCall).

TensorFlow differentiates the traced body and calls the backward function it makes. Here the
backward function is the body's own gradient graph (built once per ConcreteFunction in its
tracing graph): its arguments are the call's inputs and the gradients of the call's outputs,
and it recomputes the forward values it needs, where TensorFlow's call would output them
from a rewritten forward function (`__forward_f_<n>`).
"""

import itertools

from engine.data.tracing import function_def_from_ops
from engine.framework import dtypes
from engine.ops import def_function
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op

_UIDS = itertools.count(1)


class _Backward:
    """A ConcreteFunction's backward FunctionDef and which call inputs get a gradient."""

    def __init__(self, concrete):
        from engine.ops.gradients import gradients  # gradients imports the registry first
        graph = concrete.graph
        forward_inputs = concrete.inputs
        with graph.as_default(), graph.name_scope(None):
            self.differentiable = [i for i, t in enumerate(concrete.outputs)
                                   if _trainable(t.dtype)]
            grad_ys = [apply_op("Placeholder", name=f"gradient_{k}", dtype=t.dtype,
                                shape=t.shape) for k, t in
                       ((k, concrete.outputs[k]) for k in self.differentiable)]
            ys = [concrete.outputs[k] for k in self.differentiable]
            grads = gradients(ys, forward_inputs, grad_ys=grad_ys) if ys else \
                [None] * len(forward_inputs)
            grads = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g
                     for g in grads]
            self.connected = [i for i, g in enumerate(grads) if g is not None]
            outputs = [apply_op("Identity", name="Identity", input=grads[i])
                       for i in self.connected]
        # Tensors the gradient functions captured from outside after the forward was traced.
        self.extra_captures = graph.captures[len(concrete.captured_inputs):]
        arguments = forward_inputs + [p for _, p in self.extra_captures] + grad_ys
        needed = _ancestors([t.op for t in outputs])
        ops = [op for op in graph.get_operations() if op in needed]
        self.name = (f"__inference___backward_{concrete._function_name[len('__inference_'):]}"
                     f"_{next(_UIDS)}")
        names = ["identity" if i == 0 else f"identity_{i}" for i in range(len(outputs))]
        self.function_def = function_def_from_ops(
            self.name, ops, [(t.op, t.op.name) for t in arguments], list(zip(outputs, names)))
        self.output_dtypes = [t.dtype for t in outputs]
        self.output_shapes = [t.shape for t in outputs]
        graph.outer._add_function(self.function_def)


def _trainable(dtype):
    return dtype.base_dtype in (dtypes.float16, dtypes.bfloat16, dtypes.float32,
                                dtypes.float64, dtypes.complex64, dtypes.complex128)


def _ancestors(ops):
    seen, stack = set(), list(ops)
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return seen


def _call_grad(op, *grads):
    concrete = def_function.concrete_function_named(op.get_attr("f").name)
    if concrete is None:
        raise LookupError(f"No gradient defined for operation'{op.name}' (op type: {op.type}): "
                          f"its function {op.get_attr('f').name} was not traced by tf.function "
                          f"in this process")
    if concrete._backward is None:
        concrete._backward = _Backward(concrete)
    backward = concrete._backward
    if not backward.connected:
        return [None] * len(op.inputs)
    from engine.ops import array_ops
    output_grads = [grads[k] if grads[k] is not None else array_ops.zeros_like(op.outputs[k])
                    for k in backward.differentiable]
    args = list(op.inputs) + [outer for outer, _ in backward.extra_captures] + output_grads
    stateful = backward.function_def.signature.is_stateful
    results = apply_op("StatefulPartitionedCall" if stateful else "PartitionedCall",
                       args=args, Tout=backward.output_dtypes, f=backward.name)
    for result, shape in zip(results, backward.output_shapes):
        result.set_shape(shape)
    in_grads = [None] * len(op.inputs)
    for index, result in zip(backward.connected, results):
        if index < len(in_grads):
            in_grads[index] = result
    return in_grads


RegisterGradient("PartitionedCall")(_call_grad)
RegisterGradient("StatefulPartitionedCall")(_call_grad)
