"""Adding 1 a thousand times inside one tf.while_loop instead of a thousand Session.runs (seed 001)."""

import numpy as np

import engine as tf

N = 1000


def build(size=10):
    a_in = tf.placeholder(tf.float32, shape=[size], name="a")
    i, a = tf.while_loop(lambda i, a: tf.less(i, N),
                         lambda i, a: (tf.add(i, 1), tf.add(a, 1.0)),
                         [tf.constant(0), a_in])
    return {"a_in": a_in, "i": i, "a": a}


def main():
    g = build()
    with tf.Session() as sess:
        i, a = sess.run([g["i"], g["a"]], {g["a_in"]: np.zeros([10], np.float32)})
        print("i:", i)
        print("a:", a)


if __name__ == "__main__":
    main()
