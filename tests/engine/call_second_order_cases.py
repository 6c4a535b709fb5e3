"""Second-order gradients through tf.function calls, built the same way by real TensorFlow
and the engine: tf.gradients of tf.gradients and tf.hessians of a call's output, with two
arguments, a captured variable (a StatefulPartitionedCall), a call inside the function and
a while loop inside it (not reproduced: NOT_REPRODUCED). tools/make_call_second_order_fixtures.py writes TensorFlow's values,
nodes and the functions each call calls (numbers left out: TensorFlow's uids count its
process's functions) to tests/fixtures/call_second_order/; tests/engine/
test_call_second_order.py compares the engine's."""

import re

import numpy as np

X = np.array([1.0, 2.0, 3.0], np.float32)
Y = np.array([0.5, -1.5, 2.0], np.float32)
W = np.array([2.0, 0.25, -1.0], np.float32)


def cube(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(x * x * x)
    x = tf.constant(X)
    y = f(x)
    dy = tf.gradients(y, x)[0]
    return {"y": y, "dy": dy, "d2y": tf.gradients(dy, x)[0]}


def cube_hessians(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(x * x * x)
    x = tf.constant(X)
    return {"hessian": tf.hessians(f(x), x)[0]}


def two_arguments_and_a_variable(tf):
    w = tf.get_variable("w", initializer=W, use_resource=True)

    @tf.function
    def f(x, y):
        return tf.reduce_sum(x * x * y * w + y * y * y)
    x, y = tf.constant(X), tf.constant(Y)
    out = f(x, y)
    dx, dy = tf.gradients(out, [x, y])
    return {"dxx": tf.gradients(dx, x)[0], "dxy": tf.gradients(dx, y)[0],
            "dyy": tf.gradients(dy, y)[0], "dxw": tf.gradients(dx, w)[0],
            "hessians": tf.hessians(out, [x, y])}


def nested_call(tf):
    @tf.function
    def square(x):
        return x * x

    @tf.function
    def f(x):
        return tf.reduce_sum(square(x) * x * 2.0)
    x = tf.constant(X)
    dy = tf.gradients(f(x), x)[0]
    return {"dy": dy, "d2y": tf.gradients(dy, x)[0]}


def loop_in_body(tf):
    @tf.function
    def f(x):
        _, total = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * x),
                                 [0, tf.ones_like(x)])
        return tf.reduce_sum(total)
    x = tf.constant(X)
    dy = tf.gradients(f(x), x)[0]
    return {"dy": dy, "d2y": tf.gradients(dy, x)[0]}


CASES = {"cube": cube, "cube_hessians": cube_hessians,
         "two_arguments_and_a_variable": two_arguments_and_a_variable,
         "nested_call": nested_call}
ERROR_CASES = {}
# TensorFlow traces the loop as a While op and differentiates it twice; the engine's body
# holds a TF1 loop, whose second-order gradient it refuses (tests/engine/
# test_call_second_order.py).
NOT_REPRODUCED = {"loop_in_body": loop_in_body}


def build_case(tf, name):
    return {**CASES, **ERROR_CASES, **NOT_REPRODUCED}[name](tf)


def calls_made(graph):
    """The function each call node of `graph` calls, in graph order, with the numbers
    TensorFlow's uids put in a name left out (`__forward___backward_f_N_N`)."""
    return np.array([re.sub(r"_\d+", "_N", node.attr["f"].func.name)
                     for node in graph.as_graph_def().node
                     if node.op in ("PartitionedCall", "StatefulPartitionedCall")])


def run_case(tf, name):
    """({key: value} with the calls made, {key: static shape})."""
    with tf.Graph().as_default() as graph:
        fetches = build_case(tf, name)
        flat = {}
        for key, value in fetches.items():
            if isinstance(value, list):
                flat.update({f"{key}_{i}": v for i, v in enumerate(value)})
            else:
                flat[key] = value
        shapes = {key: str(value.shape) for key, value in flat.items()}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = sess.run(flat)
        values["calls"] = calls_made(graph)
    return values, shapes


def run_error_case(tf, name):
    """TensorFlow's error class and first line of message."""
    try:
        run_case(tf, name)
    except Exception as error:  # noqa: BLE001  (the class and words are what is recorded)
        message = getattr(error, "message", None) or str(error)
        return type(error).__name__, message.splitlines()[0]
    return None, None
