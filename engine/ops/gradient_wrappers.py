"""tf.grad_pass_through, tf.recompute_grad and tf.vectorized_map, built as TensorFlow 2.21
builds them in a graph (custom_gradient, GradientTape), and tf.wrap_function."""

import functools

from engine.framework.graph import Graph
from engine.framework.tensor import Tensor
from engine.ops import array_ops, math_ops, nest
from engine.ops.cast import cast
from engine.ops.convert import convert_to_tensor
from engine.ops.custom_gradient import custom_gradient
from engine.ops.def_function import TensorSpec, function
from engine.ops.functional_ops import map_fn
from engine.ops.gradient_tape import GradientTape
from engine.ops.op_def_library import apply_op


def grad_pass_through(f):
    """`f` whose gradient is the identity: the gradient passes through it unchanged."""
    @custom_gradient
    def _grad_pass_through_op(*args, **kwargs):
        def grad(*args, **kwargs):
            variables = kwargs.get("variables")
            if variables is not None:
                return args, [None] * len(variables)
            return args
        return f(*args, **kwargs), grad
    return functools.wraps(f)(_grad_pass_through_op)


def recompute_grad(f):
    """`f` whose intermediate values are computed again for its gradient instead of kept."""
    @custom_gradient
    def inner(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad_wrapper(*dresult, variables=None):
            with GradientTape() as tape:
                id_args = nest.map_structure(lambda x: apply_op("Identity", input=x),
                                             list(args))
                # TensorFlow's data dependency on dresult, so that the recomputation runs
                # after the gradient arrives.
                elem = math_ops.reduce_max(array_ops.reshape(dresult[0], [-1])[:1])
                elem_bool = cast(elem, "bool")
                dresult_dep = array_ops.where_v2(math_ops.equal(elem_bool, elem_bool), 0.0,
                                                 float("nan"))
                id_args = nest.map_structure(lambda x: x + cast(dresult_dep, x.dtype), id_args)
                tape.watch(id_args)
                if variables is not None:
                    tape.watch(variables)
                recomputed = f(*id_args, **kwargs)
            kw_vars = list(variables) if variables is not None else []
            grads = tape.gradient(recomputed, list(id_args) + kw_vars,
                                  output_gradients=list(dresult),
                                  unconnected_gradients="zero")
            if variables is not None:
                return grads[:len(id_args)], grads[len(id_args):]
            return grads[:len(id_args)]
        return result, grad_wrapper
    return functools.wraps(f)(inner)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """fn over axis 0 of `elems`. TensorFlow converts fn with pfor; here it runs as
    tf.map_fn's while loop, whose values are the same."""
    elems = nest.map_structure(convert_to_tensor, elems)
    flat = nest.flatten(elems)
    # The output structure from a trace of fn on one element in a scratch graph.
    with Graph().as_default():
        sample = nest.pack_sequence_as(elems, [
            array_ops.placeholder(t.dtype, t.shape[1:]) for t in flat])
        output = fn(sample)
        signature = nest.map_structure(
            lambda t: convert_to_tensor(t).dtype, output)
    result = map_fn(fn, elems, dtype=signature)
    batch = flat[0].shape[:1] if flat and flat[0].shape.ndims else None
    if batch is not None:
        for tensor in nest.flatten(result):
            if isinstance(tensor, Tensor):
                tensor.set_shape(batch.concatenate(tensor.shape[1:]))
    return result


def wrap_function(fn, signature, name=None):
    """tf.compat.v1.wrap_function: `fn` traced once over `signature`, a ConcreteFunction."""
    specs = [s if isinstance(s, TensorSpec) else TensorSpec(s.shape, s.dtype)
             for s in nest.flatten(signature)]
    traced = function(fn, input_signature=specs)
    traced._name = name or getattr(fn, "__name__", "wrapped_function")
    if traced._name == "<lambda>":
        traced._name = "lambda"
    return traced.get_concrete_function()
