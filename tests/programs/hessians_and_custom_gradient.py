"""tf.hessians and @tf.custom_gradient as TF 1.x code used them: the Hessian of a small
loss (a while loop of tf.gradients into a TensorArray), a gradient-clipping identity, a
numerically stable log(1 + e^x), a layer whose grad_fn gives its variables' gradients, a
function of two results; every node of the graph (names, ops, inputs), the values, and the
decorator's errors."""
import numpy as np

import engine as tf


def nodes():
    for op in tf.get_default_graph().get_operations():
        print(op.name, op.type, [t.name for t in op.inputs],
              [c.name for c in op.control_inputs])


def hessians():
    tf.reset_default_graph()
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]], dtype=tf.float64, name="x")
    w = tf.placeholder_with_default(np.array([0.5, -2.0, 1.5]), [3], name="w")
    y = tf.reduce_sum(tf.sin(x) * x * x) + tf.reduce_sum(tf.tanh(w) ** 3) \
        + tf.reduce_sum(x[0] * w[:2])
    hx, hw = tf.hessians(y, [x, w])
    h_single = tf.hessians(tf.reduce_sum(w * w * w), w, name="ignored")[0]
    print(hx.name, str(hx.shape), hw.name, str(hw.shape), h_single.name)
    nodes()
    with tf.Session() as sess:
        for value in sess.run([hx, hw, h_single]):
            print(np.round(value, 5).tolist())


def custom_gradients():
    tf.reset_default_graph()
    w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
    b = tf.get_variable("b", initializer=tf.constant([0.1, 0.2]))

    @tf.custom_gradient
    def clip_gradient(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.1, 0.1)
        return tf.identity(x * 2.0), grad

    @tf.custom_gradient
    def log1pexp(x, y):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e)), tf.reduce_sum(dy * 2.0)
        return tf.math.log(1 + e) + y * 2.0, grad

    @tf.custom_gradient
    def dense(x):
        y = tf.matmul(x, w) + b

        def grad(dy, variables=None):
            dx = tf.matmul(dy, w, transpose_b=True)
            # variables come sorted by name: b, then w
            return dx, [tf.reduce_sum(dy, 0) * 2.0, tf.matmul(x, dy, transpose_a=True) * 0.5]
        return y, grad

    @tf.custom_gradient
    def pair(a, c):
        def grad(da, dc):
            return da * 3.0, dc + da
        return (a * c, tf.square(c)), grad

    x = tf.constant([[1.0, 50.0], [-3.0, 4.0]], name="x")
    s = tf.constant(0.5, name="s")
    a = clip_gradient(x)
    c = log1pexp(x, s)
    d = dense(x)
    p, q = pair(x, tf.constant(2.0) * x)
    loss = tf.reduce_sum(a) + tf.reduce_sum(c) + tf.reduce_sum(d * d) + tf.reduce_sum(p) \
        + tf.reduce_sum(q)
    grads = tf.gradients(loss, [x, s, w, b])
    print(a.name, c.name, d.name, p.name, q.name, clip_gradient.__name__)
    nodes()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for value in sess.run([a, c, d, p, q] + grads):
            print(np.round(value, 4).tolist())
    errors(x, w)


def errors(x, w):
    @tf.custom_gradient
    def double(x):
        return x * 2.0, lambda dy: dy

    @tf.custom_gradient
    def uses_w(x):
        return x * w, lambda dy: dy

    @tf.custom_gradient
    def makes_variable(x):
        v = tf.Variable(1.0, name="inner")
        return x * v, lambda dy: dy

    @tf.custom_gradient
    def wrong_shape(x, s):
        return x * s, lambda dy: (dy, dy)

    for call in (lambda: double(x=x), lambda: uses_w(x), lambda: makes_variable(x),
                 lambda: tf.gradients(wrong_shape(x, tf.constant(2.0)), x)):
        try:
            call()
        except (TypeError, ValueError) as error:
            print(type(error).__name__, str(error).split(": [<")[0])


def main():
    hessians()
    custom_gradients()


if __name__ == "__main__":
    main()
