"""Gaussian-process regression in TF 1.x, as GPflow-era notebooks (2017) wrote it by hand: an RBF
kernel with trainable log lengthscale, log variance and log noise, the Cholesky factor of
K + noise * I, alpha by tf.cholesky_solve, the predictive mean and variance through
tf.matrix_triangular_solve, the log marginal likelihood (log det from the factor's diagonal)
maximized with Adam, and the posterior at a few test points."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def rbf(a, b, lengthscale, variance):
    sq = (tf.reduce_sum(tf.square(a), 1)[:, None] - 2 * tf.matmul(a, b, transpose_b=True)
          + tf.reduce_sum(tf.square(b), 1)[None, :])
    return variance * tf.exp(-0.5 * sq / tf.square(lengthscale))


def main():
    tf.reset_default_graph()
    rng = np.random.RandomState(1)
    x_train = np.sort(rng.uniform(-3, 3, (24, 1)), axis=0)
    y_train = np.sin(2 * x_train) + 0.1 * rng.randn(24, 1)
    x_test = np.linspace(-3, 3, 5).reshape(-1, 1)
    x = tf.constant(x_train, tf.float64)
    y = tf.constant(y_train, tf.float64)
    xs = tf.constant(x_test, tf.float64)
    log_lengthscale = tf.Variable(0.0, dtype=tf.float64, name="log_lengthscale")
    log_variance = tf.Variable(0.0, dtype=tf.float64, name="log_variance")
    log_noise = tf.Variable(np.log(0.5), dtype=tf.float64, name="log_noise")
    lengthscale, variance = tf.exp(log_lengthscale), tf.exp(log_variance)
    noise = tf.exp(log_noise)
    n = tf.shape(x)[0]
    K = rbf(x, x, lengthscale, variance) + noise * tf.eye(n, dtype=tf.float64)
    L = tf.cholesky(K)
    alpha = tf.cholesky_solve(L, y)
    log_det = 2.0 * tf.reduce_sum(tf.log(tf.matrix_diag_part(L)))
    n_float = tf.cast(n, tf.float64)
    lml = (-0.5 * tf.reduce_sum(y * alpha) - 0.5 * log_det
           - 0.5 * n_float * np.log(2 * np.pi))
    train = tf.train.AdamOptimizer(0.05).minimize(-lml)
    Ks = rbf(x, xs, lengthscale, variance)
    mean = tf.matmul(Ks, alpha, transpose_a=True)
    v = tf.matrix_triangular_solve(L, Ks, lower=True)
    var = variance - tf.reduce_sum(tf.square(v), 0)
    print("K", K.get_shape().as_list(), "alpha", alpha.get_shape().as_list(),
          "v", v.get_shape().as_list())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(100):
            value, _ = sess.run([lml, train])
            if step % 20 == 0:
                print("step %3d log marginal likelihood %.6f" % (step, value))
        ls, vr, nz = sess.run([lengthscale, variance, noise])
        print("lengthscale %.5f variance %.5f noise %.6f" % (ls, vr, nz))
        m, s = sess.run([mean, var])
        for point, mu, sd in zip(x_test[:, 0], m[:, 0], np.sqrt(s)):
            print("x % .2f mean % .5f std %.5f" % (point, mu, sd))
        check = sess.run(tf.reduce_max(tf.abs(tf.matmul(K, alpha) - y)))
        print("K alpha = y within 1e-8:", bool(check < 1e-8))


if __name__ == "__main__":
    main()
