"""tf.cond: only the taken branch runs; two conds on one input take opposite branches."""

import engine as tf


def build():
    x = tf.placeholder(tf.float32, shape=[], name="x")
    doubled_if_positive = tf.cond(x > 0, lambda: x * 2.0, lambda: -x, name="positive")
    squared_if_negative = tf.cond(x < 0, lambda: tf.square(x), lambda: x + 10.0, name="negative")
    return {"x": x, "positive": doubled_if_positive, "negative": squared_if_negative}


def main():
    g = build()
    with tf.Session() as sess:
        for value in (3.0, -2.0):
            positive, negative = sess.run([g["positive"], g["negative"]], {g["x"]: value})
            print(f"x={value} positive={positive} negative={negative}")


if __name__ == "__main__":
    main()
