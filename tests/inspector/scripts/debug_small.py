"""A small program for the debugger tests: y = x * 3 + 1 on a placeholder, then log of it."""

import sys

import numpy as np

import engine as tf


def main(args):
    x = tf.placeholder(tf.float32, shape=[3], name="x")
    y = tf.add(tf.multiply(x, 3.0, name="scaled"), 1.0, name="y")
    z = tf.log(y, name="log_y")
    feed = np.array([float(v) for v in args] or [1.0, 2.0, 3.0], np.float32)
    with tf.Session() as sess:
        print("y =", sess.run(y, {x: feed}))
        print("z =", sess.run(z, {x: feed}))


if __name__ == "__main__":
    main(sys.argv[1:])
