"""For the debugger tests: two runs, the second makes a NaN (log of a negative)."""

import engine as tf


def main():
    x = tf.constant([1.0, -2.0], name="x")
    scaled = tf.multiply(x, 3.0, name="scaled")
    logged = tf.log(scaled, name="logged")
    with tf.Session() as sess:
        print("scaled =", sess.run(scaled))
        print("logged =", sess.run(logged))


if __name__ == "__main__":
    main()
