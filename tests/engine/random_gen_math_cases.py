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


# The error cases live in their own module (which reads this one's inputs).
from random_gen_math_error_cases import (  # noqa: E402,F401
    API_ERROR_CASES, ERROR_CASES, fftnd_gradient_error, generator_split_error,
    global_generator_structure, run_api_error_case, run_error_case)
