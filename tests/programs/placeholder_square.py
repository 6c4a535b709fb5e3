"""A placeholder squared with feed_dict, and the two ways to get the feed wrong (seed 003)."""

import engine as tf


def build():
    x = tf.placeholder(tf.float32, shape=[3])
    y = tf.square(x)
    return {"x": x, "y": y}


def first_line(error):
    """The error's own first line. TensorFlow 2 puts "Graph execution error:" and where the node
    was detected before it, ending with a "Node: 'name'" line; what TF1 printed first follows."""
    lines = str(error).splitlines() or [""]
    if lines[0].startswith("Graph execution error"):
        for before, line in zip(lines, lines[1:]):
            if before.startswith("Node: "):
                return line
    return lines[0]


def report(what, error):
    print(what, type(error).__name__)
    print(first_line(error))
    if getattr(error, "op", None) is not None:
        print("node:", error.op.name)


def main():
    g = build()
    x, y = g["x"], g["y"]
    with tf.Session() as sess:
        print(sess.run(y, {x: [1.0, 2.0, 3.0]}))
        print(sess.run(y, {x: [0.0, 0.0, 5.0]}))

        try:
            sess.run(y)
        except (tf.errors.InvalidArgumentError, ValueError) as e:
            report("no feed:", e)

        try:
            sess.run(y, {x: 37.0})
        except (tf.errors.InvalidArgumentError, ValueError) as e:
            report("wrong shape:", e)


if __name__ == "__main__":
    main()
