"""The gradient of a tf.function call (PartitionedCall, StatefulPartitionedCall), as
TensorFlow builds it: the body is differentiated once, in its tracing graph; the forward
values the gradient reads become extra outputs of a `__forward_<f>_<n>` function, which the
call is rewritten to call (its `f` attr, more outputs), and the gradient ops become
`__inference___backward_<f>_<n>`, called with the output gradients and those extra outputs
(the call's inputs among them where the gradient reads them). So the backward function computes nothing again (a random op in the
body is drawn once) and, reading no variable, is a PartitionedCall.

Where the gradient ops cannot be cut from the body that way (v1 control flow inside it: a
while loop's gradient pops what its forward loop pushed), the backward function recomputes
the forward values from the call's inputs instead, and the call is left as it is.
"""

import itertools

from engine.data.tracing import function_def_from_ops
from engine.framework import dtypes
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.proto import attr_value_pb2

_UIDS = itertools.count(1)


class _Gradient:
    """A ConcreteFunction's backward FunctionDef and, where it could be split off, the
    forward FunctionDef a call is rewritten to.

    `through` (the intermediates a rewritten call already outputs) makes the backward of a
    call whose intermediates have gradients too (a second-order gradient reaches them
    through the first backward call): it also takes their gradients, and reads the
    intermediates the call outputs, or computes the forward values again where it needs
    others; the call is not rewritten again."""

    def __init__(self, concrete, through=None):
        from engine.ops.gradients import gradients  # gradients imports the registry first
        graph = concrete.graph
        forward_ops = graph.get_operations()
        forward_set = set(forward_ops)
        forward_inputs = concrete.inputs
        through = through or []
        with graph.as_default(), graph.name_scope(None):
            self.differentiable = [i for i, t in enumerate(concrete.outputs)
                                   if _trainable(t.dtype)]
            self.through_differentiable = [j for j, t in enumerate(through)
                                           if _trainable(t.dtype)]
            ys = ([concrete.outputs[k] for k in self.differentiable]
                  + [through[j] for j in self.through_differentiable])
            grad_ys = [apply_op("Placeholder", name=f"gradient_{k}", dtype=t.dtype,
                                shape=t.shape) for k, t in enumerate(ys)]
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
        base = concrete._function_name[len("__inference_"):]
        uid = next(_UIDS)
        self.name = f"__inference___backward_{base}_{uid}"
        names = [_output_name(i) for i in range(len(outputs))]
        backward_arguments = grad_ys + [p for _, p in self.extra_captures]
        # TensorFlow's backward function holds every op its gradient built (the gradient of
        # a constant factor too), and so reads every forward value those read.
        built = [op for op in graph.get_operations() if op not in forward_set]
        split = _split(outputs, forward_set, {t.op for t in backward_arguments}, built)
        if split is not None and through:
            position = {t.name: j for j, t in enumerate(through)}
            if any(t.name not in position for t in split[1]):
                split = None  # it needs forward values the call does not output
        self.intermediates = []
        self.forward_name = None
        self.recomputes = split is None
        if split is None:  # recompute: the body's ops and the gradient's in one function
            needed = _ancestors([t.op for t in outputs])
            ops = [op for op in graph.get_operations() if op in needed]
            self.function_def = function_def_from_ops(
                self.name, ops, [(t.op, t.op.name) for t in arguments],
                list(zip(outputs, names)))
        else:
            backward_ops, self.intermediates = split
            ops = [op for op in graph.get_operations() if op in backward_ops]
            self.function_def = function_def_from_ops(
                self.name, ops, [(t.op, t.op.name) for t in backward_arguments],
                list(zip(outputs, names)),
                [(t, f"intermediate_{k}") for k, t in enumerate(self.intermediates)])
            if not through:
                self._add_forward(concrete, base, forward_ops, forward_inputs)
        self.output_dtypes = [t.dtype for t in outputs]
        self.output_shapes = [t.shape for t in outputs]
        graph.outer._add_function(self.function_def)

    def _add_forward(self, concrete, base, forward_ops, forward_inputs):
        self.forward_name = f"__forward_{base.rpartition('_')[0]}_{next(_UIDS)}"
        forward_outputs = concrete.outputs + self.intermediates
        forward = function_def_from_ops(
            self.forward_name, forward_ops, [(t.op, t.op.name) for t in forward_inputs],
            [(t, _output_name(i)) for i, t in enumerate(forward_outputs)])
        forward.signature.is_stateful = concrete.function_def.signature.is_stateful
        for index, attrs in concrete.function_def.arg_attr.items():
            forward.arg_attr[index].CopyFrom(attrs)
        concrete.graph.outer._add_function(forward)

    def rewrite_call(self, op, output_count):
        """Points call `op` at the forward function and gives it the intermediates as
        outputs (once per call)."""
        if self.forward_name is None or len(op._outputs) > output_count:
            return
        from engine.framework.tensor import Tensor
        op._set_attr("f", attr_value_pb2.AttrValue(
            func=attr_value_pb2.NameAttrList(name=self.forward_name)))
        types = list(op.get_attr("Tout")) + [t.dtype for t in self.intermediates]
        op._set_attr("Tout", attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
            type=[dtypes.as_dtype(t).as_datatype_enum for t in types])))
        for tensor in self.intermediates:
            op._outputs.append(Tensor(op, len(op._outputs), tensor.dtype, tensor.shape))


def _output_name(index):
    return "identity" if index == 0 else f"identity_{index}"


def _split(outputs, forward_set, argument_ops, built=()):
    """(gradient ops the outputs need, the forward tensors they read in the order the
    gradient ops first read them), or None where a gradient op is inside v1 control flow, or
    needs a forward op by a control edge or a forward tensor made inside v1 control flow."""
    needed, stack = set(), [t.op for t in outputs] + list(built)
    while stack:
        op = stack.pop()
        if op in needed or op in argument_ops:
            continue
        if op._get_control_flow_context() is not None:
            return None
        needed.add(op)
        for tensor in op.inputs:
            if tensor.op in forward_set:
                if tensor.op._get_control_flow_context() is not None:
                    return None
            elif tensor.op not in argument_ops:
                stack.append(tensor.op)
        for control in op.control_inputs:
            if control in forward_set:
                return None
            stack.append(control)
    intermediates = {}
    for op in sorted(needed, key=lambda o: o._id):
        for tensor in op.inputs:
            if tensor.op in forward_set:
                intermediates.setdefault(tensor.name, tensor)
    return needed, list(intermediates.values())


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
    from engine.ops import def_function, function_retrace
    name = op.get_attr("f").name
    concrete = (def_function.concrete_function_named(name)
                or function_retrace.concrete_of_library_function(op))
    if concrete is None:
        raise LookupError(f"No gradient defined for operation'{op.name}' (op type: {op.type}): "
                          f"its function {name} is not in the graph's library")
    if concrete._backward is None:
        concrete._backward = _Gradient(concrete)
        if concrete._backward.forward_name is not None:
            def_function.register_function_name(concrete._backward.forward_name, concrete)
    backward = concrete._backward
    count = len(concrete.outputs)
    if any(g is not None for g in grads[count:]):  # the intermediates have gradients too
        if getattr(concrete, "_backward_through", None) is None:
            concrete._backward_through = _Gradient(concrete, backward.intermediates)
        backward = concrete._backward_through
    if not backward.connected:
        return [None] * len(op.inputs)
    from engine.ops import array_ops
    output_grads = [grads[k] if grads[k] is not None else array_ops.zeros_like(op.outputs[k])
                    for k in backward.differentiable]
    output_grads += [grads[count + j] if grads[count + j] is not None
                     else array_ops.zeros_like(op.outputs[count + j])
                     for j in backward.through_differentiable]
    captured = [outer for outer, _ in backward.extra_captures]
    if backward.recomputes:  # the backward function computes the forward again
        args = list(op.inputs) + captured + output_grads
    elif backward is concrete._backward:
        backward.rewrite_call(op, count)
        args = output_grads + captured + list(op.outputs[count:])
    else:  # it reads intermediates the rewritten call outputs
        position = {t.name: j for j, t in enumerate(concrete._backward.intermediates)}
        args = output_grads + captured + [op.outputs[count + position[t.name]]
                                          for t in backward.intermediates]
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
