"""tf.random's stateless samplers, fold_in, split and stateless_shuffle, built the same way by
real TensorFlow (tf.compat.v1) and the engine: values (several seeds, int32 and int64, odd
sizes that end inside a Philox block), static shapes, graph nodes, the stateless gamma's
gradient, and the kernels' errors through tf.raw_ops. tools/make_stateless_random_fixtures.py
writes TensorFlow's to tests/fixtures/stateless_random/; tests/engine/test_stateless_random.py
compares the engine's."""

import numpy as np

_R = np.random.RandomState(5)
LOGITS = _R.normal(size=(3, 6)).astype(np.float32)
LOGITS[1, 4] = -np.inf
SEEDS = ([1, 2], [-7, 12345], [2**31 - 1, -2**31])


def _uniform(tf):
    out = {}
    for i, seed in enumerate(SEEDS):
        out[f"f32_{i}"] = tf.random.stateless_uniform([7], seed=seed)
    out["f32_2x5"] = tf.random.stateless_uniform([2, 5], seed=[3, 4], minval=-2.0, maxval=3.0)
    out["f32_scalar"] = tf.random.stateless_uniform([], seed=[3, 4])
    out["f32_empty"] = tf.random.stateless_uniform([0, 3], seed=[3, 4])
    out["f64_5"] = tf.random.stateless_uniform([5], seed=[9, 8], dtype=tf.float64)
    out["f64_3x3"] = tf.random.stateless_uniform([3, 3], seed=[-1, -1], dtype=tf.float64,
                                                 minval=1.0, maxval=1.5)
    out["f16_9"] = tf.random.stateless_uniform([9], seed=[5, 6], dtype=tf.float16)
    out["int64_seed"] = tf.random.stateless_uniform(
        [6], seed=tf.constant([2**40 + 3, -5], tf.int64))
    out["large"] = tf.random.stateless_uniform([1029], seed=[11, 12])
    out["alg_enum"] = tf.random.stateless_uniform([3], seed=[1, 2],
                                                  alg=tf.random.Algorithm.AUTO_SELECT)
    out["alg_philox"] = tf.random.stateless_uniform([5], seed=[1, 2], alg="philox")
    out["alg_philox_int64"] = tf.random.stateless_normal(
        [3], seed=tf.constant([-4, 2**33], tf.int64), alg=tf.random.Algorithm.PHILOX)
    return out


def _integers(tf):
    return {
        "int32_range": tf.random.stateless_uniform([11], seed=[1, 2], minval=-5, maxval=17,
                                                   dtype=tf.int32),
        "int64_range": tf.random.stateless_uniform([7], seed=[3, 2], minval=-2**40,
                                                   maxval=2**41, dtype=tf.int64),
        "int32_full": tf.random.stateless_uniform([5], seed=[1, 2], minval=None, maxval=None,
                                                  dtype=tf.int32),
        "int64_full": tf.random.stateless_uniform([5], seed=[1, 2], minval=None, maxval=None,
                                                  dtype=tf.int64),
        "uint32_full": tf.random.stateless_uniform([6], seed=[4, 2], minval=None, maxval=None,
                                                   dtype=tf.uint32),
        "uint64_full": tf.random.stateless_uniform([3], seed=[4, 2], minval=None, maxval=None,
                                                   dtype=tf.uint64),
    }


def _normal(tf):
    return {
        "f32_7": tf.random.stateless_normal([7], seed=[1, 2]),
        "f32_4x3": tf.random.stateless_normal([4, 3], seed=[-3, 8], mean=2.0, stddev=0.5),
        "f64_5": tf.random.stateless_normal([5], seed=[1, 2], dtype=tf.float64),
        "f16_6": tf.random.stateless_normal([6], seed=[7, 7], dtype=tf.float16),
        "int64_seed": tf.random.stateless_normal([3], seed=tf.constant([-9, 2**35], tf.int64)),
        # 2050 Box-Muller pairs: glibc's logf, sinf and cosf through the compiled kernel
        "f32_4099": tf.random.stateless_normal([4099], seed=[21, 22]),
    }


def _truncated_normal(tf):
    return {
        "f32_9": tf.random.stateless_truncated_normal([9], seed=[1, 2]),
        "f32_30": tf.random.stateless_truncated_normal([5, 6], seed=[3, 1], stddev=2.0),
        "f64_5": tf.random.stateless_truncated_normal([5], seed=[1, 2], dtype=tf.float64),
        "f16_3": tf.random.stateless_truncated_normal([3], seed=[4, 4], dtype=tf.float16),
    }


def _categorical(tf):
    logits = tf.constant(LOGITS)
    return {"int64": tf.random.stateless_categorical(logits, 7, seed=[1, 2]),
            "int32": tf.random.stateless_categorical(logits * 2.0, 5, seed=[3, -4],
                                                     dtype=tf.int32),
            "multinomial": tf.random.stateless_multinomial(
                tf.constant(LOGITS.astype(np.float64)), 4, seed=[5, 6])}


def _binomial(tf):
    return {
        "f32": tf.random.stateless_binomial([5, 4], seed=[1, 2],
                                            counts=[10.0, 20.0, 100.0, 7.0],
                                            probs=[0.3, 0.8, 0.05, 0.99]),
        "f64_broadcast": tf.random.stateless_binomial(
            [2, 3, 2], seed=[7, 3], counts=tf.constant([[50.0], [5.0], [0.0]], tf.float64),
            probs=tf.constant([0.5, 0.1], tf.float64), output_dtype=tf.float32),
        "int64": tf.random.stateless_binomial([6], seed=[3, 3], counts=1000.0, probs=0.7,
                                              output_dtype=tf.int64),
        "float16": tf.random.stateless_binomial(
            [8, 2], seed=[2, 8], counts=tf.constant([30.0, 4.0], tf.float16),
            probs=tf.constant([0.4, 0.6], tf.float16), output_dtype=tf.float16),
    }


def _gamma(tf):
    alpha = tf.constant([0.5, 1.0, 2.5, 7.0], name="alpha")
    sample = tf.random.stateless_gamma([5, 4], seed=[1, 2], alpha=alpha)
    wide = tf.random.stateless_gamma([3, 2, 2], seed=[4, 5],
                                     alpha=tf.constant([[0.25], [3.0]], tf.float64),
                                     beta=tf.constant([1.0, 2.0], tf.float64),
                                     dtype=tf.float64)
    half = tf.random.stateless_gamma([40], seed=[6, 1], alpha=tf.constant(0.3, tf.float16),
                                     dtype=tf.float16)
    return {"float32": sample, "float64": wide, "float16": half,
            "grad_alpha": tf.gradients(tf.reduce_sum(sample), alpha)[0]}


def _poisson(tf):
    lam = tf.constant([0.5, 3.0, 12.0, 150.0])
    return {"int32": tf.random.stateless_poisson([6, 4], seed=[1, 2], lam=lam),
            "float32": tf.random.stateless_poisson([3, 4], seed=[2, 1], lam=lam,
                                                   dtype=tf.float32),
            "float16": tf.random.stateless_poisson([20], seed=[9, 9],
                                                   lam=tf.constant(6.5, tf.float16),
                                                   dtype=tf.float16),
            "int64_f64": tf.random.stateless_poisson(
                [3, 2], seed=[5, 5], lam=tf.constant([4.0, 40.0], tf.float64),
                dtype=tf.int64)}


def _seeds(tf):
    return {"split": tf.random.split([1, 2], num=3),
            "split_int64": tf.random.split(tf.constant([-3, 2**40], tf.int64)),
            "fold_in": tf.random.fold_in([1, 2], 3),
            "split_philox": tf.random.split([3, 4], num=2, alg="philox"),
            "fold_in_int64": tf.random.experimental.stateless_fold_in(
                tf.constant([5, 6], tf.int64), tf.constant(2**33, tf.int64)),
            "stateless_split": tf.random.experimental.stateless_split([7, 8], num=2),
            "rng_state_int": tf.random.create_rng_state(1234, "philox"),
            "rng_state_list": tf.random.create_rng_state([12, 34], "threefry"),
            "rng_state_long": tf.random.create_rng_state(2**70 + 5, tf.random.Algorithm.PHILOX)}


def _shuffle(tf):
    return {"rows": tf.random.experimental.stateless_shuffle(
                tf.constant(np.arange(14).reshape(7, 2)), seed=[8, 9]),
            "vector": tf.random.experimental.stateless_shuffle(
                tf.constant(np.arange(10.0)), seed=[1, 2]),
            "one_row": tf.random.experimental.stateless_shuffle(tf.constant([[3, 4]]),
                                                                seed=[1, 2])}


def _index_shuffle(tf):
    shuffle = tf.random.experimental.index_shuffle
    return {"range": shuffle(tf.range(10), seed=[5, 9], max_index=9),
            "scalar": shuffle(3, seed=[5, 9], max_index=3),
            "int64_wide": shuffle(tf.constant([0, 1, 2, 70000, 99999], tf.int64),
                                  seed=tf.constant([-3, 2**40], tf.int64),
                                  max_index=tf.constant(100000, tf.int64)),
            "huge": shuffle(tf.constant([5, 2**45], tf.int64), seed=[1, 2],
                            max_index=tf.constant(2**62 + 7, tf.int64)),
            "batched_seeds": tf.raw_ops.RandomIndexShuffle(
                index=tf.constant([1, 2, 3]), seed=tf.constant([[1, 2, 3], [3, 4, 5], [5, 6, 7]]),
                max_index=tf.constant([4, 40, 400])),
            "uint32": shuffle(tf.constant([7, 8], tf.uint32), seed=[7, 7],
                              max_index=tf.constant(20, tf.uint32)),
            "max_zero": shuffle(0, seed=[1, 1], max_index=0)}


def _parameterized_truncated_normal(tf):
    sample = tf.random.stateless_parameterized_truncated_normal
    # per column: the normal sampler (the mean inside, wide bounds), the uniform one (narrow
    # bounds), the exponential one (a far lower tail), and a lower one flipped (-inf, -3]
    means = tf.constant([0.0, 1.0, 0.0, 0.0], name="means")
    stddevs = tf.constant([1.0, 0.5, 1.0, 2.0], name="stddevs")
    minvals = tf.constant([-2.0, 0.75, 3.0, -np.inf], name="minvals")
    maxvals = tf.constant([2.0, 1.25, np.inf, -6.0], name="maxvals")
    draws = sample([5, 4], seed=[1, 2], means=means, stddevs=stddevs, minvals=minvals,
                   maxvals=maxvals)
    grads = tf.gradients(tf.reduce_sum(draws * draws), [means, stddevs, minvals, maxvals])
    return {"float32": draws, "grad_means": grads[0], "grad_stddevs": grads[1],
            "grad_minvals": grads[2], "grad_maxvals": grads[3],
            "default_bounds": sample([7], seed=[3, 4]),
            "float64": sample([3, 2], seed=[5, 6], means=tf.constant([0.0, 2.0], tf.float64),
                              stddevs=tf.constant(1.5, tf.float64),
                              minvals=tf.constant([-1.0, 4.0], tf.float64),
                              maxvals=tf.constant(np.inf, tf.float64)),
            "float16": sample([6], seed=[7, 8], means=tf.constant(0.5, tf.float16),
                              stddevs=tf.constant(1.0, tf.float16),
                              minvals=tf.constant(0.0, tf.float16),
                              maxvals=tf.constant(1.0, tf.float16))}


def _parameterized_sharded(tf):
    # enough outputs that TensorFlow's Shard cuts them over two threads (each piece's stream
    # skipped to start * 2000 / k blocks): where a piece ends follows the type's cost
    sample = tf.random.stateless_parameterized_truncated_normal
    return {"float32": sample([1500], seed=[1, 2]),
            "float64": sample([1100], seed=[3, 2], means=tf.constant(1.0, tf.float64),
                              stddevs=tf.constant(0.5, tf.float64),
                              minvals=tf.constant(0.9, tf.float64),
                              maxvals=tf.constant(1.1, tf.float64))}


def _stateless_dropout(tf):
    x = tf.constant(np.linspace(-1.0, 2.0, 24, dtype=np.float32).reshape(4, 6))
    dropout = tf.nn.experimental.stateless_dropout
    return {"rate": dropout(x, 0.4, seed=[1, 2]),
            "rate_tensor": dropout(tf.cast(x, tf.float64), tf.constant(0.25, tf.float64),
                                   seed=[3, 4]),
            "noise_shape": dropout(x, 0.5, seed=[5, 6], noise_shape=[4, 1], name="drop"),
            "philox": dropout(x, 0.3, seed=[7, 8], rng_alg="philox")}


def _bitwise(tf):
    raw = tf.raw_ops
    x = tf.constant([1, -1, 5, 7, -16], tf.int32)
    counts = tf.constant([3, 40, -2, 31, 2], tf.int32)
    wide = tf.constant([2**40 + 3, -9, 12345], tf.int64)
    return {"left_shift": raw.LeftShift(x=x, y=counts),
            "right_shift": raw.RightShift(x=x, y=counts),
            "left_shift_uint64": raw.LeftShift(x=tf.constant([1, 3], tf.uint64),
                                               y=tf.constant([63, 64], tf.uint64)),
            "right_shift_uint8": raw.RightShift(x=tf.constant([200, 7], tf.uint8),
                                                y=tf.constant([3, 9], tf.uint8)),
            "and": raw.BitwiseAnd(x=wide, y=tf.constant(0xFFFF, tf.int64)),
            "or": raw.BitwiseOr(x=wide, y=tf.constant([1, 2, 4], tf.int64)),
            "xor": raw.BitwiseXor(x=tf.constant([[3], [5]], tf.uint16),
                                  y=tf.constant([1, 6, 65535], tf.uint16))}


def _raw_ops(tf):
    seed = tf.constant([3, 4])
    raw = tf.raw_ops
    alpha = tf.constant([0.7, 4.0], name="alpha")
    gamma_v2 = raw.StatelessRandomGammaV2(shape=[3, 2], seed=seed, alpha=alpha)
    return {
        "uniform": raw.StatelessRandomUniform(shape=[5], seed=seed, dtype=tf.float32),
        "normal": raw.StatelessRandomNormal(shape=[2, 3], seed=seed, dtype=tf.float64),
        "truncated": raw.StatelessTruncatedNormal(shape=[6], seed=seed, dtype=tf.float32),
        "int": raw.StatelessRandomUniformInt(shape=[5], seed=seed, minval=tf.constant(3),
                                             maxval=tf.constant(9)),
        "full_int": raw.StatelessRandomUniformFullInt(shape=[3], seed=seed, dtype=tf.int64),
        "gamma_v2": gamma_v2,
        "gamma_v2_grad": tf.gradients(tf.reduce_sum(gamma_v2 * gamma_v2), alpha)[0],
        "key_counter_alg": raw.StatelessRandomGetKeyCounterAlg(seed=seed),
        "alg": raw.StatelessRandomGetAlg(),
    }


CASES = {"uniform": _uniform, "integers": _integers, "normal": _normal,
         "truncated_normal": _truncated_normal, "categorical": _categorical,
         "binomial": _binomial, "gamma": _gamma, "poisson": _poisson, "seeds": _seeds,
         "shuffle": _shuffle, "index_shuffle": _index_shuffle,
         "parameterized_truncated_normal": _parameterized_truncated_normal,
         "parameterized_sharded": _parameterized_sharded,
         "stateless_dropout": _stateless_dropout, "bitwise": _bitwise,
         "raw_ops": _raw_ops}


def _flat(fetches):
    flat = {}
    for key, value in fetches.items():
        if isinstance(value, (list, tuple)):
            flat.update({f"{key}_{i}": v for i, v in enumerate(value)})
        else:
            flat[key] = value
    return flat


def build_case(tf, name):
    return _flat(CASES[name](tf))


def run_case(tf, name):
    """({key: value}, {key: static shape}) of case `name`, run in one session of two intra-op
    threads (the parameterized truncated normal's pieces follow the thread count)."""
    with tf.Graph().as_default():
        fetches = build_case(tf, name)
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2)) as sess:
            values = sess.run(fetches)
        shapes = {key: (t.shape.as_list() if t.shape.ndims is not None else None)
                  for key, t in fetches.items()}
    return values, shapes


_KEY = np.array([7], np.uint64)
_COUNTER = np.array([0, 9], np.uint64)
_ALG = np.array(1, np.int32)
_V2 = dict(shape=np.array([3], np.int32), key=_KEY, counter=_COUNTER, alg=_ALG)
_SEED = np.array([1, 2], np.int32)
# Kernels that fail at run time: (raw op, inputs, attrs); the message is TensorFlow's.
ERROR_CASES = {
    "seed_three": ("StatelessRandomUniform", dict(shape=np.array([3], np.int32),
                                                  seed=np.array([1, 2, 3], np.int32)),
                   dict(dtype="float32")),
    "seed_matrix": ("StatelessRandomNormal", dict(shape=np.array([3], np.int32),
                                                  seed=np.ones((2, 2), np.int64)),
                    dict(dtype="float32")),
    "negative_dim": ("StatelessRandomUniform", dict(shape=np.array([2, -1], np.int32),
                                                    seed=_SEED), dict(dtype="float32")),
    "shape_matrix": ("StatelessRandomUniform", dict(shape=np.ones((2, 2), np.int32),
                                                    seed=_SEED), dict(dtype="float32")),
    "key_counter_seed": ("StatelessRandomGetKeyCounter", dict(seed=np.array([1], np.int32)),
                         {}),
    "key_two": ("StatelessRandomUniformV2", dict(_V2, key=np.array([1, 2], np.uint64)),
                dict(dtype="float32")),
    "counter_matrix": ("StatelessRandomNormalV2",
                       dict(_V2, counter=np.zeros((2, 2), np.uint64)), dict(dtype="float32")),
    "alg_threefry": ("StatelessRandomUniformV2", dict(_V2, alg=np.array(2, np.int32)),
                     dict(dtype="float32")),
    "alg_unknown": ("StatelessTruncatedNormalV2", dict(_V2, alg=np.array(7, np.int32)),
                    dict(dtype="float32")),
    "alg_vector": ("StatelessRandomUniformV2", dict(_V2, alg=np.array([1], np.int32)),
                   dict(dtype="float32")),
    "int_min_max": ("StatelessRandomUniformIntV2",
                    dict(_V2, minval=np.array(5, np.int32), maxval=np.array(5, np.int32)), {}),
    "int_min_vector": ("StatelessRandomUniformInt",
                       dict(shape=np.array([3], np.int32), seed=_SEED,
                            minval=np.array([1, 2], np.int64), maxval=np.array(5, np.int64)),
                       {}),
    "gamma_shape": ("StatelessRandomGammaV2",
                    dict(shape=np.array([3, 2], np.int32), seed=_SEED,
                         alpha=np.array([1.0, 2.0, 3.0], np.float32)), {}),
    "poisson_shape": ("StatelessRandomPoisson",
                      dict(shape=np.array([4], np.int32), seed=_SEED,
                           lam=np.array([1.0, 2.0], np.float32)), dict(dtype="int32")),
    "binomial_shape": ("StatelessRandomBinomial",
                       dict(shape=np.array([4, 3], np.int32), seed=_SEED,
                            counts=np.array([5.0, 6.0], np.float32),
                            probs=np.array([0.5, 0.5], np.float32)), {}),
    "binomial_broadcast": ("StatelessRandomBinomial",
                           dict(shape=np.array([4, 3], np.int32), seed=_SEED,
                                counts=np.array([5.0, 6.0, 7.0], np.float32),
                                probs=np.array([0.5, 0.5], np.float32)), {}),
    "binomial_seed": ("StatelessRandomBinomial",
                      dict(shape=np.array([2], np.int32), seed=np.array([1], np.int32),
                           counts=np.array([5.0, 6.0], np.float32),
                           probs=np.array([0.5, 0.5], np.float32)), {}),
    "multinomial_seed": ("StatelessMultinomial",
                         dict(logits=LOGITS, num_samples=np.array(3, np.int32),
                              seed=np.array([1, 2, 3], np.int64)), {}),
    "multinomial_logits": ("StatelessMultinomial",
                           dict(logits=LOGITS[0], num_samples=np.array(3, np.int32),
                                seed=_SEED), {}),
    "index_shuffle_seed": ("RandomIndexShuffle",
                           dict(index=np.array(1, np.int64), seed=np.ones(4, np.int64),
                                max_index=np.array(9, np.int64)), {}),
    "index_shuffle_index": ("RandomIndexShuffle",
                            dict(index=np.ones((2, 2), np.int32), seed=np.ones(3, np.int32),
                                 max_index=np.array(9, np.int32)), {}),
    "index_shuffle_max": ("RandomIndexShuffle",
                          dict(index=np.array(1, np.int32), seed=np.ones(3, np.int32),
                               max_index=np.ones((2, 2), np.int32)), {}),
    "parameterized_invalid": ("StatelessParameterizedTruncatedNormal",
                              dict(shape=np.array([2], np.int32), seed=_SEED,
                                   means=np.float32(0), stddevs=np.float32(-1),
                                   minvals=np.float32(-1), maxvals=np.float32(1)), {}),
    "parameterized_shape": ("StatelessParameterizedTruncatedNormal",
                            dict(shape=np.array([2], np.int32), seed=_SEED,
                                 means=np.zeros(3, np.float32), stddevs=np.float32(1),
                                 minvals=np.float32(-1), maxvals=np.float32(1)), {}),
    "parameterized_broadcast": ("StatelessParameterizedTruncatedNormal",
                                dict(shape=np.array([2], np.int32), seed=_SEED,
                                     means=np.zeros(3, np.float32),
                                     stddevs=np.ones(2, np.float32),
                                     minvals=np.float32(-1), maxvals=np.float32(1)), {}),
    "shuffle_key": ("StatelessShuffle", dict(value=np.arange(4.0), key=np.array([], np.uint64),
                                             counter=_COUNTER, alg=_ALG), {}),
}


# Graphs the API builds that fail when run: (API, builder of the fetch, None).
ERROR_CASES["threefry_on_cpu"] = ("API", lambda tf: tf.random.stateless_uniform(
    [2], seed=[1, 2], alg="threefry"), None)


def run_error_case(tf, name):
    """(error class, kernel message) running ERROR_CASES[name]'s raw op on fed inputs of
    unknown shape, so that only the kernel can fail (or the API's graph, run)."""
    import image_cases
    op, values, attrs = ERROR_CASES[name]
    if op == "API":
        with tf.Graph().as_default():
            fetch = values(tf)
            with tf.Session() as sess:
                try:
                    sess.run(fetch)
                except tf.errors.OpError as error:
                    return type(error).__name__, image_cases.kernel_message(error.message)
        raise AssertionError(f"{name}: no error")
    attrs = {key: tf.as_dtype(value) if key == "dtype" else value
             for key, value in attrs.items()}
    return image_cases.run_error_case(tf, name, {name: (op, values, attrs)})


def _api_errors(tf):
    return {
        "uniform_int_one_bound": lambda: tf.random.stateless_uniform(
            [2], seed=[1, 2], maxval=5, minval=None, dtype=tf.int32),
        "uniform_unsigned_range": lambda: tf.random.stateless_uniform(
            [2], seed=[1, 2], minval=1, maxval=5, dtype=tf.uint32),
        "uniform_bool": lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.bool),
        "categorical_float_dtype": lambda: tf.random.stateless_categorical(
            [[1.0, 2.0]], 2, seed=[1, 2], dtype=tf.float32),
        "alg_name": lambda: tf.random.stateless_normal([2], seed=[1, 2], alg="mersenne"),
        "alg_int": lambda: tf.random.stateless_normal([2], seed=[1, 2], alg=9),
        "alg_type": lambda: tf.random.stateless_normal([2], seed=[1, 2], alg=1.5),
        "seed_of_three": lambda: tf.random.stateless_uniform([2], seed=[1, 2, 3]),
        "seed_matrix": lambda: tf.random.stateless_uniform([2], seed=[[1, 2]]),
        "raw_seed_of_three": lambda: tf.raw_ops.StatelessRandomNormal(shape=[2],
                                                                      seed=[1, 2, 3]),
        "categorical_seed": lambda: tf.random.stateless_categorical([[1.0, 2.0]], 3,
                                                                    seed=[1]),
        "seed_of_floats": lambda: tf.random.stateless_uniform([2], seed=[1.0, 2.0]),
        "dropout_rate_dtype": lambda: tf.nn.experimental.stateless_dropout(
            tf.constant([1.0, 2.0], tf.float64), tf.constant(0.5), seed=[1, 2]),
        "dropout_rate_one": lambda: tf.nn.experimental.stateless_dropout(
            tf.constant([1.0, 2.0]), 1.0, seed=[1, 2]),
    }


API_ERROR_CASES = ("uniform_int_one_bound", "uniform_unsigned_range", "uniform_bool",
                   "categorical_float_dtype", "alg_name", "alg_int", "alg_type",
                   "seed_of_three", "seed_matrix", "raw_seed_of_three", "categorical_seed",
                   "seed_of_floats", "dropout_rate_dtype", "dropout_rate_one")


def run_api_error_case(tf, name):
    """(exception class, message) of the Python-level error case `name`."""
    with tf.Graph().as_default():
        try:
            _api_errors(tf)[name]()
        except (ValueError, TypeError) as error:
            # a shape function's words, without TensorFlow's " for '{{node ...}}" suffix; the
            # engine's ShapeError is a ValueError
            kind = "ValueError" if isinstance(error, ValueError) else type(error).__name__
            return kind, str(error).split(" for '{{node ")[0]
    raise AssertionError(f"{name}: no error")
