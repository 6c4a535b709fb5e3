"""While loops (v1) and their gradients, built the same way by real TensorFlow and the engine.

Each case is `(build(tf, *inputs) -> loop output, input values)`; `run_case` builds the case on
float64 placeholders (of unknown shape for the "unknown_shape" case), differentiates
sum(output * output) with respect to every input and runs both. tools/make_while_grad_fixtures.py
writes TensorFlow's values (and the GraphDef of SIMPLE) to tests/fixtures/while_grad/;
tests/engine/test_while_gradients.py compares the engine's with them.
"""

import numpy as np


def power(tf, x):
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x),
                         [0, tf.ones_like(x)])[1]


def matmul(tf, x, w):
    return tf.while_loop(lambda i, v: i < 4,
                         lambda i, v: (i + 1, tf.tanh(tf.matmul(v, w))), [0, x])[1]


def nested(tf, x):
    def body(i, v):
        _, u = tf.while_loop(lambda j, u: j < i, lambda j, u: (j + 1, u * x + 0.5), [0, v])
        return i + 1, u
    return tf.while_loop(lambda i, v: i < 3, body, [0, x])[1]


def maximum_iterations(tf, x):
    return tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: v * x + 1.0, [x],
                         maximum_iterations=4)


def unused_loop_var(tf, x):
    return tf.while_loop(lambda a, b: tf.reduce_sum(a) < 50.0,
                         lambda a, b: (a * 2.0 + x, b + a), [x, x])[0]


def cond_in_loop(tf, x):
    def body(i, v):
        return i + 1, tf.cond(i % 2 < 1, lambda: v * x, lambda: tf.sin(v))
    return tf.while_loop(lambda i, v: i < 4, body, [0, x])[1]


def unknown_shape(tf, x):
    return tf.while_loop(lambda i, v: i < 3,
                         lambda i, v: (i + 1, tf.square(v) * 0.5 + x), [0, x])[1]


def seed_loop(tf, a):
    """The seed's while_loop (tests/programs/while_loop.py), with a product to differentiate."""
    return tf.while_loop(lambda i, a: tf.less(i, 1000),
                         lambda i, a: (tf.add(i, 1), tf.add(a, 1.0) * 0.999),
                         [tf.constant(0), a])[1]


CASES = {
    "power": (power, [np.array([1.5, -0.7, 2.0])]),
    "matmul": (matmul, [np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6]]),
                        np.array([[0.5, -0.3, 0.2], [0.1, 0.7, -0.4], [0.6, 0.2, 0.3]])]),
    "nested": (nested, [np.array([0.9, 1.1])]),
    "maximum_iterations": (maximum_iterations, [np.array([1.2, 0.8])]),
    "unused_loop_var": (unused_loop_var, [np.array([1.0, 2.0])]),
    "cond_in_loop": (cond_in_loop, [np.array([0.6, 1.3])]),
    "unknown_shape": (unknown_shape, [np.array([0.3, -0.4])]),
    "seed_loop": (seed_loop, [np.linspace(-1.0, 1.0, 10)]),
}


def build_case(tf, name):
    """(placeholders, loss, gradients) of case `name` in the default graph."""
    build, values = CASES[name]
    shapes = [[None] * v.ndim if name == "unknown_shape" else list(v.shape) for v in values]
    inputs = [tf.placeholder(tf.float64, shape, name=f"in{i}") for i, shape in enumerate(shapes)]
    y = build(tf, *inputs)
    loss = tf.reduce_sum(y * y)
    return inputs, loss, tf.gradients(loss, inputs)


def run_case(tf, name):
    """{"loss": value, "grad<i>": value} for case `name`, built and run in a new graph."""
    with tf.Graph().as_default():
        inputs, loss, grads = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run([loss] + grads, dict(zip(inputs, CASES[name][1])))
    return {"loss": fetched[0], **{f"grad{i}": g for i, g in enumerate(fetched[1:])}}


def build_simple(tf):
    """SIMPLE: the gradient graph whose GraphDef is compared node for node."""
    x = tf.placeholder(tf.float32, [], name="x")
    _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x),
                         [tf.constant(0), tf.constant(1.0)])
    return x, y, tf.gradients(y, x)[0]
