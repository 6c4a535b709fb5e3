"""tf.custom_gradient in a graph, as TensorFlow 2.21's custom_gradient._graph_mode_decorator
builds it: f(*args) gives (result, grad_fn); an Identity of each result (what TensorFlow's
search for the variables f reads makes), then one IdentityN of the results, the args and
those variables, whose gradient is overridden by a gradient function registered for this
call ("CustomGradient-<n>") that calls grad_fn (with `variables=` where f reads any) and
gives None for the results' own inputs. The results returned are the IdentityN's."""

import functools
import inspect
import itertools

from engine.framework.graph import get_default_graph
from engine.framework.tensor import Tensor
from engine.ops import array_ops, nest, variables as variables_lib
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import REGISTERED, RegisterGradient, gradient_status

_NAMES = itertools.count(1)
_VARIABLE_OPS = ("VariableV2", "VarHandleOp")


def _dependent_variables(inputs, outputs):
    """The variables whose ops lie between `inputs` and `outputs` (TensorFlow walks back from
    an Identity of each output, through the inputs of differentiable op types, stopping at
    the inputs: op_selector.get_backward_walk_ops)."""
    seeds = [array_ops.identity(t) for t in outputs]
    stop = {id(t) for t in inputs}
    seen, found, pending = set(), [], [t.op for t in seeds]
    while pending:
        op = pending.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.type in _VARIABLE_OPS:
            found.append(op.name)
        if gradient_status(op.type) != REGISTERED:
            continue   # not differentiable: TensorFlow's walk does not go through it
        pending.extend(t.op for t in op.inputs if id(t) not in stop)
    by_name = {v.op.name: v for v in variables_lib.global_variables()
               + variables_lib.local_variables()}
    return [by_name[name] for name in found if name in by_name]


def _graph_mode_call(f, args, kwargs):
    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords "
                         "arguments only when eager execution is enabled.")
    name = f"CustomGradient-{next(_NAMES)}"
    args = nest.map_structure(convert_to_tensor, list(args))
    before = {id(v) for v in variables_lib.global_variables() + variables_lib.local_variables()}
    result, grad_fn = f(*args)
    flat_args = nest.flatten(args)
    flat_result = nest.flatten(result)
    flat_result_len = len(flat_result)
    for v in variables_lib.global_variables() + variables_lib.local_variables():
        if id(v) not in before and not isinstance(v, variables_lib.ResourceVariable):
            raise TypeError("All variables used by a function wrapped with @custom_gradient "
                            "must be `ResourceVariable`s. Ensure that no `variable_scope` is "
                            "created with `use_resource=False`.")
    graph = getattr(flat_result[0], "graph", None) if flat_result else None
    inputs = [t for t in flat_args if graph is None or getattr(t, "graph", None) is graph]
    used = sorted(_dependent_variables(inputs, [t for t in flat_result
                                                if isinstance(t, Tensor)]),
                  key=lambda v: v.name)
    variables = list({id(v): v for v in used}.values())
    spec = inspect.getfullargspec(grad_fn)
    variables_in_signature = ("variables" in spec.args or "variables" in spec.kwonlyargs
                              or spec.varkw)
    if variables and not variables_in_signature:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    all_tensors = flat_result + flat_args + variables

    @RegisterGradient(name)
    def _custom_grad(unused_op, *result_grads):
        result_grads = list(result_grads[:flat_result_len])
        if variables:
            input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from "
                                 "@custom_gradient grad_fn.")
        else:
            input_grads = grad_fn(*result_grads)
            variable_grads = []
        return [None] * flat_result_len + nest.flatten(input_grads) + list(variable_grads)

    with get_default_graph().gradient_override_map({"IdentityN": name}):
        all_tensors = array_ops.identity_n(all_tensors)
    return nest.pack_sequence_as(result, list(all_tensors[:flat_result_len]))


def custom_gradient(f=None):
    """Decorator: `f(*args)` returns (result, grad_fn); the result's gradient is grad_fn's
    (grad_fn(*result_grads) gives one gradient per arg, or (arg grads, variable grads) with
    `variables=` when f reads variables)."""
    if f is None:
        return lambda f: custom_gradient(f=f)

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _graph_mode_call(f, args, kwargs)
    return decorated
