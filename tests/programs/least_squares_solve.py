"""Least squares three ways, as a TF 1.x linear-algebra tutorial showed them.

A polynomial fitted to noisy points through the normal equations (tf.matrix_solve, and
tf.matrix_inverse), tf.matrix_solve_ls with and without regularisation, and a Cholesky
factorisation with tf.cholesky_solve; the determinant, log-determinant and a triangular
solve checked; a singular system reports TensorFlow's error.
"""

import numpy as np

import engine as tf

rng = np.random.RandomState(3)
x_data = np.linspace(-1.0, 1.0, 25).astype(np.float32)
y_data = (0.5 - 1.2 * x_data + 2.0 * x_data ** 2 + 0.05 * rng.normal(size=25)).astype(np.float32)


def main():
    x = tf.constant(x_data)
    y = tf.reshape(tf.constant(y_data), [-1, 1])
    A = tf.stack([tf.ones_like(x), x, tf.square(x)], axis=1)
    AtA = tf.matmul(A, A, transpose_a=True)
    Aty = tf.matmul(A, y, transpose_a=True)

    coef_solve = tf.matrix_solve(AtA, Aty)
    coef_inverse = tf.matmul(tf.matrix_inverse(AtA), Aty)
    coef_ls = tf.matrix_solve_ls(A, y)
    coef_ridge = tf.matrix_solve_ls(A, y, l2_regularizer=0.5)
    L = tf.cholesky(AtA)
    coef_chol = tf.cholesky_solve(L, Aty)
    residual = tf.reduce_sum(tf.square(tf.matmul(A, coef_solve) - y))
    det = tf.matrix_determinant(AtA)
    sign, logdet = tf.linalg.slogdet(AtA)
    lower = tf.matrix_triangular_solve(L, Aty, lower=True)

    with tf.Session() as sess:
        for name, t in [("solve", coef_solve), ("inverse", coef_inverse),
                        ("solve_ls", coef_ls), ("ridge", coef_ridge), ("cholesky", coef_chol)]:
            print("%-9s" % name, sess.run(t).ravel())
        print("residual sum of squares: %.6f" % sess.run(residual))
        print("det(AtA) = %.4f, sign %d, log|det| = %.5f" % tuple(sess.run([det, sign, logdet])))
        print("L^-1 Aty:", sess.run(lower).ravel())
        print("L:")
        print(sess.run(L))
        singular = tf.constant([[1.0, 2.0], [2.0, 4.0]])
        try:
            sess.run(tf.matrix_solve(singular, tf.ones([2, 1])))
        except tf.errors.InvalidArgumentError as e:
            print("InvalidArgumentError:", e.message.splitlines()[0])


if __name__ == "__main__":
    main()
