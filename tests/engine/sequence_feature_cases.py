"""tf.io.FixedLenSequenceFeature inside tf.parse_example and tf.parse_single_example
(allow_missing, default_value as the padding), replayed on TensorFlow (through tools/tf_shim,
by tools/make_sequence_feature_fixtures.py) and on the engine
(tests/engine/test_sequence_features.py): values, static shapes, the ParseExampleV2 node and
its dense_shapes, the kernel's errors and the Python ValueErrors."""

from tests.engine.padding_queue_cases import _error, _run, _shapes


def _example(tf, **features):
    feature = {}
    for key, (kind, values) in features.items():
        if kind == "int64":
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
        elif kind == "float":
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        else:
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def sparse_features(tf):
    """tf.io.SparseFeature in parse_example: one index key and two (a 2-D SparseTensor),
    unsorted indices, examples without the keys; the ops sparse_merge adds."""
    out = {}
    records = [_example(tf, ix=("int64", [3, 0]), val=("float", [1.5, 2.5]),
                        r=("int64", [1, 0, 1]), c=("int64", [2, 1, 0]),
                        w=("bytes", [b"a", b"b", b"c"])),
               _example(tf),
               _example(tf, ix=("int64", [4]), val=("float", [-1.0]),
                        r=("int64", [0]), c=("int64", [0]), w=("bytes", [b"z"]))]
    graph = tf.Graph()
    with graph.as_default():
        serialized = tf.placeholder(tf.string, [None])
        features = {"vec": tf.io.SparseFeature("ix", "val", tf.float32, 5),
                    "grid": tf.SparseFeature(["r", "c"], "w", tf.string, [2, 3]),
                    "ix": tf.io.VarLenFeature(tf.int64)}
        parsed = tf.parse_example(serialized, features)
        out["keys"] = sorted(parsed)
        out["shapes"] = {k: [str(v.indices.shape), str(v.values.shape),
                             str(v.dense_shape.shape)] for k, v in sorted(parsed.items())}
        out["graph"] = [[op.name, op.type] for op in graph.get_operations()]
        with tf.Session() as sess:
            out["values"] = _run(sess, parsed, {serialized: records})
    graph = tf.Graph()
    with graph.as_default():
        serialized = tf.placeholder(tf.string, [None])
        for key, feature in (
                ("no_index", {"x": tf.io.SparseFeature(None, "v", tf.float32, 3)}),
                ("no_value", {"x": tf.io.SparseFeature("i", None, tf.float32, 3)}),
                ("no_dtype", {"x": tf.io.SparseFeature("i", "v", None, 3)}),
                ("conflict", {"x": tf.io.SparseFeature("i", "v", tf.float32, 3),
                              "v": tf.io.VarLenFeature(tf.int64)})):
            try:
                tf.parse_example(serialized, feature)
                out[key] = None
            except Exception as ex:  # noqa: BLE001
                out[key] = _error(ex)
    return out


def replay(tf):
    out = {"sparse_features": sparse_features(tf)}
    records = [_example(tf, ids=("int64", [1, 2, 3]), pairs=("float", [1.0, 2.0]),
                        words=("bytes", [b"a"])),
               _example(tf, ids=("int64", [4]), words=("bytes", [b"b", b"c", b"d"])),
               _example(tf, pairs=("float", [5.0, 6.0, 7.0, 8.0]))]
    graph = tf.Graph()
    with graph.as_default():
        serialized = tf.placeholder(tf.string, [None])
        features = {
            "ids": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
            "pairs": tf.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                                default_value=-1.0),
            "words": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True,
                                                   default_value="pad"),
            "label": tf.io.FixedLenFeature([], tf.int64, default_value=7)}
        parsed = tf.parse_example(serialized, features)
        out["shapes"] = _shapes(parsed)
        op = parsed["ids"].op
        out["node"] = [op.name, op.type,
                       [tf.TensorShape(s).as_list() for s in op.get_attr("dense_shapes")]]
        single = tf.placeholder(tf.string, [])
        one = tf.io.parse_single_example(single, features)
        out["single_shapes"] = _shapes(one)
        with tf.Session() as sess:
            out["batch"] = _run(sess, parsed, {serialized: records})
            out["empty"] = _run(sess, parsed, {serialized: []})
            out["single"] = _run(sess, one, {single: records[1]})
            out["odd_stride"] = _run(sess, parsed, {serialized: [
                _example(tf, pairs=("float", [1.0, 2.0, 3.0]))]})
            out["odd_stride_single"] = _run(sess, one, {single: _example(
                tf, pairs=("float", [1.0, 2.0, 3.0]))})
            out["wrong_type"] = _run(sess, parsed, {serialized: [
                _example(tf, ids=("float", [1.0]))]})
    graph = tf.Graph()
    with graph.as_default():
        serialized = tf.placeholder(tf.string, [None])
        for key, feature in (
                ("not_allow_missing", tf.io.FixedLenSequenceFeature([], tf.int64)),
                ("no_dtype", tf.io.FixedLenSequenceFeature([], None, allow_missing=True)),
                ("no_shape", tf.io.FixedLenSequenceFeature(None, tf.int64,
                                                           allow_missing=True))):
            try:
                tf.parse_example(serialized, {"x": feature})
                out[key] = None
            except Exception as ex:  # noqa: BLE001
                out[key] = _error(ex)
        out["repr"] = repr(tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True))
    return out
