"""tf.data.AUTOTUNE, INFINITE_CARDINALITY and UNKNOWN_CARDINALITY, replayed on TensorFlow
(through tools/tf_shim, by tools/make_data_constants_fixtures.py) and on the engine
(tests/engine/test_data_constants.py): their values and a pipeline that passes AUTOTUNE to
map and prefetch (its op types and elements)."""


def replay(tf):
    out = {"constants": [tf.data.AUTOTUNE, tf.data.INFINITE_CARDINALITY,
                         tf.data.UNKNOWN_CARDINALITY]}
    graph = tf.Graph()
    with graph.as_default():
        ds = (tf.data.Dataset.range(5).map(lambda x: x * 2, num_parallel_calls=tf.data.AUTOTUNE)
              .prefetch(tf.data.AUTOTUNE).batch(2).repeat(tf.data.INFINITE_CARDINALITY))
        element = tf.data.make_one_shot_iterator(ds).get_next()
        out["op_types"] = sorted({op.type for op in graph.get_operations()})
        out["shape"] = str(element.shape)
        with tf.Session() as sess:
            out["elements"] = [sess.run(element).tolist() for _ in range(4)]
    return out
