"""Logistic regression on the fake MNIST in epochs of shuffled minibatches, TF 0.12 style.

tf.initialize_all_variables, tf.arg_max, keep_dims=, tf.to_float, a piecewise-constant
learning rate on the global step, average cost per epoch, and tf.metrics.mean of the batch
costs; the shuffling is NumPy's, seeded.
"""
# fixture threads: 1 2 4

import gzip
import os
import struct

import numpy as np

import engine as tf

DATA_DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "program_data", "mnist")
learning_rate_steps = [12, 24]
learning_rates = [0.5, 0.2, 0.05]
training_epochs = 6
batch_size = 16


def read_idx(name):
    with gzip.open(os.path.join(DATA_DIR, name)) as f:
        magic, = struct.unpack(">I", f.read(4))
        dims = struct.unpack(">" + "I" * (magic & 0xFF), f.read(4 * (magic & 0xFF)))
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(dims)


def one_hot(labels):
    return np.eye(10, dtype=np.float32)[labels]


def main():
    images = read_idx("train-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / 255
    labels = one_hot(read_idx("train-labels-idx1-ubyte.gz"))
    test_images = read_idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32)
    test_labels = one_hot(read_idx("t10k-labels-idx1-ubyte.gz"))

    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
    cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred + 1e-10), reduction_indices=1,
                                         keep_dims=True))
    global_step = tf.Variable(0, trainable=False, name="global_step")
    learning_rate = tf.train.piecewise_constant(global_step, learning_rate_steps,
                                                learning_rates)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(
        cost, global_step=global_step)
    mean_cost, mean_cost_update = tf.metrics.mean(cost)
    correct = tf.equal(tf.arg_max(pred, 1), tf.arg_max(y, 1))
    accuracy = tf.reduce_mean(tf.to_float(correct))
    init = tf.initialize_all_variables()

    shuffle = np.random.RandomState(99)
    with tf.Session() as sess:
        sess.run([init, tf.initialize_local_variables()])
        for epoch in range(training_epochs):
            avg_cost = 0.0
            order = shuffle.permutation(len(images))
            total_batch = len(images) // batch_size
            for i in range(total_batch):
                batch = order[i * batch_size:(i + 1) * batch_size]
                _, c, _ = sess.run([optimizer, cost, mean_cost_update],
                                   feed_dict={x: images[batch], y: labels[batch]})
                avg_cost += c / total_batch
            print("Epoch: %04d cost= %.9f lr= %.2f step= %d" % (
                epoch + 1, avg_cost, sess.run(learning_rate), sess.run(global_step)))
        print("Optimization Finished! mean batch cost %.6f" % sess.run(mean_cost))
        print("Accuracy: %.4f" % accuracy.eval({x: test_images / 255, y: test_labels}))
        print("Largest weights:", np.round(np.sort(sess.run(W).ravel())[-4:], 5))


if __name__ == "__main__":
    main()
