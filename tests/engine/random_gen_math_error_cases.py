"""The error cases of tests/engine/random_gen_math_cases.py: graphs that fail when they run
(ERROR_CASES, TensorFlow's class and the kernel's words), Python-level errors while they are
built (API_ERROR_CASES), and the structure of what cannot be compared value for value
(FFTND's missing gradient, Generator.split in graph mode, the global and non-deterministic
generators)."""

import numpy as np

import random_gen_math_cases as cases

# Graphs that fail when they run: the message's first line of the kernel's words.
ERROR_CASES = {
    "approx_min_k": lambda tf: tf.math.approx_min_k(cases.TOPK_X, 2),
    "approx_max_k_dim0": lambda tf: tf.nn.approx_max_k(cases.TOPK_X, 2, reduction_dimension=0),
    "fftnd": lambda tf: tf.signal.fftnd(np.ones((2, 3), np.complex64)),
    "ifftnd": lambda tf: tf.signal.ifftnd(np.ones((2, 3), np.complex128)),
    "rfftnd": lambda tf: tf.signal.rfftnd(np.ones((2, 3), np.float32)),
    "irfftnd": lambda tf: tf.signal.irfftnd(np.ones((2, 3), np.complex64)),
    "generator_threefry": lambda tf: _initialized(
        tf, tf.random.Generator.from_seed(1, alg="threefry")).uniform([2]),
    "generator_uninitialized": lambda tf: tf.random.Generator.from_seed(1).normal([2]),
    "rng_state_size": lambda tf: tf.raw_ops.RngReadAndSkip(
        resource=_state_variable(tf, [1, 2]).handle, alg=1, delta=tf.constant(1, tf.uint64)),
    "rng_state_dtype": lambda tf: tf.raw_ops.RngReadAndSkip(
        resource=_state_variable(tf, [1.0, 2.0, 3.0], tf.float32).handle, alg=1,
        delta=tf.constant(1, tf.uint64)),
    "rng_state_rank": lambda tf: tf.raw_ops.RngReadAndSkip(
        resource=_state_variable(tf, [[1, 2, 3]]).handle, alg=1,
        delta=tf.constant(1, tf.uint64)),
    "rng_alg": lambda tf: tf.raw_ops.RngReadAndSkip(
        resource=_state_variable(tf, [1, 2, 3]).handle, alg=7,
        delta=tf.constant(1, tf.uint64)),
    "binomial_alg": lambda tf: tf.raw_ops.StatefulRandomBinomial(
        resource=_state_variable(tf, [1, 2, 3]).handle, algorithm=2, shape=[2], counts=5.0,
        probs=0.5),
    "binomial_shape": lambda tf: tf.raw_ops.StatefulRandomBinomial(
        resource=_state_variable(tf, [1, 2, 3]).handle, algorithm=1, shape=[2],
        counts=[5.0, 1.0, 3.0], probs=0.5),
    "binomial_state_size": lambda tf: tf.raw_ops.StatefulRandomBinomial(
        resource=_state_variable(tf, [1, 2]).handle, algorithm=1, shape=[2], counts=5.0,
        probs=0.5),
    "stateful_uniform_int_range": lambda tf: tf.raw_ops.StatefulUniformInt(
        resource=_state_variable(tf, [1, 2, 3]).handle, algorithm=1, shape=[2], minval=4,
        maxval=4),
    "fprint_matrix": lambda tf: tf.train.sdca_fprint(
        tf.placeholder_with_default(np.array([[b"a"]], object), None)),
    "shrink_uninitialized": lambda tf: tf.train.sdca_shrink_l1([tf.Variable([1.0])], 0.1, 1.0),
    "sobol_dim_zero": lambda tf: tf.math.sobol_sample(
        tf.placeholder_with_default(0, None), 2),
    "sobol_dim_big": lambda tf: tf.math.sobol_sample(
        tf.placeholder_with_default(21201, None), 2),
    "sobol_results": lambda tf: tf.math.sobol_sample(
        2, tf.placeholder_with_default(0, None)),
    "sobol_skip": lambda tf: tf.math.sobol_sample(
        2, 3, tf.placeholder_with_default(-1, None)),
    "sobol_overflow": lambda tf: tf.math.sobol_sample(
        2, 3, tf.placeholder_with_default(2**31 - 4, None)),
    "sobol_dim_vector": lambda tf: tf.math.sobol_sample(
        tf.placeholder_with_default([2], None), 3),
    "sdca_label": lambda tf: cases._sdca_problem(tf, "logistic_loss", label=0.5),
    "sdca_poisson_label": lambda tf: cases._sdca_problem(tf, "poisson_loss", label=-1.0),
    "sdca_state_shape": lambda tf: tf.train.sdca_optimizer(
        [], [], [], [tf.zeros([1, 1])], tf.constant([1.0]), tf.constant([1.0]), [], [],
        [tf.zeros([1])], tf.placeholder_with_default(np.zeros((2, 4), np.float32), None),
        "squared_loss", 0.0, 1.0, 1, 1),
    "sdca_no_features": lambda tf: tf.train.sdca_optimizer(
        [], [], [], [], tf.constant([1.0]), tf.constant([1.0]), [], [], [], tf.zeros([1, 4]),
        "squared_loss", 0.0, 1.0, 1, 1),
    "sdca_feature_range": lambda tf: tf.train.sdca_optimizer(
        [tf.constant([0], tf.int64)], [tf.constant([7], tf.int64)], [], [],
        tf.constant([1.0]), tf.constant([1.0]), [tf.constant([0, 1], tf.int64)],
        [tf.constant([0.0, 0.0])], [], tf.zeros([1, 4]), "squared_loss", 0.0, 1.0, 1, 1),
    "sdca_duplicate_feature": lambda tf: tf.train.sdca_optimizer(
        [tf.constant([0, 0], tf.int64)], [tf.constant([1, 1], tf.int64)], [], [],
        tf.constant([1.0]), tf.constant([1.0]), [tf.constant([0, 1], tf.int64)],
        [tf.constant([0.0, 0.0])], [], tf.zeros([1, 4]), "squared_loss", 0.0, 1.0, 1, 1),
    "sdca_labels": lambda tf: tf.train.sdca_optimizer(
        [], [], [], [tf.zeros([2, 1])], tf.constant([1.0, 2.0]), tf.constant([1.0]), [], [],
        [tf.zeros([1])], tf.zeros([2, 4]), "squared_loss", 0.0, 1.0, 1, 1),
    "index_shuffle_seed": lambda tf: tf.random_index_shuffle(
        tf.placeholder_with_default(np.int64(1), None),
        tf.placeholder_with_default(np.array([1, 2], np.int64), None), np.int64(5)),
    "index_shuffle_max": lambda tf: tf.random_index_shuffle(
        tf.placeholder_with_default(np.array([1, 2], np.int64), None), [1, 2, 3],
        tf.placeholder_with_default(np.array([5, 6, 7], np.int64), None)),
}


def _state_variable(tf, value, dtype=None):
    variable = tf.Variable(value, dtype=dtype or tf.int64, use_resource=True)
    tf.add_to_collection("initialize_first", variable.initializer)
    return variable


def _initialized(tf, generator):
    tf.add_to_collection("initialize_first", generator.state.initializer)
    return generator


def run_error_case(tf, name):
    """(error class, first line of the kernel's words) running ERROR_CASES[name]'s graph."""
    import image_cases
    with tf.Graph().as_default():
        fetch = ERROR_CASES[name](tf)
        with tf.Session() as sess:
            sess.run(tf.get_collection("initialize_first"))
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                return type(error).__name__, image_cases.kernel_message(error.message)
    raise AssertionError(f"{name}: no error")


def _vocab_init(tf):
    return tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))


def _api_errors(tf):
    x = cases.TOPK_X
    return {
        "generator_int_one_bound": lambda: tf.random.Generator.from_seed(1).uniform(
            [2], minval=None, maxval=5, dtype=tf.int32),
        "generator_state_shape": lambda: tf.random.Generator.from_state([1, 2], "philox"),
        "generator_alg_name": lambda: tf.random.Generator.from_seed(1, alg="mersenne"),
        "generator_counter_shape": lambda: tf.random.Generator.from_key_counter(
            1, [1, 2, 3], "philox"),
        "topk_k_too_big": lambda: tf.math.approx_max_k(x, 7),
        "topk_dim0_k": lambda: tf.math.approx_min_k(x, 3, reduction_dimension=0),
        "topk_int": lambda: tf.math.approx_max_k(np.array([1, 2, 3]), 2),
        "topk_float64": lambda: tf.math.approx_max_k(np.array([[1.0, 2.0]]), 1),
        "topk_dim": lambda: tf.math.approx_max_k(x, 2, reduction_dimension=3),
        "topk_dim_and_recall": lambda: tf.math.approx_max_k(x, 2, reduction_dimension=-3,
                                                            recall_target=2.0),
        "topk_recall": lambda: tf.math.approx_max_k(x, 2, recall_target=2.0),
        "topk_recall_zero": lambda: tf.math.approx_max_k(x, 2, recall_target=0.0),
        "topk_recall_negative": lambda: tf.math.approx_max_k(x, 2, recall_target=-0.1),
        "topk_negative_k": lambda: tf.math.approx_max_k(x, -1),
        "topk_unknown_dim": lambda: tf.math.approx_max_k(
            tf.placeholder(tf.float32, [None, None]), 2),
        "topk_unknown_rank": lambda: tf.math.approx_max_k(tf.placeholder(tf.float32), 2),
        "topk_scalar": lambda: tf.math.approx_max_k(1.0, 1),
        "rfftnd_int": lambda: tf.signal.rfftnd(tf.constant([1, 2])),
        "irfftnd_float": lambda: tf.signal.irfftnd(tf.constant([1.0, 2.0])),
        "sdca_loss_type": lambda: cases._sdca_problem(tf, "absolute_loss"),
        "sdca_partitions": lambda: cases._sdca_problem(tf, "squared_loss", partitions=0),
        "fprint_rank": lambda: tf.train.sdca_fprint(tf.constant([["a"]])),
        "shrink_resource": lambda: tf.train.sdca_shrink_l1(
            [tf.Variable([1.0, 2.0], use_resource=True)], l1=0.1, l2=1.0),
        "sobol_rank": lambda: tf.math.sobol_sample([2], 3),
        "sobol_dtype": lambda: tf.math.sobol_sample(2, 3, dtype=tf.int32),
        "fftnd_rank": lambda: tf.signal.fftnd(tf.zeros([2], tf.complex64), axes=[0, 1]),
        "vocab_no_buckets": lambda: tf.lookup.StaticVocabularyTable(_vocab_init(tf), 0),
        "vocab_int32_keys": lambda: tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2]),
                                                tf.constant([0, 1], tf.int64)), 2),
        "vocab_int_values": lambda: tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(["a", "b"], [0, 1]), 2),
        "vocab_lookup_dtype": lambda: tf.lookup.StaticVocabularyTable(
            _vocab_init(tf), 2, lookup_key_dtype=tf.int64),
        "vocab_lookup_float": lambda: tf.lookup.StaticVocabularyTable(
            _vocab_init(tf), 2, lookup_key_dtype=tf.float32),
        "vocab_keys_dtype": lambda: tf.lookup.StaticVocabularyTable(
            _vocab_init(tf), 2).lookup(tf.constant([1, 2])),
    }


# Every case of _api_errors, in its order (the lambdas are not called here).
API_ERROR_CASES = tuple(_api_errors(None))


def run_api_error_case(tf, name):
    """(exception class, message) of the Python-level error case `name`."""
    with tf.Graph().as_default():
        try:
            _api_errors(tf)[name]()
        except (ValueError, TypeError) as error:
            kind = "ValueError" if isinstance(error, ValueError) else type(error).__name__
            return kind, str(error).split(" for '{{node ")[0]
    raise AssertionError(f"{name}: no error")


def fftnd_gradient_error(tf):
    """(exception class, message) asking for FFTND's gradient: TensorFlow registers none."""
    with tf.Graph().as_default():
        x = tf.zeros([2, 2], tf.complex64)
        try:
            tf.gradients(tf.math.real(tf.signal.fftnd(x)), x)
        except LookupError as error:
            return type(error).__name__, str(error)
    raise AssertionError("no error")


def generator_split_error(tf):
    """(exception class, message) of Generator.split in graph mode: TensorFlow's fails."""
    with tf.Graph().as_default():
        try:
            tf.random.Generator.from_seed(1).split(2)
        except NotImplementedError as error:
            return type(error).__name__, str(error)
    raise AssertionError("no error")


def global_generator_structure(tf):
    """What get_global_generator and from_non_deterministic_state build (their values come
    from the OS's entropy): state shapes and dtypes, node types, two draws that differ,
    set_global_generator's generator handed back."""
    with tf.Graph().as_default() as graph:
        first = tf.random.get_global_generator()
        same = tf.random.get_global_generator() is first
        other = tf.random.Generator.from_non_deterministic_state()
        draws = other.normal([4])
        mine = tf.random.Generator.from_seed(3)
        tf.random.set_global_generator(mine)
        handed_back = tf.random.get_global_generator() is mine
        tf.random.set_global_generator(None)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            state = sess.run(first.state.read_value())
            a, b = sess.run(draws), sess.run(draws)
        return {"same": same, "handed_back": handed_back,
                "state_shape": list(state.shape), "state_dtype": state.dtype.name,
                "draws_differ": bool((a != b).any()), "draw_shape": list(a.shape),
                "algorithm": first.algorithm,
                "op_types": sorted({op.type for op in graph.get_operations()})}
