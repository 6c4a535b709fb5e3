"""tf.random.categorical, tf.multinomial, tf.random_gamma (tf.random.gamma) and
tf.random_poisson (tf.random.poisson) as TF 1.x builds them, and RandomGamma's gradient
(TensorFlow's random_grad.py)."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed


def _multinomial(logits, num_samples, dtype, seed):
    logits = convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("Argument `dtype` got invalid value "
                         f"{dtype}. Accepted dtypes are {(dtypes.int32, dtypes.int64)}.")
    seed1, seed2 = get_seed(seed)
    return apply_op("Multinomial", logits=logits, num_samples=num_samples, seed=seed1,
                    seed2=seed2, output_dtype=dtype)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    with name_scope(name, "categorical", [logits]):
        return _multinomial(logits, num_samples, dtype, seed)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    with name_scope(name, "multinomial", [logits]):
        return _multinomial(logits, num_samples, output_dtype, seed)


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    with name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = apply_op("BroadcastArgs", s0=array_ops.shape(alpha),
                                   s1=array_ops.shape(beta))
        alpha_broadcast = array_ops.broadcast_to(alpha, broadcast_shape)
        seed1, seed2 = get_seed(seed)
        sample = apply_op("RandomGamma", shape=shape, alpha=alpha_broadcast, seed=seed1,
                          seed2=seed2)
        result = math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, sample / beta)
        _set_static_shape(result, shape, alpha.shape, beta.shape)
        return result


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    with name_scope(name, "random_poisson", [lam, shape]):
        shape = convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
        seed1, seed2 = get_seed(seed)
        result = apply_op("RandomPoissonV2", shape=shape, rate=lam,
                          dtype=dtypes.as_dtype(dtype), seed=seed1, seed2=seed2)
        _set_static_shape(result, shape, result.op.inputs[1].shape)
        return result


def _set_static_shape(result, shape, *parameter_shapes):
    """TensorFlow's _maybe_set_static_shape_helper: the sample shape given as a constant,
    then the parameters' broadcast shape, where both are known."""
    from engine.framework.tensor_util import constant_value
    known = constant_value(shape)
    if known is None or any(p.ndims is None or not p.is_fully_defined()
                            for p in parameter_shapes):
        return
    try:
        broadcast = np.broadcast_shapes(*(tuple(p.as_list()) for p in parameter_shapes))
    except ValueError:
        return
    result.set_shape([int(d) for d in np.asarray(known).reshape(-1)] + list(broadcast))


def _add_leading_unit_dimensions(x, num_dimensions):
    new_shape = array_ops.concat(
        [array_ops.ones([num_dimensions], dtype=dtypes.int32), array_ops.shape(x)], axis=0)
    return array_ops.reshape(x, new_shape)


@RegisterGradient("RandomGamma")
def _random_gamma_grad(op, grad):
    shape, alpha = op.inputs
    sample = op.outputs[0]
    with get_default_graph().control_dependencies([grad]):
        num_sample_dimensions = array_ops.shape(shape)[0]
        alpha_broadcastable = _add_leading_unit_dimensions(alpha, num_sample_dimensions)
        partial_a = apply_op("RandomGammaGrad", alpha=alpha_broadcastable, sample=sample)
        return (None, math_ops.reduce_sum(grad * partial_a,
                                          axis=math_ops.range(num_sample_dimensions)))


NotDifferentiable("Multinomial")
