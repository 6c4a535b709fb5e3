"""A while_loop inside a while_loop: sum of i*j for i < 3, j < 4."""

import engine as tf


def build():
    def inner(i, total):
        _, total = tf.while_loop(lambda j, t: j < 4,
                                 lambda j, t: (j + 1, t + i * j),
                                 [tf.constant(0), total], name="inner")
        return i + 1, total

    i, total = tf.while_loop(lambda i, t: i < 3, inner,
                             [tf.constant(0), tf.constant(0)], name="outer")
    return {"i": i, "total": total}


def main():
    g = build()
    with tf.Session() as sess:
        i, total = sess.run([g["i"], g["total"]])
        print("i:", i)
        print("total:", total)


if __name__ == "__main__":
    main()
