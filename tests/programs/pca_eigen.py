"""PCA by eigen-decomposition of the covariance matrix, as course labs of the TF 1.x era did it.

A small correlated data set (NumPy, seeded), centred in the graph; tf.self_adjoint_eig of the
covariance; the explained variance of each component; the data projected on the two leading
eigenvectors (whose signs are Eigen's, as TensorFlow's) and reconstructed from them; the
eigenvalues again through tf.self_adjoint_eigvals and the whitened data's covariance.
"""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

rng = np.random.RandomState(7)
latent = rng.normal(size=(60, 2))
mixing = np.array([[2.0, 0.5, -1.0, 0.3], [0.2, -1.5, 0.7, 1.1]])
data = (latent @ mixing + 0.1 * rng.normal(size=(60, 4))).astype(np.float32)


def main():
    print("TensorFlow", tf.__version__)
    X = tf.placeholder(tf.float32, [None, 4], name="X")
    n = tf.cast(tf.shape(X)[0], tf.float32)
    mean = tf.reduce_mean(X, axis=0)
    centered = X - mean
    covariance = tf.matmul(centered, centered, transpose_a=True) / (n - 1)
    eigenvalues, eigenvectors = tf.self_adjoint_eig(covariance)
    # largest first
    eigenvalues = tf.reverse(eigenvalues, [0])
    eigenvectors = tf.reverse(eigenvectors, [1])
    explained = eigenvalues / tf.reduce_sum(eigenvalues)
    components = eigenvectors[:, :2]
    projected = tf.matmul(centered, components)
    reconstructed = tf.matmul(projected, components, transpose_b=True) + mean
    error = tf.reduce_mean(tf.square(reconstructed - X))
    whitened = projected / tf.sqrt(eigenvalues[:2])
    whitened_cov = tf.matmul(whitened, whitened, transpose_a=True) / (n - 1)
    values_only = tf.self_adjoint_eigvals(covariance)

    with tf.Session() as sess:
        ev, ratio, comps, proj, err, wcov, vals = sess.run(
            [eigenvalues, explained, components, projected, error, whitened_cov, values_only],
            feed_dict={X: data})
        print("eigenvalues:", ev)
        print("explained variance ratio:", ratio)
        print("cumulative:", np.cumsum(ratio))
        print("principal components:")
        print(comps)
        print("first projected points:")
        print(proj[:5])
        print("reconstruction error: %.6f" % err)
        print("whitened covariance:")
        print(np.round(wcov, 4))
        print("eigvals (ascending):", vals)


if __name__ == "__main__":
    main()
