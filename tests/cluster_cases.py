"""The two-task graph the cluster debugger tests step (tests/inspector, tests/views)."""

import contextlib

import engine as tf

V, X = [1.0, 2.0], [0.5, -1.0]  # v's initial value on the ps; the worker's fed x


@contextlib.contextmanager
def ps_worker_session(address):
    """A session on the cluster at `address`: v lives on the ps, which scales it; the worker
    adds the fed x and sums. Yields (session, {"x", "total"}) with v initialized."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(V, name="v")
            scaled = tf.multiply(v, 3.0, name="scaled")
        with tf.device("/job:worker/task:0"):
            x = tf.placeholder(tf.float32, [2], name="x")
            total = tf.reduce_sum(tf.add(scaled, x, name="y"), name="total")
    with tf.Session(address, graph=graph) as sess:
        sess.run(v.initializer)
        yield sess, {"x": x, "total": total}
