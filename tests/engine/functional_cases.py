"""tf.map_fn, tf.scan, tf.foldl and tf.foldr, built the same way by real TensorFlow and the engine.

Each case is `(build(tf, x, y, w) -> output structure, x's static shape)`: x and y are float64
placeholders fed X and Y (y of X's shape), w a float64 variable of value W. `build_case`
differentiates the sum of squares of every float output with respect to x, y and w (None
where TensorFlow gives None); tools/make_functional_fixtures.py writes TensorFlow's values,
static shapes and graphs to tests/fixtures/functional/, tests/engine/test_functional_ops.py
compares the engine's with them.
"""

import numpy as np

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-2.0, 0.75, 1.0], [0.3, 0.6, -0.9]])
Y = np.array([[1.0, 0.5, -0.25], [-0.75, 2.0, 0.1], [0.4, -1.5, 0.9], [1.2, 0.2, -0.3]])
W = np.array([0.8, -0.6, 1.1])


def map_basic(tf, x, y, w):
    return tf.map_fn(lambda e: tf.tanh(e * w), x)


def map_dtype(tf, x, y, w):
    # The output's element shape differs from the input's: dtype= names it.
    return tf.map_fn(lambda e: tf.reduce_sum(e * w), x, dtype=tf.float64)


def map_int(tf, x, y, w):
    return tf.map_fn(lambda e: tf.cast(tf.greater(tf.reduce_sum(e * w), 0.0), tf.int32), x,
                     dtype=tf.int32)


def map_tuple_in(tf, x, y, w):
    return tf.map_fn(lambda ab: ab[0] * ab[1] * w, (x, y), dtype=tf.float64)


def map_nested_in(tf, x, y, w):
    return tf.map_fn(lambda t: t[0] + t[1][0] * t[1][1] * w, (x, (y, x)), dtype=tf.float64,
                     name="nested")


def map_tuple_out(tf, x, y, w):
    return tf.map_fn(lambda e: (tf.sin(e * w), tf.reduce_sum(e)), x,
                     dtype=(tf.float64, tf.float64))


def map_same_structure(tf, x, y, w):
    return tf.map_fn(lambda ab: (ab[0] * w, ab[1] - ab[0]), (x, y))


def map_unknown_length(tf, x, y, w):
    return tf.map_fn(lambda e: tf.exp(e * w * 0.5), x, parallel_iterations=4)


def map_no_back_prop(tf, x, y, w):
    return tf.map_fn(lambda e: e * w, x, back_prop=False) + y


def scan_sum(tf, x, y, w):
    return tf.scan(lambda a, e: a + e * w, x)


def scan_initializer(tf, x, y, w):
    return tf.scan(lambda a, e: a * 0.5 + tf.reduce_sum(e * w), x,
                   initializer=tf.constant(0.0, tf.float64))


def scan_reverse(tf, x, y, w):
    return tf.scan(lambda a, e: tf.tanh(a * w + e), x, reverse=True)


def scan_tuple_initializer(tf, x, y, w):
    # Fibonacci-like: two accumulators, each step mixes them with the element.
    return tf.scan(lambda a, e: (a[1], a[0] + a[1] * e), x,
                   initializer=(tf.ones([3], tf.float64), w))


def scan_tuple_elems(tf, x, y, w):
    return tf.scan(lambda a, e: a * w + e[0] * e[1], (x, y),
                   initializer=tf.zeros([3], tf.float64), reverse=True, name="pairs")


def scan_unknown_length(tf, x, y, w):
    return tf.scan(lambda a, e: a * 0.9 + e * w, x)


def foldl_sum(tf, x, y, w):
    return tf.foldl(lambda a, e: a + e * w, x)


def foldl_initializer(tf, x, y, w):
    return tf.foldl(lambda a, e: a * e + w, x, initializer=tf.ones([3], tf.float64))


def foldl_tuple(tf, x, y, w):
    return tf.foldl(lambda a, e: (a[0] + e[0] * e[1], a[1] * w), (x, y),
                    initializer=(tf.zeros([3], tf.float64), tf.ones([3], tf.float64)))


def foldr_sum(tf, x, y, w):
    return tf.foldr(lambda a, e: a * 0.5 + e * w, x)


def foldr_initializer(tf, x, y, w):
    return tf.foldr(lambda a, e: tf.sin(a * e) + w, x, initializer=tf.ones([3], tf.float64),
                    name="right")


def foldr_unknown_length(tf, x, y, w):
    return tf.foldr(lambda a, e: a - e * w, x, initializer=w)


def map_in_scan(tf, x, y, w):
    # A map inside a scan: nested while loops over TensorArrays.
    return tf.scan(lambda a, e: a + tf.map_fn(tf.sin, e) * w, x)


KNOWN = list(X.shape)
UNKNOWN = [None, 3]
CASES = {
    "map_basic": (map_basic, KNOWN),
    "map_dtype": (map_dtype, KNOWN),
    "map_int": (map_int, KNOWN),
    "map_tuple_in": (map_tuple_in, KNOWN),
    "map_nested_in": (map_nested_in, KNOWN),
    "map_tuple_out": (map_tuple_out, KNOWN),
    "map_same_structure": (map_same_structure, KNOWN),
    "map_unknown_length": (map_unknown_length, UNKNOWN),
    "map_no_back_prop": (map_no_back_prop, KNOWN),
    "scan_sum": (scan_sum, KNOWN),
    "scan_initializer": (scan_initializer, KNOWN),
    "scan_reverse": (scan_reverse, KNOWN),
    "scan_tuple_initializer": (scan_tuple_initializer, KNOWN),
    "scan_tuple_elems": (scan_tuple_elems, KNOWN),
    "scan_unknown_length": (scan_unknown_length, UNKNOWN),
    "foldl_sum": (foldl_sum, KNOWN),
    "foldl_initializer": (foldl_initializer, KNOWN),
    "foldl_tuple": (foldl_tuple, KNOWN),
    "foldr_sum": (foldr_sum, KNOWN),
    "foldr_initializer": (foldr_initializer, KNOWN),
    "foldr_unknown_length": (foldr_unknown_length, UNKNOWN),
    "map_in_scan": (map_in_scan, KNOWN),
}


def flat_outputs(tf, output):
    """The output structure's tensors, in tf.nest order (tuples here only)."""
    if isinstance(output, (tuple, list)):
        return [t for item in output for t in flat_outputs(tf, item)]
    return [output]


def build_case(tf, name):
    """(feed dict, flat outputs, loss, gradients w.r.t. [x, y, w]) in the default graph."""
    build, x_shape = CASES[name]
    x = tf.placeholder(tf.float64, x_shape, name="x")
    y = tf.placeholder(tf.float64, x_shape, name="y")
    w = tf.Variable(W, name="w")
    outputs = flat_outputs(tf, build(tf, x, y, w))
    floats = [out for out in outputs if out.dtype == tf.float64]
    loss = (tf.add_n([tf.reduce_sum(out * out) for out in floats]) if floats
            else tf.constant(0.0, tf.float64, name="no_float_output"))
    grads = tf.gradients(loss, [x, y, w])
    return {x: X, y: Y}, outputs, loss, grads


def run_case(tf, name):
    """{"out<i>", "loss", "grad<j>" (absent where None)} and the outputs' static shapes."""
    with tf.Graph().as_default():
        feed, outputs, loss, grads = build_case(tf, name)
        present = [(j, g) for j, g in enumerate(grads) if g is not None]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            fetched = sess.run([outputs, loss, [g for _, g in present]], feed)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    values = {f"out{i}": v for i, v in enumerate(fetched[0])}
    values["loss"] = fetched[1]
    values.update({f"grad{j}": v for (j, _), v in zip(present, fetched[2])})
    return values, shapes
