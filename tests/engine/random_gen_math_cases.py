"""tf.random.Generator, tf.random_index_shuffle, tf.math.sobol_sample, approximate top-k, the
N-d FFTs, tf.lookup.StaticVocabularyTable and the SDCA ops, built the same way by real
TensorFlow (tf.compat.v1) and the engine: values, static shapes, graph nodes, gradients,
errors when the graph runs (ERROR_CASES) and while it is built (API_ERROR_CASES).
tools/make_random_gen_math_fixtures.py writes TensorFlow's to
tests/fixtures/random_gen_math/; tests/engine/test_random_gen_math.py compares the engine's."""

from pathlib import Path

import numpy as np

_R = np.random.RandomState(21)
TOPK_X = np.array([[3., 1, 2, 5, 5], [0, -1, 7, 7, 2]], np.float32)
TOPK_WIDE = _R.normal(size=(3, 4, 9)).astype(np.float32)


def _approx_top_k(tf):
    x = tf.constant(TOPK_X)
    wide = tf.constant(TOPK_WIDE)
    values, _ = tf.math.approx_max_k(wide, 4)
    grad_weights = tf.constant(_R.normal(size=(3, 4, 4)).astype(np.float32))
    return {
        "max2": tf.math.approx_max_k(x, 2),
        "nn_max5": tf.nn.approx_max_k(x, 5, recall_target=0.5, aggregate_to_topk=False),
        "raw": tf.approx_top_k(x, k=3, reduction_input_size_override=4),
        "none": tf.math.approx_max_k(x, 0),
        "vector": tf.math.approx_max_k(tf.constant([1.0, 2.0, 3.0, -np.inf, 3.0]), 3),
        "half": tf.nn.approx_max_k(tf.constant([[1, 2, 3]], tf.float16), 2),
        "wide": tf.math.approx_max_k(wide, 4),
        "grad": tf.gradients(values * grad_weights, wide)[0],
        "unknown_rows": tf.math.approx_max_k(
            tf.placeholder_with_default(TOPK_X, [None, 5]), 2),
    }


FFT_SHAPES = {
    "fftnd": lambda tf: tf.signal.fftnd(tf.zeros([2, 3, 4], tf.complex64)),
    "fftnd_axes": lambda tf: tf.signal.fftnd(tf.zeros([2, 3, 4], tf.complex64),
                                             fft_length=[3, 6], axes=[0, 2]),
    "ifftnd_ortho": lambda tf: tf.signal.ifftnd(tf.zeros([2, 3, 4], tf.complex128),
                                                fft_length=[4], axes=[-1], norm="ortho"),
    "rfftnd": lambda tf: tf.signal.rfftnd(tf.zeros([2, 3, 4])),
    "rfftnd_forward": lambda tf: tf.signal.rfftnd(tf.zeros([2, 3, 4], tf.float64),
                                                  fft_length=[3, 6], axes=[0, 2],
                                                  norm="forward"),
    "irfftnd": lambda tf: tf.signal.irfftnd(tf.zeros([2, 3, 4], tf.complex64)),
    "irfftnd_axes": lambda tf: tf.signal.irfftnd(tf.zeros([2, 3, 4], tf.complex64),
                                                 fft_length=[3, 6], axes=[0, 2]),
    "raw_fftnd": lambda tf: tf.fftnd(tf.zeros([2, 3], tf.complex64), [2, 2], [0, 1]),
    "raw_ifftnd": lambda tf: tf.ifftnd(tf.zeros([2, 3], tf.complex64), [2], [1]),
    "raw_rfftnd": lambda tf: tf.rfftnd(tf.zeros([2, 3]), [2, 2], [0, 1]),
    "raw_irfftnd": lambda tf: tf.irfftnd(tf.zeros([2, 3], tf.complex128), [2, 2], [0, 1],
                                         Treal=tf.float64),
    "unknown_rank": lambda tf: tf.fftnd(tf.placeholder(tf.complex64), [2], [0]),
}


def _fft_nd_shapes(tf):
    return {name: build(tf) for name, build in FFT_SHAPES.items()}


def _index_shuffle(tf):
    index = tf.constant([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], tf.int64)
    return {
        "int64": tf.random_index_shuffle(index, tf.constant([1, 2, 3], tf.int64),
                                         tf.constant(9, tf.int64)),
        "int32": tf.random_index_shuffle(tf.constant([0, 5, 17, 99], tf.int32),
                                         tf.constant([7, -8, 9], tf.int32),
                                         tf.constant(99, tf.int32)),
        "uint32_rounds": tf.random_index_shuffle(tf.constant([0, 1, 2, 3], tf.uint32),
                                                 tf.constant([4, 5, 6], tf.uint32),
                                                 tf.constant(1000, tf.uint32), rounds=8),
        "uint64_seeds": tf.random_index_shuffle(
            tf.constant([3, 1000000, 2**40], tf.uint64),
            tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]], tf.int64),
            tf.constant([10, 2000000, 2**41], tf.uint64)),
        "scalar": tf.random_index_shuffle(5, [1, 2, 3], 9, name="shuffled"),
    }


VOCAB_FILE = str(Path(__file__).resolve().parents[1] / "fixtures" / "random_gen_math" /
                 "vocab.txt")


def _vocabulary_table(tf):
    words = tf.constant(["emerson", "lake", "palmer", "emerson", "carl", "", "greg"])
    init = tf.lookup.KeyValueTensorInitializer(["emerson", "lake", "palmer"],
                                               tf.constant([0, 1, 2], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    ints = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20, 30], tf.int64),
                                            tf.constant([3, 1, 2], tf.int64)),
        num_oov_buckets=3, lookup_key_dtype=tf.int32, name="ints/")
    from_file = tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(VOCAB_FILE, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                      tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER),
        num_oov_buckets=2)
    buckets_only = tf.lookup.StaticVocabularyTable(None, num_oov_buckets=7)
    sparse = tf.SparseTensor([[0, 0], [1, 2]], tf.constant(["lake", "keith"]), [2, 3])
    with tf.control_dependencies([tf.tables_initializer()]):
        looked = table.lookup(sparse)
        return {
            "ids": table.lookup(words), "size": table.size(),
            "ints": ints.lookup(tf.constant([[10, 11], [30, -1]], tf.int32)),
            "ints_size": ints.size(),
            "file": from_file.lookup(tf.constant(["palmer", "zappa", "lake"])),
            "buckets_only": buckets_only.lookup(words), "buckets_size": buckets_only.size(),
            "sparse_ids": looked.values, "sparse_indices": looked.indices,
        }


class Sequence(list):
    """(key, fetch) pairs run one Session.run each, in order, after the variables'
    initializer: a generator's draws move its state, so their order is part of the values."""


def _generator(tf):
    g = tf.random.Generator.from_seed(1234)
    uniform = g.uniform([3])
    steps = Sequence([
        ("state0", g.state.read_value()), ("uniform", uniform), ("uniform_again", uniform),
        ("normal", g.normal([2, 3])),
        ("normal_f64", g.normal([3], mean=2.0, stddev=0.5, dtype=tf.float64)),
        ("uniform_scalar", g.uniform([])),
        ("uniform_f64", g.uniform([5], minval=-1.0, maxval=3.0, dtype=tf.float64)),
        ("uniform_f16", g.uniform([4], dtype=tf.float16)),
        ("uniform_int32", g.uniform([7], minval=-5, maxval=17, dtype=tf.int32)),
        ("uniform_int64", g.uniform([3], minval=-2**40, maxval=2**41, dtype=tf.int64)),
        ("uniform_int_full", g.uniform([3], minval=None, maxval=None, dtype=tf.int32)),
        ("truncated_normal", g.truncated_normal([5], mean=1.0, stddev=2.0)),
        ("full_int_uint64", g.uniform_full_int([3])),
        ("full_int_int32", g.uniform_full_int([2, 2], dtype=tf.int32)),
        ("full_int_uint32", g.uniform_full_int([5], dtype=tf.uint32)),
        ("binomial", g.binomial([3], counts=10.0, probs=0.5)),
        ("binomial_batch", g.binomial([2, 3], counts=[5.0, 20.0, 100.0],
                                      probs=[0.1, 0.5, 0.9], dtype=tf.int64)),
        ("binomial_f64", g.binomial([4], counts=tf.constant(30.0, tf.float64),
                                    probs=tf.constant(0.25, tf.float64))),
        ("make_seeds", g.make_seeds(3)), ("skip", g.skip(5)), ("key", g.key),
        ("state1", g.state.read_value())])
    carry = tf.random.Generator.from_state([2**63 - 1, -1, 9], "philox")
    steps += [("carry_skip", carry.skip(3)), ("carry_state", carry.state.read_value())]
    keyed = tf.random.Generator.from_key_counter(5, [1, 2], "philox")
    steps += [("keyed_state", keyed.state.read_value()), ("keyed_normal", keyed.normal([3]))]
    auto = tf.random.Generator.from_seed(7, alg="auto_select")
    steps += [("auto_uniform", auto.uniform([4])), ("auto_alg", tf.constant(auto.algorithm))]
    seeded = tf.random.Generator.from_seed([1, 2, 3, 4, 5])
    wide = tf.random.Generator.from_seed(2**70 + 5, alg=tf.random.Algorithm.PHILOX)
    steps += [("list_seed_state", seeded.state.read_value()),
              ("wide_seed_state", wide.state.read_value())]
    return steps


def _generator_reset(tf):
    g = tf.random.Generator.from_seed(3)
    returned = g.reset_from_seed(11)
    assign = tf.get_default_graph().get_operations()[-1]
    steps = Sequence([("draw", g.uniform([2])), ("returned_none", tf.constant(returned is None))])
    with tf.control_dependencies([assign]):
        after = g.uniform([2])
    return Sequence(steps + [("reset_draw", after), ("state", g.state.read_value())])


def _raw_stateful(tf):
    state = tf.Variable([5, 0, 77], dtype=tf.int64, use_resource=True)
    raw = tf.raw_ops
    return Sequence([
        ("uniform", raw.StatefulUniform(resource=state.handle, algorithm=1, shape=[3])),
        ("normal", raw.StatefulStandardNormalV2(resource=state.handle, algorithm=1,
                                                shape=[2, 2], dtype=tf.float64)),
        ("truncated", raw.StatefulTruncatedNormal(resource=state.handle, algorithm=1,
                                                  shape=[3])),
        ("full_int", raw.StatefulUniformFullInt(resource=state.handle, algorithm=1, shape=[3],
                                                dtype=tf.int64)),
        ("int", raw.StatefulUniformInt(resource=state.handle, algorithm=1, shape=[4],
                                       minval=-3, maxval=9)),
        ("after", state.read_value()),
        ("skip", raw.RngSkip(resource=state.handle, algorithm=1,
                             delta=tf.constant(10, tf.int64))),
        ("after_skip", state.read_value()),
        ("read_and_skip", raw.RngReadAndSkip(resource=state.handle, alg=1,
                                             delta=tf.constant(2**64 - 1, tf.uint64))),
        ("wrapped", state.read_value()),
        ("binomial", raw.StatefulRandomBinomial(resource=state.handle, algorithm=1, shape=[2],
                                                counts=5.0, probs=0.5)),
        ("empty", raw.StatefulUniform(resource=state.handle, algorithm=1, shape=[0, 3])),
        ("last", state.read_value())])


FPRINT_IDS = [b"", b"a", b"hello", b"x" * 15, b"y" * 16, b"z" * 17, b"example_0042",
              bytes(range(100)), bytes(range(127)), bytes(range(128)), bytes(range(200)),
              bytes(range(256)) * 2, "\u00e9t\u00e9".encode()]


def _sdca(tf):
    w1 = tf.Variable([1.0, -2.0, 0.3, -0.05, 0.0, -0.25])
    w2 = tf.Variable([[0.5, -0.5], [0.2500001, 3.0]])
    inf_shrink = tf.Variable([1.0, -2.0])
    negative = tf.Variable([1.0, -2.0, 0.0])
    return Sequence([
        ("fprint", tf.train.sdca_fprint(tf.constant(FPRINT_IDS))),
        ("fprint_empty", tf.train.sdca_fprint(tf.constant([], tf.string))),
        ("shrink", tf.train.sdca_shrink_l1([w1, w2], l1=0.1, l2=0.4)),
        ("w1", w1.read_value()), ("w2", w2.read_value()),
        ("shrink_again", tf.train.sdca_shrink_l1([w1], l1=0.5, l2=1.0, name="again")),
        ("w1_again", w1.read_value()),
        ("shrink_l2_zero", tf.train.sdca_shrink_l1([inf_shrink], l1=0.1, l2=0.0)),
        ("inf_shrink", inf_shrink.read_value()),
        ("shrink_l2_negative", tf.train.sdca_shrink_l1([negative], l1=0.1, l2=-1.0)),
        ("negative", negative.read_value()),
        ("shrink_none", tf.train.sdca_shrink_l1([], l1=0.1, l2=1.0))])


def _sobol(tf):
    return {
        "small": tf.math.sobol_sample(3, 5),
        "skip": tf.math.sobol_sample(4, 7, skip=9, dtype=tf.float64),
        "power_of_two": tf.math.sobol_sample(2, 7, skip=0),
        "many_dims": tf.math.sobol_sample(40, 33, skip=1000),
        # every 7th of all 21200 dimensions (tools/extract_sobol_directions.py checks the
        # whole regenerated table against the header TensorFlow ships)
        "all_dims": tf.math.sobol_sample(21200, 1, skip=5)[:, ::7],
        "long": tf.math.sobol_sample(5, 300, skip=2**20),
        "float32_rounding": tf.math.sobol_sample(3, 4, skip=2**29),
        "dynamic": tf.math.sobol_sample(tf.placeholder_with_default(2, []), 3, name="sobol"),
    }


def _sdca_problem(tf, loss, label=1.0, partitions=1, l1=0.0, l2=1.0, state=0.1,
                 adaptative=True, name=None):
    """One example (so that TensorFlow's unseeded example order cannot matter): two sparse
    groups, the first with values, and one dense group."""
    return tf.train.sdca_optimizer(
        sparse_example_indices=[tf.constant([0, 0], tf.int64), tf.constant([0], tf.int64)],
        sparse_feature_indices=[tf.constant([1, 3], tf.int64), tf.constant([2], tf.int64)],
        sparse_feature_values=[tf.constant([0.5, -2.0])],
        dense_features=[tf.constant([[1.0, 2.0, -0.5]])],
        example_weights=tf.constant([2.0]), example_labels=tf.constant([label]),
        sparse_indices=[tf.constant([0, 1, 3], tf.int64), tf.constant([2, 5], tf.int64)],
        sparse_weights=[tf.constant([0.1, 0.2, -0.3]), tf.constant([0.7, 0.0])],
        dense_weights=[tf.constant([0.3, -0.1, 0.05])],
        example_state_data=tf.constant([[state, 0.0, 0.0, 0.0]]),
        loss_type=loss, l1=l1, l2=l2, num_loss_partitions=partitions,
        num_inner_iterations=1, adaptative=adaptative, name=name)


def _sdca_disjoint(tf):
    """Three examples on features of their own: any order gives the same pass."""
    return tf.train.sdca_optimizer(
        sparse_example_indices=[tf.constant([0, 0, 1, 2], tf.int64)],
        sparse_feature_indices=[tf.constant([0, 1, 2, 3], tf.int64)],
        sparse_feature_values=[tf.constant([1.0, -1.5, 0.25, 3.0])],
        dense_features=[], example_weights=tf.constant([1.0, 0.5, 3.0]),
        example_labels=tf.constant([1.5, -2.0, 0.5]),
        sparse_indices=[tf.constant([0, 1, 2, 3], tf.int64)],
        sparse_weights=[tf.constant([0.2, 0.1, -0.4, 0.05])], dense_weights=[],
        example_state_data=tf.zeros([3, 4]), loss_type="squared_loss", l1=0.05, l2=0.5,
        num_loss_partitions=1, num_inner_iterations=1, adaptative=False)


def _sdca_optimizer(tf):
    # Each its own example state: TensorFlow's kernel writes the new state into its input's
    # buffer, so ops sharing one constant would see each other's updates.
    return {
        "logistic": _sdca_problem(tf, "logistic_loss"),
        "logistic_negative": _sdca_problem(tf, "logistic_loss", label=0.0, l1=0.3, l2=2.0,
                                           state=-0.2, adaptative=False),
        "squared": _sdca_problem(tf, "squared_loss", label=-1.5, partitions=3, state=0.05),
        "hinge": _sdca_problem(tf, "hinge_loss", state=0.15),
        "hinge_zero": _sdca_problem(tf, "hinge_loss", label=0.0, state=-0.5),
        "smooth_hinge": _sdca_problem(tf, "smooth_hinge_loss", label=0.0, l1=0.01,
                                      state=-0.3),
        "poisson": _sdca_problem(tf, "poisson_loss", label=3.0, state=0.5, l2=0.1),
        "disjoint": _sdca_disjoint(tf),
        "raw_v2": _flat_outputs(tf.raw_ops.SdcaOptimizerV2(
            sparse_example_indices=[tf.constant([0], tf.int64)],
            sparse_feature_indices=[tf.constant([1], tf.int64)], sparse_feature_values=[],
            dense_features=[tf.constant([[0.5, -1.0]])], example_weights=tf.constant([1.5]),
            example_labels=tf.constant([0.75]),
            sparse_indices=[tf.constant([0, 1], tf.int64)],
            sparse_weights=[tf.constant([0.2, -0.1])], dense_weights=[tf.constant([0.4, 0.3])],
            example_state_data=tf.constant([[0.25, 0.0, 0.0, 0.0]]), loss_type="squared_loss",
            l1=0.02, l2=0.8, num_loss_partitions=2, num_inner_iterations=1, adaptive=True)),
    }


def _flat_outputs(outputs):
    """A raw op's outputs in one list (TensorFlow's wrapper nests its list outputs)."""
    flat = []
    for output in outputs:
        flat.extend(output if isinstance(output, (list, tuple)) else [output])
    return flat


CASES = {"approx_top_k": _approx_top_k, "sdca": _sdca, "sobol": _sobol,
         "sdca_optimizer": _sdca_optimizer, "index_shuffle": _index_shuffle,
         "vocabulary_table": _vocabulary_table, "generator": _generator,
         "generator_reset": _generator_reset, "raw_stateful": _raw_stateful}
# Built only: cases whose nodes cannot run on TensorFlow's CPU.
GRAPH_CASES = {"fft_nd": _fft_nd_shapes}


def _flat(fetches):
    flat = {}
    for key, value in fetches.items():
        if isinstance(value, (list, tuple)):
            flat.update(_flat({f"{key}_{i}": v for i, v in enumerate(value)}))
        else:
            flat[key] = value
    return flat


def build_case(tf, name):
    fetches = {**CASES, **GRAPH_CASES}[name](tf)
    return fetches if isinstance(fetches, Sequence) else _flat(fetches)


def static_shapes(fetches):
    return {key: (t.shape.as_list() if t.shape.ndims is not None else None)
            for key, t in fetches.items()}


def run_case(tf, name):
    """({key: value}, {key: static shape}) of case `name`, run in one session."""
    with tf.Graph().as_default():
        fetches = build_case(tf, name)
        with tf.Session() as sess:
            if isinstance(fetches, Sequence):
                sess.run(tf.global_variables_initializer())
                values = {}
                for key, fetch in fetches:
                    value = sess.run(fetch)
                    if value is not None:
                        values[key] = value
                fetches = {key: fetch for key, fetch in fetches if hasattr(fetch, "shape")}
            else:
                values = sess.run(fetches)
        shapes = static_shapes(fetches)
    return values, shapes


def graph_case(tf, name):
    """({key: static shape}, {key: dtype name}) of GRAPH_CASES[name], built only."""
    with tf.Graph().as_default():
        fetches = build_case(tf, name)
        return static_shapes(fetches), {key: t.dtype.name for key, t in fetches.items()}


# Graphs that fail when they run: the message's first line of the kernel's words.
ERROR_CASES = {
    "approx_min_k": lambda tf: tf.math.approx_min_k(TOPK_X, 2),
    "approx_max_k_dim0": lambda tf: tf.nn.approx_max_k(TOPK_X, 2, reduction_dimension=0),
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
    "sdca_label": lambda tf: _sdca_problem(tf, "logistic_loss", label=0.5),
    "sdca_poisson_label": lambda tf: _sdca_problem(tf, "poisson_loss", label=-1.0),
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
    x = TOPK_X
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
        "sdca_loss_type": lambda: _sdca_problem(tf, "absolute_loss"),
        "sdca_partitions": lambda: _sdca_problem(tf, "squared_loss", partitions=0),
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


API_ERROR_CASES = ("generator_int_one_bound", "generator_state_shape", "generator_alg_name",
                   "generator_counter_shape", "topk_k_too_big", "topk_dim0_k", "topk_int", "topk_float64", "topk_dim",
                   "topk_dim_and_recall", "topk_recall", "topk_recall_zero",
                   "topk_recall_negative", "topk_negative_k", "topk_unknown_dim",
                   "topk_unknown_rank", "topk_scalar", "rfftnd_int", "irfftnd_float",
                   "fftnd_rank", "sobol_rank", "sobol_dtype", "sdca_loss_type",
                   "sdca_partitions", "fprint_rank", "shrink_resource", "vocab_no_buckets", "vocab_int32_keys", "vocab_int_values",
                   "vocab_lookup_dtype", "vocab_lookup_float", "vocab_keys_dtype")


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
