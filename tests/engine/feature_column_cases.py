"""Graphs of tf.feature_column.input_layer built the same way on TensorFlow
(tools/make_feature_column_fixtures.py) and on the engine (tests/engine/test_feature_column.py):
the nodes each builds, the values a run gives, and the errors bad columns raise."""

from pathlib import Path

import numpy as np

STRINGS = np.array([["a", "b"], ["c", ""], ["", ""], ["b", "zz"]])
DENSE = np.array([[1.5, -2.0], [30.0, 4.0], [7.0, 0.25], [-3.0, 12.0]], np.float32)


def _features(tf):
    return {
        "price": tf.placeholder(tf.float32, [None, 2], name="price"),
        "age": tf.placeholder(tf.float32, [None], name="age"),
        "tags": tf.placeholder(tf.string, [None, 2], name="tags"),
        "code": tf.placeholder(tf.int64, [None], name="code"),
        "zip": tf.placeholder(tf.int32, [None], name="zip"),
        "words": tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1], [3, 2]],
                                 values=["x", "y", "x", "w"], dense_shape=[4, 3]),
    }


def feeds(features):
    return {features["price"]: DENSE, features["age"]: [18.0, 33.0, 50.0, 71.0],
            features["tags"]: STRINGS, features["code"]: [10, 30, -1, 99],
            features["zip"]: [7, 12345, 0, 12345]}


def mixed(tf):
    """Every column kind, default initializers (the op seeds TensorFlow derives from the
    graph's), gradients of the input layer's output into its embedding tables."""
    tf.set_random_seed(5)
    fc = tf.feature_column
    features = _features(tf)
    tags = fc.categorical_column_with_vocabulary_list("tags", ["a", "b", "c"])
    code = fc.categorical_column_with_vocabulary_list("code", [10, 20, 30], dtype=tf.int64,
                                                      num_oov_buckets=2)
    zips = fc.categorical_column_with_hash_bucket("zip", 5, dtype=tf.int32)
    ids = fc.categorical_column_with_identity("code", 100, default_value=3)
    words = fc.categorical_column_with_vocabulary_list("words", ["w", "x", "y"],
                                                       default_value=1)
    columns = [
        fc.numeric_column("price", shape=(2,), default_value=0.0),
        fc.bucketized_column(fc.numeric_column("price", shape=2), [0.0, 5.0, 20.0]),
        fc.bucketized_column(fc.numeric_column("age"), [20, 40, 60]),
        fc.indicator_column(tags), fc.indicator_column(code), fc.indicator_column(zips),
        fc.embedding_column(tags, 3), fc.embedding_column(words, 2, combiner="sqrtn"),
        fc.embedding_column(ids, 4, combiner="sum"),
    ]
    output = fc.input_layer(features, columns)
    again = tf.feature_column.input_layer(features, [fc.embedding_column(zips, 2)])
    tables = [v for v in tf.global_variables() if v.op.name.startswith("input_layer/")]
    weights = tf.constant(np.linspace(-1.0, 1.0, 4 * int(output.shape[1])).reshape(4, -1),
                          tf.float32)
    grads = tf.gradients(tf.reduce_sum(output * weights), tables)
    fetches = {"output": output, "again": again,
               **{f"grad_{v.op.name}": tf.convert_to_tensor(g) for v, g in zip(tables, grads)}}
    return features, fetches


def trained(tf):
    """A few Adam steps of a linear model over an embedding and an indicator column: the
    sparse updates of the tables."""
    fc = tf.feature_column
    features = _features(tf)
    tags = fc.categorical_column_with_vocabulary_list("tags", ["a", "b", "c", "zz"])
    columns = [fc.embedding_column(tags, 2, initializer=tf.constant_initializer(0.5)),
               fc.indicator_column(fc.categorical_column_with_hash_bucket("tags", 4)),
               fc.numeric_column("age", normalizer_fn=lambda x: x / 50.0)]
    with tf.variable_scope("model"):
        inputs = fc.input_layer(features, columns)
        logits = tf.layers.dense(inputs, 1, kernel_initializer=tf.constant_initializer(0.1))
    loss = tf.reduce_mean(tf.square(logits[:, 0] - [1.0, -1.0, 0.5, 2.0]))
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    return features, {"loss": loss, "train": train,
                      "table": tf.global_variables()[0]}


def crossed(tf):
    """crossed_column of raw string features (dense, with '' kept as TF keeps it), a
    vocabulary column, a bucketized column, integer and sparse features, nested crosses; and
    tf.sparse.cross / cross_hashed on their own (SparseCross, string and hashed)."""
    tf.set_random_seed(9)
    fc = tf.feature_column
    features = _features(tf)
    age = fc.bucketized_column(fc.numeric_column("age"), [30, 60])
    tags = fc.categorical_column_with_vocabulary_list("tags", ["a", "b", "c"])
    tags_x_age = fc.crossed_column(["tags", age], 50)
    columns = [fc.indicator_column(tags_x_age),
               fc.indicator_column(fc.crossed_column([tags, "code"], 7, hash_key=12345)),
               fc.embedding_column(fc.crossed_column([tags_x_age, "words"], 20), 3),
               fc.indicator_column(fc.crossed_column(
                   [fc.bucketized_column(fc.numeric_column("price", shape=2), [0.0, 5.0]),
                    "zip"], 11))]
    output = fc.input_layer(features, columns)
    words = features["words"]
    strings = tf.sparse.cross([words, features["tags"]])
    hashed = tf.sparse.cross_hashed([features["tags"], words, tf.constant([[1], [2], [3], [4]])])
    few = tf.sparse.cross_hashed([words, features["tags"]], num_buckets=5, hash_key=7)
    return features, {"output": output, "strings_indices": strings.indices,
                      "strings_values": strings.values, "strings_shape": strings.dense_shape,
                      "hashed_indices": hashed.indices, "hashed_values": hashed.values,
                      "hashed_shape": hashed.dense_shape, "few_values": few.values}


def lookups(tf):
    """tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse of a ref variable, a
    resource variable (TensorFlow's CompositeTensor: Unique and ResourceGather) and a rank-3
    SparseTensor, weighted and not, with their gradients."""
    features = _features(tf)
    init = tf.constant_initializer(np.arange(12).reshape(6, 2) / 4.0)
    ref = tf.get_variable("ref", [6, 2], initializer=init)
    res = tf.get_variable("res", [6, 2], initializer=init, use_resource=True)
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 1]], tf.constant([1, 4, 0, 5], tf.int64),
                          [4, 2])
    weights = tf.SparseTensor(ids.indices, [2.0, 0.5, -1.0, 1.5], ids.dense_shape)
    deep = tf.SparseTensor([[0, 0, 1], [1, 1, 0], [1, 1, 1]], tf.constant([3, -2, 2], tf.int64),
                           [2, 2, 2])
    outputs = {
        "ref_sum": tf.nn.embedding_lookup_sparse(ref, ids, None, combiner="sum"),
        "res_mean": tf.nn.embedding_lookup_sparse(res, ids, None),
        "res_weighted": tf.nn.embedding_lookup_sparse(res, ids, weights, combiner="sqrtn"),
        "safe_ref": tf.nn.safe_embedding_lookup_sparse(ref, ids, weights),
        "safe_res": tf.nn.safe_embedding_lookup_sparse(res, ids, None, combiner="sqrtn",
                                                       default_id=3),
        "safe_rank3": tf.nn.safe_embedding_lookup_sparse([ref], deep, None, combiner="sum"),
    }
    total = tf.add_n([tf.reduce_sum(v * (i + 1)) for i, v in enumerate(outputs.values())])
    grads = tf.gradients(total, [ref, res])
    return features, {**outputs, "grad_ref": tf.convert_to_tensor(grads[0]),
                      "grad_res": tf.convert_to_tensor(grads[1])}


VOCABULARIES = Path(__file__).resolve().parents[1] / "fixtures" / "feature_columns"


def vocabulary_files(tf):
    """categorical_column_with_vocabulary_file: strings and integers, the size read from the
    file or given, out-of-vocabulary ids -1, a default or hashed buckets."""
    fc = tf.feature_column
    features = _features(tf)
    tags = str(VOCABULARIES / "tags_vocabulary.txt")
    codes = str(VOCABULARIES / "codes_vocabulary.txt")
    columns = [
        fc.indicator_column(fc.categorical_column_with_vocabulary_file("tags", tags)),
        fc.embedding_column(fc.categorical_column_with_vocabulary_file(
            "code", codes, vocabulary_size=3, num_oov_buckets=2, dtype=tf.int64), 2,
            initializer=tf.constant_initializer(np.arange(10).reshape(5, 2) / 10.0)),
        fc.indicator_column(fc.categorical_column_with_vocabulary_file(
            "zip", codes, default_value=1, dtype=tf.int32)),
    ]
    return features, {"output": fc.input_layer(features, columns)}


def weighted(tf):
    """weighted_categorical_column: dense weights (0.0 dropped) of string tags into an
    indicator (sparse_merge, sparse_slice, scatter_nd) and an embedding (the weighted
    lookup), sparse weights of the sparse words, with gradients."""
    fc = tf.feature_column
    features = _features(tf)
    features["tag_weights"] = tf.constant([[0.5, 2.0], [1.5, 0.0], [0.0, 0.0], [3.0, 1.0]])
    features["word_weights"] = tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1], [3, 2]],
                                               values=[1.0, 2.0, 0.5, 4.0],
                                               dense_shape=[4, 3])
    tags = fc.weighted_categorical_column(
        fc.categorical_column_with_vocabulary_list("tags", ["a", "b", "c"]), "tag_weights")
    words = fc.weighted_categorical_column(
        fc.categorical_column_with_hash_bucket("words", 5), "word_weights")
    columns = [fc.indicator_column(tags), fc.indicator_column(words),
               fc.embedding_column(tags, 2, combiner="sqrtn",
                                   initializer=tf.constant_initializer(0.25)),
               fc.embedding_column(words, 3, combiner="sum",
                                   initializer=tf.truncated_normal_initializer(seed=3))]
    output = fc.input_layer(features, columns)
    tables = tf.global_variables()
    grads = tf.gradients(tf.reduce_sum(output * output), tables)
    return features, {"output": output, **{f"grad_{v.op.name}": tf.convert_to_tensor(g)
                                           for v, g in zip(tables, grads)}}


BUILDS = {"mixed": mixed, "trained": trained, "crossed": crossed, "lookups": lookups,
          "vocabulary_files": vocabulary_files, "weighted": weighted}


def run(tf, name):
    """{fetch name: value} after initialising (and, for `trained`, three steps), and the
    variables' collections."""
    graph = tf.Graph()
    with graph.as_default():
        features, fetches = BUILDS[name](tf)
        feed = feeds(features)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
            if "train" in fetches:
                losses = [float(sess.run([fetches["train"], fetches["loss"]], feed)[1])
                          for _ in range(3)]
                return graph, {"losses": losses,
                               "table": sess.run(fetches["table"]).tolist()}
            values = {"collections": [f"{key}: {getattr(v, 'name', v)}" for key in (
                tf.GraphKeys.GLOBAL_VARIABLES, tf.GraphKeys.MODEL_VARIABLES,
                tf.GraphKeys.TRAINABLE_VARIABLES) for v in tf.get_collection(key)]}
            return graph, {**values, **{key: [v.decode() if isinstance(v, bytes) else v
                                 for v in np.asarray(value).tolist()]
                           if np.asarray(value).dtype == object else np.asarray(value).tolist()
                           for key, value in sess.run(fetches, feed).items()}}


ERRORS = {
    "bucketize_categorical": lambda tf: tf.feature_column.bucketized_column(
        tf.feature_column.categorical_column_with_identity("a", 3), [1.0]),
    "boundaries_unsorted": lambda tf: tf.feature_column.bucketized_column(
        tf.feature_column.numeric_column("a"), [1.0, 0.5]),
    "boundaries_empty": lambda tf: tf.feature_column.bucketized_column(
        tf.feature_column.numeric_column("a"), []),
    "vocabulary_empty": lambda tf: tf.feature_column.categorical_column_with_vocabulary_list(
        "a", []),
    "vocabulary_duplicates": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_list("a", ["x", "y", "x"]),
    "vocabulary_oov_and_default": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_list("a", ["x"], default_value=0,
                                                                 num_oov_buckets=2),
    "hash_buckets_zero": lambda tf: tf.feature_column.categorical_column_with_hash_bucket(
        "a", 0),
    "identity_buckets_zero": lambda tf: tf.feature_column.categorical_column_with_identity(
        "a", 0),
    "identity_default_out_of_range": lambda tf:
        tf.feature_column.categorical_column_with_identity("a", 4, default_value=4),
    "embedding_dimension_zero": lambda tf: tf.feature_column.embedding_column(
        tf.feature_column.categorical_column_with_identity("a", 3), 0),
    "embedding_initializer_not_callable": lambda tf: tf.feature_column.embedding_column(
        tf.feature_column.categorical_column_with_identity("a", 3), 2, initializer=1.0),
    "normalizer_not_callable": lambda tf: tf.feature_column.numeric_column(
        "a", normalizer_fn=3),
    "numeric_string_dtype": lambda tf: tf.feature_column.numeric_column("a", dtype=tf.string),
    "input_layer_categorical": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([1])}, [tf.feature_column.categorical_column_with_identity("a", 3)]),
    "input_layer_missing_feature": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([1.0])}, [tf.feature_column.numeric_column("b")]),
    "input_layer_scalar_feature": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant(1.0)}, [tf.feature_column.numeric_column("a")]),
    "input_layer_empty": lambda tf: tf.feature_column.input_layer({"a": tf.constant([1.0])},
                                                                  []),
    "input_layer_duplicate": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([1.0])}, [tf.feature_column.numeric_column("a"),
                                    tf.feature_column.numeric_column("a")]),
    "input_layer_batch_sizes": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([1.0, 2.0]), "b": tf.constant([1.0, 2.0, 3.0])},
        [tf.feature_column.numeric_column("a"), tf.feature_column.numeric_column("b")]),
    "numeric_sparse_input": lambda tf: tf.feature_column.input_layer(
        {"a": tf.SparseTensor([[0, 0]], [1.0], [2, 2])},
        [tf.feature_column.numeric_column("a")]),
    "vocabulary_dtype_mismatch": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([1, 2])}, [tf.feature_column.indicator_column(
            tf.feature_column.categorical_column_with_vocabulary_list("a", ["x"]))]),
    "numeric_default_shape": lambda tf: tf.feature_column.numeric_column(
        "a", shape=(2,), default_value=[1.0, 2.0, 3.0]),
    "numeric_default_dtype": lambda tf: tf.feature_column.numeric_column(
        "a", dtype=tf.int64, default_value=0.5),
    "numeric_shape_not_int": lambda tf: tf.feature_column.numeric_column("a", shape=(2.0,)),
    "numeric_shape_zero": lambda tf: tf.feature_column.numeric_column("a", shape=(2, 0)),
    "crossed_one_key": lambda tf: tf.feature_column.crossed_column(["a"], 10),
    "crossed_no_buckets": lambda tf: tf.feature_column.crossed_column(["a", "b"], 0),
    "crossed_hashed_column": lambda tf: tf.feature_column.crossed_column(
        ["a", tf.feature_column.categorical_column_with_hash_bucket("b", 5)], 10),
    "crossed_numeric_column": lambda tf: tf.feature_column.crossed_column(
        ["a", tf.feature_column.numeric_column("b")], 10),
    "vocabulary_file_missing": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_file("a", "/nonexistent/vocab"),
    "vocabulary_file_empty_name": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_file("a", ""),
    "vocabulary_file_size_zero": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_file("a", "v.txt", 0),
    "vocabulary_file_oov_and_default": lambda tf:
        tf.feature_column.categorical_column_with_vocabulary_file("a", "v.txt", 3,
                                                                 num_oov_buckets=1,
                                                                 default_value=0),
    "weighted_string_dtype": lambda tf: tf.feature_column.weighted_categorical_column(
        tf.feature_column.categorical_column_with_identity("a", 3), "w", dtype=tf.string),
    "weighted_bad_weights_dtype": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant([[1]]), "w": tf.constant([[1]])},
        [tf.feature_column.indicator_column(tf.feature_column.weighted_categorical_column(
            tf.feature_column.categorical_column_with_identity("a", 3), "w"))]),
    "identity_of_strings": lambda tf: tf.feature_column.input_layer(
        {"a": tf.constant(["1"])}, [tf.feature_column.indicator_column(
            tf.feature_column.categorical_column_with_identity("a", 3))]),
}


def error_text(tf, name):
    """(exception class name, message) of the case, in a graph of its own."""
    with tf.Graph().as_default():
        try:
            ERRORS[name](tf)
        except (ValueError, TypeError) as error:
            return [type(error).__name__, str(error)]
    return None
