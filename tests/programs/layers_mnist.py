"""A TF 1.x MNIST convnet written with tf.layers: IDX files read with NumPy, conv2d + batch
normalization (its UPDATE_OPS run with each step) + max pooling, dense + dropout, Adam."""

import gzip
import os

import numpy as np

import engine as tf

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                        "program_data", "mnist")
BATCH, STEPS = 32, 6


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(dims)


def model(images, training):
    net = tf.reshape(images, [-1, 28, 28, 1])
    net = tf.layers.conv2d(net, 6, 5, padding="same", use_bias=False)
    net = tf.nn.relu(tf.layers.batch_normalization(net, training=training))
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.conv2d(net, 8, 3, activation=tf.nn.relu, name="conv2")
    net = tf.layers.average_pooling2d(net, 2, 2)
    net = tf.layers.flatten(net)
    net = tf.layers.dense(net, 32, activation=tf.nn.relu, name="fc1")
    net = tf.layers.dropout(net, rate=0.25, training=training)
    return tf.layers.dense(net, 10, name="logits")


def main():
    images = read_idx(os.path.join(DATA_DIR, "train-images-idx3-ubyte.gz"))
    labels = read_idx(os.path.join(DATA_DIR, "train-labels-idx1-ubyte.gz")).astype(np.int64)
    images = images.reshape(-1, 784).astype(np.float32) / 255.0
    print("images", images.shape, "labels", labels.shape, "classes", np.bincount(labels))

    tf.set_random_seed(42)
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    training = tf.placeholder_with_default(False, [], name="training")
    logits = model(x, training)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    correct = tf.equal(tf.argmax(logits, 1), y)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.AdamOptimizer(0.01).minimize(loss)

    for v in tf.global_variables():
        print(v.name, v.shape)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(STEPS):
            start = (step * BATCH) % len(images)
            feed = {x: images[start:start + BATCH], y: labels[start:start + BATCH],
                    training: True}
            _, batch_loss = sess.run([train_op, loss], feed)
            print("step", step, "loss", batch_loss)
        test_loss, test_accuracy = sess.run([loss, accuracy], {x: images, y: labels})
        print("eval loss", test_loss, "accuracy", test_accuracy)
        moving = [v for v in tf.global_variables() if "moving_" in v.name]
        for v in moving:
            print(v.op.name, sess.run(v))


if __name__ == "__main__":
    main()
