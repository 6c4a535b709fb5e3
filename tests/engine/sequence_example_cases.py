"""tf.io.parse_sequence_example and tf.io.parse_single_sequence_example (one
ParseSequenceExampleV2 node) replayed on TensorFlow (through tools/tf_shim, by
tools/make_sequence_feature_fixtures.py) and on the engine
(tests/engine/test_sequence_features.py): context and feature-list values, dense lengths,
sparse triples, static shapes, the node, and the kernel's errors for malformed protos."""

from tests.engine.padding_queue_cases import _error, _run


def _feature(tf, kind, values):
    if kind == "int64":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    if kind == "float":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))


def _sequence_example(tf, context, lists):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(tf, *v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(tf, kind, v) for v in steps])
            for k, (kind, steps) in lists.items()})).SerializeToString()


def _static(parsed):
    out = {}
    for part, values in zip(("context", "lists", "lengths"), parsed):
        for key in sorted(values):
            value = values[key]
            if hasattr(value, "indices"):
                out[f"{part}/{key}"] = [str(value.indices.shape), str(value.values.shape),
                                        str(value.dense_shape.shape)]
            else:
                out[f"{part}/{key}"] = str(value.shape)
    return out


def replay(tf):
    out = {}
    records = [
        _sequence_example(tf, {"length": ("int64", [3]), "tags": ("bytes", [b"x", b"y"])},
                          {"tokens": ("int64", [[1], [2], [3]]),
                           "vec": ("float", [[1.0, 2.0]]),
                           "words": ("bytes", [[b"a", b"b"], [], [b"c"]])}),
        _sequence_example(tf, {"length": ("int64", [1]), "w": ("float", [3.0, 4.0])},
                          {"tokens": ("int64", [[9]])})]
    context = {"length": tf.io.FixedLenFeature([], tf.int64),
               "tags": tf.io.VarLenFeature(tf.string),
               "w": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.5, 0.5])}
    sequence = {"tokens": tf.io.FixedLenSequenceFeature([], tf.int64),
                "vec": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                "words": tf.io.VarLenFeature(tf.string)}
    graph = tf.Graph()
    with graph.as_default():
        serialized = tf.placeholder(tf.string, [None])
        parsed = tf.io.parse_sequence_example(serialized, context, sequence)
        out["shapes"] = _static(parsed)
        op = parsed[2]["tokens"].op
        out["node"] = [op.name, op.type, len(op.outputs)]
        single = tf.placeholder(tf.string, [])
        one = tf.parse_single_sequence_example(single, context, sequence)
        out["single_shapes"] = _static(one)
        out["single_node"] = [one[1]["tokens"].op.name, one[1]["tokens"].op.type]
        with tf.Session() as sess:
            out["batch"] = _run(sess, parsed, {serialized: records})
            out["single"] = _run(sess, one, {single: records[0]})
            out["missing_list"] = _run(sess, parsed, {serialized: [_sequence_example(
                tf, {"length": ("int64", [1])}, {})]})
            out["missing_list_single"] = _run(sess, one, {single: _sequence_example(
                tf, {"length": ("int64", [1])}, {})})
            out["missing_context"] = _run(sess, parsed, {serialized: [_sequence_example(
                tf, {}, {"tokens": ("int64", [[1]])})]})
            out["list_type"] = _run(sess, parsed, {serialized: [_sequence_example(
                tf, {"length": ("int64", [1])}, {"tokens": ("float", [[1.0]])})]})
            out["list_stride"] = _run(sess, parsed, {serialized: [_sequence_example(
                tf, {"length": ("int64", [1])}, {"tokens": ("int64", [[1, 2]])})]})
            out["garbage"] = _run(sess, parsed, {serialized: [b"\xff\xffgarbage"]})
    graph = tf.Graph()
    with graph.as_default():
        for key, call in (
                ("no_features", lambda: tf.io.parse_sequence_example(["x"])),
                ("no_features_single", lambda: tf.io.parse_single_sequence_example("x"))):
            try:
                call()
                out[key] = None
            except Exception as ex:  # noqa: BLE001
                out[key] = _error(ex)
    return out
