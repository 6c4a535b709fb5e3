"""tf.while_loops nested `depth` deep: the innermost runs three times adding its counter, each
outer one once adding 1 to what the loop inside gave: the probe behind tests/fixtures/hostile/runs.json's
`deep_nested_while`, run on TensorFlow by tools/make_hostile_fixtures.py and on the engine by
tests/engine/test_hostile_imports.py (each passes its own `tf`)."""


def deep_while(tf, depth):
    """The fetched value of `depth` nested loops over x = 1.0."""
    def loop(level, x):
        def body(i, y):
            y = y + tf.cast(i, tf.float32) if level == 0 else loop(level - 1, y) + 1.0
            return i + 1, y
        runs = 3 if level == 0 else 1
        return tf.while_loop(lambda i, y: i < runs, body, [tf.constant(0), x])[1]

    with tf.Graph().as_default():
        out = loop(depth - 1, tf.constant(1.0))
        with tf.Session() as sess:
            return float(sess.run(out))
