"""tf.random.Generator, get_global_generator and set_global_generator as TensorFlow 2.21's
stateful_random_ops.py builds them in graph mode: the state is a resource variable
(random_generator/StateVar, int64 [counter..., key]); each draw reserves its outputs with
RngReadAndSkip (the state before, the counter moved on by 256 blocks an output) and feeds the
state's key and counter to the stateless V2 sampler (StatelessRandomUniformV2, NormalV2, ...),
so the values are the stateless kernels' bits; binomial is one StatefulRandomBinomial node.
ThreeFry generators build, and fail when they run, as on TensorFlow's CPU."""

from engine.framework import dtypes
from engine.framework.default_graph import init_scope, name_scope
from engine.ops import array_ops, math_ops
from engine.ops.cast import cast
from engine.ops.convert import convert_to_tensor
from engine.ops.manip_ops import bitcast
from engine.ops.op_def_library import apply_op
from engine.ops.stateless_random_ops import (Algorithm, convert_alg_to_int, create_rng_state,
                                             unsupported_alg_error_msg)
from engine.ops.variables import ResourceVariable, Variable

STATE_TYPE = dtypes.int64
SEED_TYPE = dtypes.int64
DEFAULT_ALGORITHM = Algorithm.PHILOX
_STATE_SIZES = {Algorithm.PHILOX.value: 3, Algorithm.THREEFRY.value: 2,
                Algorithm.AUTO_SELECT.value: 3}
_COUNTER_SIZES = {Algorithm.PHILOX.value: 2, Algorithm.THREEFRY.value: 1,
                  Algorithm.AUTO_SELECT.value: 2}


def _get_state_size(alg):
    if alg not in _STATE_SIZES:
        raise ValueError(unsupported_alg_error_msg(alg))
    return _STATE_SIZES[alg]


def _get_counter_size(alg):
    if alg not in _COUNTER_SIZES:
        raise ValueError(unsupported_alg_error_msg(alg))
    return _COUNTER_SIZES[alg]


def _assert_compatible(shape, expected):
    """TensorShape.assert_is_compatible_with's error, naming `expected` as given (a list)."""
    if not shape.is_compatible_with(expected):
        raise ValueError(f"Shapes {shape} and {expected} are incompatible")


def _check_state_shape(shape, alg):
    if isinstance(alg, int):
        _assert_compatible(shape, [_get_state_size(alg)])


def _uint_to_int(n):
    if isinstance(n, int) and n > 2**63 - 1:
        return n - 2**64
    return n


def _convert_to_state_tensor(t):
    if isinstance(t, (list, tuple)):
        t = [_convert_to_state_tensor_item(item) for item in t]
    else:
        t = _uint_to_int(t)
    return cast(t, STATE_TYPE)


def _convert_to_state_tensor_item(item):
    if isinstance(item, (list, tuple)):
        return [_convert_to_state_tensor_item(i) for i in item]
    return _uint_to_int(item)


def _shape_tensor(shape):
    dtype = dtypes.int64 if isinstance(shape, (tuple, list)) and not shape else None
    return convert_to_tensor(shape, dtype=dtype, name="shape")


def non_deterministic_ints(shape, dtype=dtypes.int64):
    """Integers from the OS's entropy (NonDeterministicInts): different every run."""
    return apply_op("NonDeterministicInts", shape=shape, dtype=dtype)


class Generator:
    """A random number generator whose state is a resource variable (tf.random.Generator)."""

    @classmethod
    def from_state(cls, state, alg):
        return cls(alg=alg, state=state)

    @classmethod
    def from_seed(cls, seed, alg=None):
        if alg is None:
            alg = DEFAULT_ALGORITHM
        alg = convert_alg_to_int(alg)
        state = create_rng_state(seed, alg)
        return cls(state=state, alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        if alg is None:
            alg = DEFAULT_ALGORITHM
        alg = convert_alg_to_int(alg)
        state = non_deterministic_ints(shape=[_get_state_size(alg)], dtype=SEED_TYPE)
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = _convert_to_state_tensor(counter)
        key = _convert_to_state_tensor(key)
        alg = convert_alg_to_int(alg)
        _assert_compatible(counter.shape, [_get_state_size(alg) - 1])
        _assert_compatible(key.shape, [])
        key = array_ops.reshape(key, [1])
        state = array_ops.concat([counter, key], 0)
        return cls(state=state, alg=alg)

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            assert (alg or state) is None
            self._state_var = self._create_variable(copy_from.state, dtype=STATE_TYPE,
                                                    trainable=False)
            self._alg = copy_from.algorithm
        else:
            assert alg is not None and state is not None
            alg = convert_alg_to_int(alg)
            if isinstance(state, Variable):
                _check_state_shape(state.shape, alg)
                self._state_var = state
            else:
                state = _convert_to_state_tensor(state)
                _check_state_shape(state.shape, alg)
                self._state_var = self._create_variable(state, dtype=STATE_TYPE,
                                                        trainable=False)
            self._alg = alg

    @staticmethod
    def _create_variable(initial_value, dtype, trainable):
        with name_scope("random_generator"):
            return ResourceVariable(initial_value, dtype=dtype, trainable=trainable,
                                    name="StateVar")

    def reset(self, state):
        state = _convert_to_state_tensor(state)
        _assert_compatible(state.shape, [_get_state_size(self.algorithm)])
        self._state_var.assign(state)

    def reset_from_seed(self, seed):
        state = create_rng_state(seed, self.algorithm)
        self._state_var.assign(state)

    def reset_from_key_counter(self, key, counter):
        counter = _convert_to_state_tensor(counter)
        key = _convert_to_state_tensor(key)
        _assert_compatible(counter.shape, [_get_state_size(self.algorithm) - 1])
        _assert_compatible(key.shape, [])
        key = array_ops.reshape(key, [1])
        state = array_ops.concat([counter, key], 0)
        self._state_var.assign(state)

    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        if self.algorithm in (a.value for a in Algorithm):
            return self._state_var[-1]
        raise ValueError(unsupported_alg_error_msg(self.algorithm))

    def skip(self, delta):
        """RngReadAndSkip: the state before, the counter moved on by `delta` outputs."""
        return apply_op("RngReadAndSkip", resource=self.state.handle,
                        alg=cast(self.algorithm, dtypes.int32),
                        delta=cast(delta, dtypes.uint64))

    def _prepare_key_counter(self, shape):
        delta = math_ops.reduce_prod(shape)
        counter_key = self.skip(delta)
        counter_size = _get_counter_size(self.algorithm)
        counter = bitcast(counter_key[:counter_size], dtypes.uint64)
        key = bitcast(counter_key[counter_size:counter_size + 1], dtypes.uint64)
        return key, counter

    def _stateless(self, op, shape, dtype, name=None, **inputs):
        key, counter = self._prepare_key_counter(shape)
        return apply_op(op, shape=shape, key=key, counter=counter, alg=self.algorithm,
                        dtype=dtype, name=name, **inputs)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        with name_scope(name, "stateful_normal", [shape, mean, stddev]) as name:
            shape = _shape_tensor(shape)
            mean = convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
            rnd = self._stateless("StatelessRandomNormalV2", shape, dtype)
            return math_ops.add(rnd * stddev, mean, name=name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        with name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
            shape_tensor = _shape_tensor(shape)
            mean_tensor = convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev_tensor = convert_to_tensor(stddev, dtype=dtype, name="stddev")
            rnd = self._stateless("StatelessTruncatedNormalV2", shape_tensor, dtype)
            return math_ops.add(rnd * stddev_tensor, mean_tensor, name=name)

    def _uniform_full_int(self, shape, dtype, name=None):
        return self._stateless("StatelessRandomUniformFullIntV2", shape, dtype, name=name)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dtype}, minval and maxval must be both "
                                 f"`None` or both non-`None`; got minval={minval} and "
                                 f"maxval={maxval}")
        elif maxval is None:
            maxval = 1
        with name_scope(name, "stateful_uniform", [shape, minval, maxval]) as name:
            shape = _shape_tensor(shape)
            if dtype.is_integer and minval is None:
                return self._uniform_full_int(shape=shape, dtype=dtype, name=name)
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
            if dtype.is_integer:
                key, counter = self._prepare_key_counter(shape)
                return apply_op("StatelessRandomUniformIntV2", shape=shape, key=key,
                                counter=counter, minval=minval, maxval=maxval,
                                alg=self.algorithm, name=name)
            rnd = self._stateless("StatelessRandomUniformV2", shape, dtype)
            return math_ops.add(rnd * (maxval - minval), minval, name=name)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        dtype = dtypes.as_dtype(dtype)
        with name_scope(name, "stateful_uniform_full_int", [shape]) as name:
            shape = _shape_tensor(shape)
            return self._uniform_full_int(shape=shape, dtype=dtype, name=name)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        dtype = dtypes.as_dtype(dtype)
        with name_scope(name, "binomial", [shape, counts, probs]) as name:
            counts = convert_to_tensor(counts, name="counts")
            probs = convert_to_tensor(probs, name="probs")
            shape_tensor = _shape_tensor(shape)
            return apply_op("StatefulRandomBinomial", resource=self.state.handle,
                            algorithm=self.algorithm, shape=shape_tensor, counts=counts,
                            probs=probs, dtype=dtype, name=name)

    def _make_int64_keys(self, shape=()):
        return self.uniform_full_int(shape=shape, dtype=dtypes.int64)

    def make_seeds(self, count=1):
        if self.algorithm in (a.value for a in Algorithm):
            keys = self._make_int64_keys(shape=[count])
            zeros = array_ops.zeros_like(keys)
            return array_ops.stack([keys, zeros])
        raise ValueError(unsupported_alg_error_msg(self.algorithm))

    def split(self, count=1):
        """New generators keyed by this one's draws. In graph mode TensorFlow's fails making
        their variables (an initial value read from this generator's own variable), with a
        bare NotImplementedError, as here."""
        if self.algorithm not in (a.value for a in Algorithm):
            raise ValueError(unsupported_alg_error_msg(self.algorithm))
        keys = self._make_int64_keys(shape=[count])
        array_ops.unstack(keys, num=count)
        raise NotImplementedError


_global_generator = None


def get_global_generator():
    """The process's generator, made from the OS's entropy on first use (in the graph of
    that use, as TensorFlow's)."""
    global _global_generator
    if _global_generator is None:
        with init_scope():
            _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator):
    global _global_generator
    _global_generator = generator


