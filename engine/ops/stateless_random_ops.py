"""tf.random's stateless samplers (stateless_uniform, normal, truncated_normal, categorical,
multinomial, binomial, gamma, poisson, parameterized_truncated_normal), fold_in, split,
experimental.stateless_shuffle and index_shuffle, create_rng_state, Algorithm and
tf.nn.experimental.stateless_dropout, as TensorFlow 2.21's stateless_random_ops.py,
random_ops_util.py and nn_ops.py build them, and the gradients of the stateless gamma and
parameterized truncated normal (random_grad.py)."""

import enum

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import zeros
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import _shape_tensor
from engine.ops.random_sampling_ops import _add_leading_unit_dimensions
from engine.ops.shape_ops import rank, shape as shape_of


class Algorithm(enum.Enum):
    """tf.random.Algorithm: the RNG algorithms' ids."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def unsupported_alg_error_msg(alg):
    if isinstance(alg, int):
        names = (Algorithm.PHILOX.value, Algorithm.THREEFRY.value, Algorithm.AUTO_SELECT.value)
    elif isinstance(alg, str):
        names = ("philox", "threefry", "auto_select")
    else:
        names = (Algorithm.PHILOX, Algorithm.THREEFRY, Algorithm.AUTO_SELECT)
    return (f"Argument `alg` got unsupported value {alg}. Supported values are {names[0]} for "
            f"the Philox algorithm, {names[1]} for the ThreeFry algorithm, and {names[2]} for "
            "auto-selection.")


def convert_alg_to_int(alg):
    from engine.framework.tensor import Tensor
    if isinstance(alg, (int, Tensor)):
        return alg
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, str):
        canonical = alg.strip().lower().replace("-", "").replace("_", "")
        by_name = {"philox": Algorithm.PHILOX, "threefry": Algorithm.THREEFRY,
                   "autoselect": Algorithm.AUTO_SELECT}
        if canonical not in by_name:
            raise ValueError(unsupported_alg_error_msg(alg))
        return by_name[canonical].value
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) "
                    "to int.")


def _uint32s_to_uint64(x):
    return apply_op("BitwiseOr", x=cast(x[0], dtypes.uint64),
                    y=apply_op("LeftShift", x=cast(x[1], dtypes.uint64),
                               y=constant(32, dtypes.uint64)))


def _philox_scramble_seed(seed):
    """GenerateKey's scramble built from ops (random_ops_util._philox_scramble_seed)."""
    key = constant([0x02461E293EC8F720], dtypes.uint64)
    counter = cast(seed, dtypes.uint64)
    mix = apply_op("StatelessRandomUniformFullIntV2", shape=[4], key=key, counter=counter,
                   dtype=dtypes.uint32, alg=Algorithm.PHILOX.value)
    key = array_ops.reshape(_uint32s_to_uint64(mix[:2]), [1])
    counter = array_ops.stack([0, _uint32s_to_uint64(mix[2:])], axis=0)
    return key, counter


def get_key_counter_alg(seed, alg):
    """The key, counter and alg a V2 op takes (random_ops_util.get_key_counter_alg):
    StatelessRandomGetKeyCounter's for auto-select, the scramble built from ops for Philox,
    the seed's words for ThreeFry (which the CPU kernels refuse, as TensorFlow's)."""
    alg = convert_alg_to_int(Algorithm.AUTO_SELECT.value if alg is None else alg)
    if alg == Algorithm.AUTO_SELECT.value:
        key, counter = apply_op("StatelessRandomGetKeyCounter", seed=seed)
    elif alg == Algorithm.PHILOX.value:
        key, counter = _philox_scramble_seed(seed)
    elif alg == Algorithm.THREEFRY.value:
        key = array_ops.reshape(_uint32s_to_uint64(cast(seed, dtypes.uint32)), [1])
        counter = zeros([1], dtypes.uint64)
    else:
        raise ValueError(unsupported_alg_error_msg(alg))
    return key, counter, alg


_UNIFORM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
                   dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32,
                             name=None, alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{_UNIFORM_DTYPES}.")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and "
                             "`maxval` must be both None or not None. Got "
                             f"`minval`={minval} and `maxval`={maxval}.")
        if minval is not None and dtype in (dtypes.uint32, dtypes.uint64):
            raise ValueError(f"Argument `dtype` got invalid value {dtype} when argument "
                             "`minval` is not None. Please don't use unsigned integers in "
                             "this case.")
    elif maxval is None:
        maxval = 1
    with name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as name:
        shape = _shape_tensor(shape)
        if dtype.is_integer and minval is None:
            key, counter, alg = get_key_counter_alg(seed, alg)
            return apply_op("StatelessRandomUniformFullIntV2", shape=shape, key=key,
                            counter=counter, dtype=dtype, alg=alg, name=name)
        minval = convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        key, counter, alg = get_key_counter_alg(seed, alg)
        if dtype.is_integer:
            return apply_op("StatelessRandomUniformIntV2", shape=shape, key=key,
                            counter=counter, minval=minval, maxval=maxval, alg=alg, name=name)
        rnd = apply_op("StatelessRandomUniformV2", shape=shape, key=key, counter=counter,
                       dtype=dtype, alg=alg)
        return math_ops.add(rnd * (maxval - minval), minval, name=name)


def _scaled_normal(op_type, scope, shape, seed, mean, stddev, dtype, name, alg):
    with name_scope(name, scope, [shape, seed, mean, stddev]) as name:
        shape = _shape_tensor(shape)
        mean = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        key, counter, alg = get_key_counter_alg(seed, alg)
        rnd = apply_op(op_type, shape=shape, key=key, counter=counter, dtype=dtype, alg=alg)
        return math_ops.add(rnd * stddev, mean, name=name)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                            name=None, alg="auto_select"):
    return _scaled_normal("StatelessRandomNormalV2", "stateless_random_normal", shape, seed,
                          mean, stddev, dtype, name, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    return _scaled_normal("StatelessTruncatedNormalV2", "stateless_truncated_normal", shape,
                          seed, mean, stddev, dtype, name, alg)


def _categorical(logits, num_samples, dtype, seed):
    logits = convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    accepted = (dtypes.int32, dtypes.int64)
    if dtype not in accepted:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{accepted}.")
    return apply_op("StatelessMultinomial", logits=logits, num_samples=num_samples, seed=seed,
                    output_dtype=dtype)


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    with name_scope(name, "stateless_multinomial", [logits, seed]):
        return _categorical(logits, num_samples, output_dtype, seed)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    with name_scope(name, "stateless_categorical", [logits, seed]):
        return _categorical(logits, num_samples, dtype, seed)


def stateless_random_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32,
                              name=None):
    with name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]) as name:
        shape = _shape_tensor(shape)
        probs = convert_to_tensor(probs, dtype_hint=dtypes.float32, name="probs")
        counts = convert_to_tensor(counts, dtype_hint=probs.dtype, name="counts")
        return apply_op("StatelessRandomBinomial", shape=shape, seed=seed, counts=counts,
                        probs=probs, dtype=output_dtype)


def stateless_random_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    with name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]) as name:
        shape = _shape_tensor(shape)
        alpha = convert_to_tensor(alpha, dtype=dtype, name="alpha")
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = apply_op("BroadcastArgs", s0=shape_of(alpha), s1=shape_of(beta))
        alpha_broadcast = array_ops.broadcast_to(alpha, broadcast_shape)
        key, counter, alg = get_key_counter_alg(seed, "auto_select")
        rnd = apply_op("StatelessRandomGammaV3", shape=shape, key=key, counter=counter,
                       alg=alg, alpha=alpha_broadcast)
        return math_ops.maximum(np.finfo(alpha.dtype.as_numpy_dtype).tiny, rnd / beta)


def stateless_random_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    with name_scope(name, "stateless_random_poisson", [shape, seed, lam]) as name:
        shape = _shape_tensor(shape)
        return apply_op("StatelessRandomPoisson", shape=shape, seed=seed, lam=lam, dtype=dtype)


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
    with name_scope(name, "stateless_parameterized_truncated_normal",
                    [shape, means, stddevs, minvals, maxvals]):
        shape = _shape_tensor(shape)
        parameters = {key: convert_to_tensor(value, name=key) for key, value in (
            ("means", means), ("stddevs", stddevs), ("minvals", minvals), ("maxvals", maxvals))}
        return apply_op("StatelessParameterizedTruncatedNormal", shape=shape, seed=seed,
                        **parameters)


def split(seed, num=2, alg="auto_select"):
    seed = convert_to_tensor(seed)
    return stateless_random_uniform(shape=[num, 2], seed=seed, dtype=seed.dtype, minval=None,
                                    maxval=None, alg=alg)


def fold_in(seed, data, alg="auto_select"):
    data = convert_to_tensor(data)
    seed1 = stateless_random_uniform(shape=[], seed=seed, dtype=data.dtype, minval=None,
                                     maxval=None, alg=alg)
    return array_ops.stack([seed1, data])


def index_shuffle(index, seed, max_index):
    seed = convert_to_tensor(seed)
    paddings = [[1, 0]] if seed.shape.ndims is None else \
        [[1, 0]] + (seed.shape.ndims - 1) * [[0, 0]]
    seed = array_ops.pad(seed, paddings, constant_values=498247692)
    return apply_op("RandomIndexShuffle", index=index, seed=seed, max_index=max_index,
                    rounds=4)


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """tf.random_index_shuffle: the raw RandomIndexShuffle op, its seed as given."""
    return apply_op("RandomIndexShuffle", index=index, seed=seed, max_index=max_index,
                    rounds=rounds, name=name)


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """tf.nn.experimental.stateless_dropout: dropout's nodes with stateless uniform noise."""
    from engine.ops.nn_ops import dropout_v2

    def uniform_sampler(shape, dtype):
        return stateless_random_uniform(shape=shape, seed=seed, alg=rng_alg, dtype=dtype)
    return dropout_v2(x, rate, noise_shape=noise_shape, name=name,
                      uniform_sampler=uniform_sampler, default_name="stateless_dropout")


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    with name_scope(name, "stateless_shuffle", [value, seed]):
        key, counter, alg = get_key_counter_alg(seed, alg)
        return apply_op("StatelessShuffle", value=value, key=key, counter=counter, alg=alg)


_STATE_SIZES = {Algorithm.PHILOX.value: 3, Algorithm.THREEFRY.value: 2,
                Algorithm.AUTO_SELECT.value: 3}


def create_rng_state(seed, alg):
    """A 1-D int64 RNG state of the algorithm's size (stateful_random_ops._make_1d_state):
    an integer seed cut into 64-bit words, a vector cut or padded with zeros on the left."""
    alg = convert_alg_to_int(alg)
    if alg not in _STATE_SIZES:
        raise ValueError(unsupported_alg_error_msg(alg))
    state_size = _STATE_SIZES[alg]
    if isinstance(seed, int):
        words = []
        for _ in range(state_size):
            words.append(seed & 0xFFFFFFFFFFFFFFFF)
            seed >>= 64
        seed = words

    def to_int64(n):
        return n - (1 << 64) if isinstance(n, int) and n > 2**63 - 1 else n
    seed = [to_int64(n) for n in seed] if isinstance(seed, (list, tuple)) else seed
    seed = cast(seed, dtypes.int64)
    seed = array_ops.reshape(seed, [-1])
    seed = seed[0:state_size]
    seed_size = seed.shape.as_list()[0] if seed.shape.ndims is not None else None
    if seed_size is None:
        seed_size = shape_of(seed)[0]
    padding_size = math_ops.maximum(state_size - seed_size, 0)
    padding = zeros([padding_size], seed.dtype)
    seed = array_ops.concat([padding, seed], axis=0)
    seed.set_shape([state_size])
    return seed


def _stateless_gamma_grad_alpha(shape, alpha, sample, grad):
    num_sample_dimensions = shape_of(shape)[0] - rank(alpha)
    alpha_broadcastable = _add_leading_unit_dimensions(alpha, num_sample_dimensions)
    partial_a = apply_op("RandomGammaGrad", alpha=alpha_broadcastable, sample=sample)
    return math_ops.reduce_sum(grad * partial_a, axis=math_ops.range(num_sample_dimensions))


@RegisterGradient("StatelessRandomGammaV2")
def _stateless_random_gamma_v2_grad(op, grad):
    shape, _, alpha = op.inputs
    with get_default_graph().control_dependencies([grad]):
        return None, None, _stateless_gamma_grad_alpha(shape, alpha, op.outputs[0], grad)


@RegisterGradient("StatelessRandomGammaV3")
def _stateless_random_gamma_v3_grad(op, grad):
    shape, alpha = op.inputs[0], op.inputs[4]
    with get_default_graph().control_dependencies([grad]):
        return (None, None, None, None,
                _stateless_gamma_grad_alpha(shape, alpha, op.outputs[0], grad))


def _ndtr(x):
    """random_grad._Ndtr: the normal distribution function through erf and erfc."""
    half_sqrt_2 = constant(0.5 * np.sqrt(2.0), dtype=x.dtype, name="half_sqrt_2")
    w = x * half_sqrt_2
    z = math_ops.abs(w)
    y = array_ops.where(z < half_sqrt_2, 1.0 + math_ops.erf(w),
                        array_ops.where(w > 0.0, 2.0 - math_ops.erfc(z), math_ops.erfc(z)))
    return 0.5 * y


@RegisterGradient("StatelessParameterizedTruncatedNormal")
def _stateless_parameterized_truncated_normal_grad(op, grad):
    """Implicit reparameterisation gradients of the sample with respect to the mean, stddev
    and bounds (TensorFlow's random_grad.py)."""
    from engine.ops.distributions import broadcast_dynamic_shape
    from engine.ops.fill_ops import ones_like
    from engine.ops.shape_ops import size
    shape, mean, stddev, minval, maxval = (op.inputs[0], *op.inputs[2:6])
    sample = op.outputs[0]
    with get_default_graph().control_dependencies([grad]):
        minval_std = (minval - mean) / stddev
        maxval_std = (maxval - mean) / stddev
        sample_std = (sample - mean) / stddev
        cdf_sample = (_ndtr(sample_std) - _ndtr(minval_std)) / (
            _ndtr(maxval_std) - _ndtr(minval_std))
        tiny = np.finfo(mean.dtype.as_numpy_dtype).tiny
        eps = np.finfo(mean.dtype.as_numpy_dtype).eps
        cdf_sample = math_ops.clip_by_value(cdf_sample, tiny, 1 - eps)
        dmaxval = math_ops.exp(0.5 * (sample_std ** 2 - maxval_std ** 2)
                               + math_ops.log(cdf_sample))
        dminval = math_ops.exp(0.5 * (sample_std ** 2 - minval_std ** 2)
                               + math_ops.log1p(-cdf_sample))
        dmean = ones_like(sample_std)
        dstddev = sample_std
        shapes = [shape_of(t) for t in (mean, stddev, minval, maxval)]
        broadcast_shape = broadcast_dynamic_shape(shapes[0], shapes[1])
        broadcast_shape = broadcast_dynamic_shape(shapes[2], broadcast_shape)
        broadcast_shape = broadcast_dynamic_shape(shapes[3], broadcast_shape)
        extra_dims = math_ops.range(size(shape) - size(broadcast_shape))
        grads = [math_ops.reduce_sum(grad * d, axis=extra_dims)
                 for d in (dmean, dstddev, dminval, dmaxval)]
        reductions = [apply_op("BroadcastGradientArgs", s0=broadcast_shape, s1=s)[1]
                      for s in shapes]
        return (None, None, *(
            array_ops.reshape(math_ops.reduce_sum(g, axis=r, keepdims=True), s)
            for g, r, s in zip(grads, reductions, shapes)))


for _op in ("StatelessMultinomial", "StatelessRandomBinomial", "StatelessRandomNormal",
            "StatelessRandomPoisson", "StatelessRandomUniform", "StatelessRandomUniformInt",
            "StatelessRandomUniformFullInt", "StatelessTruncatedNormal",
            "StatelessRandomNormalV2", "StatelessRandomUniformV2", "StatelessRandomUniformIntV2",
            "StatelessRandomUniformFullIntV2", "StatelessTruncatedNormalV2",
            "RandomIndexShuffle"):
    NotDifferentiable(_op)
