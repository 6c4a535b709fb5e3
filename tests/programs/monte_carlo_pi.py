"""Monte-Carlo pi: seeded uniform points in the unit square, the share inside the circle (seed 001)."""

import engine as tf

SIZES = (100, 10000)


def build(sizes=SIZES):
    """One estimate per size, each in its own name scope; returns {size: (hits, pi)}."""
    tf.set_random_seed(1234)
    estimates = {}
    for size in sizes:
        with tf.name_scope(f"n{size}"):
            x = tf.random_uniform([size], seed=1, name="x")
            y = tf.random_uniform([size], seed=2, name="y")
            r = tf.sqrt(tf.add(tf.multiply(x, x), tf.multiply(y, y)))
            inside = tf.less_equal(r, tf.ones([size]))
            hits = tf.reduce_sum(tf.cast(inside, tf.int32), name="hits")
            pi = tf.multiply(4.0, tf.cast(hits, tf.float32) / size, name="pi")
        estimates[size] = (hits, pi)
    return estimates


def main():
    estimates = build()
    with tf.Session() as sess:
        for size, (hits, pi) in estimates.items():
            hits_val, pi_val = sess.run([hits, pi])
            print(f"n={size} hits={hits_val} pi={pi_val:.4f}")


if __name__ == "__main__":
    main()
