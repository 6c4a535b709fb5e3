"""A two-layer MNIST classifier that writes TensorBoard summaries, then reads its event file back.

Each layer's weights and biases get mean/stddev/max/min scalars and a histogram, the input
a few image summaries; the learning rate decays exponentially with the global step, the
gradients are clipped by their global norm, tf.metrics.accuracy keeps a running accuracy,
and dropout is seeded. At the end the program lists what the event file holds.
"""
# fixture threads: 1 2 4

import gzip
import os
import shutil
import struct
import tempfile

import numpy as np

import engine as tf

DATA_DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "program_data", "mnist")


def read_idx(name):
    with gzip.open(os.path.join(DATA_DIR, name)) as f:
        magic, = struct.unpack(">I", f.read(4))
        dims = struct.unpack(">" + "I" * (magic & 0xFF), f.read(4 * (magic & 0xFF)))
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(dims)


def variable_summaries(var):
    with tf.name_scope("summaries"):
        mean = tf.reduce_mean(var)
        tf.summary.scalar("mean", mean)
        with tf.name_scope("stddev"):
            stddev = tf.sqrt(tf.reduce_mean(tf.square(var - mean)))
        tf.summary.scalar("stddev", stddev)
        tf.summary.scalar("max", tf.reduce_max(var))
        tf.summary.scalar("min", tf.reduce_min(var))
        tf.summary.histogram("histogram", var)


def nn_layer(input_tensor, input_dim, output_dim, layer_name, act=tf.nn.relu):
    with tf.name_scope(layer_name):
        with tf.name_scope("weights"):
            weights = tf.Variable(tf.truncated_normal([input_dim, output_dim], stddev=0.1))
            variable_summaries(weights)
        with tf.name_scope("biases"):
            biases = tf.Variable(tf.constant(0.1, shape=[output_dim]))
            variable_summaries(biases)
        with tf.name_scope("Wx_plus_b"):
            preactivate = tf.matmul(input_tensor, weights) + biases
            tf.summary.histogram("pre_activations", preactivate)
        activations = act(preactivate, name="activation")
        tf.summary.histogram("activations", activations)
        return activations


def main():
    train_x = read_idx("train-images-idx3-ubyte.gz").reshape(-1, 784) / np.float32(255)
    train_y = read_idx("train-labels-idx1-ubyte.gz").astype(np.int64)
    test_x = read_idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784) / np.float32(255)
    test_y = read_idx("t10k-labels-idx1-ubyte.gz").astype(np.int64)
    log_dir = tempfile.mkdtemp()

    tf.set_random_seed(2017)
    with tf.name_scope("input"):
        x = tf.placeholder(tf.float32, [None, 784], name="x-input")
        y_ = tf.placeholder(tf.int64, [None], name="y-input")
    with tf.name_scope("input_reshape"):
        tf.summary.image("input", tf.reshape(x, [-1, 28, 28, 1]), 2)
    hidden1 = nn_layer(x, 784, 32, "layer1")
    with tf.name_scope("dropout"):
        keep_prob = tf.placeholder(tf.float32)
        tf.summary.scalar("dropout_keep_probability", keep_prob)
        dropped = tf.nn.dropout(hidden1, keep_prob)
    y = nn_layer(dropped, 32, 10, "layer2", act=tf.identity)
    with tf.name_scope("cross_entropy"):
        cross_entropy = tf.losses.sparse_softmax_cross_entropy(labels=y_, logits=y)
    tf.summary.scalar("cross_entropy", cross_entropy)
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.train.exponential_decay(0.01, global_step, 10, 0.8, staircase=True)
    tf.summary.scalar("learning_rate", learning_rate)
    with tf.name_scope("train"):
        optimizer = tf.train.AdamOptimizer(learning_rate)
        grads, variables = zip(*optimizer.compute_gradients(cross_entropy))
        clipped, global_norm = tf.clip_by_global_norm(grads, 5.0)
        train_step = optimizer.apply_gradients(zip(clipped, variables), global_step=global_step)
    tf.summary.scalar("gradient_norm", global_norm)
    with tf.name_scope("accuracy"):
        accuracy, accuracy_update = tf.metrics.accuracy(labels=y_, predictions=tf.argmax(y, 1))
    tf.summary.scalar("accuracy", accuracy)
    merged = tf.summary.merge_all()

    sess = tf.InteractiveSession()
    train_writer = tf.summary.FileWriter(os.path.join(log_dir, "train"), sess.graph)
    test_writer = tf.summary.FileWriter(os.path.join(log_dir, "test"))
    tf.global_variables_initializer().run()
    tf.local_variables_initializer().run()
    for i in range(25):
        if i % 10 == 0:
            summary, acc = sess.run([merged, accuracy_update],
                                    feed_dict={x: test_x, y_: test_y, keep_prob: 1.0})
            test_writer.add_summary(summary, i)
            print("Accuracy at step %s: %.4f" % (i, acc))
        else:
            start = (i * 25) % len(train_x)
            feed = {x: train_x[start:start + 25], y_: train_y[start:start + 25],
                    keep_prob: 0.75}
            summary, _, loss, norm = sess.run([merged, train_step, cross_entropy, global_norm],
                                              feed_dict=feed)
            train_writer.add_summary(summary, i)
            print("step %d loss %.5f norm %.5f lr %.6f" % (i, loss, norm, learning_rate.eval()))
    train_writer.close()
    test_writer.close()
    print("global step", tf.train.global_step(sess, global_step))
    sess.close()

    for run in ("train", "test"):
        for name in sorted(tf.gfile.ListDirectory(os.path.join(log_dir, run))):
            kinds, tags = {}, set()
            for event in tf.train.summary_iterator(os.path.join(log_dir, run, name)):
                kind = event.WhichOneof("what")
                kinds[kind] = kinds.get(kind, 0) + 1
                for value in event.summary.value:
                    tags.add((value.tag, value.WhichOneof("value")))
                    if event.step == 20 and value.HasField("histo"):
                        print(run, value.tag, "histogram of", int(value.histo.num),
                              "in", len(value.histo.bucket), "buckets")
                    if event.step == 20 and value.HasField("image"):
                        print(run, value.tag, "image", value.image.width, value.image.height)
            print(run, sorted(kinds.items()))
            print(run, len(tags), "tags:", sorted(tags)[:6])
    shutil.rmtree(log_dir)


if __name__ == "__main__":
    main()
