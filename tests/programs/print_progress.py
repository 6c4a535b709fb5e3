"""A linear fit that reports its progress with tf.print (TF 1.x graph mode): the print op runs
as a control dependency of each training step, to stdout, beside Python's own prints; a
tf.strings.format summary string; a serialized weight round-tripped through tf.io."""

import sys

import numpy as np

import engine as tf

INPUTS = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]], np.float32)
TARGETS = 3.0 * INPUTS - 1.0


def build():
    x = tf.placeholder(tf.float32, [None, 1], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable([[0.5]], name="w")
    b = tf.Variable([0.0], name="b")
    prediction = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.square(prediction - y))
    step = tf.train.get_or_create_global_step()
    report = tf.print("step", step, "loss", loss, {"w": w, "b": b}, output_stream=sys.stdout)
    with tf.control_dependencies([report]):
        train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=step)
    summary = tf.strings.format("w={} b={} residuals={}", [w, b, prediction - y], summarize=2)
    restored = tf.io.parse_tensor(tf.io.serialize_tensor(w), tf.float32)
    init = tf.global_variables_initializer()
    return {"x": x, "y": y, "train": train, "summary": summary, "restored": restored,
            "init": init}


def main():
    g = build()
    feed = {g["x"]: INPUTS, g["y"]: TARGETS}
    with tf.Session() as sess:
        sess.run(g["init"])
        for epoch in range(4):
            sess.run(g["train"], feed)
            sys.stdout.flush()
            print("epoch", epoch, "done")
            sys.stdout.flush()
        print(sess.run(g["summary"], feed).decode())
        print(sess.run(g["restored"]))


if __name__ == "__main__":
    main()
