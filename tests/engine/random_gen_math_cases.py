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


CASES = {"approx_top_k": _approx_top_k, "index_shuffle": _index_shuffle,
         "vocabulary_table": _vocabulary_table}
# Built only: cases whose nodes cannot run on TensorFlow's CPU.
GRAPH_CASES = {"fft_nd": _fft_nd_shapes}


def _flat(fetches):
    flat = {}
    for key, value in fetches.items():
        if isinstance(value, (list, tuple)):
            flat.update({f"{key}_{i}": v for i, v in enumerate(value)})
        else:
            flat[key] = value
    return flat


def build_case(tf, name):
    return _flat({**CASES, **GRAPH_CASES}[name](tf))


def static_shapes(fetches):
    return {key: (t.shape.as_list() if t.shape.ndims is not None else None)
            for key, t in fetches.items()}


def run_case(tf, name):
    """({key: value}, {key: static shape}) of case `name`, run in one session."""
    with tf.Graph().as_default():
        fetches = build_case(tf, name)
        with tf.Session() as sess:
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
    "index_shuffle_seed": lambda tf: tf.random_index_shuffle(
        tf.placeholder_with_default(np.int64(1), None),
        tf.placeholder_with_default(np.array([1, 2], np.int64), None), np.int64(5)),
    "index_shuffle_max": lambda tf: tf.random_index_shuffle(
        tf.placeholder_with_default(np.array([1, 2], np.int64), None), [1, 2, 3],
        tf.placeholder_with_default(np.array([5, 6, 7], np.int64), None)),
}


def run_error_case(tf, name):
    """(error class, first line of the kernel's words) running ERROR_CASES[name]'s graph."""
    import image_cases
    with tf.Graph().as_default():
        fetch = ERROR_CASES[name](tf)
        with tf.Session() as sess:
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


API_ERROR_CASES = ("topk_k_too_big", "topk_dim0_k", "topk_int", "topk_float64", "topk_dim",
                   "topk_dim_and_recall", "topk_recall", "topk_recall_zero",
                   "topk_recall_negative", "topk_negative_k", "topk_unknown_dim",
                   "topk_unknown_rank", "topk_scalar", "rfftnd_int", "irfftnd_float",
                   "fftnd_rank", "vocab_no_buckets", "vocab_int32_keys", "vocab_int_values",
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
