"""MNIST softmax regression, as the TF 1.x beginners' tutorial taught it, on the fake IDX files.

Reads tests/fixtures/program_data/mnist/ (tools/make_program_data.py) with its own IDX
reader, trains y = softmax(xW + b) with cross-entropy written out by hand (reduction_indices=,
the TF 1.x spelling) and GradientDescent on minibatches, and prints loss and test accuracy.
"""
# fixture threads: 1 2 4

import gzip
import os
import struct

import numpy as np

import engine as tf

DATA_DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "program_data", "mnist")


def read_idx(name):
    with gzip.open(os.path.join(DATA_DIR, name)) as f:
        magic, = struct.unpack(">I", f.read(4))
        dims = struct.unpack(">" + "I" * (magic & 0xFF), f.read(4 * (magic & 0xFF)))
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(dims)


def load(prefix):
    images = read_idx(f"{prefix}-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32)
    labels = read_idx(f"{prefix}-labels-idx1-ubyte.gz")
    return images / 255.0, np.eye(10, dtype=np.float32)[labels]


def main():
    train_x, train_y = load("train")
    test_x, test_y = load("t10k")
    print("train", train_x.shape, "test", test_x.shape, "labels", train_y.sum(0).astype(int))

    x = tf.placeholder(tf.float32, [None, 784])
    y_ = tf.placeholder(tf.float32, [None, 10])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.nn.softmax(tf.matmul(x, W) + b)
    cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    for step in range(30):
        start = (step * 20) % len(train_x)
        batch_xs, batch_ys = train_x[start:start + 20], train_y[start:start + 20]
        _, loss = sess.run([train_step, cross_entropy], feed_dict={x: batch_xs, y_: batch_ys})
        if step % 5 == 0:
            print("step %d loss %.6f" % (step, loss))
    print("test accuracy %.4f" % sess.run(accuracy, feed_dict={x: test_x, y_: test_y}))
    print("bias", np.round(b.eval(), 4))
    sess.close()


if __name__ == "__main__":
    main()
