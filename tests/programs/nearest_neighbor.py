"""Nearest-neighbour classification of the fake MNIST test digits by L1 distance (tf.arg_min).

The TF 0.x spelling throughout: tf.arg_min, tf.neg's successor tf.negative inside tf.add,
reduction_indices=, tf.initialize_all_variables.
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


def main():
    Xtr = read_idx("train-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / 255.0
    Ytr = read_idx("train-labels-idx1-ubyte.gz")
    Xte = read_idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784)[:25].astype(np.float32) / 255.0
    Yte = read_idx("t10k-labels-idx1-ubyte.gz")[:25]

    xtr = tf.placeholder("float", [None, 784])
    xte = tf.placeholder("float", [784])
    distance = tf.reduce_sum(tf.abs(tf.add(xtr, tf.negative(xte))), reduction_indices=1)
    pred = tf.arg_min(distance, 0)
    nearest = tf.reduce_min(distance)

    accuracy = 0.0
    with tf.Session() as sess:
        sess.run(tf.initialize_all_variables())
        for i in range(len(Xte)):
            nn_index, d = sess.run([pred, nearest], feed_dict={xtr: Xtr, xte: Xte[i, :]})
            print("Test", i, "Prediction:", Ytr[nn_index], "True Class:", Yte[i],
                  "Neighbour:", nn_index, "Distance: %.4f" % d)
            if Ytr[nn_index] == Yte[i]:
                accuracy += 1.0 / len(Xte)
    print("Done! Accuracy: %.4f" % accuracy)


if __name__ == "__main__":
    main()
