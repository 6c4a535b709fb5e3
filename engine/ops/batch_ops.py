"""tf.nondifferentiable_batch_function (TensorFlow's batch_ops.batch_function): the decorated
function traced into a FunctionDef (arguments batch_0, batch_1, ..., then the outer tensors
it reads) and called through one BatchFunction op in a "batch" name scope; TensorFlow
registers no gradient for it. engine/kernels/cpu/batch_function.py runs it."""

import functools
import itertools

from engine.data import structure
from engine.data.tracing import FunctionGraph, function_def_from_ops
from engine.framework.default_graph import get_default_graph
from engine.framework.tensor import Tensor
from engine.ops.op_def_library import apply_op
from engine.proto import attr_value_pb2

_UIDS = itertools.count(1)


class _BatchFunctionGraph(FunctionGraph):
    """A FunctionGraph whose captures are named in the scope that reads them ("mul/w"), as
    TensorFlow's FuncGraph names them."""

    def capture(self, value):
        if not isinstance(value, Tensor) or value.graph is self or value.graph is not self.outer:
            return super().capture(value)
        for outer, placeholder in self.captures:
            if outer is value:
                return placeholder
        placeholder = apply_op("Placeholder", name=value.op.name.replace("/", "_"),
                               dtype=value.dtype, shape=value.shape)
        self.captures.append((value, placeholder))
        return placeholder


def _trace(fn, args):
    outer = get_default_graph()
    specs = [(x.dtype, x.shape) for x in args]  # a non-tensor fails here, as in TensorFlow
    graph = _BatchFunctionGraph(outer)
    with graph.as_default():
        placeholders = [apply_op("Placeholder", name=f"batch_{i}", dtype=dtype, shape=shape)
                        for i, (dtype, shape) in enumerate(specs)]
        result = fn(*placeholders)
        flat = structure.flatten(result)
        identities = [apply_op("Identity", name="Identity", input=t) for t in flat]
    name = f"__inference_computation_{next(_UIDS)}"
    out_names = ["identity" if i == 0 else f"identity_{i}" for i in range(len(identities))]
    arguments = [(p.op, f"batch_{i}") for i, p in enumerate(placeholders)]
    arguments += [(p.op, p.op.name.replace("/", "_").lower()) for _, p in graph.captures]
    fdef = function_def_from_ops(name, graph.get_operations(), arguments,
                                 list(zip(identities, out_names)))
    outer._add_function(fdef)
    return fdef, result, [outer_tensor for outer_tensor, _ in graph.captures], identities


def batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                   allowed_batch_sizes=None, max_enqueued_batches=10, autograph=True,
                   enable_large_batch_splitting=True):
    """tf.nondifferentiable_batch_function: a decorator running the function on batches of
    its (batch-major) tensor arguments."""
    def decorator(fn):
        @functools.wraps(fn)
        def decorated(*args):
            fdef, result, captured, outputs = _trace(fn, args)
            with get_default_graph().name_scope("batch") as name:
                for a in args:
                    if not isinstance(a, Tensor):
                        raise ValueError(f"All arguments to functions decorated with "
                                         f"`batch_function`  are supposed to be Tensors; "
                                         f"found {a!r}")
                values = apply_op(
                    "BatchFunction", in_tensors=list(args), captured_tensors=captured,
                    f=attr_value_pb2.NameAttrList(name=fdef.signature.name),
                    num_batch_threads=num_batch_threads, max_batch_size=max_batch_size,
                    batch_timeout_micros=batch_timeout_micros,
                    allowed_batch_sizes=list(allowed_batch_sizes or []),
                    max_enqueued_batches=max_enqueued_batches, shared_name=name,
                    enable_large_batch_splitting=enable_large_batch_splitting,
                    Tout=[o.dtype for o in outputs])
            values = values if isinstance(values, list) else [values]
            return structure.pack_as(result, values)
        return decorated
    return decorator
