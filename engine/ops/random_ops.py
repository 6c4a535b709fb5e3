"""Random ops with TensorFlow's graph/op seeds (random_seed.get_seed of TF 2.21)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.math_ops import add, multiply
from engine.ops.op_def_library import apply_op

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


def set_random_seed(seed):
    get_default_graph().seed = seed


def get_seed(op_seed):
    """(graph seed, op seed) as TensorFlow derives them; (None, None) when neither is set."""
    graph = get_default_graph()
    global_seed = graph.seed
    if global_seed is not None:
        if op_seed is None:
            op_seed = graph._seed_counter
            graph._seed_counter += 1
        seeds = global_seed % _MAXINT32, op_seed % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, op_seed % _MAXINT32
    else:
        seeds = None, None
    if seeds == (0, 0):
        return 0, _MAXINT32
    return seeds


def _shape_tensor(shape):
    dtype = dtypes.int32 if isinstance(shape, (tuple, list)) and not shape else None
    return convert_to_tensor(shape, dtype=dtype, name="shape")


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    with name_scope(name, "random_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op("RandomStandardNormal", shape=shape_tensor, dtype=dtype, seed=seed1,
                       seed2=seed2)
        return add(rnd * stddev_tensor, mean_tensor, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    with name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op("TruncatedNormal", shape=shape_tensor, dtype=dtype, seed=seed1,
                       seed2=seed2)
        return add(rnd * stddev_tensor, mean_tensor, name=name)


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    with name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape = _shape_tensor(shape)
        minval_is_zero = isinstance(minval, int) and minval == 0
        maxval_is_one = isinstance(maxval, int) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        seed1, seed2 = get_seed(seed)
        if dtype.is_integer:
            return apply_op("RandomUniformInt", shape=shape, minval=minval, maxval=maxval,
                            seed=seed1, seed2=seed2, name=name)
        result = apply_op("RandomUniform", shape=shape, dtype=dtype, seed=seed1, seed2=seed2)
        if minval_is_zero:
            if not maxval_is_one:
                result = multiply(result, maxval)
        else:
            result = add(result * (maxval - minval), minval, name=name)
        return result

